import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import { createHttpClient } from '../../runtime/http/client.ts';
import { createI18n } from '../../runtime/i18n/i18n.ts';
import { createAuthApi } from '../../runtime/session/auth-api.ts';
import { hiddenWithoutFarmAtom, menuCodesAtom, permissionMenuAtom, tokenAtom, userInfoAtom } from '../../runtime/session/atoms.ts';
import { productProfile } from '../../product/profile.ts';
import { memoryStore } from '../../runtime/session/key-value.ts';
import { SessionPersistence } from '../../runtime/session/persistence.ts';
import { Session } from '../../runtime/session/session.ts';
import { organisationKind, parseMenuTree, parseUserInfo } from '../../runtime/session/user-info.ts';
import { resolveSession } from '../../runtime/routing/session-flow.ts';
import { json, startHttpStub } from './http-stub.ts';
import { recordingNotifier } from './recording-notifier.ts';

const INFO = {
  id: 2,
  name: '张伟',
  description: 'farm operator',
  farmId: 11,
  farmName: '禾丰生态农场',
  farmType: 0,
  groupId: null,
  groupName: null,
  menus: [{ code: 'landManagement' }, { code: 'landBuild' }, { code: 'marketing' }],
  elements: [{ code: 'userManager:add' }],
  roles: ['farmOperator'],
};
const MENUS = [
  { id: 1, code: 'marketing', title: { zh: '营销', en: 'Marketing', es: 'Marketing' }, sort: 5, hidden: false, children: [] },
  { id: 2, code: 'landManagement', title: { zh: '土地管理', en: 'Land', es: 'Tierra' }, sort: 9, children: [{ id: 3, code: 'landBuild', path: 'landBuild', title: '地块', sort: 1 }] },
  { id: 4, code: 'finance', title: { zh: '财务', en: 'Finance', es: 'Finanzas' }, sort: 7 },
];

let stub: Awaited<ReturnType<typeof startHttpStub>>;
let invalidStatus = 200;

beforeAll(async () => {
  stub = await startHttpStub({
    '/api/auth/jwt/token': (req, res) => {
      const { username, password } = JSON.parse(req.body);
      if (username === 'farm' && password === 'demo_2026') json(res, 200, { status: 200, message: 'ok', data: 'tok-farm' });
      else json(res, 400, { status: 40001, message: '用户名或密码错误', data: null });
    },
    '/api/auth/jwt/invalid': (_req, res) =>
      invalidStatus === 200 ? json(res, 200, { status: 200, message: 'ok', data: null }) : json(res, 401, { status: 40101, message: 'gone', data: null }),
    '/api/admin/user/front/info': (req, res) => {
      const token = new URL(req.url, 'http://x').searchParams.get('token');
      if (token === 'tok-farm') json(res, 200, { status: 200, message: 'ok', data: INFO });
      else if (token === 'tok-mobile') json(res, 200, { status: 200, message: 'ok', data: { ...INFO, menus: [], elements: [] } });
      else if (token === 'tok-silent') json(res, 500, null);
      else json(res, 401, { status: 40101, message: '登录已失效', data: null });
    },
    '/api/admin/user/front/menus2': (_req, res) => json(res, 200, { status: 200, message: 'ok', data: MENUS }),
  });
});
afterAll(() => stub.close());
beforeEach(() => {
  invalidStatus = 200;
});

function setup(initialCookies: Record<string, string> = {}, initialLocal: Record<string, string> = {}) {
  const cookies = memoryStore(initialCookies);
  const local = memoryStore(initialLocal);
  const persistence = new SessionPersistence(cookies, local);
  const store = createStore();
  // What the app does with the product profile (runtime/app/services.ts).
  store.set(hiddenWithoutFarmAtom, new Set(productProfile.menuCodesHiddenWithoutFarm));
  const ui = recordingNotifier(false);
  const i18n = createI18n('zh');
  const http = createHttpClient({
    baseUrl: stub.baseUrl,
    getToken: () => persistence.token,
    getLanguage: () => 'zh',
    notifier: ui.notifier,
    translate: (k) => i18n.t(k),
    endSession: () => session.clearLocal(),
    log: () => undefined,
  });
  const api = createAuthApi(http);
  const session: Session = new Session(persistence, store, api, () => undefined);
  return { cookies, local, persistence, store, ui, api, session };
}

