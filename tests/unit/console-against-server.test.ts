import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import { createHttpClient } from '../../runtime/http/client.ts';
import { createI18n } from '../../runtime/i18n/i18n.ts';
import { createAuthApi } from '../../runtime/session/auth-api.ts';
import { memoryStore } from '../../runtime/session/key-value.ts';
import { SessionPersistence } from '../../runtime/session/persistence.ts';
import { Session } from '../../runtime/session/session.ts';
import { organisationKind } from '../../runtime/session/user-info.ts';
import { resolveSession } from '../../runtime/routing/session-flow.ts';
import { hiddenWithoutFarmAtom, permissionMenuAtom } from '../../runtime/session/atoms.ts';
import { productProfile } from '../../product/profile.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { recordingNotifier } from './recording-notifier.ts';

// The console's session code against the real API server over a real socket: the reply
// shapes it parses are the server's, not a copy of them.
let server: TestApp;
let baseUrl: string;

beforeAll(async () => {
  server = await createTestApp(engines()[0]);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
}, 120_000);
afterAll(() => server?.close());

function consoleSession() {
  const cookies = memoryStore();
  const persistence = new SessionPersistence(cookies, memoryStore());
  const ui = recordingNotifier(true);
  const i18n = createI18n('zh');
  let ended = 0;
  const http = createHttpClient({
    baseUrl,
    getToken: () => persistence.token,
    getLanguage: () => 'zh',
    notifier: ui.notifier,
    translate: (k) => i18n.t(k),
    endSession: () => {
      ended++;
      session.clearLocal();
    },
    log: () => undefined,
  });
  const store = createStore();
  store.set(hiddenWithoutFarmAtom, new Set(productProfile.menuCodesHiddenWithoutFarm));
  const auth = createAuthApi(http);
  const session: Session = new Session(persistence, store, auth, () => undefined);
  const flow = () => resolveSession({ userInfo: () => auth.userInfo(persistence.token!, { quiet: true }), menuTree: () => auth.menuTree(persistence.token!, { quiet: true }) });
  return { cookies, ui, session, auth, store, flow, ended: () => ended };
}

describe('the console session against the real server', { timeout: 30_000 }, () => {
  it.each([
    ['farm', 'farm'],
    ['factory', 'manufacturer'],
    ['center', 'center'],
    ['nursery', 'seedlingBase'],
    ['provider', 'provider'],
    ['agent', 'agent'],
    ['tech', 'technician'],
    ['admin', 'platform'],
  ])('%s logs in, gets info and menus, organisation label %s', async (username, kind) => {
    const c = consoleSession();
    await c.session.login(` ${username} `, 'demo_2026');
    const outcome = await c.flow();
    expect(outcome.kind).toBe('ready');
    if (outcome.kind !== 'ready') return;
    expect(organisationKind(outcome.info)).toBe(kind);
    c.session.adopt(outcome.info, outcome.menus);
    expect(c.cookies.get('userId')).toBe(String(outcome.info.id));
    const menu = c.store.get(permissionMenuAtom);
    expect(menu.length).toBeGreaterThan(0);
    for (const entry of menu) expect(outcome.info.menus.includes(entry.code) || entry.hidden).toBe(true);
  });

  it('mobile is refused: no menus', async () => {
    const c = consoleSession();
    await c.session.login('mobile', 'demo_2026');
    await expect(c.flow()).resolves.toEqual({ kind: 'refused' });
  });

  it('a wrong password is rejected with the server message, nothing shown', async () => {
    const c = consoleSession();
    const e = await c.session.login('farm2', 'not-the-password').catch((err: unknown) => err);
    expect(e).toMatchObject({ kind: 'business' });
    expect((e as { serverMessage?: string }).serverMessage).toBeTruthy();
    expect(c.ui.events).toEqual([]);
  });

  it('after log out the old token meets the 40101 box; confirming ends the session', async () => {
    const c = consoleSession();
    await c.session.login('admin', 'demo_2026');
    const token = c.cookies.get('token')!;
    const other = consoleSession();
    other.cookies.set('token', token);
    await c.session.logout();
    expect(c.cookies.get('token')).toBeUndefined();

    await expect(other.auth.userInfo(token)).rejects.toMatchObject({ kind: 'loggedOut', httpStatus: 401, status: 40101 });
    await other.ui.afterConfirm();
    expect(other.ui.events).toEqual([
      { type: 'confirm', box: { title: '确定登出', content: '你已被登出，可以取消继续留在该页面，或者重新登录', okText: '重新登录', cancelText: '取消' } },
    ]);
    expect(other.ended()).toBe(1);
    expect(other.cookies.get('token')).toBeUndefined();
  });
});
