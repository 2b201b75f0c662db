import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Every administration endpoint of issue 6 (docs/admin-api.md), with a body that would
 * be valid, so that the refusal tested is the authority check and not validation.
 */
const ENDPOINTS: [Method, string, unknown?][] = [
  ['GET', '/api/admin/menu/tree'],
  ['GET', '/api/admin/menu/1'],
  ['POST', '/api/admin/menu', { code: 'farmTry', title: { zh: '试', en: 'Try', es: 'Prueba' } }],
  ['PUT', '/api/admin/menu/1', { version: 1, sort: 5 }],
  ['DELETE', '/api/admin/menu/1'],
  ['GET', '/api/admin/role/page'],
  ['GET', '/api/admin/role/1'],
  ['POST', '/api/admin/role', { code: 'tryRole', name: { zh: '试', en: 'Try', es: 'Prueba' } }],
  ['PUT', '/api/admin/role/2', { version: 1, description: 'x' }],
  ['DELETE', '/api/admin/role/2'],
  ['GET', '/api/admin/role/2/permissions'],
  ['PUT', '/api/admin/role/2/permissions', { version: 1, menus: [], elements: [] }],
  ['PUT', '/api/admin/user/1/roles', { roleIds: [] }],
  ['GET', '/api/admin/registration/page'],
  ['GET', '/api/admin/registration/1'],
  ['PUT', '/api/admin/registration/1/approve', {}],
  ['PUT', '/api/admin/registration/1/reject', { reason: 'no' }],
  ['GET', '/api/admin/monitor/registry'],
  ['GET', '/api/admin/monitor/routes/page'],
  ['GET', '/api/admin/monitor/status'],
  ['GET', '/api/admin/monitor/trace/page'],
  ['GET', '/api/admin/monitor/trace/latency'],
  ['GET', '/api/admin/multiFarm/page'],
  ['GET', '/api/admin/multiFarm/1/plantGroups'],
  ['GET', '/api/admin/nursery/page'],
  ['GET', '/api/admin/nursery/5'],
  ['POST', '/api/admin/nursery', { name: '新苗圃' }],
  ['PUT', '/api/admin/nursery/5', { city: '潍坊市' }],
  ['DELETE', '/api/admin/nursery/5'],
  ['GET', '/api/admin/gateLog/page'],
  ['GET', '/api/admin/gateLog/families'],
  ['GET', '/api/admin/user/page'],
  ['PUT', '/api/admin/user/updateUserStatus?id=9&status=0'],
  ...resource('/api/admin/dicts', { code: 'tryDict', name: { zh: '试', en: 'Try', es: 'Prueba' }, status: 1, items: [] }),
  ...resource('/api/admin/roleCategories', { code: 'tryCat', name: { zh: '试', en: 'Try', es: 'Prueba' }, position: 1 }),
  ...resource('/api/admin/fields', { code: 'T-1', name: '试验田', areaMu: 1, landType: 'dryland', status: 1 }),
  ...resource('/api/articleManage/articles', { title: 'T', category: 'news', content: '<p>x</p>', status: 0 }),
  ...resource('/api/promotion/appVersions', { platform: 'ios', versionCode: 999, versionName: '9.9.9', downloadUrl: 'https://x.example.com/a', forceUpdate: false, published: false }),
];

function resource(base: string, body: unknown): [Method, string, unknown?][] {
  return [
    ['GET', `${base}/page`],
    ['GET', `${base}/1`],
    ['POST', base, body],
    ['PUT', `${base}/1`, { ...(body as object), version: 1 }],
    ['DELETE', `${base}/1`],
    ['DELETE', `${base}/batch`, { ids: [1] }],
  ];
}

