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
import { screenBlocks, withoutBlocks } from '../../runtime/schema/places.ts';
import { createHarness, renderScreen, settled, stubBrowserApis } from './harness.tsx';

export interface RenderInput {
  file: string;
  documents: { file: string; type: DocumentType; content: unknown }[];
  /** The language the screen renders in (its error panel's sentence too). */
  language?: 'zh' | 'en' | 'es';
}

export type RenderOutcome =
  | { ok: true; ms: number }
  /** `block`: the pointer of the block found to fail (a column, a filter, a field…; runtime/schema/places.ts). */
  | { ok: false; reason: 'throw' | 'errorPanel' | 'missing' | 'timeout'; message: string; ms: number; block?: string };

/**
 * Route parameters for a render: forms in edit mode on record 1, every other parameter "1"
 * (as the snapshots). `modeParam`: the form's mode parameter when it is not `operate`
 * (`/articleManage/article/:id/:type`). `opened`: the document a route's `:kind/:name` names
 * (the studio's editor opens a table document, not a missing "1/1", and not itself, whose
 * preview would hold the editor again).
 */
export function fixtureParams(names: string[], modeParam = 'operate', opened?: { kind: 'screen'; id: string }): Record<string, string> {
  const named: Record<string, string> = opened ? { kind: opened.kind, name: opened.id } : {};
  return Object.fromEntries(names.map((n) => [n, n === modeParam || n === 'operate' ? 'edit' : (named[n] ?? '1')]));
}

let stubbed = false;

/**
 * Renders the screen at `input.file`; when it throws, looks for the block that throws
 * (`failingBlock`) so that the refusal can name it.
 */
export async function renderDocument(input: RenderInput, timeoutMs = 10_000): Promise<RenderOutcome> {
  const outcome = await renderOnce(input, timeoutMs);
  if (outcome.ok || outcome.reason !== 'throw') return outcome;
  // The search has a time-out of its own (the caller waits for both: server/studio/render-check.ts).
  const block = await failingBlock(input, timeoutMs).catch(() => null);
  return block ? { ...outcome, block } : outcome;
}

/**
 * The block of the screen that throws: the screen rendered without its blocks (columns,
 * filters, actions, fields, related lists, dashboard blocks, child screens) must render,
 * then halves of the blocks are put back until one alone throws. Null when the screen
 * throws without any of them, when no single block does, or when the search outlasts
 * `budgetMs`. A few renders (log2 of the blocks, plus two); only after a failure.
 */
async function failingBlock(input: RenderInput, budgetMs: number): Promise<string | null> {
  const deadline = performance.now() + budgetMs;
  const doc = input.documents.find((d) => d.file === input.file);
  if (!doc) return null;
  const blocks = screenBlocks(doc.content);
  if (!blocks.length) return null;
  const throwsWith = async (kept: readonly string[]): Promise<boolean | null> => {
    const left = deadline - performance.now();
    if (left < 100) return null;
    const keep = new Set(kept);
    const content = withoutBlocks(doc.content, blocks.filter((b) => !keep.has(b)));
    const documents = input.documents.map((d) => (d === doc ? { ...d, content } : d));
    const o = await renderOnce({ ...input, documents }, left);
    return o.ok ? false : o.reason === 'throw' ? true : null;
  };
  if ((await throwsWith([])) !== false) return null;
  let candidates = blocks;
  while (candidates.length > 1) {
    const half = candidates.slice(0, Math.ceil(candidates.length / 2));
    const verdict = await throwsWith(half);
    if (verdict === null) return null;
    candidates = verdict ? half : candidates.slice(half.length);
  }
  return (await throwsWith(candidates)) ? candidates[0] : null;
}

async function renderOnce(input: RenderInput, timeoutMs: number): Promise<RenderOutcome> {
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
  const modeParam = screen.kind === 'form' ? (screen.modeParam ?? 'operate') : undefined;
  const params = fixtureParams(first ? routeParams(first.route) : screen.kind === 'form' ? [modeParam!, screen.idParam ?? 'id'] : ['id'], modeParam, {
    kind: 'screen',
    id: [...registry.screens.values()].find((s) => s.screen.kind === 'table')?.screen.id ?? screen.id,
  });
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
