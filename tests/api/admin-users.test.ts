import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

describe.each(engines())('user administration (spec 7.2) on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });

  describe('GET /api/admin/user/page', () => {
    it('gives the platform administrator every user in the page shape', async () => {
      const r = await f.as('admin', 'GET', '/api/admin/user/page?pageIndex=1&pageSize=5');
      expect(r.status).toBe(200);
      expect(Object.keys(r.data).sort()).toEqual(['pageIndex', 'pageSize', 'rows', 'total']);
      expect(r.data.pageIndex).toBe(1);
      expect(r.data.pageSize).toBe(5);
      expect(r.data.rows).toHaveLength(5);
      expect(r.data.total).toBeGreaterThanOrEqual(11);
      const row = r.data.rows[0];
      expect(row).toMatchObject({ id: expect.any(Number), username: expect.any(String), version: expect.any(Number), roles: expect.any(Array) });
      expect(row).not.toHaveProperty('passwordHash');
      expect(JSON.stringify(r.data)).not.toContain('scrypt$');
    });

    it('pages without overlap and filters by keyword, kind and status', async () => {
      const p1 = await f.as('admin', 'GET', '/api/admin/user/page?pageIndex=1&pageSize=4&sort=username');
      const p2 = await f.as('admin', 'GET', '/api/admin/user/page?pageIndex=2&pageSize=4&sort=username');
      const ids1 = p1.data.rows.map((u: { id: number }) => u.id);
      const ids2 = p2.data.rows.map((u: { id: number }) => u.id);
      expect(ids1.filter((id: number) => ids2.includes(id))).toEqual([]);
      const names = [...p1.data.rows, ...p2.data.rows].map((u: { username: string }) => u.username);
      expect(names).toEqual([...names].sort());

      const kw = await f.as('admin', 'GET', '/api/admin/user/page?keyword=FARM');
      expect(kw.data.rows.map((u: { username: string }) => u.username).sort()).toEqual(['farm', 'farm2']);
      const agents = await f.as('admin', 'GET', '/api/admin/user/page?kind=agent');
      expect(agents.data.rows.map((u: { username: string }) => u.username)).toEqual(['agent']);
      const pct = await f.as('admin', 'GET', `/api/admin/user/page?keyword=${encodeURIComponent('%')}`);
      expect(pct.data.total).toBe(0);
    });

    it('refuses callers without userManager with 40301', async () => {
      for (const who of ['farm', 'provider', 'agent', 'tech', 'mobile']) {
        const r = await f.as(who, 'GET', '/api/admin/user/page');
        expect(r.http, who).toBe(403);
        expect(r.status, who).toBe(40301);
      }
    });

    it('answers bad query strings with 40001 and field details', async () => {
      for (const q of ['pageSize=501', 'pageSize=0', 'pageIndex=0', 'pageIndex=abc', 'sort=password_hash', 'order=sideways', 'status=2',
        `keyword=${'x'.repeat(65)}`, `keyword=${encodeURIComponent('<script>alert(1)</script>')}`, 'kind=agent%27%20OR%201%3D1', 'unknown=1']) {
        const r = await f.as('admin', 'GET', `/api/admin/user/page?${q}`);
        expect(r.http, q).toBe(400);
        expect(r.status, q).toBe(40001);
        expect(r.data.errors.length, q).toBeGreaterThan(0);
      }
    });

    it('needs a token', async () => {
      const res = await f.app.inject({ method: 'GET', url: '/api/admin/user/page' });
      expect(res.json().status).toBe(40101);
    });
  });

  describe('farm and bloc scope on people pages', () => {
    it('gives a farm its own people only, and another farm id answers as a missing one', async () => {
      const own = await f.as('farm', 'GET', '/api/admin/user/page/byFarmId');
      expect(own.status).toBe(200);
      const names = own.data.rows.map((u: { username: string }) => u.username).sort();
      expect(names).toEqual(['device', 'farm', 'mobile']);
      const farm2Org = await f.orgOf('farm2');
      const other = await f.as('farm', 'GET', `/api/admin/user/page/byFarmId?farmId=${farm2Org}`);
      const missing = await f.as('farm', 'GET', '/api/admin/user/page/byFarmId?farmId=999999');
      expect(other.http).toBe(404);
      expect(other.status).toBe(missing.status);
      expect(other.message).toBe(missing.message);
      expect(other.http).toBe(missing.http);
    });

    it('gives a service provider the people of its bloc’s farms but not of farms outside it', async () => {
      const inBloc = await f.as('provider', 'GET', `/api/admin/user/page/byFarmId?farmId=${await f.orgOf('farm2')}`);
      expect(inBloc.status).toBe(200);
      expect(inBloc.data.rows.map((u: { username: string }) => u.username)).toEqual(['farm2']);
      const outside = await f.as('provider', 'GET', `/api/admin/user/page/byFarmId?farmId=${await f.orgOf('factory')}`);
      expect(outside.status).toBe(40401);
      const noFarm = await f.as('provider', 'GET', '/api/admin/user/page/byFarmId');
      expect(noFarm.status).toBe(40001);
    });

    it('lists a manufacturer’s people only for a manufacturer', async () => {
      const own = await f.as('factory', 'GET', '/api/admin/user/page/byFarmId/forFertilizerFactory');
      expect(own.status).toBe(200);
      expect(own.data.rows.map((u: { username: string }) => u.username)).toEqual(['factory']);
      const farmAsFactory = await f.as('admin', 'GET', `/api/admin/user/page/byFarmId/forFertilizerFactory?farmId=${await f.orgOf('farm')}`);
      expect(farmAsFactory.status).toBe(40401);
      const farm = await f.as('farm', 'GET', '/api/admin/user/page/byFarmId/forFertilizerFactory');
      expect(farm.status).toBe(40301);
    });

    it('lists customer agents and group customers under their own menu codes', async () => {
      const agents = await f.as('admin', 'GET', '/api/admin/user/page/customerAgents');
      expect(agents.data.rows.map((u: { username: string }) => u.username)).toEqual(['agent']);
      const selfOnly = await f.as('agent', 'GET', '/api/admin/user/page/customerAgents');
      expect(selfOnly.data.rows.map((u: { username: string }) => u.username)).toEqual(['agent']);
      expect((await f.as('farm', 'GET', '/api/admin/user/page/customerAgents')).status).toBe(40301);

      const providers = await f.as('provider', 'GET', '/api/admin/user/page/groupCustomers');
      expect(providers.status).toBe(200);
      expect(providers.data.rows.map((u: { username: string }) => u.username)).toEqual(['provider']);
      expect(providers.data.rows[0].blocId).toBe(await f.blocId());
      expect((await f.as('agent', 'GET', '/api/admin/user/page/groupCustomers')).status).toBe(40301);
    });
  });

  describe('base info, lookup by name and GET /api/admin/user/{id}', () => {
    it('returns the caller’s base info with the organisation logo as attr2', async () => {
      const r = await f.as('farm', 'GET', '/api/admin/user/baseInfo');
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ username: 'farm', mobilePhone: '13800000002', orgType: 0, farmType: 0, farmId: await f.orgOf('farm'), attr2: expect.any(String) });
      const mobile = await f.as('mobile', 'GET', '/api/admin/user/baseInfo');
      expect(mobile.data.username).toBe('mobile');
    });

    it('gets base info by id: oneself always, others in scope with a people menu', async () => {
      const deviceId = await f.userId('device');
      const self = await f.as('device', 'GET', `/api/admin/user/front/baseInfo/getById?id=${deviceId}`);
      expect(self.data.username).toBe('device');
      const byFarm = await f.as('farm', 'GET', `/api/admin/user/front/baseInfo/getById?id=${deviceId}`);
      expect(byFarm.data.username).toBe('device');
      const farm2 = await f.as('farm2', 'GET', `/api/admin/user/front/baseInfo/getById?id=${deviceId}`);
      expect(farm2.status).toBe(40401);
      const tech = await f.as('tech', 'GET', `/api/admin/user/front/baseInfo/getById?id=${deviceId}`);
      expect(tech.status).toBe(40301);
      expect((await f.as('farm', 'GET', '/api/admin/user/front/baseInfo/getById?id=1%20OR%201=1')).status).toBe(40001);
    });

    it('finds a username in scope, or an unattached one without contact data', async () => {
      const inScope = await f.as('farm', 'GET', '/api/admin/user/getByUserName?username=device');
      expect(inScope.data).toMatchObject({ username: 'device', mobilePhone: '13800000010' });
      const otherFarm = await f.as('farm', 'GET', '/api/admin/user/getByUserName?username=farm2');
      expect(otherFarm.status).toBe(40401);
      const unattached = await f.as('farm', 'GET', '/api/admin/user/getByUserName?username=agent');
      expect(unattached.status).toBe(200);
      expect(unattached.data).toMatchObject({ username: 'agent', orgId: null, mobilePhone: null });
      const admin = await f.as('farm', 'GET', '/api/admin/user/getByUserName?username=admin');
      expect(admin.status).toBe(40401);
      const bad = await f.as('farm', 'GET', `/api/admin/user/getByUserName?username=${encodeURIComponent("x' OR '1'='1")}`);
      expect(bad.status).toBe(40001);
    });

    it('reads one user in scope; other farms’ users answer as missing', async () => {
      const deviceId = await f.userId('device');
      const r = await f.as('farm', 'GET', `/api/admin/user/${deviceId}`);
      expect(r.data).toMatchObject({ id: deviceId, username: 'device', orgId: await f.orgOf('farm') });
      const farm2Id = await f.userId('farm2');
      const hidden = await f.as('farm', 'GET', `/api/admin/user/${farm2Id}`);
      const missing = await f.as('farm', 'GET', '/api/admin/user/999999');
      expect([hidden.http, hidden.status, hidden.message]).toEqual([missing.http, missing.status, missing.message]);
      expect((await f.as('farm', 'GET', '/api/admin/user/abc')).status).toBe(40001);
      expect((await f.as('farm', 'GET', '/api/admin/user/0')).status).toBe(40001);
      expect((await f.as('mobile', 'GET', `/api/admin/user/${deviceId}`)).status).toBe(40301);
    });
  });

  describe('adding people', () => {
    it('adds a person to the caller’s farm with an audit row, and the new person can log in when given a password', async () => {
      const r = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', {
        username: 'farm_worker1',
        password: 'worker_2026',
        name: '新员工',
        mobilePhone: '13912340001',
      });
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ username: 'farm_worker1', kind: 'operator', orgId: await f.orgOf('farm'), roles: [] });
      expect(await f.auditCount('user.create', r.data.id)).toBe(1);
      const hash = (await f.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [r.data.id])).rows[0].password_hash;
      expect(hash).toMatch(/^scrypt\$/);
      expect(hash).not.toContain('worker_2026');
      await expect(f.login('farm_worker1', 'worker_2026')).resolves.toEqual(expect.any(String));
    });

    it('adds device managers, inspectors and password-less staff with their kinds', async () => {
      const device = await f.as('farm', 'POST', '/api/admin/user/add/deviceManager', { username: 'farm_dev2', password: 'device_2026', name: '设备员' });
      expect(device.data.kind).toBe('device');
      const inspector = await f.as('admin', 'POST', '/api/admin/user/add/inspector', {
        farmId: await f.orgOf('center'),
        username: 'center_insp',
        password: 'inspect_2026',
        name: '巡检员',
      });
      expect(inspector.data).toMatchObject({ kind: 'inspector', orgId: await f.orgOf('center') });
      const staff = await f.as('farm', 'POST', '/api/admin/user/addPerson/byFarmId', { username: 'farm_hand', name: '临时工' });
      expect(staff.data.kind).toBe('member');
      const login = await f.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username: 'farm_hand', password: 'demo_2026' } });
      expect(login.json().status).not.toBe(200);
    });

    it('grants only roles the caller holds', async () => {
      const roles = (await f.db.query<{ id: number; code: string }>('SELECT id, code FROM roles')).rows;
      const role = (code: string) => roles.find((r) => r.code === code)!.id;
      const ok = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', {
        username: 'farm_op2',
        password: 'operator_2026',
        name: '副场长',
        roleIds: [role('farmOperator')],
      });
      expect(ok.status).toBe(200);
      expect(ok.data.roles.map((r: { code: string }) => r.code)).toEqual(['farmOperator']);
      expect(await f.auditCount('user.roles', ok.data.id)).toBe(1);
      const before = await f.snapshot();
      for (const code of ['platformAdmin', 'serviceProvider']) {
        const r = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', { username: `esc_${code}`, password: 'operator_2026', name: 'x', roleIds: [role(code)] });
        expect(r.status, code).toBe(40001);
      }
      const missing = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', { username: 'esc_missing', password: 'operator_2026', name: 'x', roleIds: [99999] });
      expect(missing.status).toBe(40001);
      expect(await f.snapshot()).toBe(before);
    });

    it('refuses other farms, taken usernames and bad bodies, changing nothing', async () => {
      const before = await f.snapshot();
      const otherFarm = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', {
        farmId: await f.orgOf('farm2'),
        username: 'intruder',
        password: 'intruder_2026',
        name: '闯入者',
      });
      expect(otherFarm.status).toBe(40401);
      const outsideBloc = await f.as('provider', 'POST', '/api/admin/user/add/byFarmId', {
        farmId: await f.orgOf('nursery'),
        username: 'intruder',
        password: 'intruder_2026',
        name: '闯入者',
      });
      expect(outsideBloc.status).toBe(40401);
      const taken = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', { username: 'FARM2', password: 'abcdef_2026', name: 'dup' });
      expect(taken.status).toBe(40001);
      expect(taken.message).toContain('FARM2');
      // On the field, in the words of the shared generator (rule `unique`).
      expect(taken.data.errors).toEqual([{ field: 'username', message: 'Username “FARM2” is already in use; choose another' }]);
      const phoneTaken = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', { username: 'dup_phone', password: 'abcdef_2026', name: 'dup', mobilePhone: '13800000003' });
      expect(phoneTaken.status).toBe(40001);
      expect(phoneTaken.data.errors).toEqual([{ field: 'mobilePhone', message: 'Phone number “13800000003” is already in use; choose another' }]);
      const badPhone = await f.as('farm', 'POST', '/api/admin/user/add/byFarmId', { username: 'bad_phone', password: 'abcdef_2026', name: 'bad', mobilePhone: '12345678901' });
      expect(badPhone.data.errors).toEqual([{ field: 'mobilePhone', message: 'Phone number format incorrect' }]);
      const bad: Record<string, unknown>[] = [
        {},
        { username: 'nopass', name: 'x' },
        { username: 'ab', password: 'abcdef', name: 'x' },
        { username: 'x'.repeat(33), password: 'abcdef', name: 'x' },
        { username: "robert'); DROP TABLE users;--", password: 'abcdef', name: 'x' },
        { username: 'scripted', password: 'abcdef', name: '<script>alert(1)</script>' },
        { username: 'longname', password: 'abcdef', name: 'x'.repeat(65) },
        { username: 'shortpw', password: 'abc', name: 'x' },
        { username: 'badpw', password: 'abc def!', name: 'x' },
        { username: 'badphone', password: 'abcdef', name: 'x', mobilePhone: '12345' },
        { username: 'extra', password: 'abcdef', name: 'x', isAdmin: true },
        { username: 'extra2', password: 'abcdef', name: 'x', orgId: 1 },
        { username: 'badfarm', password: 'abcdef', name: 'x', farmId: 'one' },
        { username: 'badroles', password: 'abcdef', name: 'x', roleIds: ['1; DROP TABLE roles'] },
        { username: 'nested', password: 'abcdef', name: { $ne: null } },
      ];
      for (const body of bad) {
        const r = await f.as('admin', 'POST', '/api/admin/user/add/byFarmId', { farmId: await f.orgOf('farm'), ...body });
        expect(r.status, JSON.stringify(body)).toBe(40001);
        expect(r.http, JSON.stringify(body)).toBe(400);
      }
      const malformed = await f.app.inject({
        method: 'POST',
        url: '/api/admin/user/add/byFarmId',
        headers: { authorization: await f.login('farm'), 'content-type': 'application/json' },
        payload: '{"username": "broken"',
      });
      expect(malformed.json().status).toBe(40001);
      expect(await f.snapshot()).toBe(before);
    });

    it('refuses callers without the element code, whatever their menus', async () => {
      for (const [who, url] of [
        ['tech', '/api/admin/user/add/byFarmId'],
        ['mobile', '/api/admin/user/addPerson/byFarmId'],
        ['agent', '/api/admin/user/add/deviceManager'],
        ['center', '/api/admin/user/add/inspector'],
        ['farm', '/api/admin/user/add/customerAgent'],
        ['farm', '/api/admin/user/add/groupCustomer'],
      ] as const) {
        const r = await f.as(who, 'POST', url, { username: 'nobody_x', password: 'abcdef', name: 'x' });
        expect(r.status, `${who} ${url}`).toBe(40301);
      }
    });

    it('adds customer agents and group customers', async () => {
      const agent = await f.as('admin', 'POST', '/api/admin/user/add/customerAgent', {
        blocId: await f.blocId(),
        username: 'agent2',
        password: 'agent_2026',
        name: '客户经理二',
      });
      expect(agent.data).toMatchObject({ kind: 'agent', blocId: await f.blocId(), orgId: null });
      const byProvider = await f.as('provider', 'POST', '/api/admin/user/add/groupCustomer', { username: 'provider2', password: 'provider_2026', name: '服务商二' });
      expect(byProvider.data).toMatchObject({ kind: 'provider', blocId: await f.blocId() });
      const newBloc = await f.as('admin', 'POST', '/api/admin/user/add/groupCustomer', {
        blocName: '新集团',
        city: '长春市',
        username: 'provider3',
        password: 'provider_2026',
        name: '服务商三',
      });
      expect(newBloc.data.blocName).toBe('新集团');
      expect(await f.auditCount('bloc.create', newBloc.data.blocId)).toBe(1);
      const providerFoundsBloc = await f.as('provider', 'POST', '/api/admin/user/add/groupCustomer', {
        blocName: '私建集团',
        username: 'provider4',
        password: 'provider_2026',
        name: 'x',
      });
      expect(providerFoundsBloc.status).toBe(40301);
      const otherBloc = await f.as('provider', 'POST', '/api/admin/user/add/groupCustomer', {
        blocId: newBloc.data.blocId,
        username: 'provider5',
        password: 'provider_2026',
        name: 'x',
      });
      expect(otherBloc.status).toBe(40401);
    });
  });

  describe('PUT /api/admin/user/updateUserStatus', () => {
    it('disables and enables an account, which then cannot or can use its token', async () => {
      const id = await f.userId('mobile');
      const token = await f.login('mobile');
      const off = await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${id}&status=0`);
      expect(off.status).toBe(200);
      expect(off.data.status).toBe(0);
      const refused = await f.app.inject({ method: 'GET', url: '/api/admin/user/baseInfo', headers: { authorization: token } });
      expect(refused.json().status).toBe(40101);
      const on = await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${id}&status=1`);
      expect(on.data.status).toBe(1);
      expect(await f.auditCount('user.status', id)).toBe(2);
    });

    it('needs userManager:status, keeps to scope and refuses one’s own account', async () => {
      const id = await f.userId('device');
      expect((await f.as('farm', 'PUT', `/api/admin/user/updateUserStatus?id=${id}&status=0`)).status).toBe(40301);
      expect((await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${await f.userId('admin')}&status=0`)).status).toBe(40001);
      for (const q of ['id=1', 'status=0', `id=${id}&status=5`, `id=${id}&status=0;DROP`, 'id=-1&status=0']) {
        expect((await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?${q}`)).status, q).toBe(40001);
      }
      expect((await f.as('admin', 'PUT', '/api/admin/user/updateUserStatus?id=999999&status=0')).status).toBe(40401);
    });
  });

  describe('PUT and DELETE /api/admin/user/{id}', () => {
    it('changes fields with the current version, bumps it and audits the difference', async () => {
      const id = await f.userId('device');
      const before = (await f.as('farm', 'GET', `/api/admin/user/${id}`)).data;
      const r = await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: before.version, name: '吴刚（设备）', description: '负责灌溉' });
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ name: '吴刚（设备）', description: '负责灌溉', version: before.version + 1 });
      const log = await f.db.query<{ changes: Record<string, unknown>; username: string }>(
        `SELECT changes, username FROM operation_log WHERE action = 'user.update' AND record_id = $1 ORDER BY id DESC LIMIT 1`,
        [String(id)],
      );
      expect(log.rows[0].username).toBe('farm');
      expect(log.rows[0].changes).toMatchObject({ name: { from: before.name, to: '吴刚（设备）' } });
    });

    it('refuses a stale version with 40001 and a message, changing nothing', async () => {
      const id = await f.userId('device');
      const current = (await f.as('farm', 'GET', `/api/admin/user/${id}`)).data;
      const before = await f.snapshot();
      const r = await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: current.version - 1, name: '旧版本' });
      expect(r.status).toBe(40001);
      expect(r.message).toContain(String(current.version));
      expect(await f.snapshot()).toBe(before);
    });

    it('lets exactly one of two concurrent writers with the same version win', async () => {
      const id = await f.userId('device');
      const current = (await f.as('farm', 'GET', `/api/admin/user/${id}`)).data;
      await f.login('admin');
      const [a, b] = await Promise.all([
        f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: current.version, description: 'writer A' }),
        f.as('admin', 'PUT', `/api/admin/user/${id}`, { version: current.version, description: 'writer B' }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 40001]);
      const loser = a.status === 200 ? b : a;
      const winner = a.status === 200 ? a : b;
      expect(loser.message).toMatch(/changed this record/);
      const after = (await f.as('farm', 'GET', `/api/admin/user/${id}`)).data;
      expect(after.version).toBe(current.version + 1);
      expect(after.description).toBe(winner.data.description);
    });

    it('guards status, password and roles behind their own element codes', async () => {
      const id = await f.userId('mobile');
      const v = (await f.as('farm', 'GET', `/api/admin/user/${id}`)).data.version;
      expect((await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: v, status: 0 })).status).toBe(40301);
      expect((await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: v, password: 'newpass_2026' })).status).toBe(40301);
      const reset = await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version: v, password: 'newpass_2026' });
      expect(reset.status).toBe(200);
      expect(await f.auditCount('user.resetPassword', id)).toBe(1);
      await expect(f.login('mobile', 'newpass_2026')).resolves.toEqual(expect.any(String));
      expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version: reset.data.version })).status).toBe(40001);
      expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version: reset.data.version, username: 'renamed' })).status).toBe(40001);
      expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { name: 'no version' })).status).toBe(40001);
    });

    it('changes roles as an audited permission change, never beyond the caller’s own', async () => {
      const id = await f.userId('mobile');
      const roles = (await f.db.query<{ id: number; code: string }>('SELECT id, code FROM roles')).rows;
      const role = (code: string) => roles.find((r) => r.code === code)!.id;
      let v = (await f.as('farm', 'GET', `/api/admin/user/${id}`)).data.version;
      const before = await f.snapshot();
      expect((await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: v, roleIds: [role('platformAdmin')] })).status).toBe(40001);
      expect((await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: v, roleIds: [role('serviceProvider')] })).status).toBe(40001);
      expect((await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: v, kind: 'admin' })).status).toBe(40001);
      expect(await f.snapshot()).toBe(before);
      const granted = await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: v, roleIds: [role('farmOperator')] });
      expect(granted.data.roles.map((r: { code: string }) => r.code)).toEqual(['farmOperator']);
      const log = await f.db.query<{ changes: { roles: { from: number[]; to: number[] } } }>(
        `SELECT changes FROM operation_log WHERE action = 'user.roles' AND record_id = $1 ORDER BY id DESC LIMIT 1`,
        [String(id)],
      );
      expect(log.rows[0].changes.roles).toEqual({ from: [], to: [role('farmOperator')] });
      v = granted.data.version;
      const revoked = await f.as('farm', 'PUT', `/api/admin/user/${id}`, { version: v, roleIds: [] });
      expect(revoked.data.roles).toEqual([]);
    });

    it('does not let a farm reach another farm’s user or a platform administrator', async () => {
      const before = await f.snapshot();
      const farm2 = await f.userId('farm2');
      expect((await f.as('farm', 'PUT', `/api/admin/user/${farm2}`, { version: 1, name: 'hijack' })).status).toBe(40401);
      expect((await f.as('farm', 'DELETE', `/api/admin/user/${farm2}`)).status).toBe(40401);
      expect((await f.as('provider', 'PUT', `/api/admin/user/${await f.userId('factory')}`, { version: 1, name: 'hijack' })).status).toBe(40401);
      expect((await f.as('tech', 'PUT', `/api/admin/user/${farm2}`, { version: 1, name: 'hijack' })).status).toBe(40301);
      expect((await f.as('agent', 'DELETE', `/api/admin/user/${farm2}`)).status).toBe(40301);
      expect(await f.snapshot()).toBe(before);
    });

    it('deletes a user in scope with an audit row, never oneself', async () => {
      const created = await f.as('farm', 'POST', '/api/admin/user/addPerson/byFarmId', { username: 'to_delete', name: '待删除' });
      const id = created.data.id;
      const r = await f.as('farm', 'DELETE', `/api/admin/user/${id}`);
      expect(r).toMatchObject({ status: 200, data: { id } });
      expect((await f.as('farm', 'GET', `/api/admin/user/${id}`)).status).toBe(40401);
      expect(await f.auditCount('user.delete', id)).toBe(1);
      expect((await f.as('farm', 'DELETE', `/api/admin/user/${await f.userId('farm')}`)).status).toBe(40001);
    });
  });
});
