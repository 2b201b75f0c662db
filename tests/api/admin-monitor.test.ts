import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { RequestTrace, percentile } from '../../server/admin/trace.ts';
import { TRACE_CAPACITY } from '../../server/admin/plugin.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

describe('request trace ring buffer', () => {
  it('keeps only the last N requests, newest first', () => {
    const trace = new RequestTrace(5);
    for (let i = 1; i <= 12; i++) trace.record({ at: new Date(i * 1000).toISOString(), method: 'GET', route: `/r${i % 2}`, status: i === 12 ? 500 : 200, durationMs: i });
    expect(trace.recorded).toBe(12);
    expect(trace.recent().map((e) => e.durationMs)).toEqual([12, 11, 10, 9, 8]);
    const byRoute = trace.latencies();
    expect(byRoute.map((l) => l.route)).toEqual(['/r0', '/r1']);
    expect(byRoute[0]).toMatchObject({ count: 3, errors: 1, p50: 10, max: 12 });
  });

  it('computes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});

describe.each(engines())('monitoring and the existing administration screens on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });

  describe('monitor', () => {
    it('describes this server and every module with its route count', async () => {
      const r = await f.as('admin', 'GET', '/api/admin/monitor/registry');
      expect(r.status).toBe(200);
      expect(r.data.service).toMatchObject({ name: 'farm-backoffice-api', node: process.version, engine: engine.name, version: expect.any(String) });
      expect(Date.parse(r.data.service.startedAt)).toBeLessThanOrEqual(Date.now());
      const modules = Object.fromEntries(r.data.modules.map((m: { name: string; routes: number }) => [m.name, m.routes]));
      expect(modules.menus).toBe(5);
      expect(modules.roles).toBe(9);
      expect(modules.monitor).toBe(5);
      expect(modules.articles).toBeGreaterThanOrEqual(8);
      expect(r.data.routeCount).toBe(r.data.modules.reduce((n: number, m: { routes: number }) => n + m.routes, 0));
      const openapi = (await f.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      const operations = Object.entries(openapi.paths as Record<string, Record<string, unknown>>)
        .filter(([path]) => path.startsWith('/api/'))
        .reduce((n, [, ops]) => n + Object.keys(ops).filter((m) => m !== 'head').length, 0);
      expect(r.data.routeCount).toBe(operations);
      expect(r.data.publicRouteCount).toBeGreaterThanOrEqual(7);

      const routes = await f.as('admin', 'GET', '/api/admin/monitor/routes/page?module=menus');
      expect(routes.data.rows.map((x: { method: string; url: string }) => `${x.method} ${x.url}`).sort()).toEqual([
        'DELETE /api/admin/menu/:id', 'GET /api/admin/menu/:id', 'GET /api/admin/menu/tree', 'POST /api/admin/menu', 'PUT /api/admin/menu/:id',
      ]);
      const pub = await f.as('admin', 'GET', '/api/admin/monitor/routes/page?keyword=public&pageSize=2');
      expect(pub.data).toMatchObject({ pageIndex: 1, pageSize: 2 });
      expect(pub.data.total).toBeGreaterThanOrEqual(2);
      expect(pub.data.rows).toHaveLength(2);
    });

    it('reports the real state of the process and the database', async () => {
      const r = await f.as('admin', 'GET', '/api/admin/monitor/status');
      expect(r.status).toBe(200);
      expect(r.data.status).toBe('up');
      expect(r.data.uptimeSeconds).toBeGreaterThanOrEqual(0);
      expect(r.data.memory.heapUsedMb).toBeGreaterThan(1);
      expect(r.data.memory.rssMb).toBeGreaterThan(r.data.memory.heapUsedMb / 2);
      expect(r.data.eventLoop).toMatchObject({ meanMs: expect.any(Number), p99Ms: expect.any(Number), maxMs: expect.any(Number) });
      expect(r.data.database).toMatchObject({ engine: engine.name, state: 'up', latencyMs: expect.any(Number), version: expect.stringMatching(/^\d+/) });
      expect(r.data.database.sizeMb).toBeGreaterThan(0);
      expect(r.data.database.connections.total).toBeGreaterThanOrEqual(1);
      expect(r.data.requests.bufferSize).toBe(TRACE_CAPACITY);
      expect(r.data.requests.recorded).toBeGreaterThan(0);
    });

    it('traces recent requests with their route, status and duration, and their percentiles per route', async () => {
      for (let i = 0; i < 20; i++) await f.as('farm', 'GET', '/api/admin/user/baseInfo');
      await f.as('farm', 'GET', '/api/admin/menu/tree');
      const recent = await f.as('admin', 'GET', '/api/admin/monitor/trace/page?pageSize=50');
      expect(recent.status).toBe(200);
      const row = recent.data.rows.find((x: { route: string }) => x.route === '/api/admin/user/baseInfo');
      expect(row).toMatchObject({ method: 'GET', status: 200, durationMs: expect.any(Number) });
      const refused = await f.as('admin', 'GET', '/api/admin/monitor/trace/page?minStatus=400&route=menu/tree');
      expect(refused.data.rows[0]).toMatchObject({ route: '/api/admin/menu/tree', status: 403 });
      const latency = await f.as('admin', 'GET', `/api/admin/monitor/trace/latency?route=${encodeURIComponent('/api/admin/user/baseInfo')}`);
      const base = latency.data.rows.find((x: { route: string }) => x.route === '/api/admin/user/baseInfo');
      expect(base.count).toBeGreaterThanOrEqual(20);
      expect(base.p50).toBeLessThanOrEqual(base.p95);
      expect(base.p95).toBeLessThanOrEqual(base.p99);
      expect(base.p99).toBeLessThanOrEqual(base.max);
      for (const q of ['minStatus=99', 'minDurationMs=-1', 'method=TRACE', 'pageSize=0', 'x=1']) {
        expect((await f.as('admin', 'GET', `/api/admin/monitor/trace/page?${q}`)).status, q).toBe(40001);
      }
    });

    it('keeps the trace bounded however many requests come', async () => {
      for (let i = 0; i < TRACE_CAPACITY + 50; i++) await f.app.inject({ method: 'GET', url: '/api/health' });
      const r = await f.as('admin', 'GET', '/api/admin/monitor/trace/page?pageSize=1');
      expect(r.data.total).toBe(TRACE_CAPACITY);
    });
  });

  describe('the screens built on existing calls', () => {
    it('operation log: filters by user, resource and time range, read-only', async () => {
      const adminId = await f.userId('admin');
      await f.as('admin', 'POST', '/api/admin/role', { code: 'logProbe', name: { zh: '日志', en: 'Log', es: 'Registro' } });
      const byUser = await f.as('admin', 'GET', `/api/admin/gateLog/page?userId=${adminId}&resource=roles`);
      expect(byUser.data.rows.map((x: { action: string }) => x.action)).toContain('role.create');
      expect(byUser.data.rows.every((x: { userId: number; resource: string }) => x.userId === adminId && x.resource === 'roles')).toBe(true);
      const future = new Date(Date.now() + 3600_000).toISOString();
      expect((await f.as('admin', 'GET', `/api/admin/gateLog/page?from=${encodeURIComponent(future)}`)).data.total).toBe(0);
      const past = new Date(Date.now() - 3600_000).toISOString();
      const window = await f.as('admin', 'GET', `/api/admin/gateLog/page?from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}&username=adm`);
      expect(window.data.total).toBeGreaterThan(0);
      for (const method of ['POST', 'PUT', 'DELETE'] as const) {
        const r = await f.as('admin', method, '/api/admin/gateLog/page');
        expect(r.status, method).toBe(40401);
      }
    });

    it('notices: the received page fits the table renderer, and marking a row read moves the badge', async () => {
      const page = await f.as('farm', 'GET', '/api/coverfield/notice/page/receiveNotice?pageIndex=1&pageSize=10');
      expect(Object.keys(page.data).sort()).toEqual(['pageIndex', 'pageSize', 'rows', 'total']);
      const unread = page.data.rows.find((n: { read: boolean }) => !n.read);
      const before = (await f.as('farm', 'GET', '/api/coverfield/notice/notReadNumber')).data;
      const mark = await f.as('farm', 'GET', `/api/coverfield/notice/setSelfNoticeRead?id=${unread.id}`);
      expect(mark.status).toBe(200);
      expect(mark.data.notReadNumber).toBe(before - 1);
      expect((await f.as('farm', 'GET', '/api/coverfield/notice/notReadNumber')).data).toBe(before - 1);
    });

    it('user manager: people of every organisation kind, enable/disable, password reset, roles', async () => {
      const all = await f.as('admin', 'GET', '/api/admin/user/page?pageSize=100');
      const kinds = new Set(all.data.rows.map((u: { orgType: number | null }) => u.orgType));
      for (const type of [0, 1, 3, 4, null]) expect(kinds.has(type), String(type)).toBe(true);
      const device = await f.userId('device');
      expect((await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${device}&status=0`)).data.status).toBe(0);
      await expect(f.login('device')).rejects.toThrow();
      await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${device}&status=1`);
      const user = (await f.as('admin', 'GET', `/api/admin/user/${device}`)).data;
      const reset = await f.as('admin', 'PUT', `/api/admin/user/${device}`, { version: user.version, password: 'fresh_2026' });
      expect(reset.status).toBe(200);
      await f.login('device', 'fresh_2026');
      expect(await f.auditCount('user.resetPassword', device)).toBe(1);
      const options = await f.as('admin', 'GET', '/api/admin/role/options');
      const tech = options.data.find((o: { code: string }) => o.code === 'technician');
      const roles = await f.as('admin', 'PUT', `/api/admin/user/${device}/roles`, { roleIds: [...reset.data.roles.map((r: { id: number }) => r.id), tech.value] });
      expect(roles.data.roles.map((r: { code: string }) => r.code).sort()).toEqual(['deviceManager', 'technician']);
    });
  });
});
