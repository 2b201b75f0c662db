import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launchBrowser } from './browser.ts';
import { api, apiToken, latestSmsCode, openShell } from './shell-support.ts';

let browser: Browser;
let context: BrowserContext | undefined;

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

async function open(opts: Parameters<typeof openShell>[1]): Promise<Page> {
  const opened = await openShell(browser, opts);
  context = opened.context;
  return opened.page;
}

const TEXT = {
  zh: {
    menu: '修改密码',
    save: '保存',
    passwordRequired: '请输入密码',
    passwordRule: '只能输入6-20个字母、数字、下划线',
    phoneRequired: '请输入手机号',
    phoneFormat: '手机号格式不正确',
    codeRequired: '请输入验证码',
    send: '发送验证码',
    resend: '重新发送验证码',
    success: '操作成功',
    failed: '操作失败',
  },
  en: {
    menu: 'Change password',
    save: 'Save',
    passwordRequired: 'please enter password',
    passwordRule: 'only 6-20 letters, digits, underscores allowed',
    phoneRequired: 'please enter phone number',
    phoneFormat: 'phone number format incorrect',
    codeRequired: 'please enter verification code',
    send: 'send verification code',
    resend: 'resend verification code',
    success: 'operation successful',
    failed: 'operation failed',
  },
} as const;

async function openDialog(page: Page, lang: 'zh' | 'en') {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: TEXT[lang].menu }).click();
  const dialog = page.getByTestId('password-dialog');
  await dialog.locator('#change-password_password').waitFor();
  return dialog;
}

