import { lazy, Suspense, type ComponentType } from 'react';

type Shell = typeof import('./console-shell.tsx');

let loading: Promise<Shell> | undefined;
/** The shell's chunk, fetched once (on the first gated page, or ahead of it: preloadShell). */
export function loadShell(): Promise<Shell> {
  loading ??= import('./console-shell.tsx').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** Starts fetching the shell without waiting for it (the login page, once it is usable). */
export function preloadShell(): void {
  void loadShell().catch(() => undefined);
}

function lazyPart<K extends keyof Shell>(name: K): Shell[K] {
  const Lazy = lazy(() => loadShell().then((m) => ({ default: m[name] as unknown as ComponentType<Record<string, unknown>> })));
  const Part = (props: Record<string, unknown>) => (
    // Nothing visible while the chunk is in flight: it is short, and a spinner that shows
    // for a frame only flashes. Screen readers hear that the page is busy.
    <Suspense fallback={<div aria-busy="true" style={{ minHeight: '100vh' }} />}>
      <Lazy {...props} />
    </Suspense>
  );
  Part.displayName = `Lazy(${String(name)})`;
  return Part as unknown as Shell[K];
}

export const SessionGate = lazyPart('SessionGate');
export const ConsoleLayout = lazyPart('ConsoleLayout');
export const DashboardPage = lazyPart('DashboardPage');
export const ErrorLogPage = lazyPart('ErrorLogPage');
export const NotFoundPage = lazyPart('NotFoundPage');
export const StartPage = lazyPart('StartPage');
export const StartPage2 = lazyPart('StartPage2');
export const AuthRedirectPage = lazyPart('AuthRedirectPage');
export const AdminEntryPage = lazyPart('AdminEntryPage');
export const RedirectPage = lazyPart('RedirectPage');
export const UnauthorizedPage = lazyPart('UnauthorizedPage');

