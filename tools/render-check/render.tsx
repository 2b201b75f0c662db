/**
 * Renders one screen document of a set with fixture data, as the QA snapshots do
 * (harness.tsx, fixtures.ts), and says whether it rendered: the studio's render check
 * (server/studio/render-check.ts runs it in a worker thread). A throw, an error panel or
 * a render that does not settle is a failure with its reason.
 */
import { cleanup } from '@testing-library/react';
import { assembleRegistry, type DocumentType } from '../../runtime/schema/registry-core.ts';
import { FULL_CHECKS } from '../../runtime/schema/registry.ts';
import { routeParams, screenRoutes } from '../../runtime/schema/screen.ts';
import { createHarness, renderScreen, settled, stubBrowserApis } from './harness.tsx';

export interface RenderInput {
  file: string;
  documents: { file: string; type: DocumentType; content: unknown }[];
  /** The language the screen renders in (its error panel's sentence too). */
  language?: 'zh' | 'en' | 'es';
}

export type RenderOutcome = { ok: true; ms: number } | { ok: false; reason: 'throw' | 'errorPanel' | 'missing' | 'timeout'; message: string; ms: number };

/** Route parameters for a render: forms in edit mode on record 1, every other parameter "1" (as the snapshots). */
export function fixtureParams(names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, n === 'operate' ? 'edit' : '1']));
}

let stubbed = false;

export async function renderDocument(input: RenderInput, timeoutMs = 10_000): Promise<RenderOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  if (!stubbed) {
    stubBrowserApis();
    stubbed = true;
  }
  // Every document passed the gate already: assembled as trusted, without checking again.
  const registry = assembleRegistry(
    input.documents.map((d) => ({ ...d, source: 'effective', trusted: true })),
    FULL_CHECKS,
    { lint: false },
  );
  const loaded = [...registry.screens.values()].find((s) => s.file === input.file);
  if (!loaded) {
    const broken = registry.broken.find((b) => b.file === input.file);
    return { ok: false, reason: 'missing', message: broken?.problems.map((p) => `#${p.pointer} ${p.message}`).join('; ') || 'the screen is not in the set', ms: ms() };
  }
  const screen = loaded.screen;
  const first = screenRoutes(screen)[0];
  const params = fixtureParams(first ? routeParams(first.route) : screen.kind === 'form' ? [screen.modeParam ?? 'operate', screen.idParam ?? 'id'] : ['id']);
  const errors: string[] = [];
  const onError = (e: unknown) => errors.push(e instanceof Error ? e.message : String(e));
  const consoleError = console.error;
  // React reports a render that threw (and was caught by a boundary) through console.error.
  console.error = (...args: unknown[]) => {
    const first = args[0];
    if (first instanceof Error) errors.push(first.message || String(first.stack ?? first).split('\n')[0]);
    else if (process.env.RENDER_CHECK_DEBUG) consoleError(...args);
  };
  process.on('uncaughtException', onError);
  try {
    const h = createHarness(registry, { language: input.language ?? 'zh' });
    let container: HTMLElement;
    try {
      ({ container } = renderScreen(h, registry, screen.id, { routePattern: first?.route, authority: first?.authority ?? screen.authority, params }));
    } catch (err) {
      return { ok: false, reason: 'throw', message: (err as Error).message, ms: ms() };
    }
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutMs).unref?.());
    const done = await Promise.race([settled(h, container).then(() => 'settled' as const), timeout]).catch((err: Error) => err);
    if (done === 'timeout') return { ok: false, reason: 'timeout', message: `${timeoutMs} ms`, ms: ms() };
    const panel = container.querySelector('.ant-alert-error[role="alert"]');
    if (panel) return { ok: false, reason: 'errorPanel', message: (panel.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 300), ms: ms() };
    if (errors.length) return { ok: false, reason: 'throw', message: errors[0], ms: ms() };
    if (done instanceof Error) return { ok: false, reason: 'throw', message: done.message, ms: ms() };
    return { ok: true, ms: ms() };
  } finally {
    cleanup();
    console.error = consoleError;
    process.off('uncaughtException', onError);
  }
}
