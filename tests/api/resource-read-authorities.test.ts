import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/**
 * A read-only grant (readAuthorities): holders of the planting-rules menu may read crops
 * for their selects, never write them.
 */
describe.each(engines())('read-only grants of a resource on $name', (engine) => {
  let t: TestApp;
  let token = '';
  beforeAll(async () => {
    t = await createTestApp(engine);
    // A role that holds planting rules only, given to the farm operator.
    await t.db.query(
      `INSERT INTO roles(code, name, menus, elements) VALUES ('rulesOnly', '{"zh":"规则","en":"Rules","es":"Reglas"}', $1, $2)`,
      [['plantRules'], ['plantRules:add', 'cropsManager:add']],
    );
    await t.db.query(`DELETE FROM user_roles WHERE user_id = (SELECT id FROM users WHERE username = 'farm')`);
    await t.db.query(
      `INSERT INTO user_roles(user_id, role_id) SELECT u.id, r.id FROM users u, roles r WHERE u.username = 'farm' AND r.code = 'rulesOnly'`,
    );
    token = await t.login('farm');
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: token } });

  it('lets the grant read pages and single records', async () => {
    const page = (await call('GET', '/api/kms/crops/page?pageSize=5')).json();
    expect(page.status).toBe(200);
    expect(page.data.rows.length).toBeGreaterThan(0);
    expect((await call('GET', `/api/kms/crops/${page.data.rows[0].id}`)).json().status).toBe(200);
  });

  it('refuses writes to the grant, even with an element code of the resource', async () => {
    const before = (await t.db.query(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'crops'`)).rows[0];
    const res = await call('POST', '/api/kms/crops', { name: '高粱', category: 'grain', status: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json().status).toBe(40301);
    expect((await t.db.query(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'crops'`)).rows[0]).toEqual(before);
  });

  it('does not reach resources it was not granted', async () => {
    expect((await call('GET', '/api/kms/cropSubtype/page')).json().status).toBe(200);
    expect((await call('GET', '/api/farmMaterials/supplier/page')).json().status).toBe(40301);
  });
});
