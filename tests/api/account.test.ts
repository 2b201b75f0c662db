import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DEMO_PASSWORD, demoPhone } from '../../server/seed/seed.ts';
import { readMenusFile } from '../../server/seed/menus.ts';
import { menuCodes } from '../../runtime/schema/menus.ts';
import { HOSTILE, auth, expectClean } from './auth-helpers.ts';

const FARM_OPERATOR_FORBIDDEN = [
  'baseManager', 'authManager', 'monitorManager', 'registRequestManage', 'articleManage',
  'promotion', 'customerAgent', 'groupCustomer', 'multiFarm', 'nurseryManage',
];

interface MenuNode {
  id: number;
  code: string;
  path: string;
  title: { zh: string; en: string; es: string };
  name: string;
  icon: string | null;
  sort: number;
  hidden: boolean;
  defaultChild: string | null;
  children: MenuNode[];
}

describe.each(engines())('account calls on $name', (engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const get = (url: string, who: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...auth(tokens[who]), ...headers } });
  const info = (who: string) => get(`/api/admin/user/front/info?token=${tokens[who]}`, who);
  const menus2 = (who: string, headers: Record<string, string> = {}) => get(`/api/admin/user/front/menus2?token=${tokens[who]}`, who, headers);
  const send = (kind: 'send' | 'sendChangePassword', phone: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'PUT', url: `/api/admin/user/front/sms/${kind}?phone=${encodeURIComponent(phone)}`, headers });
  const latestCode = async (phone: string) =>
    (await t.db.query<{ code: string }>('SELECT code FROM sms_codes WHERE phone = $1 ORDER BY id DESC LIMIT 1', [phone])).rows[0]?.code;
  /** Lets the next code for `phone` be sent at once, as if a minute had passed. */
  const ageCodes = (phone: string, seconds = 61) =>
    t.db.query(`UPDATE sms_codes SET created_at = created_at - make_interval(secs => $2) WHERE phone = $1`, [phone, seconds]);
  const changePassword = (q: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/admin/user/front/changePassword?${new URLSearchParams(q)}`, headers });
  const canLogin = async (username: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username, password }, remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` })).json().status === 200;

  beforeAll(async () => {
    t = await createTestApp(engine);
    for (const who of ['admin', 'farm', 'farm2', 'factory', 'provider', 'mobile', 'agent', 'tech']) tokens[who] = await t.login(who);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('user info', () => {
    it('gives the platform administrator every menu and element code of the tree', async () => {
      const body = expectClean(await info('admin'));
      expect(body.status).toBe(200);
      const doc = await readMenusFile();
      expect(body.data.menus.map((m: { code: string }) => m.code).sort()).toEqual(menuCodes(doc).sort());
      const elements = body.data.elements.map((e: { code: string }) => e.code);
      expect(elements).toEqual(expect.arrayContaining(['userManager:add', 'userManager:edit', 'userManager:delete', 'userManager:status', 'userManager:resetPassword', 'cropsManager:export']));
      expect(body.data).toMatchObject({ name: '平台管理员', farmId: null, farmType: null });
    });

    it('describes a farm operator with the farm, and without the administrative keys', async () => {
      const body = expectClean(await info('farm')).data;
      expect(Object.keys(body).sort()).toEqual(
        ['chiefFarmId', 'city', 'description', 'elements', 'farmId', 'farmName', 'farmType', 'groupId', 'groupName', 'id', 'kind', 'menus', 'name', 'roles'].sort(),
      );
      expect(body.chiefFarmId).toBe(body.farmId);
      // The account's kind: what a person without an organisation is (the console's organisation label).
      expect(body.kind).toBe('operator');
      expect(body.roles.length).toBeGreaterThan(0);
      expect(body).toMatchObject({ name: '张伟', farmName: '禾丰生态农场', farmType: 0, groupName: '黑土地农业服务集团', city: '哈尔滨市' });
      expect(typeof body.farmId).toBe('number');
      const codes: string[] = body.menus.map((m: { code: string }) => m.code);
      expect(codes).toContain('farmMain');
      for (const key of FARM_OPERATOR_FORBIDDEN) expect(codes).not.toContain(key);
      expect(body.elements.length).toBeGreaterThan(0);
    });

    it('puts farm2 on another farm, in the northern city of the header title', async () => {
      const farm = expectClean(await info('farm')).data;
      const farm2 = expectClean(await info('farm2')).data;
      expect(farm2.farmType).toBe(0);
      expect(farm2.farmId).not.toBe(farm.farmId);
      expect(farm2.city).toBe(t.config.headerTitleCity);
    });

    it('gives a service provider a group and no farm', async () => {
      const body = expectClean(await info('provider')).data;
      expect(body).toMatchObject({ farmId: null, farmName: null, farmType: null, groupName: '黑土地农业服务集团' });
      expect(typeof body.groupId).toBe('number');
      expect(body.menus.map((m: { code: string }) => m.code)).toContain('groupCustomer');
      // The provider's chief farm is the first farm of its group: farm's.
      expect(body.chiefFarmId).toBe(expectClean(await info('farm')).data.farmId);
    });

    it('labels the manufacturer with farmType 1', async () => {
      expect(expectClean(await info('factory')).data).toMatchObject({ farmType: 1, farmName: '丰沃肥业有限公司' });
    });

    it('gives the mobile account zero menus and elements', async () => {
      const body = expectClean(await info('mobile'));
      expect(body.status).toBe(200);
      expect(body.data.menus).toEqual([]);
      expect(body.data.elements).toEqual([]);
    });

    it('refuses a query token that is not the Authorization token', async () => {
      for (const url of [
        `/api/admin/user/front/info?token=${tokens.farm2}`,
        '/api/admin/user/front/info',
        '/api/admin/user/front/info?token=',
        `/api/admin/user/front/menus2?token=${tokens.farm2}`,
      ]) {
        const res = await get(url, 'farm');
        expect(res.statusCode, url).toBe(401);
        expect(res.json().status, url).toBe(40101);
      }
    });

    it('follows a role change on the next request', async () => {
      await t.db.query(`UPDATE roles SET menus = array_remove(menus, 'showMap') WHERE code = 'customerAgent'`);
      try {
        const codes = expectClean(await info('agent')).data.menus.map((m: { code: string }) => m.code);
        expect(codes).not.toContain('showMap');
        const tree: MenuNode[] = expectClean(await menus2('agent')).data;
        expect(tree.map((s) => s.code)).not.toContain('showMap');
      } finally {
        await t.db.query(`UPDATE roles SET menus = array_append(menus, 'showMap') WHERE code = 'customerAgent'`);
      }
    });
  });

  describe('menu tree', () => {
    it('holds only the user’s codes, children likewise, in descending sort', async () => {
      const codes = new Set<string>(expectClean(await info('farm')).data.menus.map((m: { code: string }) => m.code));
      const tree: MenuNode[] = expectClean(await menus2('farm')).data;
      expect(tree.length).toBeGreaterThan(5);
      const check = (nodes: MenuNode[]) => {
        for (let i = 1; i < nodes.length; i++) expect(nodes[i - 1].sort).toBeGreaterThanOrEqual(nodes[i].sort);
        for (const n of nodes) {
          expect(codes.has(n.code), n.code).toBe(true);
          expect(Object.keys(n).sort()).toEqual(['children', 'code', 'defaultChild', 'hidden', 'icon', 'id', 'name', 'path', 'sort', 'title'].sort());
          expect(n.name).toBe(n.title.zh);
          check(n.children);
        }
      };
      check(tree);
      const sectionCodes = tree.map((s) => s.code);
      for (const key of FARM_OPERATOR_FORBIDDEN) expect(sectionCodes).not.toContain(key);
      const basic = tree.find((s) => s.code === 'basicInfo')!;
      expect(basic.defaultChild).toBe('farmPeopleMangement');
      expect(basic.children.map((c) => c.path)).toContain('farmPeopleMangement');
    });

    it('drops children whose code the user lacks, even when the section is granted', async () => {
      const tree: MenuNode[] = expectClean(await menus2('tech')).data;
      const plant = tree.find((s) => s.code === 'plantManagement')!;
      expect(plant.children.map((c) => c.code)).toEqual(['plantManagementFarmPlantGroup']);
    });

    it('names entries in the request language and keeps the three titles', async () => {
      const en: MenuNode[] = expectClean(await menus2('admin', { 'accept-language': 'en' })).data;
      const base = en.find((s) => s.code === 'baseManager')!;
      expect(base.name).toBe('System administration');
      expect(base.title).toEqual({ zh: '系统管理', en: 'System administration', es: 'Administración del sistema' });
      expect(base.children.find((c) => c.code === 'userManager')?.name).toBe('Users');
      const es: MenuNode[] = expectClean(await menus2('admin', { cookie: 'language=es' })).data;
      expect(es.find((s) => s.code === 'baseManager')!.name).toBe('Administración del sistema');
      // Everything the admin holds, sections and children, appears once.
      const all = en.flatMap((s) => [s.code, ...s.children.map((c) => c.code)]);
      expect(all.sort()).toEqual(menuCodes(await readMenusFile()).sort());
    });

    it('is empty for the mobile account', async () => {
      expect(expectClean(await menus2('mobile')).data).toEqual([]);
    });
  });

  describe('base info', () => {
    it('gives the caller’s own phone and logo', async () => {
      const phone = demoPhone('farm');
      const body = expectClean(await get(`/api/admin/user/front/baseInfo1?phone=${phone}`, 'farm'));
      expect(body).toMatchObject({ status: 200, data: { mobilePhone: phone, attr2: '/logo.svg' } });
      const mine = expectClean(await get('/api/admin/user/front/baseInfo', 'farm')).data;
      expect(mine).toMatchObject({ username: 'farm', mobilePhone: phone, attr2: '/logo.svg', farmType: 0 });
      expect(JSON.stringify(mine)).not.toMatch(/password|scrypt/);
    });

    it('answers another user’s phone as not found, except to a platform administrator', async () => {
      const other = demoPhone('farm2');
      const res = await get(`/api/admin/user/front/baseInfo1?phone=${other}`, 'farm');
      const nobody = await get('/api/admin/user/front/baseInfo1?phone=13999999999', 'farm');
      expect(res.statusCode).toBe(404);
      expect(expectClean(res)).toEqual(expectClean(nobody));
      const admin = expectClean(await get(`/api/admin/user/front/baseInfo1?phone=${other}`, 'admin'));
      expect(admin.data).toEqual({ mobilePhone: other, attr2: '/logo.svg' });
    });

    it('refuses a malformed phone under the phone field', async () => {
      for (const bad of ['', '12345', '23800000002', '1380000000a', ...HOSTILE]) {
        const body = expectClean(await get(`/api/admin/user/front/baseInfo1?phone=${encodeURIComponent(bad)}`, 'farm'));
        expect(body.status, bad).toBe(40001);
        expect(body.data.errors[0].field).toBe('phone');
      }
    });
  });

  describe('SMS codes', () => {
    it('sends a registration code to a free phone, into the log and the mailbox', async () => {
      const phone = '13712345601';
      const res = await send('send', phone);
      expect(expectClean(res)).toMatchObject({ status: 200, message: '验证码已发送，5 分钟内有效' });
      const { rows } = await t.db.query<{ code: string; purpose: string; valid: number }>(
        `SELECT code, purpose, round(extract(epoch FROM expires_at - created_at))::int AS valid FROM sms_codes WHERE phone = $1`,
        [phone],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ purpose: 'register', valid: 300 });
      expect(rows[0].code).toMatch(/^\d{6}$/);
      expect(readFileSync(t.config.smsMailbox, 'utf8')).toContain(`${phone}\tregister\t${rows[0].code}`);
      expect(JSON.stringify(res.json())).not.toContain(rows[0].code);
    });

    it('sends at most one code per phone per minute, whatever the purpose, and says how long to wait', async () => {
      const phone = demoPhone('factory');
      expect(expectClean(await send('sendChangePassword', phone)).status).toBe(200);
      const again = expectClean(await send('sendChangePassword', phone));
      expect(again.status).toBe(40001);
      expect(again.message).toMatch(/请 (59|60) 秒后再试/);
      expect(again.data.errors[0].field).toBe('phone');
      await ageCodes(phone, 30);
      expect(expectClean(await send('sendChangePassword', phone)).message).toMatch(/请 (29|30) 秒后再试/);
      await ageCodes(phone, 31);
      expect(expectClean(await send('sendChangePassword', phone)).status).toBe(200);
      expect((await t.db.query('SELECT 1 FROM sms_codes WHERE phone = $1', [phone])).rows).toHaveLength(2);
    });

    it('refuses a taken phone for registration and an unknown one for a password change', async () => {
      const taken = expectClean(await send('send', demoPhone('farm')));
      expect(taken).toMatchObject({ status: 40001, message: '该手机号已被注册', data: { errors: [{ field: 'phone', message: '该手机号已被注册' }] } });
      const unknown = expectClean(await send('sendChangePassword', '13700000000'));
      expect(unknown.status).toBe(40001);
      expect(unknown.data.errors).toEqual([{ field: 'phone', message: '该手机号未绑定任何可用账号' }]);
      await t.db.query(`UPDATE users SET status = 0 WHERE username = 'nursery'`);
      try {
        expect(expectClean(await send('sendChangePassword', demoPhone('nursery'))).status).toBe(40001);
      } finally {
        await t.db.query(`UPDATE users SET status = 1 WHERE username = 'nursery'`);
      }
    });

    it('refuses malformed phones with the spec’s messages under the phone field', async () => {
      const missing = expectClean(await t.app.inject({ method: 'PUT', url: '/api/admin/user/front/sms/send' }));
      expect(missing.data.errors).toEqual([{ field: 'phone', message: '请输入手机号' }]);
      for (const bad of ['12345678901', '1380000000', '138000000011', '+8613800000002', ...HOSTILE]) {
        const body = expectClean(await send('send', bad));
        expect(body.status, bad).toBe(40001);
        expect(body.data.errors[0].field).toBe('phone');
      }
      const en = expectClean(await send('send', '123', { 'accept-language': 'en' }));
      expect(en.data.errors[0].message).toBe('Phone number format incorrect');
      const long = expectClean(await send('send', '1'.repeat(33)));
      expect(long.status).toBe(40001);
      expect((await t.db.query(`SELECT 1 FROM sms_codes WHERE phone !~ '^1[3-8][0-9]{9}$'`)).rows).toHaveLength(0);
    });
  });

  describe('password change with a code', () => {
    it('enforces the rules of spec 5 with their messages', async () => {
      const phone = demoPhone('tech');
      const cases: [Record<string, string>, string, string][] = [
        [{ phone, code: '123456' }, 'password', '请输入密码'],
        [{ phone, code: '123456', password: 'abc' }, 'password', '只能输入6-20个字母、数字、下划线'],
        [{ phone, code: '123456', password: 'a'.repeat(21) }, 'password', '只能输入6-20个字母、数字、下划线'],
        [{ phone, code: '123456', password: 'abc def1' }, 'password', '只能输入6-20个字母、数字、下划线'],
        [{ phone, code: '123456', password: '密码密码密码' }, 'password', '只能输入6-20个字母、数字、下划线'],
        [{ code: '123456', password: 'good_pass1' }, 'phone', '请输入手机号'],
        [{ phone: '1234', code: '123456', password: 'good_pass1' }, 'phone', '手机号格式不正确'],
        [{ phone, password: 'good_pass1' }, 'code', '请输入验证码'],
        [{ phone, code: '12345', password: 'good_pass1' }, 'code', '请输入验证码'],
      ];
      for (const [q, field, message] of cases) {
        const body = expectClean(await changePassword(q));
        expect(body.status, JSON.stringify(q)).toBe(40001);
        expect(body.data.errors, JSON.stringify(q)).toContainEqual({ field, message });
      }
      const all = expectClean(await changePassword({}));
      expect(all.data.errors.map((e: { field: string }) => e.field)).toEqual(['password', 'phone', 'code']);
      expect(await canLogin('tech', DEMO_PASSWORD)).toBe(true);
    });

    it('checks and consumes the code, changes the hash, and logs it', async () => {
      const phone = demoPhone('farm2');
      const before = (await t.db.query<{ h: string }>(`SELECT password_hash AS h FROM users WHERE username = 'farm2'`)).rows[0].h;
      expect(expectClean(await send('sendChangePassword', phone)).status).toBe(200);
      const code = (await latestCode(phone))!;
      const wrong = code === '000000' ? '111111' : '000000';
      const refused = expectClean(await changePassword({ phone, password: 'new_pass_2026', code: wrong }));
      expect(refused).toMatchObject({ status: 40001, message: '验证码错误', data: { errors: [{ field: 'code', message: '验证码错误' }] } });
      expect(await canLogin('farm2', DEMO_PASSWORD)).toBe(true);

      const done = expectClean(await changePassword({ phone, password: 'new_pass_2026', code }));
      expect(done.status).toBe(200);
      const after = (await t.db.query<{ h: string }>(`SELECT password_hash AS h FROM users WHERE username = 'farm2'`)).rows[0].h;
      expect(after).not.toBe(before);
      expect(after).toMatch(/^scrypt\$/);
      expect(after).not.toContain('new_pass_2026');
      expect(await canLogin('farm2', 'new_pass_2026')).toBe(true);
      expect(await canLogin('farm2', DEMO_PASSWORD)).toBe(false);

      const reused = expectClean(await changePassword({ phone, password: 'other_pass_1', code }));
      expect(reused.message).toBe('验证码已失效，请重新获取');
      const { rows } = await t.db.query<{ changes: unknown }>(`SELECT changes FROM operation_log WHERE action = 'password.change' AND username = 'farm2'`);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain('new_pass_2026');
      // The change ends every earlier session of the account (issue 11).
      expect(expectClean(await info('farm2')).status).toBe(40101);
      // Put the demo password back for other tests.
      await t.app.inject({ method: 'POST', url: `/api/admin/user/front/changePasswordWithoutVerify?username=farm2&password=${DEMO_PASSWORD}`, headers: auth(tokens.admin) });
      tokens.farm2 = await t.login('farm2');
    });

    it('spends a code after five wrong tries', async () => {
      const phone = demoPhone('agent');
      await send('sendChangePassword', phone);
      const code = (await latestCode(phone))!;
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const messages: string[] = [];
      for (let i = 0; i < 5; i++) messages.push(expectClean(await changePassword({ phone, password: 'new_pass_2026', code: wrong })).message);
      expect(messages.slice(0, 4)).toEqual(Array(4).fill('验证码错误'));
      expect(messages[4]).toBe('验证码错误次数过多，请重新获取');
      const right = expectClean(await changePassword({ phone, password: 'new_pass_2026', code }));
      expect(right.message).toBe('验证码错误次数过多，请重新获取');
      expect(await canLogin('agent', DEMO_PASSWORD)).toBe(true);
    });

    it('refuses an expired code', async () => {
      const phone = demoPhone('device');
      await send('sendChangePassword', phone);
      const code = (await latestCode(phone))!;
      await t.db.query(`UPDATE sms_codes SET expires_at = now() - interval '1 second' WHERE phone = $1`, [phone]);
      const body = expectClean(await changePassword({ phone, password: 'new_pass_2026', code }));
      expect(body).toMatchObject({ status: 40001, message: '验证码已失效，请重新获取' });
      expect(await canLogin('device', DEMO_PASSWORD)).toBe(true);
    });

    it('does not accept a registration code for a password change', async () => {
      const phone = '13712345602';
      await send('send', phone);
      const code = (await latestCode(phone))!;
      // Even if the phone were someone's, the purpose differs; here it belongs to nobody.
      expect(expectClean(await changePassword({ phone, password: 'new_pass_2026', code })).message).toBe('该手机号未绑定任何可用账号');
    });

    it('refuses a logged-in caller changing someone else’s password', async () => {
      const phone = demoPhone('provider');
      await send('sendChangePassword', phone);
      const code = (await latestCode(phone))!;
      const body = expectClean(await changePassword({ phone, password: 'new_pass_2026', code }, auth(tokens.farm)));
      expect(body).toMatchObject({ status: 40001, data: { errors: [{ field: 'phone', message: '该手机号不属于当前登录账号' }] } });
      expect(await canLogin('provider', DEMO_PASSWORD)).toBe(true);
      // The code was not spent by the refusal: the owner can still use it.
      const own = expectClean(await changePassword({ phone, password: DEMO_PASSWORD, code }, auth(tokens.provider)));
      expect(own.status).toBe(200);
      // Changing the password ended the owner's session.
      expect(expectClean(await info('provider')).status).toBe(40101);
      tokens.provider = await t.login('provider');
    });
  });

  describe('password change without a code', () => {
    const reset = (who: string, q: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `/api/admin/user/front/changePasswordWithoutVerify?${new URLSearchParams(q)}`, headers: auth(tokens[who]) });

    it('is refused to everyone but platform administrators', async () => {
      for (const who of ['farm', 'provider', 'tech', 'mobile']) {
        const res = await reset(who, { username: 'admin', password: 'taken_over_1' });
        expect(res.statusCode, who).toBe(403);
        expect(res.json().status).toBe(40301);
      }
      const anon = await t.app.inject({ method: 'POST', url: '/api/admin/user/front/changePasswordWithoutVerify?username=admin&password=taken_over_1' });
      expect(anon.statusCode).toBe(401);
      expect(await canLogin('admin', DEMO_PASSWORD)).toBe(true);
    });

    it('lets an administrator set a password, with the rules and the log', async () => {
      expect(expectClean(await reset('admin', { username: 'nobody_at_all', password: 'good_pass1' })).data.errors).toEqual([{ field: 'username', message: '用户不存在' }]);
      expect(expectClean(await reset('admin', { username: 'factory', password: 'bad' })).data.errors).toEqual([{ field: 'password', message: '只能输入6-20个字母、数字、下划线' }]);
      expect(expectClean(await reset('admin', { username: 'factory', password: 'fresh_pass_9' })).status).toBe(200);
      expect(await canLogin('factory', 'fresh_pass_9')).toBe(true);
      expect(expectClean(await reset('admin', { username: 'factory', password: DEMO_PASSWORD })).status).toBe(200);
      const { rows } = await t.db.query(`SELECT changes FROM operation_log WHERE action = 'password.reset' AND username = 'admin' AND changes->>'username' = 'factory'`);
      expect(rows.length).toBe(2);
      expect(JSON.stringify(rows)).not.toContain('fresh_pass_9');
    });
  });

  describe('registration', () => {
    const regist = (payload: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/admin/user/front/regist', payload: payload as object, headers });
    const withCode = async (phone: string) => {
      await ageCodes(phone);
      expect(expectClean(await send('send', phone)).status).toBe(200);
      return (await latestCode(phone))!;
    };
    const base = { name: '新农户', password: 'reg_pass_1', orgName: '新希望农场', orgType: 0 };

    it('stores a pending request with the password hashed', async () => {
      const phone = '13612345603';
      const code = await withCode(phone);
      const body = expectClean(await regist({ ...base, username: 'newfarmer', phone, code, city: '齐齐哈尔市' }));
      expect(body).toMatchObject({ status: 200, data: { status: 'pending' } });
      const { rows } = await t.db.query<{ payload: Record<string, unknown>; status: string }>('SELECT payload, status FROM registration_requests WHERE id = $1', [body.data.id]);
      expect(rows[0].status).toBe('pending');
      expect(rows[0].payload).toMatchObject({ username: 'newfarmer', phone, orgName: '新希望农场', orgType: 0, city: '齐齐哈尔市' });
      expect(String(rows[0].payload.passwordHash)).toMatch(/^scrypt\$/);
      expect(JSON.stringify(rows[0].payload)).not.toContain('reg_pass_1');
      // A pending request is not an account.
      expect(await canLogin('newfarmer', 'reg_pass_1')).toBe(false);
      // The phone is now taken for another registration.
      expect(expectClean(await send('send', phone)).data.errors[0].message).toBe('该手机号已被注册');
    });

    it('refuses taken usernames and phones under their fields without spending the code', async () => {
      const phone = '13612345604';
      const code = await withCode(phone);
      const dupUser = expectClean(await regist({ ...base, username: 'Admin', phone, code }));
      expect(dupUser).toMatchObject({ status: 40001, data: { errors: [{ field: 'username', message: '该用户名已被使用' }] } });
      const dupPending = expectClean(await regist({ ...base, username: 'newfarmer', phone, code }));
      expect(dupPending.data.errors).toEqual([{ field: 'username', message: '该用户名已被使用' }]);
      expect(expectClean(await regist({ ...base, username: 'freshname', phone, code })).status).toBe(200);
    });

    it('refuses a wrong code and missing, malformed or overlong fields', async () => {
      const phone = '13612345605';
      const code = await withCode(phone);
      const wrong = code === '999999' ? '000000' : '999999';
      expect(expectClean(await regist({ ...base, username: 'someone', phone, code: wrong })).data.errors).toEqual([{ field: 'code', message: '验证码错误' }]);
      const empty = expectClean(await regist({}));
      expect(empty.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['code', 'name', 'orgName', 'orgType', 'password', 'phone', 'username'].sort());
      expect(expectClean(await regist({ ...base, username: 'a b', phone, code })).data.errors[0].field).toBe('username');
      expect(expectClean(await regist({ ...base, username: 'someone', phone, code, orgType: 2 })).data.errors[0].field).toBe('orgType');
      expect(expectClean(await regist({ ...base, username: 'someone', phone, code, orgName: 'x'.repeat(101) })).data.errors[0].field).toBe('orgName');
      expect(expectClean(await regist({ ...base, username: 'someone', phone, code, description: 'x'.repeat(501) })).data.errors[0].field).toBe('description');
      const malformed = await t.app.inject({ method: 'POST', url: '/api/admin/user/front/regist', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
      expect(expectClean(malformed).message).toBe('请求体不是合法的 JSON');
      expect((await t.db.query(`SELECT 1 FROM registration_requests WHERE payload->>'phone' = $1`, [phone])).rows).toHaveLength(0);
    });

    it('keeps SQL and script fragments as plain text or refuses them', async () => {
      const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0].n;
      const phone = '13612345606';
      for (const bad of HOSTILE) {
        for (const field of ['username', 'name', 'password', 'orgName', 'code', 'city', 'address', 'contact', 'description', 'phone']) {
          const body = expectClean(await regist({ ...base, username: 'hostile', phone, code: '000000', [field]: bad }));
          expect([200, 40001]).toContain(body.status);
        }
      }
      const code = await withCode(phone);
      const stored = expectClean(await regist({ ...base, username: 'hostile', phone, code, name: HOSTILE[2], orgName: HOSTILE[4] }));
      expect(stored.status).toBe(200);
      const { rows } = await t.db.query<{ payload: Record<string, string> }>('SELECT payload FROM registration_requests WHERE id = $1', [stored.data.id]);
      expect(rows[0].payload.name).toBe(HOSTILE[2]);
      expect(rows[0].payload.orgName).toBe(HOSTILE[4]);
      expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(before);
    });
  });

  it('survives SQL and script fragments in every query field of every account call', async () => {
    const hashes = (await t.db.query<{ h: string }>('SELECT string_agg(password_hash, \',\' ORDER BY id) AS h FROM users')).rows[0].h;
    for (const bad of HOSTILE) {
      const q = encodeURIComponent(bad);
      const calls = [
        t.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${q}`, headers: auth(tokens.farm) }),
        t.app.inject({ method: 'GET', url: `/api/admin/user/front/menus2?token=${q}`, headers: auth(tokens.farm) }),
        t.app.inject({ method: 'GET', url: `/api/admin/user/front/baseInfo1?phone=${q}`, headers: auth(tokens.admin) }),
        t.app.inject({ method: 'PUT', url: `/api/admin/user/front/sms/send?phone=${q}` }),
        t.app.inject({ method: 'PUT', url: `/api/admin/user/front/sms/sendChangePassword?phone=${q}` }),
        t.app.inject({ method: 'POST', url: `/api/admin/user/front/changePassword?phone=${q}&password=${q}&code=${q}` }),
        t.app.inject({ method: 'POST', url: `/api/admin/user/front/changePassword?phone=${demoPhone('farm')}&password=good_pass1&code=${q}` }),
        t.app.inject({ method: 'POST', url: `/api/admin/user/front/changePasswordWithoutVerify?username=${q}&password=${q}`, headers: auth(tokens.admin) }),
        t.app.inject({ method: 'POST', url: `/api/admin/user/front/changePasswordWithoutVerify?username=${q}&password=good_pass1`, headers: auth(tokens.admin) }),
        t.app.inject({ method: 'POST', url: `/api/auth/jwt/invalid?token=${q}` }),
      ];
      for (const res of await Promise.all(calls)) {
        const body = expectClean(res);
        expect(body.status, `${bad} → ${res.body}`).not.toBe(200);
      }
    }
    expect((await t.db.query<{ h: string }>('SELECT string_agg(password_hash, \',\' ORDER BY id) AS h FROM users')).rows[0].h).toBe(hashes);
  });
});
