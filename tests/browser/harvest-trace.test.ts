/**
 * Issue 18 in Chromium. As `farm`: record a harvest of a planting group, sell part of the
 * batch, see the income in the accounts, make the batch's trace code, and open its public
 * page in a fresh browser context without a session. As `provider`: the provider home with
 * its farms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cookieMap, launchBrowser, logIn, newPage, sessionApi } from './browser.ts';

let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const api = <T = unknown>(url: string): Promise<T> => sessionApi<T>(context!, url);

/** The open drawer (the form opened by a toolbar button). */
const drawer = () => page.locator('.ant-drawer-content-wrapper:visible, .ant-modal-wrap:visible').last();

/**
 * Picks an option and checks that the select shows it: on a loaded machine a click on an
 * option of a dropdown still opening can be lost (CI once saved a sale «请输入批次»), so a
 * pick that did not take is made again.
 */
async function choose(label: string, option: string): Promise<void> {
  const select = drawer().locator('.ant-select', { has: page.getByLabel(label, { exact: true }) });
  await expect
    .poll(
      async () => {
        if ((await select.innerText()).includes(option)) return true;
        await drawer().getByLabel(label, { exact: true }).click();
        await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
        return false;
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
}

async function pickDate(label: string, day: string): Promise<void> {
  const input = drawer().getByLabel(label, { exact: true });
  await input.click();
  await input.fill(day);
  await page.keyboard.press('Enter');
}

const save = () => drawer().getByRole('button', { name: /^(保 存|保存|提 交|提交)$/ }).first().click();

/**
 * Saves the open form and waits for the server's answer to its POST: a refusal fails with the
 * server's sentence, a form that never sent fails with the sentences under its fields, instead
 * of a poll that only says the record did not appear.
 */
async function saveTo(path: string): Promise<void> {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path, { timeout: 20_000 }).catch(async () => {
    const said = await drawer().locator('.ant-form-item-explain-error').allInnerTexts();
    throw new Error(`the form sent no POST ${path}; it says: ${said.join(' | ') || '(nothing)'}`);
  });
  await save();
  const body = (await (await answer).json()) as { status: number; message?: string };
  expect(body.status, JSON.stringify(body)).toBe(200);
}

type Page2<T> = { rows: T[]; total: number };
type Harvest = { id: number; batchNo: string; quantity: number; sold: number; left: number; traceCode: string | null };

describe('harvest, sale, accounts and trace as farm', () => {
  it('harvests a group, sells part of the batch, sees the accounts follow, and opens the trace page without a session', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    const groups = await api<{ value: number; label: string }[]>('/api/farmHarvest/options/plantGroups');
    const group = groups[0];
    const day = new Date().toISOString().slice(0, 10);

    // Harvest.
    await page.goto('/farmHarvest/index');
    await page.getByRole('button', { name: '记录采收' }).click();
    await choose('种植组', group.label);
    await pickDate('采收日期', day);
    await drawer().getByLabel('数量', { exact: true }).fill('123.5');
    await choose('等级', '一级');
    await saveTo('/api/farmHarvest/harvests');
    const harvested = async () => (await api<Page2<Harvest>>(`/api/farmHarvest/harvests/page?from=${day}&to=${day}&groupId=${group.value}`)).rows.find((r) => r.quantity === 123.5);
    await expect.poll(harvested, { timeout: 15_000 }).toBeTruthy();
    const batch = (await harvested())!;
    await page.getByText(batch.batchNo).first().waitFor();

    // Sell part of it.
    await page.goto('/marketing/sale');
    await page.getByRole('button', { name: '新建销售单' }).click();
    await drawer().getByLabel('客户', { exact: true }).fill('哈尔滨红旗菜市场');
    await pickDate('日期', day);
    await choose('批次', batch.batchNo);
    await drawer().getByLabel('数量', { exact: true }).fill('40');
    await drawer().getByLabel('单价（元）', { exact: true }).fill('6.35');
    await saveTo('/api/marketing/sale/orders');
    await expect.poll(async () => (await api<Harvest>(`/api/farmHarvest/harvests/${batch.id}`)).sold, { timeout: 15_000 }).toBe(40);
    expect((await api<Harvest>(`/api/farmHarvest/harvests/${batch.id}`)).left).toBe(83.5);

    // The accounts follow: the sale's income, to the fen.
    await page.goto('/farmAccounting/index');
    await page.getByRole('tab', { name: '账目' }).click();
    await page.getByRole('cell', { name: '254.00' }).first().waitFor();
    const entries = await api<Page2<{ amount: string; source: string; reference: string }>>(`/api/farmAccounting/entries/page?source=sale&from=${day}&to=${day}`);
    expect(entries.rows.some((e) => e.amount === '254.00')).toBe(true);

    // The trace code, from the harvest list.
    await page.goto('/farmHarvest/index');
    const row = page.locator('tr').filter({ hasText: batch.batchNo });
    await row.getByRole('button', { name: '生成追溯码' }).click();
    await expect.poll(async () => (await api<Harvest>(`/api/farmHarvest/harvests/${batch.id}`)).traceCode, { timeout: 15_000 }).toMatch(/^[A-Z0-9]{12}$/);
    const code = (await api<Harvest>(`/api/farmHarvest/harvests/${batch.id}`)).traceCode!;
    await page.goto('/trackInfoManage/index');
    await page.getByRole('link', { name: code }).waitFor();

    // The public page in a fresh browser context: no cookie, no token.
    const fresh = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 390, height: 844 }, locale: 'zh-CN' });
    try {
      expect(await fresh.cookies()).toEqual([]);
      const phone = await fresh.newPage();
      const reply = await phone.goto(`/t/${code}`);
      expect(reply?.status()).toBe(200);
      expect(new URL(phone.url()).pathname).toBe(`/t/${code}`);
      await phone.getByText(batch.batchNo).waitFor();
      const text = await phone.locator('body').innerText();
      expect(text).toContain('禾丰生态农场');
      for (const secret of ['哈尔滨红旗菜市场', '6.35', '254.00', '张伟']) expect(text).not.toContain(secret);
      // Leave a review; the page thanks, the farm sees it.
      await phone.getByLabel('内容').fill('番茄很新鲜');
      await phone.getByRole('button', { name: '提交' }).click();
      await phone.getByText('谢谢').waitFor();
    } finally {
      await fresh.close();
    }
    const reviews = await api<Page2<{ content: string; code: string }>>('/api/commentSuggestion/page?keyword=番茄很新鲜');
    expect(reviews.rows[0]).toMatchObject({ content: '番茄很新鲜', code });
    await context.close();
    context = undefined;
  });
});

