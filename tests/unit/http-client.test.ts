import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:net';
import { buildUrl, createHttpClient, FORBIDDEN_TOAST_MS, REQUEST_TIMEOUT_MS, type HttpClientOptions } from '../../runtime/http/client.ts';
import { HttpError } from '../../runtime/http/errors.ts';
import { createI18n } from '../../runtime/i18n/i18n.ts';
import type { Language } from '../../runtime/i18n/languages.ts';
import { json, startHttpStub } from './http-stub.ts';
import { recordingNotifier } from './recording-notifier.ts';

let stub: Awaited<ReturnType<typeof startHttpStub>>;

beforeAll(async () => {
  stub = await startHttpStub({
    '/ok': (_req, res) => json(res, 200, { status: 200, message: 'ok', data: { n: 1 } }),
    '/echo': (req, res) => json(res, 200, { status: 200, message: 'ok', data: { method: req.method, url: req.url, body: req.body, type: req.headers['content-type'] ?? null } }),
    '/body-ok': (_req, res) => json(res, 202, { status: 200, message: 'accepted', data: 'x' }),
    '/http-ok-other-body': (_req, res) => json(res, 200, { status: 20001, message: 'odd', data: 'y' }),
    '/http401': (_req, res) => res.writeHead(401).end(),
    '/body40101': (_req, res) => json(res, 200, { status: 40101, message: 'token revoked', data: null }),
    '/body40301': (_req, res) => json(res, 403, { status: 40301, message: 'forbidden', data: null }),
    '/body40001': (_req, res) =>
      json(res, 400, { status: 40001, message: '名称不能为空', data: { errors: [{ field: 'name', message: '必填' }, { bad: true }] } }),
    '/http200-body40001': (_req, res) => json(res, 200, { status: 40001, message: 'rule broken', data: null }),
    '/throttled': (_req, res) => json(res, 429, { status: 42901, message: 'too many', data: null }),
    '/not-json': (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>'),
    '/slow': (_req, res) => {
      setTimeout(() => json(res, 200, { status: 200, message: 'late', data: null }), 1_000).unref();
    },
  });
});
afterAll(() => stub.close());

function client(overrides: Partial<HttpClientOptions> = {}, language: Language = 'zh') {
  const ui = recordingNotifier(false);
  const i18n = createI18n(language);
  const endSession = vi.fn();
  const log = vi.fn();
  let token: string | undefined = 'tok-123';
  const http = createHttpClient({
    baseUrl: stub.baseUrl,
    getToken: () => token,
    getLanguage: () => language,
    notifier: ui.notifier,
    translate: (key) => i18n.t(key),
    endSession,
    log,
    ...overrides,
  });
  return { http, ui, endSession, log, setToken: (t: string | undefined) => (token = t) };
}

async function rejection(p: Promise<unknown>): Promise<HttpError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HttpError);
  return e as HttpError;
}

