import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';
import { can } from '../../runtime/access/can.ts';
import { readResourceDocuments } from '../../server/resources/load.ts';

describe.each(engines())('registration review, farms and seedling bases on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });
  const requestId = async (username: string) =>
    (await f.db.query<{ id: number }>(`SELECT id FROM registration_requests WHERE payload->>'username' = $1`, [username])).rows[0].id;

  describe('registration requests', () => {
    it('lists requests newest first, filtered, without the password hash', async () => {
      const r = await f.as('admin', 'GET', '/api/admin/registration/page');
      expect(r.status).toBe(200);
      expect(r.data.total).toBe(4);
      expect(JSON.stringify(r.data)).not.toMatch(/scrypt\$|passwordHash/);
      const pending = await f.as('admin', 'GET', '/api/admin/registration/page?status=pending');
      expect(pending.data.rows.map((x: { username: string }) => x.username)).toEqual(['miaofeng_seedling', 'jinhe_fert', 'hongxing_farm']);
      const rejected = await f.as('admin', 'GET', '/api/admin/registration/page?status=rejected');
      expect(rejected.data.rows[0]).toMatchObject({ username: 'test_abc', reason: expect.stringContaining('营业执照'), reviewedByName: '平台管理员' });
      expect((await f.as('admin', 'GET', `/api/admin/registration/page?keyword=${encodeURIComponent('金禾')}`)).data.rows.map((x: { orgType: number }) => x.orgType)).toEqual([1]);
      expect((await f.as('admin', 'GET', '/api/admin/registration/page?orgType=4')).data.total).toBe(1);
      for (const q of ['status=maybe', 'orgType=2', 'pageSize=501', 'keyword=%3Cscript%3E', 'x=1']) {
        expect((await f.as('admin', 'GET', `/api/admin/registration/page?${q}`)).status, q).toBe(40001);
      }
    });

    it('approves a request: the organisation and its account exist, with the registered password and the fitting role', async () => {
      const id = await requestId('hongxing_farm');
      const detail = await f.as('admin', 'GET', `/api/admin/registration/${id}`);
      expect(detail.data).toMatchObject({ status: 'pending', orgName: '红星家庭农场', orgType: 0 });
      const r = await f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, {});
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ status: 'approved', reviewedBy: await f.userId('admin'), orgId: expect.any(Number), userId: expect.any(Number) });
      const org = await f.db.query<{ name: string; type: number; city: string }>('SELECT name, type, city FROM organisations WHERE id = $1', [r.data.orgId]);
      expect(org.rows[0]).toEqual({ name: '红星家庭农场', type: 0, city: '绥化市' });
      const token = await f.login('hongxing_farm', DEMO_PASSWORD);
      const info = await f.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${token}`, headers: { authorization: token } });
      expect(info.json().data).toMatchObject({ farmName: '红星家庭农场', farmType: 0, roles: ['farmOperator'] });
      expect(await f.auditCount('registration.approve', id)).toBe(1);
      expect(await f.auditCount('org.create', r.data.orgId)).toBe(1);
      expect(await f.auditCount('user.create', r.data.userId)).toBe(1);

      const again = await f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, {});
      expect(again.status).toBe(40001);
      expect((await f.as('admin', 'PUT', `/api/admin/registration/${id}/reject`, { reason: '重复' })).status).toBe(40001);
      expect((await f.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organisations WHERE name = '红星家庭农场'`)).rows[0].n).toBe(1);
    });

    it('lets exactly one of two simultaneous approvals through', async () => {
      const id = await requestId('jinhe_fert');
      const results = await Promise.all([
        f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, {}),
        f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, {}),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 40001]);
      expect((await f.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE username = 'jinhe_fert'`)).rows[0].n).toBe(1);
      const info = await f.db.query<{ code: string; type: number }>(
        `SELECT r.code, o.type FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id JOIN organisations o ON o.id = u.org_id WHERE u.username = 'jinhe_fert'`,
      );
      expect(info.rows).toEqual([{ code: 'manufacturer', type: 1 }]);
    });

    it('rejects with a reason, and refuses approving what can no longer be created', async () => {
      const id = await requestId('miaofeng_seedling');
      for (const body of [{}, { reason: '' }, { reason: '<b>no</b>' }, { reason: 'x'.repeat(501) }, { reason: 'ok', extra: 1 }]) {
        expect((await f.as('admin', 'PUT', `/api/admin/registration/${id}/reject`, body)).status, JSON.stringify(body)).toBe(40001);
      }
      const blank = await f.as('admin', 'PUT', `/api/admin/registration/${id}/reject`, { reason: '   ' });
      expect(blank.data.errors).toEqual([{ field: 'reason', message: 'Enter the reason for rejection' }]);
      const r = await f.as('admin', 'PUT', `/api/admin/registration/${id}/reject`, { reason: '育苗场地址无法核实' });
      expect(r.data).toMatchObject({ status: 'rejected', reason: '育苗场地址无法核实', orgId: null, userId: null });
      expect(await f.auditCount('registration.reject', id)).toBe(1);
      expect((await f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, {})).status).toBe(40001);

      // A pending request whose username was taken meanwhile.
      const { rows } = await f.db.query<{ id: number }>(
        `INSERT INTO registration_requests(payload) VALUES ($1) RETURNING id`,
        [JSON.stringify({ username: 'farm', name: '冒名', phone: '13912349999', passwordHash: 'x', orgName: '冒名农场', orgType: 0 })],
      );
      const taken = await f.as('admin', 'PUT', `/api/admin/registration/${rows[0].id}/approve`, {});
      expect(taken.status).toBe(40001);
      expect((await f.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organisations WHERE name = '冒名农场'`)).rows[0].n).toBe(0);
      expect((await f.as('admin', 'PUT', '/api/admin/registration/999999/approve', {})).status).toBe(40401);
    });

    it('takes in what the public registration call stores', async () => {
      await f.app.inject({ method: 'PUT', url: '/api/admin/user/front/sms/send?phone=13912345678' });
      const line = (await import('node:fs')).readFileSync(f.config.smsMailbox, 'utf8').trim().split('\n').pop()!;
      const code = line.split('\t')[3];
      const reg = await f.app.inject({
        method: 'POST', url: '/api/admin/user/front/regist',
        payload: { username: 'newbase', name: '新基地', phone: '13912345678', password: 'secret_1', code, orgName: '北国育苗中心', orgType: 4 },
      });
      expect(reg.json().status).toBe(200);
      const approve = await f.as('admin', 'PUT', `/api/admin/registration/${reg.json().data.id}/approve`, {});
      expect(approve.status).toBe(200);
      await f.login('newbase', 'secret_1');
      const roles = await f.db.query<{ code: string }>(`SELECT r.code FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id WHERE u.username = 'newbase'`);
      expect(roles.rows).toEqual([{ code: 'seedlingBase' }]);
    });
  });

  // The review is served by the resource engine (schemas/resources/registrations.json): the
  // features it needed, seen through its endpoints.
  describe('the engine features the review rests on', () => {
    const pending = async (username: string, phone: string, orgType = 0) =>
      (
        await f.db.query<{ id: number }>(`INSERT INTO registration_requests(payload) VALUES ($1) RETURNING id`, [
          JSON.stringify({ username, name: '引擎测试', phone, passwordHash: 'scrypt$x', orgName: `${username}机构`, orgType }),
        ])
      ).rows[0].id;

    it('serves no plain write: create, update and delete answer as routes that do not exist, nothing changes, and nobody is granted them', async () => {
      const id = await pending('engine_ops', '13912348001');
      const unknown = await f.as('admin', 'POST', '/api/admin/registrationNoSuchThing', {});
      expect(unknown.http).toBe(404);
      const before = await f.snapshot();
      const rows = async () => (await f.db.query(`SELECT id, status, version FROM registration_requests ORDER BY id`)).rows;
      const stored = await rows();
      for (const [method, url, body] of [
        ['POST', '/api/admin/registration', { username: 'x', name: 'x', phone: '1', orgName: 'x', orgType: 0 }],
        ['PUT', `/api/admin/registration/${id}`, { status: 'approved', version: 1 }],
        ['DELETE', `/api/admin/registration/${id}`, undefined],
        ['DELETE', '/api/admin/registration/batch', { ids: [id] }],
      ] as const) {
        const r = await f.as('admin', method, url, body);
        expect([r.http, r.status], `${method} ${url}`).toEqual([unknown.http, unknown.status]);
      }
      expect(await f.snapshot()).toBe(before);
      expect(await rows()).toEqual(stored);
      // The console's gating asks the same rule: every code of the menu, still no plain write.
      const doc = (await readResourceDocuments()).find((d) => d.name === 'registrations')!;
      const all = { menus: new Set([doc.authority]), elements: new Set(['add', 'edit', 'delete', 'approve', 'reject'].map((e) => `${doc.authority}:${e}`)) };
      expect(['read', 'create', 'update', 'delete', 'approve', 'reject'].map((a) => can(all, doc, a))).toEqual([true, false, false, false, true, true]);
      // Nor does the OpenAPI document list them.
      const paths = (await f.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths as Record<string, object>;
      const ops = Object.entries(paths)
        .filter(([path]) => path.startsWith('/api/admin/registration'))
        .flatMap(([path, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`))
        .sort();
      expect(ops).toEqual([
          'GET /api/admin/registration/page',
          'GET /api/admin/registration/{id}',
          'POST /api/admin/registration/{id}/transitions/approve',
          'POST /api/admin/registration/{id}/transitions/reject',
          'PUT /api/admin/registration/{id}/approve',
          'PUT /api/admin/registration/{id}/reject',
        ].sort());
    });

    it('serves each transition at its legacy path, where version is optional but checked when sent, and at the transition route, where it is required', async () => {
      const id = await pending('engine_path', '13912348002');
      const row = (await f.as('admin', 'GET', `/api/admin/registration/${id}`)).data;
      expect(row).toMatchObject({ status: 'pending', version: 1, _transitions: ['approve', 'reject'], reason: null, orgId: null, reviewedByName: null });
      expect(JSON.stringify(row)).not.toMatch(/scrypt\$|passwordHash/);
      // A stale version is refused on either path, naming the field.
      const stale = await f.as('admin', 'PUT', `/api/admin/registration/${id}/reject`, { reason: '过期', version: 7 });
      expect([stale.status, stale.data.errors[0].field]).toEqual([40001, 'version']);
      const noVersion = await f.as('admin', 'POST', `/api/admin/registration/${id}/transitions/reject`, { reason: '缺版本' });
      expect(noVersion.status).toBe(40001);
      const r = await f.as('admin', 'POST', `/api/admin/registration/${id}/transitions/reject`, { reason: '资料不全', version: row.version });
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ status: 'rejected', reason: '资料不全', version: 2, _transitions: [], reviewedBy: await f.userId('admin'), reviewedByName: '平台管理员' });
      expect(r.data.reviewedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await f.auditCount('registration.reject', id)).toBe(1);
      // The submission itself is only read: the transition left it as it was.
      const stored = await f.db.query<{ payload: { username: string; passwordHash: string }; username: string }>('SELECT payload, username FROM registration_requests WHERE id = $1', [id]);
      expect(stored.rows[0]).toMatchObject({ username: 'engine_path', payload: { username: 'engine_path', passwordHash: 'scrypt$x' } });
    });

    it('approves with another role when one is sent, and refuses a platform role or an unknown one', async () => {
      const id = await pending('engine_role', '13912348003', 0);
      const platformRole = (await f.db.query<{ id: number }>('SELECT id FROM roles WHERE platform ORDER BY id LIMIT 1')).rows[0].id;
      for (const roleId of [platformRole, 999999]) {
        expect((await f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, { roleId })).status, String(roleId)).toBe(40001);
      }
      for (const body of [{ roleId: 'x' }, { roleId: 0 }, { roleId: 1, other: 1 }]) {
        expect((await f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, body)).status, JSON.stringify(body)).toBe(40001);
      }
      expect((await f.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE username = 'engine_role'`)).rows[0].n).toBe(0);
      const manufacturer = (await f.db.query<{ id: number }>(`SELECT id FROM roles WHERE code = 'manufacturer'`)).rows[0].id;
      const r = await f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, { roleId: manufacturer });
      expect(r.status).toBe(200);
      const roles = await f.db.query<{ code: string }>(`SELECT r.code FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id WHERE u.username = 'engine_role'`);
      expect(roles.rows).toEqual([{ code: 'manufacturer' }]);
    });

    it('of an approval and a rejection racing without a version, one wins and the other is told the request is no longer pending', async () => {
      const id = await pending('engine_race', '13912348004');
      const [a, b] = await Promise.all([
        f.as('admin', 'PUT', `/api/admin/registration/${id}/approve`, {}),
        f.as('admin', 'PUT', `/api/admin/registration/${id}/reject`, { reason: '同时驳回' }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 40001]);
      const [won, lost] = a.status === 200 ? [a, b] : [b, a];
      const state = won.data.status === 'approved' ? 'Approved' : 'Rejected';
      expect(lost.message).toBe(`This record is «${state}», so «${won === a ? 'Reject' : 'Approve'}» cannot be done now`);
      const users = (await f.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE username = 'engine_race'`)).rows[0].n;
      expect(users).toBe(won === a ? 1 : 0);
      expect(await f.auditCount(`registration.${won === a ? 'approve' : 'reject'}`, id)).toBe(1);
      expect(await f.auditCount(`registration.${won === a ? 'reject' : 'approve'}`, id)).toBe(0);
    });

    it('refuses the review to an account without its menu code, before looking at the body', async () => {
      const id = await pending('engine_codes', '13912348005');
      expect((await f.as('agent', 'PUT', `/api/admin/registration/${id}/approve`, {})).status).toBe(40301);
      expect((await f.as('agent', 'PUT', `/api/admin/registration/${id}/reject`, { extra: 1 })).status).toBe(40301);
      expect((await f.as('agent', 'GET', `/api/admin/registration/${id}`)).status).toBe(40301);
    });
  });

  describe('farms of a provider and their planting groups', () => {
    it('gives a provider its bloc’s farms with their counts, the platform every farm', async () => {
      const provider = await f.as('provider', 'GET', '/api/admin/multiFarm/page');
      expect(provider.status).toBe(200);
      expect(provider.data.rows.map((r: { name: string }) => r.name)).toEqual(['禾丰生态农场', '嫩江源合作农场']);
      // With the land seed's plots and their areas (docs/land-and-maps.md, Seed).
      expect(provider.data.rows[0]).toMatchObject({ people: 3, plantGroups: 5, fields: 26, fieldAreaMu: 2979.04, blocName: '黑土地农业服务集团' });
      const admin = await f.as('admin', 'GET', '/api/admin/multiFarm/page?pageSize=50');
      expect(admin.data.total).toBeGreaterThanOrEqual(3);
      expect((await f.as('admin', 'GET', `/api/admin/multiFarm/page?keyword=${encodeURIComponent('嫩江')}`)).data.total).toBe(1);
    });

    it('lists one farm’s planting groups, in the scope of the caller only', async () => {
      const farm1 = await f.orgOf('farm');
      const r = await f.as('provider', 'GET', `/api/admin/multiFarm/${farm1}/plantGroups`);
      expect(r.status).toBe(200);
      // The three groups of the land seed and the two seasons of the planting seed.
      expect(r.data.total).toBe(5);
      expect(r.data.rows.every((x: { farmId: number }) => x.farmId === farm1)).toBe(true);
      expect(r.data.rows[0].labels.cropId).toEqual(expect.any(String));
      const filtered = await f.as('provider', 'GET', `/api/admin/multiFarm/${farm1}/plantGroups?stage=fruiting`);
      expect(filtered.data.rows.map((x: { name: string }) => x.name)).toEqual([expect.stringContaining('番茄'), expect.stringContaining('番茄')]);
      const farm2 = await f.orgOf('farm2');
      expect((await f.as('provider', 'GET', `/api/admin/multiFarm/${farm2}/plantGroups`)).data.total).toBe(3);
      const factory = await f.orgOf('factory');
      expect((await f.as('provider', 'GET', `/api/admin/multiFarm/${factory}/plantGroups`)).status).toBe(40401);
      expect((await f.as('admin', 'GET', `/api/admin/multiFarm/${factory}/plantGroups`)).status).toBe(40401);
      expect((await f.as('provider', 'GET', `/api/admin/multiFarm/${farm1}/plantGroups?stage=sleeping`)).status).toBe(40001);
      expect((await f.as('agent', 'GET', `/api/admin/multiFarm/${farm1}/plantGroups`)).status).toBe(40301);
    });
  });

  describe('seedling bases', () => {
    it('lists, adds, changes and deletes seedling bases, audited', async () => {
      const list = await f.as('admin', 'GET', '/api/admin/nursery/page');
      expect(list.data.rows.map((r: { name: string }) => r.name)).toContain('绿源育苗基地');
      expect(list.data.rows.every((r: { type: number }) => r.type === 4)).toBe(true);
      const own = await f.as('nursery', 'GET', '/api/admin/nursery/page');
      expect(own.data.rows.map((r: { name: string }) => r.name)).toEqual(['绿源育苗基地']);
      // Per-record hints for the console's gating: nobody is offered the deletion of their own base.
      expect(own.data.rows[0]._can).toEqual({ edit: true, delete: false });
      expect(list.data.rows.find((r: { name: string }) => r.name === '绿源育苗基地')._can).toEqual({ edit: true, delete: true });

      const add = await f.as('admin', 'POST', '/api/admin/nursery', { name: '松江水稻育秧工厂', city: '哈尔滨市', contact: '赵刚', phone: '0451-8888888' });
      expect(add.status).toBe(200);
      expect(add.data).toMatchObject({ type: 4, status: 1, city: '哈尔滨市' });
      expect(await f.auditCount('org.create', add.data.id)).toBe(1);
      const upd = await f.as('admin', 'PUT', `/api/admin/nursery/${add.data.id}`, { city: '五常市' });
      expect(upd.data.city).toBe('五常市');
      expect((await f.as('admin', 'PUT', `/api/admin/nursery/${add.data.id}`, { city: '五常市' })).status).toBe(40001);
      expect((await f.as('admin', 'PUT', `/api/admin/nursery/${add.data.id}`, {})).status).toBe(40001);
      expect((await f.as('admin', 'POST', '/api/admin/nursery', { name: '<script>' })).status).toBe(40001);
      expect((await f.as('admin', 'GET', `/api/admin/nursery/${await f.orgOf('farm')}`)).status).toBe(40401);

      // The base's own account edits its information but cannot add, delete or disable it.
      const mine = await f.orgOf('nursery');
      expect((await f.as('nursery', 'PUT', `/api/admin/nursery/${mine}`, { address: '寿光市文家街道育苗园区 2 号' })).status).toBe(200);
      expect((await f.as('nursery', 'PUT', `/api/admin/nursery/${mine}`, { status: 0 })).status).toBe(40301);
      // The form sends the status it showed: unchanged, it is no attempt to disable the base.
      expect((await f.as('nursery', 'PUT', `/api/admin/nursery/${mine}`, { status: 1, contact: '王苗' })).status).toBe(200);
      expect((await f.as('nursery', 'POST', '/api/admin/nursery', { name: '分场' })).status).toBe(40301);
      expect((await f.as('nursery', 'DELETE', `/api/admin/nursery/${mine}`)).status).toBe(40301);
      expect((await f.as('nursery', 'PUT', `/api/admin/nursery/${add.data.id}`, { city: 'x' })).status).toBe(40401);

      expect((await f.as('admin', 'DELETE', `/api/admin/nursery/${mine}`)).status).toBe(40001);
      expect((await f.as('admin', 'DELETE', `/api/admin/nursery/${add.data.id}`)).status).toBe(200);
      expect((await f.as('admin', 'GET', `/api/admin/nursery/${add.data.id}`)).status).toBe(40401);
    });
  });
});
