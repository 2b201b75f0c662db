/**
 * The one fetch / loading / error / refresh loop of the renderers (tables, details,
 * dashboards, a form's record): ask the services' data provider for a source, keep the
 * last answer while a new one is on its way, drop answers that arrive after a newer
 * request, and read again on `refresh()` or when `refreshOn` (a resource) changes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueryValue } from '../http/client.ts';
import { isHttpError } from '../http/errors.ts';
import type { DataSource } from '../services/contract.ts';
import { useServices } from '../services/context.ts';
import { onResourceChanged } from './data-events.ts';
import { useScreenHost } from './host.ts';

export interface ResourceQuery<T> {
  /** The last answer; undefined before the first and after a failure. */
  data: T | undefined;
  loading: boolean;
  /** The server's sentence (or the client's) when the last request failed. */
  failure: string | null;
  /** A source was given but cannot be resolved (a parameter is missing): nothing was asked. */
  unresolvable: boolean;
  refresh: () => void;
}

export interface ResourceQueryOptions<T> {
  /** Query parameters added to the source's own. */
  params?: Record<string, QueryValue> | null;
  /** Read again when this resource changes (runtime/screens/data-events.ts). */
  refreshOn?: string;
  /** Called with each answer kept (not with a stale one), before it is rendered. */
  onData?: (data: T) => void;
  /** Loading before the first request (default: whether a source is given). */
  initiallyLoading?: boolean;
}

/** `source` null: nothing to ask (the data stays undefined, not loading). */
export function useResourceQuery<T = unknown>(source: DataSource | null, options: ResourceQueryOptions<T> = {}): ResourceQuery<T> {
  const { data: provider } = useServices();
  const { registry } = useScreenHost();
  const [state, setState] = useState<{ data: T | undefined; loading: boolean; failure: string | null }>(() => ({
    data: undefined,
    loading: options.initiallyLoading ?? source !== null,
    failure: null,
  }));
  const [reloads, setReloads] = useState(0);
  const refresh = useCallback(() => setReloads((n) => n + 1), []);
  const onData = useRef(options.onData);
  onData.current = options.onData;

  const at = source ? provider.key({ registry, source }) : null;
  const params = options.params ?? undefined;
  const paramsKey = JSON.stringify(params ?? null);
  const latest = useRef({ source, params });
  latest.current = { source, params };

  useEffect(() => {
    const name = options.refreshOn;
    if (!name) return;
    return onResourceChanged((r) => r === name && refresh());
  }, [options.refreshOn, refresh]);

  const seq = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the request's identity (URL and parameters) and the refresh count; the source itself is read from `latest`
  useEffect(() => {
    const mine = ++seq.current;
    const { source: asked, params: query } = latest.current;
    if (!asked || !at) {
      setState((s) => ({ ...s, loading: false }));
      return;
    }
    setState((s) => (s.loading ? s : { ...s, loading: true }));
    provider
      .query<T>({ registry, source: asked, params: query })
      .then((data) => {
        if (mine !== seq.current) return;
        onData.current?.(data);
        setState({ data, loading: false, failure: null });
      })
      .catch((e: unknown) => {
        if (mine !== seq.current) return;
        setState({ data: undefined, loading: false, failure: isHttpError(e) ? (e.serverMessage ?? e.message) : String(e) });
      });
  }, [at, paramsKey, reloads, provider, registry]);
  // An unmounted screen's answer is dropped like a stale one.
  useEffect(() => () => void ++seq.current, []);

  return { ...state, unresolvable: source !== null && at === null, refresh };
}
