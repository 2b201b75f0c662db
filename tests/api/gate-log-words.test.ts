import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

interface LogRow {
  action: string;
  actionName: string;
  family: string;
  familyName: string;
  resource: string | null;
  resourceName: string | null;
  recordId: string | null;
  recordName: string | null;
  changeList: { field: string; title: string; from?: string; to: string }[];
  changeText: string;
}

const crop = (name: string) => ({ name, category: 'grain', growthDaysMin: 60, growthDaysMax: 90, status: 1 });

describe.each(engines())('the operation log in words on $name', (engine) => {
  let f: AccountsFixture;
  let cropId: number;
  let roleId: number;
  const log = async (query: string, lang: 'zh' | 'en' | 'es' = 'en') => {
    const res = await f.app.inject({ method: 'GET', url: `/api/admin/gateLog/page?pageSize=200&${query}`, headers: { authorization: await f.login('admin'), 'accept-language': lang } });
    const body = res.json();
    expect(body.status, query).toBe(200);
    return body.data as { total: number; rows: LogRow[] };
  };

  beforeAll(async () => {
    f = await accountsFixture(engine);
    const created = await f.as('admin', 'POST', '/api/kms/crops', crop('词语高粱'));
    expect(created.status).toBe(200);
    cropId = created.data.id;
    const updated = await f.as('admin', 'PUT', `/api/kms/crops/${cropId}`, { ...crop('词语水稻'), category: 'vegetable', growthDaysMax: 120, version: created.data.version });
    expect(updated.status).toBe(200);
    const role = await f.as('admin', 'POST', '/api/admin/role', { code: 'wordsProbe', name: { zh: '日志词语', en: 'Log words', es: 'Palabras' } });
    expect(role.status).toBe(200);
    roleId = role.data.id;
    const perms = await f.as('admin', 'GET', `/api/admin/role/${roleId}/permissions`);
    const granted = await f.as('admin', 'PUT', `/api/admin/role/${roleId}/permissions`, { version: perms.data.version, menus: ['baseManager', 'gateLogManager'], elements: [] });
    expect(granted.status).toBe(200);
    const farmer = await f.userId('farm');
    expect((await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${farmer}&status=0`)).status).toBe(200);
    expect((await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${farmer}&status=1`)).status).toBe(200);
  });
  afterAll(async () => {
    await f?.close();
  });

  it('names actions and resources in zh, en and es, from the catalogue and from resource titles', async () => {
    const zh = (await log(`action=crops.update&recordId=${cropId}`, 'zh')).rows[0];
    expect(zh).toMatchObject({ action: 'crops.update', actionName: '修改作物', resourceName: '作物', family: 'crops', familyName: '作物' });
    const en = (await log(`action=crops.update&recordId=${cropId}`, 'en')).rows[0];
    expect(en).toMatchObject({ actionName: 'Crops: edited', resourceName: 'Crops' });
    const es = (await log(`action=crops.update&recordId=${cropId}`, 'es')).rows[0];
    expect(es).toMatchObject({ actionName: 'Cultivos: editado', resourceName: 'Cultivos' });
    const perm = (await log(`action=role.permissions&recordId=${roleId}`, 'zh')).rows[0];
    expect(perm).toMatchObject({ actionName: '修改角色权限', resourceName: '角色', familyName: '角色' });
    const login = (await log('action=login', 'en')).rows[0];
    expect(login).toMatchObject({ actionName: 'Signed in', resourceName: 'Session', familyName: 'Sign-in and sign-out' });
  });

  it('shows the change as field: old → new with field titles and enum titles', async () => {
    const zh = (await log(`action=crops.update&recordId=${cropId}`, 'zh')).rows[0];
    expect(zh.changeList).toEqual(
      expect.arrayContaining([
        { field: 'name', title: '作物名称', from: '词语高粱', to: '词语水稻' },
        { field: 'growthDaysMax', title: expect.any(String), from: '90', to: '120' },
        { field: 'category', title: '作物分类', from: '粮食作物', to: expect.any(String) },
      ]),
    );
    expect(zh.changeList.map((l) => l.field)).not.toContain('version');
    expect(zh.changeText).toContain('作物名称: 词语高粱 → 词语水稻');
    const created = (await log(`action=crops.create&recordId=${cropId}`, 'en')).rows[0];
    // A creation records values, not replacements.
    expect(created.changeList.find((l) => l.field === 'name')).toEqual({ field: 'name', title: 'Crop name', to: '词语高粱' });
    const perm = (await log(`action=role.permissions&recordId=${roleId}`, 'en')).rows[0];
    // Nothing was removed: an empty value says nothing and is left out.
    expect(perm.changeList.map((l) => l.title)).toEqual(['Granted']);
    // Menu codes read by their titles.
    expect(perm.changeList[0].to).toContain('Operation log');
    expect(perm.changeList[0].to).not.toContain('gateLogManager');
    // Coded values of the hand-written tables read as words.
    const farmer = await f.userId('farm');
    const status = (await log(`action=user.status&recordId=${farmer}`, 'zh')).rows[0];
    expect(status.changeList).toEqual([{ field: 'status', title: '状态', from: '停用', to: '启用' }]);
  });

  it('names the record as it is now, and a deleted one as it was', async () => {
    expect((await log(`action=crops.create&recordId=${cropId}`, 'zh')).rows[0].recordName).toBe('词语水稻');
    expect((await log(`action=role.create&recordId=${roleId}`, 'en')).rows[0].recordName).toBe('Log words');
    const doomed = await f.as('admin', 'POST', '/api/kms/crops', crop('词语将删'));
    expect((await f.as('admin', 'DELETE', `/api/kms/crops/${doomed.data.id}`)).status).toBe(200);
    expect((await log(`action=crops.delete&recordId=${doomed.data.id}`, 'zh')).rows[0].recordName).toBe('词语将删 (已删除)');
    expect((await log(`action=crops.create&recordId=${doomed.data.id}`, 'en')).rows[0].recordName).toBe('#' + doomed.data.id);
  });

  it('filters actions by family, by words in any language, and resources by words', async () => {
    const byWords = await log(`action=${encodeURIComponent('用户')}`);
    const byFamily = await log('family=user');
    const userActions = (await f.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log WHERE action LIKE 'user.%' OR action LIKE 'orgUser.%'`)).rows[0].n;
    expect(userActions).toBeGreaterThan(0);
    expect(byFamily.total).toBe(userActions);
    expect(byWords.rows.every((r) => r.family === 'user')).toBe(true);
    expect(byWords.total).toBe(userActions);

    const roles = await log(`action=${encodeURIComponent('角色')}`);
    expect(new Set(roles.rows.map((r) => r.action))).toEqual(new Set(['role.create', 'role.permissions']));
    const en = await log('action=Role%20permissions');
    expect(en.rows.map((r) => r.action)).toEqual(['role.permissions']);
    expect((await log('action=Cultivos')).rows.every((r) => r.family === 'crops')).toBe(true);
    expect((await log('action=Cultivos')).total).toBeGreaterThanOrEqual(3);
    // Exact codes keep working.
    expect((await log('action=crops.update')).rows.map((r) => r.action)).toEqual(['crops.update']);
    expect((await log(`resource=${encodeURIComponent('作物')}`)).rows.every((r) => r.resource === 'crops')).toBe(true);
    expect((await log('resource=crops')).total).toBe((await log(`resource=${encodeURIComponent('作物')}`)).total);
    expect((await log('action=nothingLikeThis')).total).toBe(0);
    expect((await log('family=nothing')).total).toBe(0);
  });

  it('lists the families in three languages, behind the log menu code', async () => {
    const r = await f.as('admin', 'GET', '/api/admin/gateLog/families');
    const user = r.data.find((x: { value: string }) => x.value === 'user');
    expect(user.label).toEqual({ zh: '用户', en: 'Users', es: 'Usuarios' });
    expect(r.data.find((x: { value: string }) => x.value === 'crops').label.zh).toBe('作物');
    expect((await f.as('farm', 'GET', '/api/admin/gateLog/families')).status).toBe(40301);
  });
});
