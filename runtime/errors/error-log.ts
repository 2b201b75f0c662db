import { atom, type createStore } from 'jotai';

type Store = ReturnType<typeof createStore>;

/** One uncaught UI error, as the error-log dialog and page list it (spec section 8). */
export interface ErrorLogEntry {
  id: number;
  /** The error's message (or the rejection reason as text). */
  message: string;
  /** React's component stack for an error-boundary catch; where it came from otherwise. */
  info: string;
  url: string;
  stack: string;
  time: number;
}

/** The newest entries are kept; an error in a render loop must not exhaust memory. */
export const ERROR_LOG_LIMIT = 200;

export const errorLogAtom = atom<readonly ErrorLogEntry[]>([]);

let nextId = 1;

/** Builds an entry from anything thrown: Error, string, or an arbitrary rejection reason. */
export function toErrorLogEntry(error: unknown, info: string, url: string, time = Date.now()): ErrorLogEntry {
  const err = error instanceof Error ? error : null;
  const message = err ? `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}` : describe(error);
  return { id: nextId++, message: message || String(error), info, url, stack: err?.stack ?? '', time };
}

export function appendEntry(list: readonly ErrorLogEntry[], entry: ErrorLogEntry, limit = ERROR_LOG_LIMIT): readonly ErrorLogEntry[] {
  const next = [...list, entry];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

/** Records an error in the store's log and in the browser console (the original logged error and url). */
export function recordError(store: Store, error: unknown, info: string, url = currentUrl()): ErrorLogEntry {
  const entry = toErrorLogEntry(error, info, url);
  store.set(errorLogAtom, (list) => appendEntry(list, entry));
  console.error('[error-log]', entry.message, entry.url);
  return entry;
}

/**
 * Window-level capture: uncaught errors and unhandled promise rejections. Returns the
 * function that removes the listeners.
 */
export function installGlobalErrorCapture(store: Store, target: Window = window): () => void {
  const onError = (event: ErrorEvent) => {
    // Resource load failures (img, script) reach window 'error' without an error object and are not UI errors.
    if (!event.error && !event.message) return;
    const where = event.filename ? `window.onerror ${event.filename}:${event.lineno}:${event.colno}` : 'window.onerror';
    recordError(store, event.error ?? event.message, where);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    recordError(store, event.reason, 'unhandledrejection');
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') return (value as { message: string }).message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function currentUrl(): string {
  return typeof location === 'undefined' ? '' : location.href;
}
