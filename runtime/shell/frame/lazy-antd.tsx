import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';

type FrameModule = typeof import('./antd-frame.tsx');

let loading: Promise<FrameModule> | undefined;
let loaded = false;
const listeners = new Set<() => void>();

/** antd and the console's providers, fetched once (the first page that needs antd, or ahead of it). */
export function loadAntd(): Promise<FrameModule> {
  loading ??= import('./antd-frame.tsx').then(
    (m) => {
      loaded = true;
      for (const l of listeners) l();
      return m;
    },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** Starts fetching antd without waiting for it (the login page, once it is usable). */
export function preloadAntd(): void {
  void loadAntd().catch(() => undefined);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const isLoaded = () => loaded;

const Frame = lazy(() => loadAntd().then((m) => ({ default: m.AntdFrame })));
const Theme = lazy(() => loadAntd().then((m) => ({ default: m.AntdTheme })));

/**
 * antd's frame (antd-frame.tsx) around the pages that use antd. `needed` false (the login
 * page) renders nothing until antd has arrived anyway; from then on the frame stays
 * mounted, empty, so that its message and Modal outlive the page that opened them (the
 * refusal shown while the session gate sends the user back to /login) and the HTTP
 * client's boxes work on the login page too.
 */
export function LazyAntdFrame({ needed, children }: { needed: boolean; children?: ReactNode }) {
  const ready = useSyncExternalStore(subscribe, isLoaded, isLoaded);
  if (!needed && !ready) return null;
  return (
    // Nothing visible while antd is in flight: screen readers hear that the page is busy.
    <Suspense fallback={<div aria-busy="true" style={{ minHeight: '100vh' }} />}>
      <Frame>{children}</Frame>
    </Suspense>
  );
}

/** antd's providers without the HTTP client's bridge: for antd dialogs opened from the login page. */
export function LazyAntdTheme({ children }: { children?: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Theme>{children}</Theme>
    </Suspense>
  );
}