const lastRequest = (path: string) => [...stub.requests].reverse().find((r) => r.url.startsWith(path))!;

describe('log in', () => {
  it('trims the username, stores the token cookie and the token atom', async () => {
    const { session, cookies, store } = setup();
    await session.login('  farm \t', 'demo_2026');
    expect(JSON.parse(lastRequest('/api/auth/jwt/token').body)).toEqual({ username: 'farm', password: 'demo_2026' });
    expect(cookies.get('token')).toBe('tok-farm');
    expect(store.get(tokenAtom)).toBe('tok-farm');
  });

  it('rejects with the server message and shows nothing itself (the form does)', async () => {
    const { session, cookies, ui } = setup();
    await expect(session.login('farm', 'wrong')).rejects.toMatchObject({ kind: 'business', serverMessage: '用户名或密码错误' });
    expect(cookies.get('token')).toBeUndefined();
    expect(ui.events).toEqual([]);
  });
});

describe('session flow of spec section 4', () => {
  it('fetches info with the token and the menu tree; adopting stores the ids of spec section 3', async () => {
    const { session, api, cookies, store } = setup({ token: 'tok-farm' });
    const outcome = await resolveSession({ userInfo: () => api.userInfo('tok-farm'), menuTree: () => api.menuTree('tok-farm') });
    expect(outcome.kind).toBe('ready');
    if (outcome.kind !== 'ready') return;
    expect(lastRequest('/api/admin/user/front/info').url).toBe('/api/admin/user/front/info?token=tok-farm');
    expect(lastRequest('/api/admin/user/front/info').headers.authorization).toBe('tok-farm');
    session.adopt(outcome.info, outcome.menus);
    expect(cookies.dump()).toMatchObject({ token: 'tok-farm', userId: '2', farmId: '11', roles: '["farmOperator"]' });
    expect(cookies.get('groupId')).toBeUndefined();
    expect([...store.get(menuCodesAtom)]).toEqual(['landManagement', 'landBuild', 'marketing']);
    // finance is not among the codes; the rest sorted by descending sort
    expect(store.get(permissionMenuAtom).map((m) => m.code)).toEqual(['landManagement', 'marketing']);
  });

  it('a farm id stored before is used in preference to the server one', async () => {
    const { session, api, cookies, store } = setup({ token: 'tok-farm', farmId: '42' });
    session.adopt(await api.userInfo('tok-farm'));
    expect(cookies.get('farmId')).toBe('42');
    expect(store.get(userInfoAtom)?.farmId).toBe('42');
  });

  it("with haveFarm '0' the permission menu hides land management", async () => {
    const { session, api, store } = setup({ token: 'tok-farm' }, { haveFarm: '0' });
    session.adopt(await api.userInfo('tok-farm'), await api.menuTree('tok-farm'));
    expect(store.get(permissionMenuAtom).map((m) => m.code)).toEqual(['marketing']);
    session.setHaveFarm('1');
    expect(store.get(permissionMenuAtom).map((m) => m.code)).toEqual(['landManagement', 'marketing']);
  });

  it('zero menus: refused', async () => {
    const { api } = setup();
    await expect(resolveSession({ userInfo: () => api.userInfo('tok-mobile'), menuTree: () => api.menuTree('tok-mobile') })).resolves.toEqual({ kind: 'refused' });
  });

  it("info failure: the server's message, or none when it sent none", async () => {
    const { api, ui } = setup();
    const quiet = { quiet: true };
    await expect(resolveSession({ userInfo: () => api.userInfo('revoked', quiet), menuTree: () => api.menuTree('revoked', quiet) })).resolves.toEqual({
      kind: 'failed',
      message: '登录已失效',
    });
    await expect(resolveSession({ userInfo: () => api.userInfo('tok-silent', quiet), menuTree: () => api.menuTree('tok-silent', quiet) })).resolves.toEqual({
      kind: 'failed',
      message: undefined,
    });
    // quiet: the flow shows its own message, not the catalogue's box
    expect(ui.events).toEqual([]);
  });
});

