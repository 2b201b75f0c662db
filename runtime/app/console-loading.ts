/**
 * When the console behind the login page is fetched (docs/console.md, "Loading"): never
 * with the login page itself. `/login` loads the login form and what it stands on, and
 * nothing else, until one of these:
 *
 * - the visitor signs in: the page after login needs the screens, antd's frame and the
 *   shell, and fetches them (RoutesWhenReady, AppRoutes) — on any connection;
 * - the visitor starts using the form (a key, a pointer, typing): the rest is fetched
 *   when the browser is next idle, so that logging in rarely waits for it. Skipped on a
 *   connection that asks to save data or is slow (Network Information API: `saveData`,
 *   `effectiveType` slow-2g / 2g / 3g): there it would compete with the login request.
 *
 * A page opened with a session already (any path but /login) loads what it needs at once.
 */
import type { ScreenRoute } from '../shell/screen-route.ts';
import { preloadAntd } from '../shell/frame/lazy-antd.tsx';
import { preloadShell } from '../shell/lazy-shell.tsx';

let screens: Promise<ScreenRoute[]> | undefined;

/** The bundled screens' routes, fetched once. */
export function loadScreens(): Promise<ScreenRoute[]> {
  screens ??= import('./bundled-screens.ts')
    .then((m) => m.bundledScreens())
    .catch((err: unknown) => {
      screens = undefined;
      throw err;
    });
  return screens;
}

interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

const SLOW = new Set(['slow-2g', '2g', '3g']);

/** The connection asks to save data, or is slow: no fetching ahead. */
export function slowConnection(nav: { connection?: NetworkInformationLike } = globalThis.navigator as { connection?: NetworkInformationLike }): boolean {
  const c = nav?.connection;
  if (!c) return false;
  return c.saveData === true || (typeof c.effectiveType === 'string' && SLOW.has(c.effectiveType));
}

let prefetched = false;

/** antd's frame, the shell, the screens and the table renderer, fetched ahead (once). */
export function prefetchConsole(): void {
  if (prefetched) return;
  prefetched = true;
  preloadAntd();
  preloadShell();
  void loadScreens()
    .then(() => import('../screens/ScreenView.tsx'))
    .then((m) => m.preloadTableView())
    .catch(() => undefined);
}

const whenIdle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 200));

const INTENT = ['keydown', 'pointerdown', 'input'] as const;

/**
 * Fetches the console ahead once the visitor starts using the page (the first key,
 * pointer or input event), at the browser's next idle moment; never on a slow connection.
 */
export function prefetchOnIntent(target: EventTarget = document): void {
  if (slowConnection()) return;
  const go = () => {
    for (const e of INTENT) target.removeEventListener(e, go, true);
    if (!slowConnection()) whenIdle(prefetchConsole);
  };
  for (const e of INTENT) target.addEventListener(e, go, { capture: true, passive: true });
}
