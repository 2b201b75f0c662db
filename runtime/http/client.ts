import type { Language } from '../i18n/languages.ts';
import { HttpError } from './errors.ts';
import type { Notifier } from './notifier.ts';

import type { Envelope } from '../protocol/envelope.ts';
import type { HttpMethod } from '../protocol/operations.ts';
import { Status as BodyStatus } from '../protocol/status.ts';

export type { Envelope } from '../protocol/envelope.ts';

export const REQUEST_TIMEOUT_MS = 20_000;
export const FORBIDDEN_TOAST_MS = 5_000;

/** Texts of the catalogue's boxes; the zh ones are the specification's, verbatim. */
export type ClientTextKey =
  | 'http.loggedOutTitle'
  | 'http.loggedOutText'
  | 'http.relogin'
  | 'http.cancel'
  | 'http.ok'
  | 'http.forbidden'
  | 'http.timedOut';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface RequestOptions {
  method?: HttpMethod;
  /** Path under the API origin, e.g. `/api/admin/user/front/info`. */
  url: string;
  /** Query parameters; arrays repeat the name (`roleIds=1&roleIds=2`); null/undefined are left out. */
  query?: Record<string, QueryValue>;
  /** A JSON body (objects) or a body fetch sends as is (FormData, Blob, string). */
  body?: unknown;
  /**
   * The caller handles refusals itself: no warning, box or message is shown, the call is
   * only rejected. For the login form and the session flow, which show their own errors.
   */
  quiet?: boolean;
  /** The token of this call instead of the session's: checking a token before adopting it (/auth-redirect). */
  token?: string;
  signal?: AbortSignal;
  /** A longer (or shorter) wait than the client's time-out, for this call only. */
  timeoutMs?: number;
  /**
   * The answer is a file (an export): a reply that is not JSON comes back as the envelope's
   * data `{ blob, fileName }` (the name from Content-Disposition); a refusal is still JSON.
   */
  asFile?: boolean;
}

/** A file the server answered with (RequestOptions.asFile). */
export interface FileReply {
  blob: Blob;
  fileName: string | null;
}

export interface HttpClientOptions {
  /** Origin the paths are relative to; '' in the browser (same origin). */
  baseUrl?: string;
  getToken(): string | undefined;
  getLanguage(): Language;
  notifier: Notifier;
  translate(key: ClientTextKey): string;
  /** Clears the session and goes to /login: what confirming the catalogue's boxes does. */
  endSession(): void;
  timeoutMs?: number;
  forbiddenToastMs?: number;
  /** Where transport failures are logged; console.error by default. */
  log?: (...args: unknown[]) => void;
  fetch?: typeof fetch;
}

export interface HttpClient {
  request<T = unknown>(options: RequestOptions): Promise<Envelope<T>>;
  get<T = unknown>(url: string, query?: RequestOptions['query'], extra?: Partial<RequestOptions>): Promise<Envelope<T>>;
  post<T = unknown>(url: string, body?: unknown, extra?: Partial<RequestOptions>): Promise<Envelope<T>>;
  put<T = unknown>(url: string, body?: unknown, extra?: Partial<RequestOptions>): Promise<Envelope<T>>;
  delete<T = unknown>(url: string, query?: RequestOptions['query'], extra?: Partial<RequestOptions>): Promise<Envelope<T>>;
}

