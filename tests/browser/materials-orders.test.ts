/**
 * Issue 15, a purchase order across organisations in Chromium (docs/materials.md,
 * "Purchase orders"): `farm` writes an order to 丰沃肥业 on the order form (a line of urea)
 * and submits it; `factory` finds it in its order list, accepts and ships it; `farm`
 * receives it into its store, and the stock of urea there went up by the quantity ordered.
 * One browser, one page per account, the real server and database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { apiAs, button, openShell } from './shell-support.ts';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async (ctx) => {
  if (process.env.SHOTS && ctx.task.result?.state === 'fail') {
    for (const [i, c] of contexts.entries()) for (const p of c.pages()) {
      await p.screenshot({ path: `${process.env.SHOTS}/orders-${i}.png`, fullPage: true });
      console.log(await p.locator('main').last().ariaSnapshot().catch(() => ''));
    }
  }
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

type Order = { id: number; number: string; status: string; pendingShipments: number };
type Stock = { rows: { storeName: string; quantity: number }[] };

const farmApi = apiAs('farm');

async function confirm(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm:visible, .ant-modal:visible').last();
  await button(dialog, '确定').click();
  // A refusal keeps the dialog open and says why in a message: show it if so.
  await expect
    // The dialog waits for the server's answer; on the loaded CI machine that took over 10 s.
    .poll(async () => ((await page.locator('.ant-modal-confirm:visible, .ant-modal:visible').count()) === 0 ? '' : await page.locator('.ant-message').innerText().catch(() => 'open')), { timeout: 30_000 })
    .toBe('');
}
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
  const select = page.locator('.ant-select', { has: page.getByLabel(label, { exact: true }) });
  await expect.poll(() => select.innerText()).toContain(option);
  await page.keyboard.press('Escape');
}
const screen = (page: Page, id: string) => page.locator(`[data-screen="${id}"]:visible`).first();
const rowOf = (scope: Locator, text: string) => scope.locator('table.sg-table tbody tr').filter({ hasText: text }).first();

const QUANTITY = 7;
const urea = async () => (await farmApi<Stock>(`/api/farmMaterials/stock/page?keyword=${encodeURIComponent('尿素')}&pageSize=50`)).rows.filter((r) => r.storeName === '一号农资库').reduce((s, r) => s + r.quantity, 0);

let farm: Page;
let factory: Page;
let order: Order;
let before = 0;

describe('a purchase order from farm to factory and back', () => {
  it('farm: writes the order on the form and submits it', async () => {
    const opened = await openShell(browser, { user: 'farm', path: '/farmMaterialsManage/purchase/detail/add/0' });
    contexts.push(opened.context);
    farm = opened.page;
    before = await urea();
    await choose(farm, '厂家', '丰沃肥业有限公司');
    await choose(farm, '入库仓库', '一号农资库');
    const day = farm.getByLabel('下单日期', { exact: true });
    await day.click();
    await day.fill(new Date().toISOString().slice(0, 10));
    await day.press('Tab');
    await choose(farm, '农资', '尿素');
    await farm.getByLabel('数量', { exact: true }).fill(String(QUANTITY));
    await farm.getByLabel('单价（元）', { exact: true }).fill('106.5');
    await button(farm, '保存').click();
    await farm.waitForURL(/\/farmMaterialsManage\/purchase\/detail\/show\/\d+$/);
    const id = Number(farm.url().split('/').at(-1));
    order = await farmApi<Order>(`/api/farmMaterials/purchase/${id}`);
    expect(order).toMatchObject({ status: 'draft', totalAmount: '745.50' });
    await button(farm, '提交').click();
    await confirm(farm);
    await expect.poll(async () => (await farmApi<Order>(`/api/farmMaterials/purchase/${id}`)).status).toBe('submitted');
  });

  it('factory: finds it in its order list, accepts and ships it', async () => {
    const opened = await openShell(browser, { user: 'factory', path: '/fertilizerFactory/fertilizerLists' });
    contexts.push(opened.context);
    factory = opened.page;
    const list = screen(factory, 'factoryOrderList');
    const row = rowOf(list, order.number);
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain('禾丰生态农场');
    await button(row, '接单').click();
    await confirm(factory);
    await expect.poll(async () => (await farmApi<Order>(`/api/farmMaterials/purchase/${order.id}`)).status).toBe('accepted');
    // The row as re-read after the acceptance (its version is the one the shipment sends).
    await expect.poll(() => rowOf(list, order.number).innerText()).toContain('已接单');
    await button(rowOf(list, order.number), '发货').click();
    const dialog = factory.locator('.ant-modal-confirm:visible, .ant-modal:visible').last();
    await dialog.getByLabel('运单号').fill('SF9900112233');
    await confirm(factory);
    await expect.poll(async () => (await farmApi<Order>(`/api/farmMaterials/purchase/${order.id}`)).status).toBe('shipped');
  });

  it('farm: receives it into the store and sees the stock', async () => {
    await farm.goto(`/farmMaterialsManage/purchase/detail/show/${order.id}`);
    await button(farm, '收货入库').click();
    await confirm(farm);
    await expect.poll(async () => (await farmApi<Order>(`/api/farmMaterials/purchase/${order.id}`)).status).toBe('received');
    expect(await urea()).toBe(before + QUANTITY);
    // The stock screen shows it too.
    await farm.goto('/farmMaterialsManage/farmMaterialsStore');
    await farm.getByRole('tab', { name: '出入库单' }).click();
    await expect.poll(() => farm.locator('table.sg-table tbody tr:visible').filter({ hasText: `采购入库 ${order.number}` }).count()).toBeGreaterThan(0);
  });
});