describe('provider home', () => {
  it('shows the provider’s farms and their figures', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'provider');
    await page.waitForURL('**/dashboard');
    await page.goto('/yxhome/index');
    await page.getByRole('cell', { name: '禾丰生态农场' }).waitFor();
    await page.getByRole('cell', { name: '嫩江源合作农场' }).waitFor();
    await page.getByText('服务农场').first().waitFor();
    const overview = await api<{ farms: number }>('/api/yxhome/overview');
    expect(overview.farms).toBe(2);
    // The farms served on a map: both farms' plots, read-only.
    await page.locator('[data-testid="farm-map"][data-state="ready"]').waitFor();
    expect(await page.getByRole('button', { name: '绘制地块' }).count()).toBe(0);
    const farms = await api<{ rows: { id: number }[] }>('/api/yxhome/farms/page');
    for (const f of farms.rows) {
      const map = await api<{ features: { features: unknown[] } }>(`/api/land/map?layers=plots&farmId=${f.id}`);
      expect(map.features.features.length).toBeGreaterThan(0);
    }
  });
});

describe('the entry routes of spec 2.2', () => {
  it('/auth-redirect adopts a token the server confirms and goes on; refuses a bad one; /redirect, /qiqihaer, /startpage2, /adminManagement', async () => {
    // A token from a real login, handed to a browser that has no session.
    const source = await newPage(browser);
    await source.page.goto('/login');
    await logIn(source.page, 'farm');
    await source.page.waitForURL('**/dashboard');
    const { token } = await cookieMap(source.context);
    await source.context.close();
    expect(token).toBeTruthy();

    ({ context, page } = await newPage(browser));
    await page.goto(`/auth-redirect?token=${encodeURIComponent('not-a-token')}&redirect=/farmHarvest/index`);
    await page.getByText('登录凭证无效或已过期').waitFor();
    expect((await cookieMap(context)).token).toBeUndefined();

    await page.goto(`/auth-redirect?token=${encodeURIComponent(token)}&redirect=${encodeURIComponent('/farmHarvest/index')}`);
    await page.waitForURL('**/farmHarvest/index');
    expect((await cookieMap(context)).token).toBe(token);
    // Another origin is never a target.
    await page.goto(`/auth-redirect?token=${encodeURIComponent(token)}&redirect=${encodeURIComponent('//evil.example/x')}`);
    await page.waitForURL('**/dashboard');

    await page.goto('/redirect/marketing/sale?status=confirmed');
    await page.waitForURL((u) => u.pathname === '/marketing/sale' && u.search === '?status=confirmed');

    // The regional big screen is a dashboard document (schemas/screens/harvest/regionalScreen.json),
    // full screen after login: its title, the city and the region's figures from /api/bigScreen/region, the crops chart.
    const region = await sessionApi<{ city: string; farms: number; crops: unknown[] }>(context!, '/api/bigScreen/region');
    await page.goto('/qiqihaer');
    await page.getByRole('heading', { level: 1, name: '智慧农业大屏' }).waitFor();
    await page.getByText(region.city).waitFor();
    await page.locator('.ant-statistic').filter({ hasText: '农场' }).filter({ hasText: String(region.farms) }).first().waitFor();
    if (region.crops.length) await page.getByRole('img', { name: '作物种植面积' }).waitFor();
    // Outside the console's layout: no menu.
    expect(await page.getByRole('menu').count()).toBe(0);
    await page.getByRole('link', { name: '返回后台' }).waitFor();

    await page.goto('/startpage2');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/startpage2');
    await context.close();
    context = undefined;

    // Without a session: /adminManagement is the login page on the way to the administration; /startpage2 needs a token.
    ({ context, page } = await newPage(browser));
    await page.goto('/adminManagement');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/baseManager/userManager');
    await page.goto('/startpage2');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/startpage2');
  });
});
