import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

const T = (s: string) => ({ zh: `${s}（中）`, en: s, es: `${s} (es)` });

describe.each(engines())('menu tree, roles and permissions on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });

  const menuByCode = async (code: string) => {
    const tree = (await f.as('admin', 'GET', '/api/admin/menu/tree')).data as { code: string; id: number; version: number; children: { code: string; id: number; version: number }[] }[];
    for (const s of tree) {
      if (s.code === code) return s;
      const c = s.children.find((x) => x.code === code);
      if (c) return c;
    }
    throw new Error(`no menu ${code}`);
  };
  /** menus2 as a fresh login sees it (the console reads it at login). */
  const menus2 = async (username: string) => {
    const token = await f.login(username);
    const res = await f.app.inject({ method: 'GET', url: `/api/admin/user/front/menus2?token=${token}`, headers: { authorization: token, 'accept-language': 'en' } });
    return res.json().data as { code: string; name: string; sort: number; hidden: boolean; children: { code: string; name: string; path: string }[] }[];
  };
  const roleId = async (code: string) => (await f.db.query<{ id: number }>('SELECT id FROM roles WHERE code = $1', [code])).rows[0].id;
  const role = async (code: string) => (await f.db.query<{ menus: string[]; elements: string[]; version: number }>('SELECT menus, elements, version FROM roles WHERE code = $1', [code])).rows[0];

  describe('menu tree', () => {
    it('gives the whole tree: sections in descending sort, each child with its element codes', async () => {
      const r = await f.as('admin', 'GET', '/api/admin/menu/tree');
      expect(r.status).toBe(200);
      const sorts = r.data.map((s: { sort: number }) => s.sort);
      expect(sorts).toEqual([...sorts].sort((a, b) => b - a));
      const base = r.data.find((s: { code: string }) => s.code === 'baseManager');
      expect(base).toMatchObject({ parentId: null, path: 'baseManager', title: { zh: expect.any(String), en: expect.any(String), es: expect.any(String) } });
      const users = base.children.find((c: { code: string }) => c.code === 'userManager');
      expect(users.parentId).toBe(base.id);
      expect(users.elements.map((e: { code: string }) => e.code)).toEqual(expect.arrayContaining(['userManager:status', 'userManager:resetPassword']));
    });

    it('shows a changed title and order in the user’s menus2 at the next login', async () => {
      const weather = await menuByCode('weatherAndSituation');
      const before = await menus2('farm');
      expect(before.find((s) => s.code === 'weatherAndSituation')!.name).not.toBe('Weather and pests');
      const r = await f.as('admin', 'PUT', `/api/admin/menu/${weather.id}`, { version: weather.version, title: T('Weather and pests'), sort: 1000 });
      expect(r.status).toBe(200);
      expect(r.data.version).toBe(weather.version + 1);
      const after = await menus2('farm');
      expect(after[0].code).toBe('weatherAndSituation');
      expect(after[0].name).toBe('Weather and pests');
      expect(await f.auditCount('menu.update', weather.id)).toBe(1);
    });

    it('adds a child that a role then sees once it holds the code', async () => {
      const section = await menuByCode('weatherAndSituation');
      const add = await f.as('admin', 'POST', '/api/admin/menu', {
        parentId: section.id, code: 'frostWarning', title: T('Frost warning'), icon: 'AlertOutlined', sort: 5,
        elements: [{ code: 'frostWarning:view', title: T('View') }],
      });
      expect(add.status).toBe(200);
      expect(add.data).toMatchObject({ code: 'frostWarning', path: 'frostWarning', parentId: section.id, version: 1 });
      expect((await menus2('farm')).find((s) => s.code === 'weatherAndSituation')!.children.map((c) => c.code)).not.toContain('frostWarning');
      const farmRole = await role('farmOperator');
      const grant = await f.as('admin', 'PUT', `/api/admin/role/${await roleId('farmOperator')}/permissions`, {
        version: farmRole.version, menus: [...farmRole.menus, 'frostWarning'], elements: [...farmRole.elements, 'frostWarning:view'],
      });
      expect(grant.status).toBe(200);
      expect((await menus2('farm')).find((s) => s.code === 'weatherAndSituation')!.children.map((c) => c.code)).toContain('frostWarning');
    });

    it('carries a renamed code into every role that held it', async () => {
      const entry = await menuByCode('frostWarning');
      const r = await f.as('admin', 'PUT', `/api/admin/menu/${entry.id}`, { version: entry.version, code: 'frostAlert' });
      expect(r.status).toBe(200);
      expect(r.data.elements.map((e: { code: string }) => e.code)).toEqual(['frostAlert:view']);
      const farmRole = await role('farmOperator');
      expect(farmRole.menus).toContain('frostAlert');
      expect(farmRole.menus).not.toContain('frostWarning');
      expect(farmRole.elements).toContain('frostAlert:view');
      expect((await menus2('farm')).find((s) => s.code === 'weatherAndSituation')!.children.map((c) => c.code)).toContain('frostAlert');
    });

    it('keeps the tree valid: unique codes and sibling paths, two levels, element prefixes, default child, versions', async () => {
      const section = await menuByCode('weatherAndSituation');
      const child = await menuByCode('frostAlert');
      const farmMain = await menuByCode('farmMain');
      const cases: [string, 'POST' | 'PUT', string, unknown, string][] = [
        ['duplicate code', 'POST', '/api/admin/menu', { parentId: section.id, code: 'userManager', title: T('x') }, 'code'],
        ['duplicate code, other case', 'POST', '/api/admin/menu', { code: 'USERMANAGER', title: T('x') }, 'code'],
        ['missing parent', 'POST', '/api/admin/menu', { parentId: 999999, code: 'orphanMenu', title: T('x') }, 'parentId'],
        ['third level', 'POST', '/api/admin/menu', { parentId: child.id, code: 'deepMenu', title: T('x') }, 'parentId'],
        ['sibling path', 'POST', '/api/admin/menu', { parentId: section.id, code: 'otherFrost', path: 'frostWarning', title: T('x') }, 'path'],
        ['element prefix', 'POST', '/api/admin/menu', { parentId: section.id, code: 'hailWarning', title: T('x'), elements: [{ code: 'frostAlert:view', title: T('v') }] }, 'elements.0.code'],
        ['repeated element', 'POST', '/api/admin/menu', { parentId: section.id, code: 'hailWarning', title: T('x'), elements: [{ code: 'hailWarning:view', title: T('v') }, { code: 'hailWarning:view', title: T('v') }] }, 'elements.1.code'],
        ['section under a section', 'PUT', `/api/admin/menu/${section.id}`, { version: section.version, parentId: farmMain.id }, 'parentId'],
        ['under itself', 'PUT', `/api/admin/menu/${child.id}`, { version: child.version, parentId: child.id }, 'parentId'],
        ['default child not a child', 'PUT', `/api/admin/menu/${section.id}`, { version: section.version, defaultChild: 'nowhere' }, 'defaultChild'],
        ['stale version', 'PUT', `/api/admin/menu/${section.id}`, { version: section.version + 5, sort: 1 }, 'version'],
      ];
      for (const [what, method, url, body, field] of cases) {
        const r = await f.as('admin', method, url, body);
        expect(r.status, what).toBe(40001);
        expect(r.data.errors.map((e: { field: string }) => e.field), what).toContain(field);
      }
      const same = await f.as('admin', 'PUT', `/api/admin/menu/${section.id}`, { version: section.version, sort: 1000 });
      expect(same.status).toBe(40001);
      for (const body of [
        { code: 'x1', title: { zh: 'a', en: 'b' } },
        { code: 'bad code', title: T('x') },
        { code: 'okCode', title: T('x'), icon: 'javascript:alert(1)' },
        { code: 'okCode', title: { zh: '<script>', en: 'b', es: 'c' } },
        { code: 'okCode', title: T('x'), extra: 1 },
        { code: 'okCode', title: T('x'), sort: 1e9 },
        { code: 'x'.repeat(65), title: T('x') },
      ]) {
        const r = await f.as('admin', 'POST', '/api/admin/menu', body);
        expect(r.status, JSON.stringify(body)).toBe(40001);
      }
      expect((await f.as('admin', 'GET', '/api/admin/menu/999999')).status).toBe(40401);
    });

    it('deletes a leaf and takes its codes from every role; refuses a section with children', async () => {
      const section = await menuByCode('weatherAndSituation');
      const refused = await f.as('admin', 'DELETE', `/api/admin/menu/${section.id}`);
      expect(refused.status).toBe(40001);
      const child = await menuByCode('frostAlert');
      const r = await f.as('admin', 'DELETE', `/api/admin/menu/${child.id}`);
      expect(r.status).toBe(200);
      const farmRole = await role('farmOperator');
      expect(farmRole.menus).not.toContain('frostAlert');
      expect(farmRole.elements).not.toContain('frostAlert:view');
      expect(await f.auditCount('menu.delete', child.id)).toBe(1);
    });
  });

  describe('roles', () => {
    let created: { id: number; version: number };

    it('lists roles with their counts and filters them', async () => {
      const r = await f.as('admin', 'GET', '/api/admin/role/page?pageSize=50');
      expect(r.data.total).toBeGreaterThanOrEqual(9);
      const admin = r.data.rows.find((x: { code: string }) => x.code === 'platformAdmin');
      expect(admin).toMatchObject({ platform: true, category: 'platform', userCount: 1 });
      expect(admin.menuCount).toBeGreaterThan(100);
      const platform = await f.as('admin', 'GET', '/api/admin/role/page?platform=true');
      expect(platform.data.rows.map((x: { code: string }) => x.code)).toEqual(['platformAdmin']);
      const byCategory = await f.as('admin', 'GET', '/api/admin/role/page?category=industry');
      expect(byCategory.data.rows.map((x: { code: string }) => x.code).sort()).toEqual(['manufacturer', 'regionalCenter', 'seedlingBase']);
      const kw = await f.as('admin', 'GET', `/api/admin/role/page?keyword=${encodeURIComponent('Operador')}`);
      expect(kw.data.rows.map((x: { code: string }) => x.code)).toEqual(['farmOperator']);
      for (const q of ['pageSize=0', 'platform=maybe', 'category=%3Cx%3E', 'other=1']) {
        expect((await f.as('admin', 'GET', `/api/admin/role/page?${q}`)).status, q).toBe(40001);
      }
    });

    it('creates, changes and deletes a role, audited', async () => {
      const add = await f.as('admin', 'POST', '/api/admin/role', { code: 'fieldScout', name: T('Field scout'), description: 'walks the fields', category: 'farmStaff' });
      expect(add.status).toBe(200);
      expect(add.data).toMatchObject({ code: 'fieldScout', category: 'farmStaff', platform: false, menuCount: 0, userCount: 0, version: 1 });
      created = add.data;
      expect((await f.as('admin', 'POST', '/api/admin/role', { code: 'FIELDSCOUT', name: T('x') })).status).toBe(40001);
      const noCategory = await f.as('admin', 'POST', '/api/admin/role', { code: 'ghostRole', name: T('x'), category: 'nowhere' });
      expect(noCategory.status).toBe(40001);
      expect(noCategory.data.errors[0].field).toBe('category');
      const upd = await f.as('admin', 'PUT', `/api/admin/role/${created.id}`, { version: 1, name: T('Field scout 2') });
      expect(upd.data.version).toBe(2);
      expect((await f.as('admin', 'PUT', `/api/admin/role/${created.id}`, { version: 1, description: 'x' })).status).toBe(40001);
      expect(await f.auditCount('role.create', created.id)).toBe(1);
      expect(await f.auditCount('role.update', created.id)).toBe(1);
      created = upd.data;
    });

    it('serves the checkbox tree with the role’s codes and replaces them, checking them against the tree', async () => {
      const p = await f.as('admin', 'GET', `/api/admin/role/${created.id}/permissions`);
      expect(p.data).toMatchObject({ roleId: created.id, menus: [], elements: [], version: created.version });
      const weather = p.data.tree.find((s: { code: string }) => s.code === 'weatherAndSituation');
      const shang = weather.children.find((c: { code: string }) => c.code === 'shangSituation');
      expect(shang.elements.map((e: { code: string }) => e.code)).toContain('shangSituation:view');
      expect(shang).toMatchObject({ key: 'shangSituation', title: { zh: expect.any(String), en: expect.any(String), es: expect.any(String) } });

      const url = `/api/admin/role/${created.id}/permissions`;
      const unknown = await f.as('admin', 'PUT', url, { version: created.version, menus: ['noSuchMenu'], elements: [] });
      expect(unknown.status).toBe(40001);
      const orphan = await f.as('admin', 'PUT', url, { version: created.version, menus: [], elements: ['shangSituation:view'] });
      expect(orphan.status).toBe(40001);
      const stale = await f.as('admin', 'PUT', url, { version: created.version + 9, menus: ['shangSituation'], elements: [] });
      expect(stale.status).toBe(40001);
      expect((await f.as('admin', 'PUT', url, { version: created.version, menus: ['shang Situation'], elements: [] })).status).toBe(40001);

      const ok = await f.as('admin', 'PUT', url, { version: created.version, menus: ['shangSituation'], elements: ['shangSituation:view'] });
      expect(ok.status).toBe(200);
      // The section comes with its child, or the child would never show in menus2.
      expect(ok.data.menus).toEqual(['shangSituation', 'weatherAndSituation']);
      expect(ok.data.elements).toEqual(['shangSituation:view']);
      const log = await f.db.query<{ changes: { added: { menus: string[] } } }>(`SELECT changes FROM operation_log WHERE action = 'role.permissions' AND record_id = $1`, [String(created.id)]);
      expect(log.rows[0].changes.added.menus).toEqual(['shangSituation', 'weatherAndSituation']);
      created = ok.data;
    });

    it('takes a code away from a farm user from their very next request', async () => {
      let token = await f.login('farm');
      const call = () => f.app.inject({ method: 'GET', url: '/api/farmMaterials/list/page', headers: { authorization: token } }).then((r) => r.json());
      expect((await call()).status).toBe(200);
      const farmRole = await role('farmOperator');
      const r = await f.as('admin', 'PUT', `/api/admin/role/${await roleId('farmOperator')}/permissions`, {
        version: farmRole.version,
        // The catalogue's authority and its alias (the material details entry, /farmMaterialsManage/addEditShow).
        menus: farmRole.menus.filter((m) => m !== 'farmMaterialsList' && m !== 'farmMaterialsManageAddEditShow'),
        elements: farmRole.elements.filter((e) => !e.startsWith('farmMaterialsList:') && !e.startsWith('farmMaterialsManageAddEditShow:')),
      });
      expect(r.status).toBe(200);
      // Losing a code ends the session; a new one no longer reaches the call.
      expect((await call()).status).toBe(40101);
      token = await f.login('farm');
      expect((await call()).status).toBe(40301);
      // And farm2, another holder of the role, the same.
      expect((await f.as('farm2', 'GET', '/api/farmMaterials/list/page')).status).toBe(40301);
      const back = await role('farmOperator');
      await f.as('admin', 'PUT', `/api/admin/role/${await roleId('farmOperator')}/permissions`, {
        version: back.version, menus: [...back.menus, 'farmMaterialsList'], elements: [...back.elements, 'farmMaterialsList:view'],
      });
      expect((await call()).status).toBe(200);
    });

    it('assigns roles to a user (PUT /admin/user/{id}/roles), audited, never to oneself', async () => {
      const farm2 = await f.userId('farm2');
      const before = await f.as('admin', 'GET', `/api/admin/user/${farm2}`);
      const ids = before.data.roles.map((r: { id: number }) => r.id);
      const r = await f.as('admin', 'PUT', `/api/admin/user/${farm2}/roles`, { roleIds: [...ids, created.id] });
      expect(r.status).toBe(200);
      expect(r.data.roles.map((x: { code: string }) => x.code).sort()).toEqual(['farmOperator', 'fieldScout']);
      expect(await f.auditCount('user.roles', farm2)).toBe(1);
      expect((await f.as('admin', 'PUT', `/api/admin/user/${farm2}/roles`, { roleIds: [...ids, created.id] })).status).toBe(40001);
      expect((await f.as('admin', 'PUT', `/api/admin/user/${farm2}/roles`, { roleIds: [999999] })).status).toBe(40001);
      expect((await f.as('admin', 'PUT', `/api/admin/user/${await f.userId('admin')}/roles`, { roleIds: [] })).status).toBe(40001);
      expect((await f.as('admin', 'PUT', `/api/admin/user/${farm2}/roles`, { roleIds: ['x'] })).status).toBe(40001);
      // A role in use is not deleted.
      expect((await f.as('admin', 'DELETE', `/api/admin/role/${created.id}`)).status).toBe(40001);
      await f.as('admin', 'PUT', `/api/admin/user/${farm2}/roles`, { roleIds: ids });
      expect((await f.as('admin', 'DELETE', `/api/admin/role/${created.id}`)).status).toBe(200);
      expect(await f.auditCount('role.delete', created.id)).toBe(1);
    });

    it('keeps a delegated role administrator within their own codes and away from platform roles', async () => {
      const add = await f.as('admin', 'POST', '/api/admin/role', { code: 'roleDelegate', name: T('Role delegate') });
      const p = await f.as('admin', 'PUT', `/api/admin/role/${add.data.id}/permissions`, {
        version: 1,
        menus: ['groupManager', 'shangSituation'],
        elements: ['groupManager:add', 'groupManager:edit', 'groupManager:delete', 'shangSituation:view'],
      });
      expect(p.status).toBe(200);
      const provider = await f.userId('provider');
      const current = (await f.as('admin', 'GET', `/api/admin/user/${provider}`)).data.roles.map((r: { id: number }) => r.id);
      expect((await f.as('admin', 'PUT', `/api/admin/user/${provider}/roles`, { roleIds: [...current, add.data.id] })).status).toBe(200);

      expect((await f.as('provider', 'POST', '/api/admin/role', { code: 'superRole', name: T('x'), platform: true })).status).toBe(40301);
      const own = await f.as('provider', 'POST', '/api/admin/role', { code: 'scoutLite', name: T('Scout lite') });
      expect(own.status).toBe(200);
      const beyond = await f.as('provider', 'PUT', `/api/admin/role/${own.data.id}/permissions`, { version: 1, menus: ['menuManager'], elements: [] });
      expect(beyond.status).toBe(40001);
      const within = await f.as('provider', 'PUT', `/api/admin/role/${own.data.id}/permissions`, { version: 1, menus: ['shangSituation'], elements: ['shangSituation:view'] });
      expect(within.status).toBe(200);
      const adminRole = await roleId('platformAdmin');
      expect((await f.as('provider', 'PUT', `/api/admin/role/${adminRole}/permissions`, { version: 1, menus: [], elements: [] })).status).toBe(40301);
      expect((await f.as('provider', 'PUT', `/api/admin/role/${adminRole}`, { version: 1, description: 'mine' })).status).toBe(40301);
      expect((await f.as('provider', 'DELETE', `/api/admin/role/${adminRole}`)).status).toBe(40301);
      expect((await role('platformAdmin')).menus.length).toBeGreaterThan(100);
      // Role categories come with the role screen: readable, and their rules hold for the delegate too.
      expect((await f.as('provider', 'GET', '/api/admin/roleCategories/page')).status).toBe(200);
      const dup = await f.as('provider', 'POST', '/api/admin/roleCategories', { code: 'industry', name: T('x'), position: 1 });
      expect(dup.status).toBe(40001);
      expect(dup.data.errors[0].field).toBe('code');
    });
  });
});
