import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, cookieMap, launchBrowser, logIn, newPage } from './browser.ts';

const REFUSAL = '权限不足，无法登录，您的账号只能登录平台移动端';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
async function fresh(): Promise<Page> {
  ({ context, page } = await newPage(browser));
  return page;
}
afterEach(async () => {
  await context?.close();
});

const path = (p: Page) => {
  const url = new URL(p.url());
  return url.pathname + url.search;
};

describe('login and the session flow', () => {
  it('the empty path shows the public start page, which leads to the login page', async () => {
    await fresh();
    await page.goto('/');
    await page.waitForURL('**/startPage');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('智慧农场管理平台');
    await page.getByRole('button', { name: '登录后台' }).click();
    await page.waitForURL('**/login');
  });

  it('admin logs in and sees the dashboard, the menu and the header', async () => {
    await fresh();
    await page.goto('/login');
    await logIn(page, '  admin  ');
    await page.waitForURL('**/dashboard');
    await expect(page.getByTestId('welcome').textContent()).resolves.toBe('欢迎，平台管理员');
    await expect(page.getByTestId('user-name').textContent()).resolves.toBe('平台管理员');
    const nav = page.getByRole('navigation', { name: '导航菜单' });
    await nav.getByText('基础信息').waitFor();
    expect(await nav.getByRole('menuitem').count()).toBeGreaterThan(10);
    const cookies = await cookieMap(context);
    expect(cookies.token).toMatch(/^ey/);
    expect(cookies.userId).toMatch(/^\d+$/);
  });

  it('farm logs in: organisation label and farm name; the first menu link opens its screen in the layout', async () => {
    await fresh();
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    await expect(page.getByTestId('welcome').textContent()).resolves.toBe('欢迎，张伟');
    await expect(page.getByTestId('org-label').textContent()).resolves.toBe('农场');
    await expect(page.getByTestId('organisation').textContent()).resolves.toContain('禾丰生态农场');
    expect((await cookieMap(context)).farmId).toMatch(/^\d+$/);

    const nav = page.getByRole('navigation', { name: '导航菜单' });
    await nav.getByRole('menuitem').first().click();
    const link = nav.locator('a[href^="/"]').first();
    await link.waitFor();
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL(`**${href}`);
    // The farm home (issue 18); it was a 404 before the screen existed.
    await page.getByRole('heading', { name: '农场首页' }).first().waitFor();
    expect(await page.getByText('抱歉，你访问的页面不存在。').count()).toBe(0);
    await expect(page.getByTestId('user-name').textContent()).resolves.toBe('张伟');
  });

  it('mobile (no menus) is refused with the exact message and sent back to login, session cleared', async () => {
    await fresh();
    await page.goto('/login');
    await logIn(page, 'mobile');
    await page.getByText(REFUSAL, { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/login');
    const cookies = await cookieMap(context);
    expect(cookies.token).toBeUndefined();
    expect(cookies.userId).toBeUndefined();
  });

  it('mobile is refused in English too', async () => {
    await fresh();
    await page.goto('/login');
    await page.getByLabel('语言').selectOption('en');
    await page.getByLabel('Username').fill('mobile');
    await page.getByLabel('Password').fill('demo_2026');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('no sufficient permission to log in, your account can only log in to the platform mobile end', { exact: true }).waitFor();
    expect((await cookieMap(context)).language).toBe('en');
  });

  it('a wrong password shows the server message and stays on /login', async () => {
    await fresh();
    await page.goto('/login');
    await logIn(page, 'nobody-here', 'wrong-password');
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect((await alert.textContent())?.length).toBeGreaterThan(2);
    expect(path(page)).toBe('/login');
    expect((await cookieMap(context)).token).toBeUndefined();
  });

  it('empty fields are refused by the form with labelled messages', async () => {
    await fresh();
    await page.goto('/login');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('请输入用户名').waitFor();
    await page.getByText('请输入密码').waitFor();
    expect(path(page)).toBe('/login');
    // Each message is tied to its field, and the first field in error has the focus.
    const username = page.getByLabel('用户名');
    expect(await username.getAttribute('aria-invalid')).toBe('true');
    expect(await username.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await username.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('请输入用户名');
    // Spaces are no username; Enter submits from the keyboard.
    await username.fill('   ');
    await page.getByLabel('密码').fill('demo_2026');
    await page.keyboard.press('Enter');
    await page.getByText('请输入用户名').waitFor();
    expect(await page.getByText('请输入密码').count()).toBe(0);
    expect(path(page)).toBe('/login');
  });
});

describe('access rules', () => {
  it('a gated path without a token goes to /login with redirect, and back there after login', async () => {
    await fresh();
    await page.goto('/baseManager/userManager?tab=2');
    await page.waitForURL('**/login?**');
    expect(path(page)).toBe('/login?redirect=%2FbaseManager%2FuserManager%3Ftab%3D2');
    await logIn(page, 'admin');
    await page.waitForURL((url) => url.pathname === '/baseManager/userManager');
    expect(path(page)).toBe('/baseManager/userManager?tab=2');
  });

  it('/login with a token goes to /dashboard', async () => {
    await fresh();
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('welcome').waitFor();
  });

  it('a public path needs no token', async () => {
    await fresh();
    await page.goto('/auth-redirect');
    // Without a token in its query it says so; it is not sent to /login?redirect=/auth-redirect.
    await page.getByText('登录凭证无效或已过期').waitFor();
    expect(path(page)).toBe('/auth-redirect');
    // The administrators' entry leads to the login page on the way to the administration, not back to itself.
    await page.goto('/adminManagement');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/baseManager/userManager');
  });
});

describe('signed-out replies and log out', () => {
  it('a revoked token gets the 40101 box: 取消 stays, 重新登录 goes to /login', async () => {
    await fresh();
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('welcome').waitFor();
    const token = (await cookieMap(context)).token;
    const revoked = await fetch(`${baseUrl()}/api/auth/jwt/invalid?token=${encodeURIComponent(token)}`, { method: 'POST' });
    expect((await revoked.json()).status).toBe(200);

    // Coming back to the tab re-reads user info with the (now revoked) token.
    const comeBack = () => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await comeBack();
    const dialog = page.getByRole('dialog', { name: '确定登出' });
    await dialog.getByText('你已被登出，可以取消继续留在该页面，或者重新登录', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '取消', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(path(page)).toBe('/dashboard');
    await page.getByTestId('welcome').waitFor();

    await comeBack();
    await page.getByRole('dialog', { name: '确定登出' }).getByRole('button', { name: '重新登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect((await cookieMap(context)).token).toBeUndefined();
  });

  it('log out revokes the token, clears the session cookies and returns to / (the start page)', async () => {
    await fresh();
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    const token = (await cookieMap(context)).token;
    await page.evaluate(() => localStorage.setItem('haveFarm', '1'));
    // The user menu of the shell (issue 5) holds log out; spec 2.6: log out returns to /.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL((url) => url.pathname === '/startPage');
    const cookies = await cookieMap(context);
    for (const name of ['token', 'userId', 'farmId', 'roles', 'groupId', 'groupName', 'chiefFarmId']) expect(cookies[name]).toBeUndefined();
    expect(await page.evaluate(() => localStorage.getItem('haveFarm'))).toBeNull();
    // The server no longer accepts the old token.
    const res = await fetch(`${baseUrl()}/api/admin/user/front/info?token=${encodeURIComponent(token)}`, { headers: { Authorization: token } });
    expect(res.status).toBe(401);
    expect((await res.json()).status).toBe(40101);
  });
});
