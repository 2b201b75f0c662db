/**
 * A jsdom window as the global scope of this thread (what vitest's jsdom environment
 * does), for rendering screens outside vitest: the studio's render check in its worker,
 * `npm run snapshots:published`. Must run before React or antd is imported.
 */
import { JSDOM } from 'jsdom';

/** The window's names for itself: the jsdom window (its events, its matchMedia stub), whose other names are global too. */
const SELF_NAMES = new Set(['window', 'self', 'top', 'parent', 'frames']);

export function installDom(url = 'http://localhost/'): void {
  if ((globalThis as { document?: unknown }).document) return;
  const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { url, pretendToBeVisual: true });
  const win = dom.window as unknown as Record<string, unknown>;
  const g = globalThis as Record<string, unknown>;
  // The window's own names that Node's global lacks (document, HTMLElement, navigator…);
  // Node's own (URL, fetch, timers, events) stay.
  for (const key of Object.getOwnPropertyNames(win)) {
    if (key in g || key.startsWith('_') || SELF_NAMES.has(key)) continue;
    try {
      Object.defineProperty(g, key, { configurable: true, enumerable: false, get: () => win[key], set: (v) => (win[key] = v) });
    } catch {
      // Not copyable (a few accessors): not needed by the renderer.
    }
  }
  for (const key of SELF_NAMES) Object.defineProperty(g, key, { configurable: true, writable: true, value: dom.window });
  Object.defineProperty(g, 'document', { configurable: true, value: dom.window.document });
  g.IS_REACT_ACT_ENVIRONMENT = true;
}