describe('http client: spec section 7', () => {
  it('uses a 20 s time-out and shows the permission toast for 5 s by default', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(20_000);
    expect(FORBIDDEN_TOAST_MS).toBe(5_000);
  });

  it('sends the token raw in Authorization and the language in Accept-Language', async () => {
    const { http } = client({}, 'es');
    const env = await http.get<{ n: number }>('/ok');
    expect(env).toEqual({ status: 200, message: 'ok', data: { n: 1 } });
    const req = stub.requests.at(-1)!;
    expect(req.headers.authorization).toBe('tok-123');
    expect(req.headers['accept-language']).toBe('es');
  });

  it('sends no Authorization header without a token', async () => {
    const { http, setToken } = client();
    setToken(undefined);
    await http.get('/ok');
    expect(stub.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('encodes query parameters (arrays repeated, empty ones left out) and JSON bodies', async () => {
    const { http } = client();
    const env = await http.request<{ method: string; url: string; body: string; type: string }>({
      method: 'POST',
      url: '/echo',
      query: { roleIds: [1, 2], farmId: 7, skip: undefined, none: null, q: 'a b&c' },
      body: { username: 'farm' },
    });
    expect(env.data.method).toBe('POST');
    expect(env.data.url).toBe('/echo?roleIds=1&roleIds=2&farmId=7&q=a+b%26c');
    expect(JSON.parse(env.data.body)).toEqual({ username: 'farm' });
    expect(env.data.type).toBe('application/json');
    expect(buildUrl('', '/x?a=1', { b: 2 })).toBe('/x?a=1&b=2');
  });

  it('counts a reply as success when only the body status is 200', async () => {
    const { http } = client();
    await expect(http.get('/body-ok')).resolves.toMatchObject({ status: 200, data: 'x' });
  });

  it('counts a reply as success when only the HTTP status is 200, passing the body on', async () => {
    const { http } = client();
    await expect(http.get('/http-ok-other-body')).resolves.toEqual({ status: 20001, message: 'odd', data: 'y' });
  });
});

describe('http client: the error catalogue of spec section 8', () => {
  it.each(['/http401', '/body40101'])('%s: rejects and asks with the exact 确定登出 box; 重新登录 ends the session', async (path) => {
    const rec = recordingNotifier(true);
    const { http, endSession } = client({ notifier: rec.notifier });
    const e = await rejection(http.get(path));
    expect(e.kind).toBe('loggedOut');
    await rec.afterConfirm();
    expect(rec.events).toEqual([
      { type: 'confirm', box: { title: '确定登出', content: '你已被登出，可以取消继续留在该页面，或者重新登录', okText: '重新登录', cancelText: '取消' } },
    ]);
    expect(endSession).toHaveBeenCalledTimes(1);
  });

  it('40101: 取消 keeps the session (the user stays on the page)', async () => {
    const { http, ui, endSession } = client();
    await rejection(http.get('/body40101'));
    await ui.afterConfirm();
    expect(ui.events).toHaveLength(1);
    expect(endSession).not.toHaveBeenCalled();
  });

  it('asks once when several calls fail with 40101 at the same time', async () => {
    let release: (v: boolean) => void = () => undefined;
    const rec = recordingNotifier(() => new Promise<boolean>((r) => (release = r)));
    const { http, endSession } = client({ notifier: rec.notifier });
    const failures = await Promise.allSettled([http.get('/http401'), http.get('/body40101'), http.get('/http401')]);
    expect(failures.every((f) => f.status === 'rejected')).toBe(true);
    expect(rec.events.filter((e) => e.type === 'confirm')).toHaveLength(1);
    release(true);
    await rec.afterConfirm();
    expect(endSession).toHaveBeenCalledTimes(1);
    // Once answered, a later 40101 asks again.
    await rejection(http.get('/http401'));
    expect(rec.events.filter((e) => e.type === 'confirm')).toHaveLength(2);
  });

  it('40301: the exact permission message for 5 s, then the time-out confirm; 确定 ends the session', async () => {
    const rec = recordingNotifier(true);
    const { http, endSession } = client({ notifier: rec.notifier });
    const e = await rejection(http.get('/body40301'));
    expect(e.kind).toBe('forbidden');
    expect(e.status).toBe(40301);
    await rec.afterConfirm();
    expect(rec.events).toEqual([
      { type: 'error', text: '当前用户无相关操作权限！', durationMs: 5000 },
      { type: 'confirm', box: { content: '你登录状态已超时，请重新登录', okText: '确定', cancelText: '取消' } },
    ]);
    expect(endSession).toHaveBeenCalledTimes(1);
  });

  it('40301: the confirm waits until the message has closed', async () => {
    let closeToast: () => void = () => undefined;
    const seen: string[] = [];
    const { http } = client({
      notifier: {
        error: (text) => {
          seen.push(`error:${text}`);
          return new Promise<void>((r) => (closeToast = r));
        },
        warning: () => undefined,
        confirm: async (box) => {
          seen.push(`confirm:${box.content}`);
          return false;
        },
      },
    });
    await rejection(http.get('/body40301'));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['error:当前用户无相关操作权限！']);
    closeToast();
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['error:当前用户无相关操作权限！', 'confirm:你登录状态已超时，请重新登录']);
  });

  it('40001: shows the server message as a warning and rejects with the field errors', async () => {
    const { http, ui, endSession } = client();
    const e = await rejection(http.post('/body40001', { name: '' }));
    expect(e.kind).toBe('business');
    expect(e.message).toBe('名称不能为空');
    expect(e.serverMessage).toBe('名称不能为空');
    expect(e.fieldErrors).toEqual([{ field: 'name', message: '必填' }]);
    expect(ui.events).toEqual([{ type: 'warning', text: '名称不能为空' }]);
    expect(endSession).not.toHaveBeenCalled();
  });

  it('40001 is a refusal even with HTTP 200', async () => {
    const { http, ui } = client();
    const e = await rejection(http.get('/http200-body40001'));
    expect(e.kind).toBe('business');
    expect(ui.events).toEqual([{ type: 'warning', text: 'rule broken' }]);
  });

  it('quiet calls are rejected without any box or message', async () => {
    const { http, ui } = client();
    for (const path of ['/http401', '/body40301', '/body40001']) await rejection(http.get(path, undefined, { quiet: true }));
    await new Promise((r) => setTimeout(r, 10));
    expect(ui.events).toEqual([]);
  });

  it('a reply matching no rule yields nothing: rejected, nothing shown', async () => {
    const { http, ui, log } = client();
    const throttled = await rejection(http.get('/throttled'));
    expect(throttled).toMatchObject({ kind: 'unexpected', httpStatus: 429, status: 42901, message: 'too many' });
    const html = await rejection(http.get('/not-json'));
    expect(html).toMatchObject({ kind: 'unexpected', httpStatus: 502, status: null });
    expect(ui.events).toEqual([]);
    expect(log).not.toHaveBeenCalled();
  });

  it('a reply slower than the time-out is aborted, logged and rejected', async () => {
    const { http, ui, log } = client({ timeoutMs: 100 });
    const started = Date.now();
    const e = await rejection(http.get('/slow'));
    expect(e.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(900);
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0][0])).toContain('GET /slow failed (timeout)');
    expect(ui.events).toEqual([]);
  });

  it('a transport failure (connection refused) is logged and rejected', async () => {
    const port = await closedPort();
    const { http, ui, log } = client({ baseUrl: `http://127.0.0.1:${port}` });
    const e = await rejection(http.get('/ok'));
    expect(e.kind).toBe('network');
    expect(log).toHaveBeenCalledTimes(1);
    expect(ui.events).toEqual([]);
  });

  it.each([
    ['en', 'Confirm logout', 'Log in again', 'The current user has no permission for this operation!'],
    ['es', 'Confirmar cierre de sesión', 'Volver a iniciar sesión', '¡El usuario actual no tiene permiso para esta operación!'],
  ] as const)('shows the boxes in %s when the console is in that language', async (lang, title, ok, forbidden) => {
    const rec = recordingNotifier(false);
    const { http } = client({ notifier: rec.notifier }, lang);
    await rejection(http.get('/http401'));
    await rec.afterConfirm();
    await rejection(http.get('/body40301'));
    await rec.afterConfirm();
    expect(rec.events[0]).toMatchObject({ type: 'confirm', box: { title, okText: ok } });
    expect(rec.events[1]).toEqual({ type: 'error', text: forbidden, durationMs: 5000 });
  });
});

/** A port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
