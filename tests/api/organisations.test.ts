import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

const account = (username: string) => ({ username, password: 'account_2026', name: `账号 ${username}` });

describe.each(engines())('farms, blocs and organisation people (spec 7.2) on $name', (engine) => {
  let f: AccountsFixture;
  let roleId: (code: string) => number;
  beforeAll(async () => {
    f = await accountsFixture(engine);
    const roles = (await f.db.query<{ id: number; code: string }>('SELECT id, code FROM roles')).rows;
    roleId = (code) => roles.find((r) => r.code === code)!.id;
  });
  afterAll(async () => {
    await f?.close();
  });

  describe('fertilizer manufacturers', () => {
    it('lists manufacturers to any signed-in user in the page shape', async () => {
      const r = await f.as('mobile', 'GET', '/api/admin/user/front/getfertilizers');
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ total: 1, pageIndex: 1, pageSize: 20 });
      expect(r.data.rows[0]).toMatchObject({ id: await f.orgOf('factory'), type: 1 });
      expect((await f.as('mobile', 'GET', '/api/admin/user/front/getfertilizers?keyword=nothing-like-this')).data.total).toBe(0);
      expect((await f.as('mobile', 'GET', '/api/admin/user/front/getfertilizers?pageSize=9999')).status).toBe(40001);
    });

    it('registers a manufacturer with its first account (platform), audited', async () => {
      const r = await f.as('admin', 'POST', '/api/admin/user/front/regist/fertilizer', {
        name: '沃土肥业',
        city: '潍坊市',
        phone: '0536-1234567',
        account: { ...account('wotu'), roleIds: [roleId('manufacturer')] },
      });
      expect(r.status).toBe(200);
      expect(r.data.organisation).toMatchObject({ name: '沃土肥业', type: 1, blocId: null });
      expect(r.data.account).toMatchObject({ username: 'wotu', orgId: r.data.organisation.id, roles: [expect.objectContaining({ code: 'manufacturer' })] });
      expect(await f.auditCount('org.create', r.data.organisation.id)).toBe(1);
      expect(await f.auditCount('user.create', r.data.account.id)).toBe(1);
      const listed = await f.as('farm', 'GET', '/api/admin/user/front/getfertilizers?keyword=沃土');
      expect(listed.data.total).toBe(1);
    });

    it('refuses the registration to callers without userManager:add and bad bodies, changing nothing', async () => {
      const before = await f.snapshot();
      expect((await f.as('factory', 'POST', '/api/admin/user/front/regist/fertilizer', { name: 'x', account: account('fx1') })).status).toBe(40301);
      for (const body of [
        { name: 'x' },
        { account: account('fx2') },
        { name: 'x', account: { username: 'fx3', name: 'x' } },
        { name: 'x', account: { ...account('fx4'), extra: 1 } },
        { name: 'x'.repeat(65), account: account('fx5') },
        { name: 'x', logoUrl: 'javascript:alert(1)', account: account('fx6') },
        { name: 'x', phone: "1'; DROP TABLE organisations;--", account: account('fx7') },
      ]) {
        const r = await f.as('admin', 'POST', '/api/admin/user/front/regist/fertilizer', body);
        expect(r.status, JSON.stringify(body)).toBe(40001);
      }
      const taken = await f.as('admin', 'POST', '/api/admin/user/front/regist/fertilizer', { name: '重复账号厂', account: account('farm') });
      expect(taken.status).toBe(40001);
      expect(await f.snapshot()).toBe(before);
    });
  });

  describe('blocs', () => {
    it('lists a bloc’s organisations by type to its provider and the platform only', async () => {
      const bloc = await f.blocId();
      const farms = await f.as('provider', 'GET', `/api/admin/user/getBlocChildrenByType?id=${bloc}&type=0`);
      expect(farms.status).toBe(200);
      expect(farms.data.map((o: { id: number }) => o.id).sort()).toEqual([await f.orgOf('farm'), await f.orgOf('farm2')].sort());
      expect((await f.as('provider', 'GET', `/api/admin/user/getBlocChildrenByType?id=${bloc}&type=1`)).data).toEqual([]);
      expect((await f.as('admin', 'GET', `/api/admin/user/getBlocChildrenByType?id=${bloc}`)).data).toHaveLength(2);
      const other = await f.as('provider', 'GET', '/api/admin/user/getBlocChildrenByType?id=999999');
      expect(other.status).toBe(40401);
      expect((await f.as('farm', 'GET', `/api/admin/user/getBlocChildrenByType?id=${bloc}`)).status).toBe(40301);
      expect((await f.as('provider', 'GET', `/api/admin/user/getBlocChildrenByType?id=${bloc}&type=2`)).status).toBe(40001);
    });

    it('updates the provider’s own bloc, audited, and no other', async () => {
      const bloc = await f.blocId();
      const r = await f.as('provider', 'PUT', '/api/farmManage/bloc/updateBloc', { id: bloc, name: '黑土地农业服务集团（北区）' });
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ id: bloc, name: '黑土地农业服务集团（北区）' });
      expect(await f.auditCount('bloc.update', bloc)).toBe(1);
      const other = await f.db.query<{ id: number }>(`INSERT INTO blocs(name) VALUES ('别的集团') RETURNING id`);
      const otherId = other.rows[0].id;
      expect((await f.as('provider', 'PUT', '/api/farmManage/bloc/updateBloc', { id: otherId, name: 'hijack' })).status).toBe(40401);
      expect((await f.as('farm', 'PUT', '/api/farmManage/bloc/updateBloc', { id: bloc, name: 'hijack' })).status).toBe(40301);
      expect((await f.as('provider', 'PUT', '/api/farmManage/bloc/updateBloc', { id: bloc, name: '<b>x</b>' })).status).toBe(40001);
      expect((await f.as('provider', 'PUT', '/api/farmManage/bloc/updateBloc', { id: bloc })).status).toBe(40001);
    });
  });

  describe('farm information', () => {
    it('reads one’s own farm and those in scope; other farms answer as missing', async () => {
      const own = await f.as('farm', 'GET', '/api/admin/user/getFarmInfo');
      expect(own.data).toMatchObject({ id: await f.orgOf('farm'), type: 0, userCount: 3 });
      const farm2 = await f.orgOf('farm2');
      const hidden = await f.as('farm', 'GET', `/api/admin/user/getFarmInfo?farmId=${farm2}`);
      const missing = await f.as('farm', 'GET', '/api/admin/user/getFarmInfo?farmId=999999');
      expect([hidden.http, hidden.status, hidden.message]).toEqual([missing.http, missing.status, missing.message]);
      expect((await f.as('provider', 'GET', `/api/admin/user/getFarmInfo?farmId=${farm2}`)).data.id).toBe(farm2);
      expect((await f.as('provider', 'GET', `/api/admin/user/getFarmInfo?farmId=${await f.orgOf('center')}`)).status).toBe(40401);
      expect((await f.as('provider', 'GET', '/api/admin/user/getFarmInfo')).status).toBe(40001);
    });

    it('lets a farm update its own information, audited; not another farm’s', async () => {
      const r = await f.as('farm', 'POST', '/api/admin/user/updateFarmInfo', { address: '黑龙江省哈尔滨市双城区农丰镇 1 号', contact: '张伟' });
      expect(r.status).toBe(200);
      expect(r.data.address).toBe('黑龙江省哈尔滨市双城区农丰镇 1 号');
      expect(await f.auditCount('org.update', await f.orgOf('farm'))).toBe(1);
      const before = await f.snapshot();
      expect((await f.as('farm', 'POST', '/api/admin/user/updateFarmInfo', { id: await f.orgOf('farm2'), name: 'hijack' })).status).toBe(40401);
      expect((await f.as('mobile', 'POST', '/api/admin/user/updateFarmInfo', { name: 'hijack' })).status).toBe(40301);
      expect((await f.as('farm', 'POST', '/api/admin/user/updateFarmInfo', { type: 1 })).status).toBe(40001);
      expect((await f.as('farm', 'POST', '/api/admin/user/updateFarmInfo', { name: '' })).status).toBe(40001);
      expect(await f.snapshot()).toBe(before);
    });
  });

  describe('farms in a bloc', () => {
    it('adds a farm with its account to the provider’s bloc', async () => {
      const r = await f.as('provider', 'POST', '/api/admin/user/addGroupFarmAndFarmAccount', {
        farm: { name: '新垦农场', city: '绥化市' },
        account: { ...account('xinken'), roleIds: [] },
      });
      expect(r.status).toBe(200);
      expect(r.data.organisation).toMatchObject({ name: '新垦农场', type: 0, blocId: await f.blocId() });
      expect(r.data.account).toMatchObject({ username: 'xinken', orgId: r.data.organisation.id });
      const people = await f.as('provider', 'GET', `/api/admin/user/page/byFarmId?farmId=${r.data.organisation.id}`);
      expect(people.data.rows.map((u: { username: string }) => u.username)).toEqual(['xinken']);
    });

    it('refuses farm creation to a farm, to another bloc, and without element codes', async () => {
      const before = await f.snapshot();
      expect((await f.as('farm', 'POST', '/api/admin/user/addGroupFarmAndFarmAccount', { farm: { name: 'x' }, account: account('fa1') })).status).toBe(40301);
      expect((await f.as('center', 'POST', '/api/farmManage/org/addFarm', { name: 'x' })).status).toBe(40301);
      const otherBloc = (await f.db.query<{ id: number }>(`INSERT INTO blocs(name) VALUES ('他人集团') RETURNING id`)).rows[0].id;
      const snapshotWithBloc = await f.snapshot();
      expect((await f.as('provider', 'POST', '/api/farmManage/org/addFarm', { name: 'x', blocId: otherBloc })).status).toBe(40401);
      expect((await f.as('provider', 'POST', '/api/farmManage/org/addFarm', { name: 'x', type: 2 })).status).toBe(40001);
      expect(await f.snapshot()).toBe(snapshotWithBloc);
      await f.db.query('DELETE FROM blocs WHERE id = $1', [otherBloc]);
      expect(await f.snapshot()).toBe(before);
    });

    it('adds, updates and deletes an empty farm, each audited', async () => {
      const added = await f.as('provider', 'POST', '/api/farmManage/org/addFarm', { name: '临时农场', city: '肇东市' });
      expect(added.data).toMatchObject({ name: '临时农场', blocId: await f.blocId() });
      const id = added.data.id;
      const updated = await f.as('provider', 'PUT', '/api/farmManage/org/updateFarm', { id, name: '临时农场二', status: 0 });
      expect(updated.data).toMatchObject({ name: '临时农场二', status: 0 });
      expect((await f.as('provider', 'PUT', '/api/farmManage/org/updateFarm', { id, blocId: null })).status).toBe(40301);
      expect((await f.as('provider', 'PUT', '/api/farmManage/org/updateFarm', { id, type: 3 })).status).toBe(40301);
      const deleted = await f.as('provider', 'DELETE', `/api/farmManage/org/deleteFarm?id=${id}`);
      expect(deleted).toMatchObject({ status: 200, data: { id } });
      expect((await f.as('provider', 'GET', `/api/admin/user/getFarmInfo?farmId=${id}`)).status).toBe(40401);
      expect(await f.auditCount('org.create', id)).toBe(1);
      expect(await f.auditCount('org.update', id)).toBe(1);
      expect(await f.auditCount('org.delete', id)).toBe(1);
    });

    it('refuses deleting a farm that still has people, or outside the scope', async () => {
      const before = await f.snapshot();
      const r = await f.as('provider', 'DELETE', `/api/farmManage/org/deleteFarm?id=${await f.orgOf('farm2')}`);
      expect(r.status).toBe(40001);
      expect(r.message).toMatch(/still has 1 account/);
      expect((await f.as('provider', 'DELETE', `/api/farmManage/org/deleteFarm?id=${await f.orgOf('factory')}`)).status).toBe(40401);
      expect((await f.as('farm2', 'DELETE', `/api/farmManage/org/deleteFarm?id=${await f.orgOf('farm')}`)).status).toBe(40301);
      expect((await f.as('provider', 'DELETE', '/api/farmManage/org/deleteFarm?id=abc')).status).toBe(40001);
      expect(await f.snapshot()).toBe(before);
    });

    it('deletes a farm together with its account through front/deleteFarm', async () => {
      const r = await f.as('provider', 'POST', '/api/admin/user/addGroupFarmAndFarmAccount', { farm: { name: '短期农场' }, account: account('shortlived') });
      const farmId = r.data.organisation.id;
      const userId = r.data.account.id;
      const wrongUser = await f.as('provider', 'DELETE', `/api/admin/user/front/deleteFarm?farmId=${farmId}&userId=${await f.userId('farm2')}`);
      expect(wrongUser.status).toBe(40001);
      expect((await f.as('farm', 'DELETE', `/api/admin/user/front/deleteFarm?farmId=${farmId}&userId=${userId}`)).status).toBe(40301);
      const ok = await f.as('provider', 'DELETE', `/api/admin/user/front/deleteFarm?farmId=${farmId}&userId=${userId}`);
      expect(ok).toMatchObject({ status: 200, data: { farmId, userId } });
      expect((await f.db.query('SELECT 1 FROM users WHERE id = $1', [userId])).rows).toHaveLength(0);
      expect(await f.auditCount('org.delete', farmId)).toBe(1);
      expect(await f.auditCount('user.delete', userId)).toBe(1);
    });
  });

  describe('organisation users and roles', () => {
    it('puts an unattached person into the caller’s farm with roles, then removes them', async () => {
      const created = await f.as('admin', 'POST', '/api/admin/user/add/customerAgent', { username: 'loose_agent', password: 'agent_2026', name: '自由经理' });
      const id = created.data.id;
      expect(created.data.orgId).toBeNull();
      const added = await f.as('farm', 'POST', '/api/admin/orgUserRole/user/organizationUser', { userId: id, roleIds: [roleId('farmOperator')] });
      expect(added.status).toBe(200);
      expect(added.data).toMatchObject({ orgId: await f.orgOf('farm'), roles: [expect.objectContaining({ code: 'farmOperator' })] });
      expect(await f.auditCount('orgUser.assign', id)).toBe(1);

      const removed = await f.as('farm', 'DELETE', `/api/admin/orgUserRole/removeOrgUser/${id}`);
      expect(removed.data).toMatchObject({ orgId: null, roles: [] });
      expect(await f.auditCount('orgUser.remove', id)).toBe(1);
      expect((await f.as('farm', 'DELETE', `/api/admin/orgUserRole/removeOrgUser/${id}`)).status).toBe(40401);
    });

    it('refuses people of other organisations, oneself and roles beyond the caller’s', async () => {
      const before = await f.snapshot();
      const farm2 = await f.userId('farm2');
      expect((await f.as('farm', 'POST', '/api/admin/orgUserRole/user/organizationUser', { userId: farm2, roleIds: [] })).status).toBe(40401);
      expect((await f.as('farm', 'DELETE', `/api/admin/orgUserRole/removeOrgUser/${farm2}`)).status).toBe(40401);
      expect((await f.as('farm', 'DELETE', `/api/admin/orgUserRole/removeOrgUser/${await f.userId('farm')}`)).status).toBe(40001);
      const mobile = await f.userId('mobile');
      const escalate = await f.as('farm', 'POST', '/api/admin/orgUserRole/user/organizationUser', { userId: mobile, roleIds: [roleId('platformAdmin')] });
      expect(escalate.status).toBe(40001);
      expect((await f.as('tech', 'POST', '/api/admin/orgUserRole/user/organizationUser', { userId: mobile, roleIds: [] })).status).toBe(40301);
      expect((await f.as('farm', 'POST', '/api/admin/orgUserRole/user/organizationUser', { userId: mobile })).status).toBe(40001);
      expect((await f.as('farm', 'POST', '/api/admin/orgUserRole/user/organizationUser', { userId: mobile, roleIds: [1, 1] })).status).toBe(40001);
      expect(await f.snapshot()).toBe(before);
    });

    it('creates an account in an organisation of any type', async () => {
      const r = await f.as('admin', 'POST', '/api/admin/user/front/regist/organizationUser', {
        orgId: await f.orgOf('nursery'),
        kind: 'tech',
        ...account('nursery_tech'),
        roleIds: [roleId('seedlingBase')],
      });
      expect(r.data).toMatchObject({ kind: 'tech', orgId: await f.orgOf('nursery'), orgType: 4 });
      const own = await f.as('farm', 'POST', '/api/admin/user/front/regist/organizationUser', account('farm_clerk'));
      expect(own.data).toMatchObject({ kind: 'operator', orgId: await f.orgOf('farm') });
      expect((await f.as('farm', 'POST', '/api/admin/user/front/regist/organizationUser', { ...account('farm_x'), orgId: await f.orgOf('nursery') })).status).toBe(40401);
      expect((await f.as('farm', 'POST', '/api/admin/user/front/regist/organizationUser', { ...account('farm_y'), kind: 'admin' })).status).toBe(40001);
    });
  });

  describe('organisation tree and people with roles', () => {
    it('groups a farm’s people by role', async () => {
      const r = await f.as('farm2', 'GET', '/api/admin/user/page/byFarmId/orgTreebyFaId');
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ type: 'org', id: await f.orgOf('farm2') });
      expect(r.data.children).toEqual([
        expect.objectContaining({ type: 'role', code: 'farmOperator', children: [expect.objectContaining({ type: 'user', username: 'farm2' })] }),
      ]);
      const farm1 = await f.as('farm', 'GET', `/api/admin/user/page/byFarmId/orgTreebyFaId?farmId=${await f.orgOf('farm')}`);
      const unassigned = farm1.data.children.find((c: { id: number | null }) => c.id === null);
      expect(unassigned.children.map((u: { username: string }) => u.username)).toContain('mobile');
      expect((await f.as('farm2', 'GET', `/api/admin/user/page/byFarmId/orgTreebyFaId?farmId=${await f.orgOf('farm')}`)).status).toBe(40401);
      expect((await f.as('agent', 'GET', '/api/admin/user/page/byFarmId/orgTreebyFaId')).status).toBe(40301);
    });

    it('lists a farm’s people holding given roles (repeated roleIds)', async () => {
      const farmOrg = await f.orgOf('farm');
      const r = await f.as('farm', 'GET', `/api/admin/user/page/byFarmId/userWithRolesByRoleIds2?farmId=${farmOrg}&roleIds=${roleId('deviceManager')}&roleIds=${roleId('technician')}`);
      expect(r.status).toBe(200);
      expect(r.data.rows.map((u: { username: string }) => u.username)).toEqual(['device']);
      expect(r.data.rows[0].roles[0].code).toBe('deviceManager');
      const single = await f.as('farm', 'GET', `/api/admin/user/page/byFarmId/userWithRolesByRoleIds2?roleIds=${roleId('farmOperator')}`);
      expect(single.data.rows.map((u: { username: string }) => u.username)).toContain('farm');
      expect((await f.as('farm', 'GET', '/api/admin/user/page/byFarmId/userWithRolesByRoleIds2')).status).toBe(40001);
      expect((await f.as('farm', 'GET', '/api/admin/user/page/byFarmId/userWithRolesByRoleIds2?roleIds=x')).status).toBe(40001);
      const other = await f.as('farm', 'GET', `/api/admin/user/page/byFarmId/userWithRolesByRoleIds2?farmId=${await f.orgOf('farm2')}&roleIds=1`);
      expect(other.status).toBe(40401);
    });

    it('lists people by ids, leaving out those outside the scope', async () => {
      const ids = [await f.userId('device'), await f.userId('farm2'), 999999];
      const r = await f.as('farm', 'GET', `/api/admin/user/page/byFarmId/userWithRolesByIds?${ids.map((i) => `ids=${i}`).join('&')}`);
      expect(r.data.rows.map((u: { username: string }) => u.username)).toEqual(['device']);
      expect(r.data.total).toBe(1);
      const all = await f.as('admin', 'GET', `/api/admin/user/page/byFarmId/userWithRolesByIds?${ids.map((i) => `ids=${i}`).join('&')}`);
      expect(all.data.total).toBe(2);
      const tooMany = Array.from({ length: 101 }, (_, i) => `ids=${i + 1}`).join('&');
      expect((await f.as('admin', 'GET', `/api/admin/user/page/byFarmId/userWithRolesByIds?${tooMany}`)).status).toBe(40001);
    });
  });
});
