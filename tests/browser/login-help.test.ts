/**
 * Issue 9 item 11 at 1440 px, in zh and en: registration from the login page (the
 * request then waits, pending, in /registRequestManage for an administrator) and the
 * forgot-password flow by SMS code (the code read from the development mailbox), then
 * logging in with the new password. Both without a token, on /login itself.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launchBrowser } from './browser.ts';
import { api, apiToken, latestSmsCode, openShell } from './shell-support.ts';
import { variants } from '../support/tier.ts';

let browser: Browser;
let context: BrowserContext | undefined;
const RUN = Date.now().toString(36).slice(-5);
/** Phones nobody else uses: 137 + the run's last digits + a counter. */
const digits = String(Date.now()).slice(-6);
let phones = 0;
const freshPhone = () => `137${digits}${String(phones++).padStart(2, '0')}`;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

const TEXT = {
  zh: {
    register: '注册账号',
    forgot: '忘记密码？',
    forgotTitle: '找回密码',
    usernameRequired: '请输入用户名',
    phoneRequired: '请输入手机号',
    codeRequired: '请输入验证码',
    orgNameRequired: '请输入机构名称',
    confirmMismatch: '两次输入的密码不一致',
    orgType: '机构类型',
    farm: '农场',
    username: '用户名',
    password: '密码',
    login: '登录',
    pending: '待审核',
    reset: '密码已修改，请用新密码登录',
    save: '保存',
  },
  en: {
    register: 'Register',
    forgot: 'Forgot password?',
    forgotTitle: 'Reset your password',
    usernameRequired: 'Please enter your username',
    phoneRequired: 'please enter phone number',
    codeRequired: 'please enter verification code',
    orgNameRequired: 'Please enter the organisation name',
    confirmMismatch: 'The two passwords differ',
    orgType: 'Organisation type',
    farm: 'Farm',
    username: 'Username',
    password: 'Password',
    login: 'Log in',
    pending: 'Pending',
    reset: 'Password changed: log in with the new one',
    save: 'Save',
  },
} as const;

async function loginPage(lang: 'zh' | 'en'): Promise<Page> {
  context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(15_000);
  await context.addCookies([{ name: 'language', value: lang, url: baseUrl() }]);
  const page = await context.newPage();
  await page.goto('/login');
  return page;
}

for (const lang of variants(['zh', 'en'] as const)) {
  describe(`login page help (${lang}, 1440 px)`, () => {
    const x = TEXT[lang];

    it('registers: the spec 5 rules, the SMS code, then the request waits as pending for review', async () => {
      const page = await loginPage(lang);
      await page.getByRole('button', { name: x.register }).click();
      const dialog = page.getByTestId('register-dialog');
      await dialog.locator('#register_username').waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');

      await dialog.getByTestId('register-submit').click();
      for (const m of [x.usernameRequired, x.phoneRequired, x.codeRequired, x.orgNameRequired]) await dialog.getByText(m, { exact: true }).waitFor();
      await dialog.locator('#register_password').fill('reg_pass_1');
      await dialog.locator('#register_confirm').fill('reg_pass_2');
      await dialog.getByText(x.confirmMismatch, { exact: true }).waitFor();

      const username = `reg_${lang}_${RUN}`;
      const phone = freshPhone();
      await dialog.locator('#register_username').fill(username);
      await dialog.locator('#register_name').fill(lang === 'zh' ? '注册测试' : 'Sign-up test');
      await dialog.locator('#register_confirm').fill('reg_pass_1');
      await dialog.locator('#register_phone').fill(phone);
      await dialog.getByTestId('register-send').click();
      await expect.poll(() => latestSmsCode(phone, 'register'), { timeout: 10_000 }).toMatch(/^\d{6}$/);
      // Spec 9: the send button stays loading after a send.
      expect(await dialog.getByTestId('register-send').getAttribute('class')).toContain('ant-btn-loading');
      await dialog.locator('#register_code').fill(latestSmsCode(phone, 'register')!);
      await dialog.locator('#register_orgName').fill(`${RUN} ${lang} 农场`);
      await dialog.getByLabel(x.orgType, { exact: true }).click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: new RegExp(`^${x.farm}$`) }).click();
      const [reply] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/admin/user/front/regist') && r.request().method() === 'POST'),
        dialog.getByTestId('register-submit').click(),
      ]);
      expect((await reply.json()).status).toBe(200);
      expect(reply.request().headers().authorization).toBeUndefined();
      await dialog.getByTestId('register-done').waitFor();

      // The administrator sees it waiting for review.
      const admin = await openShell(browser, { user: 'admin', lang, width: 1440, path: '/registRequestManage/index' });
      await context?.close();
      context = admin.context;
      const row = admin.page.locator('table.sg-table:visible tbody tr[data-row-key]').filter({ hasText: username });
      await row.waitFor();
      expect(await row.innerText()).toContain(x.pending);
    });

    it('resets a forgotten password with an SMS code, then logs in with the new one', async () => {
      const admin = await apiToken('admin');
      const farmId = (await api<{ farmId: number }>(await apiToken('farm'), '/api/admin/user/front/baseInfo')).data.farmId;
      const roles = await api<{ rows: { id: number; code: string }[] }>(admin, '/api/admin/role/page?keyword=farmOperator');
      const roleId = roles.data.rows.find((r) => r.code === 'farmOperator')!.id;
      const username = `forgot_${lang}_${RUN}`;
      const phone = freshPhone();
      const created = await api(admin, '/api/admin/user/add/byFarmId', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password: 'old_pass_1', name: 'Forgot', mobilePhone: phone, farmId, roleIds: [roleId] }),
      });
      expect(created.status).toBe(200);

      const page = await loginPage(lang);
      await page.getByRole('button', { name: x.forgot }).click();
      const dialog = page.getByTestId('password-dialog');
      await dialog.locator('#change-password_password').waitFor();
      await expect.poll(() => dialog.locator('.ant-modal-title').innerText()).toBe(x.forgotTitle);
      await dialog.locator('#change-password_phone').fill(phone);
      await dialog.getByTestId('password-send').click();
      await expect.poll(() => latestSmsCode(phone, 'password'), { timeout: 10_000 }).toMatch(/^\d{6}$/);
      await dialog.locator('#change-password_password').fill('new_pass_1');
      await dialog.locator('#change-password_code').fill(latestSmsCode(phone, 'password')!);
      await dialog.getByTestId('password-save').click();
      await page.getByText(x.reset, { exact: true }).waitFor();
      await expect.poll(() => dialog.isVisible()).toBe(false);

      await page.getByLabel(x.username, { exact: true }).fill(username);
      await page.getByLabel(x.password, { exact: true }).fill('old_pass_1');
      await page.getByRole('button', { name: x.login, exact: true }).click();
      await page.getByTestId('login-error').waitFor();
      await page.getByLabel(x.password, { exact: true }).fill('new_pass_1');
      await page.getByRole('button', { name: x.login, exact: true }).click();
      await page.waitForURL('**/dashboard');
    });
  });
}
