/**
 * Issue 15, the stock ledger in Chromium: `farm` draws a pesticide from its pesticide store
 * on the stock-out form; taking more than is left is refused with the server's sentence
 * under the line's quantity (how much is left), nothing posted; the same line within the
 * stock is posted and opens the movement's detail, and the stock went down by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, newPage, sessionApi } from './browser.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const api = <T = unknown>(url: string): Promise<T> => sessionApi<T>(context, url);

async function choose(label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
  await page.keyboard.press('Escape');
}

type Stock = { rows: { storeName: string; quantity: number; storeId: number; materialId: number }[] };

describe('stock-out as farm', () => {
  it('refuses an over-draw under the line with what is left, then posts a draw within the stock', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    const stock = async () => (await api<Stock>(`/api/farmMaterials/stock/page?keyword=${encodeURIComponent('吡虫啉')}`)).rows.find((r) => r.storeName === '农药专用库')!;
    const before = await stock();
    expect(before.quantity).toBeGreaterThan(5);

    await page.goto('/farmMaterialsManage/addOutGoods/add/0');
    await choose('仓库', '农药专用库');
    const day = page.getByLabel('出库日期', { exact: true });
    await day.click();
    await day.fill(new Date().toISOString().slice(0, 10));
    await page.keyboard.press('Enter');
    await choose('农资', '吡虫啉');
    await page.getByLabel('批次', { exact: true }).fill('HTY2402');
    const quantity = page.getByLabel('数量', { exact: true });
    await quantity.fill(String(before.quantity + 1));
    const save = page.getByRole('button', { name: '保 存' }).or(page.getByRole('button', { name: '保存' })).first();
    await save.click();
    // The server's sentence, under the line's quantity.
    const field = page.locator('.ant-form-item').filter({ has: page.getByLabel('数量', { exact: true }) });
    await field.locator('.ant-form-item-explain-error').filter({ hasText: `只剩 ${before.quantity} 袋` }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/farmMaterialsManage/addOutGoods/add/0');
    expect((await stock()).quantity).toBe(before.quantity);

    await quantity.fill('5');
    await save.click();
    await page.waitForURL(/\/farmMaterialsManage\/addOutGoods\/detail\/show\/\d+$/);
    const id = Number(page.url().split('/').at(-1));
    const movement = await api<{ direction: string; lines: { quantity: number; batch: string }[] }>(`/api/farmMaterials/movements/${id}`);
    expect(movement).toMatchObject({ direction: 'out', lines: [{ quantity: 5, batch: 'HTY2402' }] });
    expect((await stock()).quantity).toBe(before.quantity - 5);
  });
});