describe('log out', () => {
  const everything = { token: 'tok-farm', farmId: '11', userId: '2', groupId: '5', groupName: 'g', roles: '[]', chiefFarmId: '3', language: 'en', size: 'small', sidebarStatus: '1' };

  it('calls POST /api/auth/jwt/invalid?token=, then clears the session but keeps the preferences', async () => {
    const { session, api, cookies, local, store } = setup(everything, { haveFarm: '1' });
    session.adopt(await api.userInfo('tok-farm'), await api.menuTree('tok-farm'));
    await session.logout();
    const call = lastRequest('/api/auth/jwt/invalid');
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/api/auth/jwt/invalid?token=tok-farm');
    expect(cookies.dump()).toEqual({ language: 'en', size: 'small', sidebarStatus: '1' });
    expect(local.get('haveFarm')).toBeUndefined();
    expect(store.get(tokenAtom)).toBeUndefined();
    expect(store.get(userInfoAtom)).toBeNull();
    expect(store.get(menuCodesAtom).size).toBe(0);
    expect(store.get(permissionMenuAtom)).toEqual([]);
  });

  it('still logs out locally when the server refuses, without a box', async () => {
    invalidStatus = 401;
    const { session, cookies, ui } = setup(everything, { haveFarm: '0' });
    await session.logout();
    expect(cookies.get('token')).toBeUndefined();
    expect(ui.events).toEqual([]);
  });

  it('the forced local log out clears the same without calling the server', () => {
    const before = stub.requests.length;
    const { session, cookies, local } = setup(everything, { haveFarm: '0' });
    session.clearLocal();
    expect(stub.requests.length).toBe(before);
    expect(cookies.dump()).toEqual({ language: 'en', size: 'small', sidebarStatus: '1' });
    expect(local.dump()).toEqual({});
  });
});

describe('user info and menus from the server', () => {
  it('flattens {code} lists and normalises ids', () => {
    const info = parseUserInfo({ ...INFO, farmType: '3', groupId: 8, extra: 'ignored' });
    expect(info.menus).toEqual(['landManagement', 'landBuild', 'marketing']);
    expect(info.elements).toEqual(['userManager:add']);
    expect(info.farmType).toBe(3);
    expect(() => parseUserInfo(null)).toThrow(TypeError);
  });

  it.each([
    [{ farmType: 0, groupId: null }, 'farm'],
    [{ farmType: 1, groupId: null }, 'manufacturer'],
    [{ farmType: 3, groupId: 2 }, 'center'],
    [{ farmType: 4, groupId: null }, 'seedlingBase'],
    [{ farmType: null, groupId: 2 }, 'provider'],
    [{ farmType: null, groupId: null }, null],
    // People without an organisation are what their account is, not "the platform".
    [{ farmType: null, groupId: null, kind: 'agent' }, 'agent'],
    [{ farmType: null, groupId: 2, kind: 'tech' }, 'technician'],
    [{ farmType: null, groupId: null, kind: 'admin' }, 'platform'],
    [{ farmType: 0, groupId: null, kind: 'device' }, 'farm'],
  ] as const)('organisation label of %o is %s', (info, kind) => {
    expect(organisationKind(info)).toBe(kind);
  });

  it('parses the menu tree: path defaults to the code, hidden flags, nested children, entries without a code dropped', () => {
    const tree = parseMenuTree([...MENUS, { title: 'no code' }, { code: 'x', path: '/x/', hidden: 1 }]);
    expect(tree.map((m) => [m.code, m.path, m.hidden, m.children.length])).toEqual([
      ['marketing', 'marketing', false, 0],
      ['landManagement', 'landManagement', false, 1],
      ['finance', 'finance', false, 0],
      ['x', 'x', true, 0],
    ]);
    expect(tree[1].children[0]).toMatchObject({ code: 'landBuild', path: 'landBuild', title: '地块' });
  });
});
