import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';

/** Issue 11 item 4: disabling, a password change and losing codes end every earlier token. */
describe.each(engines())('tokens end with the account on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });

  const works = async (token: string) => {
    const res = await f.app.inject({ method: 'GET', url: '/api/admin/user/front/baseInfo', headers: { authorization: token } });
    return res.json().status === 200;
  };
  const roleId = async (code: string) => (await f.db.query<{ id: number }>('SELECT id FROM roles WHERE code = $1', [code])).rows[0].id;

  it('disabling ends every token, and re-enabling does not revive them', async () => {
    const id = await f.userId('mobile');
    const [one, two] = [await f.login('mobile'), await f.login('mobile')];
    expect((await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${id}&status=0`)).status).toBe(200);
    expect((await f.as('admin', 'PUT', `/api/admin/user/updateUserStatus?id=${id}&status=1`)).status).toBe(200);
    expect(await works(one)).toBe(false);
    expect(await works(two)).toBe(false);
    // Logging out with a dead token is refused like any invalid token.
    const logout = await f.app.inject({ method: 'POST', url: `/api/auth/jwt/invalid?token=${one}` });
    expect(logout.json().status).toBe(40101);
    // A new login works.
    expect(await works(await f.login('mobile'))).toBe(true);
  });

  it('disabling through the user edit call ends the tokens too', async () => {
    const id = await f.userId('device');
    const token = await f.login('device');
    const version = (await f.as('admin', 'GET', `/api/admin/user/${id}`)).data.version;
    expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version, status: 0 })).status).toBe(200);
    expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version: version + 1, status: 1 })).status).toBe(200);
    expect(await works(token)).toBe(false);
  });

  it('every password change ends the earlier tokens: reset by an administrator, by SMS code, and in the user edit call', async () => {
    const token = await f.login('nursery');
    const other = await f.login('center');
    expect((await f.as('admin', 'POST', `/api/admin/user/front/changePasswordWithoutVerify?username=nursery&password=${DEMO_PASSWORD}`)).status).toBe(200);
    expect(await works(token)).toBe(false);
    expect(await works(other)).toBe(true);

    const bySms = await f.login('nursery');
    const phone = '13800000006';
    expect((await f.app.inject({ method: 'PUT', url: `/api/admin/user/front/sms/sendChangePassword?phone=${phone}` })).json().status).toBe(200);
    const code = (await f.db.query<{ code: string }>('SELECT code FROM sms_codes WHERE phone = $1 ORDER BY id DESC LIMIT 1', [phone])).rows[0].code;
    const changed = await f.app.inject({
      method: 'POST',
      url: `/api/admin/user/front/changePassword?phone=${phone}&password=${DEMO_PASSWORD}&code=${code}`,
      headers: { authorization: bySms },
    });
    expect(changed.json().status).toBe(200);
    expect(await works(bySms)).toBe(false);

    const byEdit = await f.login('nursery');
    const id = await f.userId('nursery');
    const version = (await f.as('admin', 'GET', `/api/admin/user/${id}`)).data.version;
    expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version, password: DEMO_PASSWORD })).status).toBe(200);
    expect(await works(byEdit)).toBe(false);
    expect(await works(await f.login('nursery'))).toBe(true);
  });

  it('a role change keeps the tokens when it only adds codes and ends them when it takes one away', async () => {
    const id = await f.userId('farm2');
    const own = await roleId('farmOperator');
    const extra = await roleId('customerAgent');
    const token = await f.login('farm2');
    const version = async () => (await f.as('admin', 'GET', `/api/admin/user/${id}`)).data.version;
    expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version: await version(), roleIds: [own, extra] })).status).toBe(200);
    expect(await works(token)).toBe(true);
    expect((await f.as('admin', 'PUT', `/api/admin/user/${id}`, { version: await version(), roleIds: [own] })).status).toBe(200);
    expect(await works(token)).toBe(false);
  });

  it('editing a role’s codes or platform flag ends its holders’ tokens only when codes go', async () => {
    const id = await roleId('customerAgent');
    const agent = await f.login('agent');
    const bystander = await f.login('farm');
    const role = async () => (await f.as('admin', 'GET', `/api/admin/role/${id}`)).data;
    const grant = async (elements: string[]) => {
      const current = await role();
      return f.as('admin', 'PUT', `/api/admin/role/${id}/permissions`, { version: current.version, menus: current.menus, elements });
    };
    const { elements } = await role();
    const removed = await grant(elements.slice(1));
    expect(removed.status, removed.message).toBe(200);
    expect(await works(agent)).toBe(false);

    const again = await f.login('agent');
    const restored = await grant(elements);
    expect(restored.status, restored.message).toBe(200);
    expect(await works(again)).toBe(true);

    const platformOn = await f.as('admin', 'PUT', `/api/admin/role/${id}`, { version: (await role()).version, platform: true });
    expect(platformOn.status, platformOn.message).toBe(200);
    expect(await works(again)).toBe(true);
    const platformOff = await f.as('admin', 'PUT', `/api/admin/role/${id}`, { version: (await role()).version, platform: false });
    expect(platformOff.status, platformOff.message).toBe(200);
    expect(await works(again)).toBe(false);
    expect(await works(bystander)).toBe(true);
  });
});
