/**
 * The configurer's previews show the rows the screens' users see (issue 31, item 3): the
 * account lists behind the customer agents' and group customers' screens were scoped to
 * the caller's own organisation, and the configurer belongs to none, so its previews showed
 * empty lists; a platform reader reads them all (writes keep the caller's own scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';

describe.each(engines())('the configurer reads the account lists its previews show, on $name', (engine) => {
  let t: TestApp;
  let admin: string;
  let config: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    [admin, config] = await Promise.all([t.login('admin'), t.login('config')]);
  }, 300_000);
  afterAll(async () => t?.close());

  for (const [screen, path] of [
    ['customerAgent', '/api/admin/user/page/customerAgents'],
    ['groupCustomer', '/api/admin/user/page/groupCustomers'],
  ] as const) {
    it(`${screen}: the same rows as the platform administrator`, async () => {
      const url = `${path}?pageIndex=1&pageSize=50`;
      const everyone = await call(t, admin, 'GET', url);
      expect(everyone.status, everyone.raw.body).toBe(200);
      const all = everyone.data as { rows: { id: number }[]; total: number };
      expect(all.total).toBeGreaterThan(0);
      const previewed = await call(t, config, 'GET', url);
      expect(previewed.status, previewed.raw.body).toBe(200);
      expect((previewed.data as { rows: { id: number }[] }).rows.map((r) => r.id)).toEqual(all.rows.map((r) => r.id));
    }, 120_000);
  }

  it('still changes no account it reads', async () => {
    const agents = (await call(t, admin, 'GET', '/api/admin/user/page/customerAgents?pageIndex=1&pageSize=1')).data as { rows: { id: number }[] };
    const r = await call(t, config, 'DELETE', `/api/admin/user/${agents.rows[0].id}`);
    expect([40301, 40401]).toContain(r.status);
  }, 120_000);
});