describe.each(engines())('administration authority on $name', (engine) => {
  let f: AccountsFixture;
  let before: string;
  beforeAll(async () => {
    f = await accountsFixture(engine);
    before = await fingerprint(f);
  });
  afterAll(async () => {
    await f?.close();
  });

  // Plots are the farm's own since issue 16: farmFields grants the farm's land menus its writes
  // (authority aliases) and farmPlantGroupList its reads; tests/api/land-geometry.test.ts covers them.
  const plotCall = (_method: Method, url: string) => url.startsWith('/api/admin/fields');

  it('answers every administration endpoint with 40301 for a farm operator, and changes nothing', async () => {
    for (const [method, url, body] of ENDPOINTS.filter(([m, u]) => !plotCall(m, u))) {
      const r = await f.as('farm', method, url, body);
      expect(r.status, `${method} ${url}`).toBe(40301);
      expect(r.http, `${method} ${url}`).toBe(403);
    }
    expect(await fingerprint(f)).toBe(before);
  });

  it('lets a farm operator read only its own farm’s plots, for its planting groups', async () => {
    const farm = await f.orgOf('farm');
    const r = await f.as('farm', 'GET', '/api/admin/fields/page?pageSize=100');
    expect(r.status).toBe(200);
    expect(r.data.total).toBeGreaterThan(0);
    expect(r.data.rows.every((x: { farmId: number }) => x.farmId === farm)).toBe(true);
    expect(await fingerprint(f)).toBe(before);
  });

  it('refuses the same calls to device managers, technicians and mobile-only accounts', async () => {
    for (const who of ['device', 'tech', 'mobile']) {
      for (const [method, url, body] of ENDPOINTS.filter(([m]) => m !== 'GET').slice(0, 12)) {
        const r = await f.as(who, method, url, body);
        expect(r.status, `${who} ${method} ${url}`).toBe(40301);
      }
    }
    expect(await fingerprint(f)).toBe(before);
  });

  it('answers 40101 without a token, except the public reads', async () => {
    for (const [method, url, body] of ENDPOINTS) {
      const res = await f.app.inject({ method, url, payload: body as object | undefined });
      expect(res.json().status, `${method} ${url}`).toBe(40101);
    }
    const dict = await f.app.inject({ method: 'GET', url: '/api/dict/unit/items' });
    expect(dict.json().status).toBe(40101);
    for (const url of ['/api/articles/public/search', '/api/app/version/latest?platform=android']) {
      const res = await f.app.inject({ method: 'GET', url });
      expect(res.json().status, url).toBe(200);
    }
  });

  it('lets the platform administrator read every administration list', async () => {
    for (const [method, url] of ENDPOINTS.filter(([m, u]) => m === 'GET' && !/\/\d+(\/|$)/.test(u))) {
      const r = await f.as('admin', method, url);
      expect(r.status, url).toBe(200);
      // A farm-owned list says it spans the farms the administrator reads (spansFarms: true).
      if (url.endsWith('/page')) expect(Object.keys(r.data).filter((k) => k !== 'spansFarms' || r.data.spansFarms !== true).sort(), url).toEqual(['pageIndex', 'pageSize', 'rows', 'total']);
    }
  });

  it('gives the role options only to screens that hand out roles, and only roles the caller could grant', async () => {
    for (const who of ['tech', 'agent', 'device', 'mobile', 'factory']) {
      expect((await f.as(who, 'GET', '/api/admin/role/options')).status, who).toBe(40301);
    }
    const all = await f.as('admin', 'GET', '/api/admin/role/options');
    expect(all.data.map((o: { code: string }) => o.code)).toContain('platformAdmin');
    expect(all.data[0]).toMatchObject({ value: expect.any(Number), label: { zh: expect.any(String), en: expect.any(String), es: expect.any(String) } });
    // The farm's own people screen assigns roles too: never a platform role, never one beyond the farm's codes.
    const farm = await f.as('farm', 'GET', '/api/admin/role/options');
    const codes = farm.data.map((o: { code: string }) => o.code);
    expect(codes).toContain('farmOperator');
    expect(codes).not.toContain('platformAdmin');
    expect(codes).not.toContain('serviceProvider');
  });

  it('shows none of the administration menus to a farm operator', async () => {
    const token = await f.login('farm');
    const res = await f.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${token}`, headers: { authorization: token } });
    const codes = new Set((res.json().data.menus as { code: string }[]).map((m) => m.code));
    for (const code of ['baseManager', 'menuManager', 'groupManager', 'groupTypeManager', 'fieldManager', 'dictManager', 'gateLogManager', 'authManager', 'serviceManager',
      'monitorManager', 'registry', 'serviceMonitor', 'traceMonitor', 'registRequestManage', 'registRequestManageIndex', 'articleManage', 'articleManageIndex', 'promotion',
      'versionControl', 'customerAgent', 'groupCustomer', 'multiFarm', 'multiFarmIndex', 'nurseryManage', 'nurseryManageIndex']) {
      expect(codes.has(code), code).toBe(false);
    }
  });
});

/** Every table these endpoints write. */
async function fingerprint(f: AccountsFixture): Promise<string> {
  const parts: string[] = [await f.snapshot()];
  for (const table of ['menus', 'roles', 'registration_requests', 'resource_records']) {
    const r = await f.db.query<{ h: string }>(`SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${table} x`);
    parts.push(`${table}:${r.rows[0].h}`);
  }
  return parts.join(' ');
}
