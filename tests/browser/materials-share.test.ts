/**
 * Issue 15, shared materials in Chromium (docs/materials.md, "Shared materials"): `farm2`
 * requests part of an open offer of 禾丰生态农场 from the market (the request form in a
 * modal); `farm` hands it over from its requests tab; the goods left farm's store and
 * entered farm2's, whose movements show the stock-in «接收自 禾丰生态农场».
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
      await p.screenshot({ path: `${process.env.SHOTS}/share-${i}.png`, fullPage: true });
      console.log(await p.locator('main').last().ariaSnapshot().catch(() => ''));
    }
  }
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

type Offer = { id: number; number: string; farmName: string; materialId: number; materialName: string; goodsCode: string; status: string; mine: boolean; requested: number; left: number; unit: string };
type Request = { id: number; number: string; offerId: number; status: string; quantity: number; stockInNumber: string | null };
type Page_<T> = { rows: T[] };
type Stock = { rows: { storeName: string; goodsCode: string; quantity: number }[] };

const farmApi = apiAs('farm');
const farm2Api = apiAs('farm2');

async function confirm(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm:visible').last();
  await button(dialog, '确定').click();
  await expect
    .poll(async () => ((await page.locator('.ant-modal-confirm:visible').count()) === 0 ? '' : await page.locator('.ant-message').innerText().catch(() => 'open')))
    .toBe('');
}
async function choose(scope: Locator, page: Page, label: string, option: string): Promise<void> {
  await scope.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
  const select = scope.locator('.ant-select', { has: page.getByLabel(label, { exact: true }) });
  await expect.poll(() => select.innerText()).toContain(option);
}
/** A tab of the market page by its name (the page's children carry no data-screen of their own). */
const tabPanel = (page: Page, name: string) => page.getByRole('tabpanel', { name }).first();
const rowOf = (scope: Locator, text: string) => scope.getByRole('row').filter({ hasText: text }).first();

const QUANTITY = 2;
const stockOf = async (api: typeof farmApi, code: string) =>
  (await api<Stock>('/api/farmMaterials/stock/page?pageSize=200')).rows.filter((r) => r.storeName === '一号农资库' && r.goodsCode === code).reduce((s, r) => s + r.quantity, 0);

let farm2: Page;
let farm: Page;
let offer: Offer;
let request: Request;
let hereBefore = 0;
let thereBefore = 0;

describe('a shared material from farm to farm2', () => {
  it('farm2: requests part of an open offer of 禾丰生态农场 from the market', async () => {
    const market = (await farm2Api<Page_<Offer>>('/api/shareMaterial/offers/page?status=open&pageSize=50')).rows;
    offer = market.find((o) => !o.mine && o.farmName === '禾丰生态农场' && o.requested === 0 && o.left >= QUANTITY)!;
    expect(offer, 'a seeded open offer of farm').toBeDefined();
    hereBefore = await stockOf(farmApi, offer.goodsCode);
    thereBefore = await stockOf(farm2Api, offer.goodsCode);
    const opened = await openShell(browser, { user: 'farm2', path: '/shareMaterial/index' });
    contexts.push(opened.context);
    farm2 = opened.page;
    const list = tabPanel(farm2, '共享农资');
    const row = rowOf(list, offer.number);
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain('开放');
    await button(row, '申请').click();
    const modal = farm2.locator('.ant-modal:visible').last();
    await choose(modal, farm2, '接收仓库', '一号农资库');
    await modal.getByLabel('申请数量', { exact: true }).fill(String(QUANTITY));
    await modal.getByLabel('说明', { exact: true }).fill('浏览器测试：补一点急用');
    await button(modal, '保存').click();
    await expect.poll(async () => (await farm2Api<Page_<Request>>('/api/shareMaterial/requests/page?side=mine&status=requested&pageSize=50')).rows.filter((r) => r.offerId === offer.id).length).toBe(1);
    request = (await farm2Api<Page_<Request>>('/api/shareMaterial/requests/page?side=mine&status=requested&pageSize=50')).rows.find((r) => r.offerId === offer.id)!;
    expect(request.quantity).toBe(QUANTITY);
    await expect.poll(() => rowOf(list, offer.number).innerText()).toContain('有申请');
  });

  it('farm: hands it over from its requests tab; the stock moved from one store to the other', async () => {
    const opened = await openShell(browser, { user: 'farm', path: '/shareMaterial/index' });
    contexts.push(opened.context);
    farm = opened.page;
    await farm.getByRole('tab', { name: '申请与交接' }).click();
    const list = tabPanel(farm, '申请与交接');
    const row = rowOf(list, request.number);
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain('嫩江源合作农场');
    await button(row, '同意并交接').click();
    await confirm(farm);
    await expect.poll(async () => (await farmApi<Page_<Request>>('/api/shareMaterial/requests/page?side=toMe&pageSize=100')).rows.find((r) => r.id === request.id)?.status).toBe('handedOver');
    await expect.poll(() => rowOf(list, request.number).innerText()).toContain('已交接');
    expect(await stockOf(farmApi, offer.goodsCode)).toBe(hereBefore - QUANTITY);
    expect(await stockOf(farm2Api, offer.goodsCode)).toBe(thereBefore + QUANTITY);
  });

  it('farm2: sees the stock-in in its store', async () => {
    await farm2.goto('/farmMaterialsManage/farmMaterialsStore');
    await farm2.getByRole('tab', { name: '出入库单' }).click();
    const done = (await farm2Api<Page_<Request>>('/api/shareMaterial/requests/page?side=mine&status=handedOver&pageSize=100')).rows.find((r) => r.id === request.id)!;
    expect(done.stockInNumber).toMatch(/^RK\d{6}$/);
    await expect.poll(() => tabPanel(farm2, '出入库单').getByRole('row').filter({ hasText: done.stockInNumber! }).innerText()).toContain('接收自 禾丰生态农场');
    await farm2.getByRole('tab', { name: '库存' }).click();
    await expect.poll(() => tabPanel(farm2, '库存').getByRole('row').filter({ hasText: offer.materialName }).count()).toBeGreaterThan(0);
  });
});
