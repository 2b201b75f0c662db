import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/**
 * The studio's coverage report and view-as roles (server/studio/coverage*.ts): guarded by
 * their menu codes, reporting from the documents and the roles of the database, and the
 * view-as roles never carrying a code the caller lacks.
 */
describe.each(engines())('studio coverage and view-as on $name', (engine) => {
  let t: TestApp;
  let probe = '';
  let farm = '';

  beforeAll(async () => {
    t = await createTestApp(engine);
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO users(username, name, password_hash, org_id)
       SELECT 'studio-probe', 'Probe', 'x', org_id FROM users WHERE username = 'farm' RETURNING id`,
    );
    // The probe holds the studio codes and a few of the farm's menus and elements only.
    await t.db.query(
      `INSERT INTO roles(code, name, menus, elements) VALUES ('studioProbe', '{"zh":"探","en":"Probe","es":"Sonda"}',
        ARRAY['studioCoverage','studioDocuments','agricultureKnowledgeCropsManager'], ARRAY['agricultureKnowledgeCropsManager:add'])`,
    );
    await t.db.query(`INSERT INTO user_roles(user_id, role_id) SELECT $1, id FROM roles WHERE code = 'studioProbe'`, [rows[0].id]);
    probe = await t.app.tokens.issue({ id: rows[0].id, username: 'studio-probe' });
    farm = await t.login('farm');
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } }).then((r) => r.json());

  it('refuses callers without the menu codes', async () => {
    expect((await get('/api/studio/coverage', farm)).status).toBe(40301);
    expect((await get('/api/studio/view-as', farm)).status).toBe(40301);
  });

  it('reports unused authority keys, unreachable screens, unused elements and unguarded endpoints', async () => {
    const body = await get('/api/studio/coverage', probe);
    expect(body.status).toBe(200);
    const r = body.data;
    expect(r.counts.screens).toBeGreaterThan(100);
    expect(r.counts.roles).toBeGreaterThan(3);
    // cropsManager is used by its screen; sections never count as unused keys.
    const unused = r.unusedAuthorities.map((a: { code: string }) => a.code);
    expect(unused).not.toContain('agricultureKnowledgeCropsManager');
    expect(unused).not.toContain('basicInfo');
    // The crops screen's delete action needs its element code: used.
    const unusedElements = r.unusedElements.map((e: { code: string }) => e.code);
    expect(unusedElements).not.toContain('agricultureKnowledgeCropsManager:delete');
    for (const e of r.unguardedEndpoints) expect(['notServed', 'public']).toContain(e.reason);

    // A role removed from every code makes its screens unreachable, live from the database.
    const before = r.unreachableScreens.map((s: { id: string }) => s.id);
    expect(before).not.toContain('cropsManager');
    const { rows } = await t.db.query<{ code: string; menus: string[] }>(`SELECT code, menus FROM roles WHERE NOT platform`);
    await t.db.query(`UPDATE roles SET menus = array_remove(array_remove(menus, 'agricultureKnowledgeCropsManager'), 'cropsManager') WHERE NOT platform`);
    try {
      const after = (await get('/api/studio/coverage', probe)).data;
      const crops = after.unreachableScreens.find((s: { id: string }) => s.id === 'cropsManager');
      expect(crops).toBeTruthy();
      expect(crops.routes).toContain('/agricultureKnowledge/cropsManager');
    } finally {
      for (const row of rows) await t.db.query('UPDATE roles SET menus = $2 WHERE code = $1', [row.code, row.menus]);
    }
  });

  it('lists roles to view as, intersected with the caller’s own codes', async () => {
    const body = await get('/api/studio/view-as', probe);
    expect(body.status).toBe(200);
    const own = new Set(['studioCoverage', 'studioDocuments', 'agricultureKnowledgeCropsManager']);
    for (const role of body.data) {
      for (const m of role.menus) expect(own.has(m)).toBe(true);
      for (const e of role.elements) expect(e).toBe('agricultureKnowledgeCropsManager:add');
    }
    const admin = body.data.find((r: { role: string }) => r.role === 'platformAdmin');
    expect(admin).toBeTruthy();
    expect(admin.name.zh).toBeTruthy();
    expect(admin.menus).toContain('agricultureKnowledgeCropsManager');
  });

  it('gives the demo configurer every role with no element code beyond the studio', async () => {
    const config = await t.login('config');
    const body = await get('/api/studio/view-as', config);
    expect(body.status).toBe(200);
    const farm = body.data.find((r: { role: string }) => r.role === 'farmOperator');
    expect(farm.menus).toContain('agricultureKnowledgeCropsManager');
    expect(farm.elements).toEqual([]);
    for (const r of body.data) for (const e of r.elements) expect(e).toMatch(/^studioDocuments:/);
    expect((await get('/api/studio/coverage', config)).status).toBe(200);
  });
});
