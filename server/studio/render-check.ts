/**
 * The render check of the publish gate: the candidate screen rendered with fixture data
 * by the snapshot harness (tools/render-check/). React never loads in the server's main
 * thread: the render runs in a worker thread, started on first use and kept warm (the
 * first check pays for loading React, antd and jsdom, about two seconds; later ones take
 * tens of milliseconds). A throw, an error panel or a render slower than the time-out
 * refuses the publish with a sentence; a worker that dies is replaced on the next check.
 */
import { Worker } from 'node:worker_threads';
import type { EffectiveDocument } from '../../runtime/schema/gate.ts';
import { documentTypeOfPath } from '../../runtime/schema/registry-core.ts';
import type { Lang } from '../i18n/lang.ts';
import { describePlace, placeOf } from '../../runtime/schema/places.ts';
import type { ResourceDocument } from '../../runtime/schema/resource/types.ts';
import { msg } from './messages.ts';

/**
 * Why a render refused the document: a key of the studio's messages and its parameters
 * (in the configurer's words: the block that failed, never a React internal), the block's
 * pointer, and the internal reason for the server's log.
 */
export interface RenderRefusal {
  key: string;
  params: Record<string, string | number>;
  /** The pointer of the block that failed to render ('' when the screen as a whole failed). */
  pointer: string;
  /** What the renderer said (React's message, a time-out): for the server's log only. */
  internal: string;
}

export interface RenderCheck {
  /** null when the screen renders; a refusal when it throws, shows an error panel or takes too long. */
  check(input: { file: string; screen: unknown; effective: readonly EffectiveDocument[]; lang?: Lang }): Promise<RenderRefusal | null>;
  /** Starts the worker ahead of the first check (when a configurer opens the studio). */
  warm?(): Promise<void>;
  close(): Promise<void>;
}

/** No render (tools without a DOM). */
export const noRenderCheck: RenderCheck = {
  check: async () => null,
  close: async () => undefined,
};

type Outcome = { ok: true; ms: number } | { ok: false; reason: 'throw' | 'errorPanel' | 'missing' | 'timeout'; message: string; ms: number; block?: string };

const WORKER_URL = new URL('../../tools/render-check/worker-boot.mjs', import.meta.url);

export class WorkerRenderCheck implements RenderCheck {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, (o: Outcome) => void>();
  /** One render at a time: the harness renders into one document. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** Time for one render once the worker is up. */
    private readonly timeoutMs = 10_000,
    /** Time for the worker to load React, antd and jsdom. */
    private readonly startMs = 180_000,
  ) {}

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    // The worker runs TypeScript (the harness is .tsx): worker-boot.mjs registers tsx's loader there.
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the render worker did not start')), this.startMs);
      worker.on('message', (m: { ready?: boolean; id?: number; outcome?: Outcome }) => {
        if (m.ready) {
          clearTimeout(timer);
          resolve();
          return;
        }
        if (m.id !== undefined && m.outcome) {
          this.waiting.get(m.id)?.(m.outcome);
          this.waiting.delete(m.id);
        }
      });
      const fail = (err: Error) => {
        clearTimeout(timer);
        reject(err);
        for (const done of this.waiting.values()) done({ ok: false, reason: 'throw', message: err.message, ms: 0 });
        this.waiting.clear();
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the render worker exited (${code})`)));
    });
    return this.ready;
  }

  /** Starts the worker ahead of the first check (the server's start, a bench). */
  async warm(): Promise<void> {
    await this.start();
  }

  private async render(file: string, documents: { file: string; type: string; content: unknown }[], language?: Lang): Promise<Outcome> {
    await this.start();
    const worker = this.worker!;
    const id = ++this.seq;
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        // A render that never settles may hold the thread: a fresh worker for the next check.
        void worker.terminate();
        resolve({ ok: false, reason: 'timeout', message: `${this.timeoutMs} ms`, ms: this.timeoutMs });
      }, 2 * this.timeoutMs + 2_000); // the render, then (after a throw) the search for the block that throws
      this.waiting.set(id, (o) => {
        clearTimeout(timer);
        resolve(o);
      });
      worker.postMessage({ id, input: { file, documents, language }, timeoutMs: this.timeoutMs });
    });
  }

  async check(input: { file: string; screen: unknown; effective: readonly EffectiveDocument[]; lang?: Lang }): Promise<RenderRefusal | null> {
    const documents = input.effective.filter((d) => d.file !== input.file).map((d) => ({ file: d.file, type: d.type, content: d.content }));
    documents.push({ file: input.file, type: documentTypeOfPath(input.file) ?? 'screen', content: input.screen });
    const run = this.queue.then(() => this.render(input.file, documents, input.lang));
    this.queue = run.catch(() => undefined);
    let outcome: Outcome;
    try {
      outcome = await run;
    } catch (err) {
      // The worker did not start (or died): nothing is said about the screen.
      return { key: msg['studio.renderUnavailable'], params: {}, pointer: '', internal: (err as Error).message };
    }
    if (outcome.ok) return null;
    return refusalOf(outcome, input.screen, input.effective, input.lang ?? 'zh', this.timeoutMs);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }
}

/** A failed render in the configurer's words: the block that failed (label and pointer), or the screen. */
export function refusalOf(
  outcome: Exclude<Outcome, { ok: true }>,
  screen: unknown,
  effective: readonly EffectiveDocument[],
  lang: Lang,
  timeoutMs: number,
): RenderRefusal {
  const internal = `${outcome.reason}: ${outcome.message}`;
  if (outcome.reason === 'timeout') return { key: msg['studio.renderTimeout'], params: { ms: timeoutMs }, pointer: '', internal };
  // The error panel's sentence is the runtime's own, in the configurer's language (a form whose route gives it no mode).
  if (outcome.reason === 'errorPanel') return { key: msg['studio.renderErrorPanel'], params: { why: outcome.message }, pointer: '', internal };
  if (outcome.block !== undefined) {
    const resources = new Map<string, ResourceDocument>();
    for (const d of effective) if (d.type === 'resource') resources.set((d.content as ResourceDocument).name, d.content as ResourceDocument);
    const place = placeOf(screen, outcome.block, (name) => resources.get(name), lang) ?? { kind: 'field' as const, pointer: outcome.block, label: null };
    return { key: msg['studio.renderBlockFailed'], params: { place: describePlace(place, lang) }, pointer: place.pointer, internal };
  }
  return { key: msg['studio.renderFailed'], params: {}, pointer: '', internal };
}

/**
 * The server's render check: a warm worker, unless STUDIO_RENDER_CHECK=off (a server without
 * the harness's packages). STUDIO_RENDER_TIMEOUT_MS: one render's time-out (default 10 s).
 */
export function defaultRenderCheck(): RenderCheck {
  if (process.env.STUDIO_RENDER_CHECK === 'off') return noRenderCheck;
  const ms = Number(process.env.STUDIO_RENDER_TIMEOUT_MS);
  return Number.isFinite(ms) && ms >= 1_000 ? new WorkerRenderCheck(ms) : new WorkerRenderCheck();
}