describe('password-change dialog (item 6)', () => {
  for (const [lang, width] of [
    ['zh', 1280],
    ['en', 800],
  ] as const) {
    it(`the rules and messages of spec 5 (${lang}, ${width})`, async () => {
      const page = await open({ user: 'factory', lang, width });
      const dialog = await openDialog(page, lang);
      const x = TEXT[lang];
      const password = dialog.locator('#change-password_password');
      const phone = dialog.locator('#change-password_phone');
      const code = dialog.locator('#change-password_code');
      await expect.poll(() => phone.inputValue()).toBe('13800000004');
      await phone.fill('');
      await dialog.getByTestId('password-save').click();
      for (const m of [x.passwordRequired, x.phoneRequired, x.codeRequired]) await dialog.getByText(m, { exact: true }).waitFor();

      await password.fill('abc');
      await dialog.getByText(x.passwordRule, { exact: true }).waitFor();
      await password.fill('abc def!');
      await dialog.getByText(x.passwordRule, { exact: true }).waitFor();
      await password.fill('a'.repeat(21));
      await dialog.getByText(x.passwordRule, { exact: true }).waitFor();
      await password.fill('good_pass_1');
      await expect.poll(() => dialog.getByText(x.passwordRule, { exact: true }).count()).toBe(0);

      await phone.fill('12345678901');
      await dialog.getByText(x.phoneFormat, { exact: true }).waitFor();
      // The send button checks the phone first and sends nothing when it is wrong.
      let sent = false;
      page.on('request', (r) => {
        if (r.url().includes('sendChangePassword')) sent = true;
      });
      await dialog.getByTestId('password-send').click();
      await dialog.getByText(x.phoneFormat, { exact: true }).waitFor();
      await page.waitForTimeout(300);
      expect(sent).toBe(false);
      await phone.fill('13912345678');
      await expect.poll(() => dialog.getByText(x.phoneFormat, { exact: true }).count()).toBe(0);

      await code.fill('12345');
      await dialog.getByText(x.codeRequired, { exact: true }).waitFor();
      await code.fill('123456');
      await expect.poll(() => dialog.getByText(x.codeRequired, { exact: true }).count()).toBe(0);
      expect(await dialog.getByTestId('password-send').textContent()).toBe(x.send);

      // Closing fires cancel: the dialog goes away.
      await page.locator('.ant-modal-close').click();
      await expect.poll(() => page.getByTestId('password-dialog').isVisible()).toBe(false);
    });
  }

  it('send: loading for 6 s then "resend"; a refused resend shows the server message under the phone field; Save sends the request and reports the result (zh)', async () => {
    const page = await open({ user: 'center', lang: 'zh' });
    const x = TEXT.zh;
    const dialog = await openDialog(page, 'zh');
    await expect.poll(() => dialog.locator('#change-password_phone').inputValue()).toBe('13800000005');
    const send = dialog.getByTestId('password-send');

    const before = latestSmsCode('13800000005');
    const sentAt = Date.now();
    await send.click();
    await expect.poll(() => send.getAttribute('class')).toContain('ant-btn-loading');
    await page.waitForTimeout(4000);
    expect(await send.getAttribute('class')).toContain('ant-btn-loading');
    await expect.poll(() => send.textContent(), { timeout: 6000 }).toBe(x.resend);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(5500);
    expect(await send.getAttribute('class')).not.toContain('ant-btn-loading');
    const code = latestSmsCode('13800000005');
    expect(code).toMatch(/^\d{6}$/);
    expect(code === before && before !== null).toBe(false);

    // The server allows one code a minute: its refusal appears under the phone field.
    await send.click();
    await dialog.locator('#change-password_phone_help, .ant-form-item-explain-error').filter({ hasText: '秒后再试' }).first().waitFor();

    // A wrong code: the request goes out, the server refuses, 'operation failed'.
    await dialog.locator('#change-password_password').fill('demo_2026');
    await dialog.locator('#change-password_code').fill(code === '000000' ? '111111' : '000000');
    const [wrong] = await Promise.all([page.waitForRequest((r) => r.url().includes('/api/admin/user/front/changePassword') && r.method() === 'POST'), dialog.getByTestId('password-save').click()]);
    expect(new URL(wrong.url()).searchParams.get('phone')).toBe('13800000005');
    await page.locator('.ant-notification-notice').getByText(x.failed, { exact: true }).waitFor();

    // The right code: the same password again (other tests log in as center), 'operation successful'.
    await dialog.locator('#change-password_code').fill(code!);
    const [right] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/admin/user/front/changePassword') && r.request().method() === 'POST'),
      dialog.getByTestId('password-save').click(),
    ]);
    const params = new URL(right.url()).searchParams;
    expect([params.get('phone'), params.get('password'), params.get('code')]).toEqual(['13800000005', 'demo_2026', code]);
    expect(right.status()).toBe(200);
    // The change ended this session too (tokens end with a password change): the console
    // leaves for the login page at once and says why, instead of a "logged out" box later.
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('notice') === 'passwordChanged');
    await page.getByTestId('login-notice').waitFor();
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/(^|; )token=/);
    // The code is spent: the server really changed the password with it.
    const again = await fetch(`${baseUrl()}/api/admin/user/front/changePassword?phone=13800000005&password=demo_2026&code=${code}`, { method: 'POST' });
    expect((await again.json()).status).toBe(40001);
    expect(await apiToken('center')).toMatch(/^ey/);
  });
});

describe('log out (item 7)', () => {
  for (const [lang, width] of [
    ['zh', 1280],
    ['en', 800],
  ] as const) {
    it(`calls the server, clears the session of spec 4 and the tabs, and returns to / (${lang}, ${width})`, async () => {
      const { context: ctx, page, token } = await openShell(browser, { user: 'agent', lang, width });
      context = ctx;
      await page.evaluate(() => localStorage.setItem('haveFarm', '1'));
      await page.getByTestId('user-menu').click();
      const [call] = await Promise.all([
        page.waitForRequest((r) => r.url().includes('/api/auth/jwt/invalid')),
        page.getByRole('menuitem', { name: lang === 'zh' ? '退出登录' : 'Log out' }).click(),
      ]);
      expect(call.method()).toBe('POST');
      // '/' leads to the start page (spec 2.1).
      await page.waitForURL('**/startPage');
      const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
      for (const name of ['token', 'userId', 'farmId', 'roles', 'groupId', 'groupName', 'chiefFarmId']) expect(cookies[name]).toBeUndefined();
      expect(cookies.language).toBe(lang);
      expect(await page.evaluate(() => [localStorage.getItem('haveFarm'), sessionStorage.getItem('shell.tabs')])).toEqual([null, null]);
      expect((await api(token, `/api/admin/user/front/info?token=${token}`)).status).toBe(40101);
    });
  }
});