/**
 * The console's HTTP client: spec section 7 (time-out, Authorization, success rule) and
 * the error catalogue of section 8. The refusals are checked before the success rule, so
 * a 40001 body is a refusal even if a server sent it with HTTP 200.
 */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const toastMs = opts.forbiddenToastMs ?? FORBIDDEN_TOAST_MS;
  const log = opts.log ?? ((...args: unknown[]) => console.error(...args));
  const doFetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // Ten calls failing at once with 40101 must ask once, not stack ten boxes.
  let sessionPrompt: Promise<void> | null = null;

  function promptOnce(run: () => Promise<void>): void {
    if (sessionPrompt) return;
    sessionPrompt = run()
      .catch((e) => log('[http] session prompt failed', e))
      .finally(() => {
        sessionPrompt = null;
      });
  }

  function onLoggedOut(): void {
    promptOnce(async () => {
      const relogin = await opts.notifier.confirm({
        title: opts.translate('http.loggedOutTitle'),
        content: opts.translate('http.loggedOutText'),
        okText: opts.translate('http.relogin'),
        cancelText: opts.translate('http.cancel'),
      });
      if (relogin) opts.endSession();
    });
  }

  function onForbidden(): void {
    promptOnce(async () => {
      await opts.notifier.error(opts.translate('http.forbidden'), toastMs);
      const relogin = await opts.notifier.confirm({
        content: opts.translate('http.timedOut'),
        okText: opts.translate('http.ok'),
        cancelText: opts.translate('http.cancel'),
      });
      if (relogin) opts.endSession();
    });
  }

  async function request<T>(ro: RequestOptions): Promise<Envelope<T>> {
    const method = ro.method ?? 'GET';
    const url = buildUrl(opts.baseUrl ?? '', ro.url, ro.query);
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': opts.getLanguage() };
    const token = ro.token ?? opts.getToken();
    if (token) headers.Authorization = token;
    let body: BodyInit | undefined;
    if (ro.body !== undefined && ro.body !== null) {
      if (isRawBody(ro.body)) body = ro.body;
      else {
        body = JSON.stringify(ro.body);
        headers['Content-Type'] = 'application/json';
      }
    }

    const controller = new AbortController();
    let timedOut = false;
    const wait = ro.timeoutMs ?? timeoutMs;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, wait);
    const onCallerAbort = () => controller.abort();
    ro.signal?.addEventListener('abort', onCallerAbort, { once: true });

    let res: Response;
    let payload: unknown;
    try {
      res = await doFetch(url, { method, headers, body, signal: controller.signal });
      payload = ro.asFile && res.ok && !/json/i.test(res.headers.get('content-type') ?? '') ? fileEnvelope(await res.blob(), res.headers.get('content-disposition')) : await readBody(res);
    } catch (e) {
      const kind = timedOut ? 'timeout' : 'network';
      log(`[http] ${method} ${ro.url} failed (${kind})`, e);
      throw new HttpError(kind, timedOut ? `timed out after ${wait} ms` : errorText(e));
    } finally {
      clearTimeout(timer);
      ro.signal?.removeEventListener('abort', onCallerAbort);
    }

    const env = asEnvelope(payload);
    const status = env?.status ?? null;
    const message = env?.message ?? res.statusText;

    if (res.status === 401 || status === BodyStatus.LOGGED_OUT) {
      if (!ro.quiet) onLoggedOut();
      throw new HttpError('loggedOut', message, res.status, status, payload);
    }
    if (status === BodyStatus.FORBIDDEN) {
      if (!ro.quiet) onForbidden();
      throw new HttpError('forbidden', message, res.status, status, payload);
    }
    if (status === BodyStatus.BUSINESS) {
      if (!ro.quiet && message) opts.notifier.warning(message);
      throw new HttpError('business', message, res.status, status, payload);
    }
    if (res.status === 200 || status === BodyStatus.OK) return payload as Envelope<T>;
    throw new HttpError('unexpected', message || `HTTP ${res.status}`, res.status, status, payload);
  }

  return {
    request,
    get: (url, query, extra) => request({ ...extra, method: 'GET', url, query }),
    post: (url, body, extra) => request({ ...extra, method: 'POST', url, body }),
    put: (url, body, extra) => request({ ...extra, method: 'PUT', url, body }),
    delete: (url, query, extra) => request({ ...extra, method: 'DELETE', url, query }),
  };
}

export function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) params.append(name, String(v));
    else params.append(name, String(value));
  }
  const qs = params.toString();
  if (!qs) return base + path;
  return `${base}${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    body instanceof ArrayBuffer
  );
}

function fileEnvelope(blob: Blob, disposition: string | null): Envelope<FileReply> {
  const name = /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? null;
  return { status: 200, message: '', data: { blob, fileName: name } };
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function asEnvelope(payload: unknown): Envelope | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as Record<string, unknown>;
  const status = typeof p.status === 'number' ? p.status : typeof p.status === 'string' && /^\d+$/.test(p.status) ? Number(p.status) : undefined;
  if (status === undefined) return null;
  return { status, message: typeof p.message === 'string' ? p.message : '', data: p.data };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
