/**
 * Issue 15 item 5 in Chromium: `farm` imports a CSV into its material catalogue. The
 * preview highlights the bad row's cell with the server's sentence; «全部导入» is disabled
 * while a row is bad; «仅导入有效行» imports the others, the dialog closes with the count,
 * and the table shows the new materials. Then the price list comes again with a changed
 * price: «按「商品编码」更新已有记录» turns the row that failed as a taken code into an update,
 * and the material shows the new price.
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

const CSV = ['\uFEFF商品编码 *,农资名称 *,品类 *,单位 *,单价（元）', 'BRW-IMP-1,导入测试尿素,肥料,袋,118', 'BRW-IMP-2,导入测试坏行,不存在的品类,袋,20', 'BRW-IMP-3,导入测试钾肥,肥料,袋,160'].join('\r\n');

describe('import into the catalogue as farm', () => {
  it('previews a file with one bad row, imports the valid rows and shows them', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    await page.goto('/farmMaterialsManage/farmMaterialsList');

    await page.getByRole('button', { name: '导 入' }).or(page.getByRole('button', { name: '导入' })).first().click();
    const dialog = page.getByRole('dialog').filter({ hasText: '导入 · 农资列表' });
    await dialog.waitFor();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'materials.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });

    await dialog.getByText('共 3 行：2 行可导入，1 行有错误').waitFor();
    // The bad cell is highlighted and carries the server's sentence.
    const bad = dialog.locator('td[data-invalid=true]');
    expect(await bad.count()).toBe(1);
    expect(await bad.textContent()).toContain('不存在的品类');
    expect(await bad.textContent()).toContain('品类');
    expect(await dialog.getByRole('button', { name: '全部导入' }).isDisabled()).toBe(true);

    await dialog.getByRole('button', { name: /仅导入有效行/ }).click();
    await page.getByText('已导入 2 条记录').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // The table reloaded: the new materials are in it.
    await page.getByRole('cell', { name: 'BRW-IMP-1' }).first().waitFor();
    await page.getByRole('cell', { name: 'BRW-IMP-3' }).first().waitFor();
    const rows = await sessionApi<{ rows: { goodsCode: string }[] }>(context, '/api/farmMaterials/list/page?goodsCode=BRW-IMP&pageSize=10');
    expect(rows.rows.map((r) => r.goodsCode).sort()).toEqual(['BRW-IMP-1', 'BRW-IMP-3']);
  });

  it('imports the file again as updates by goods code: the price changes, nothing is duplicated', async () => {
    await page.getByRole('button', { name: '导 入' }).or(page.getByRole('button', { name: '导入' })).first().click();
    const dialog = page.getByRole('dialog').filter({ hasText: '导入 · 农资列表' });
    await dialog.waitFor();
    const again = ['\uFEFF商品编码 *,农资名称 *,品类 *,单位 *,单价（元）', 'BRW-IMP-1,导入测试尿素,肥料,袋,121.5'].join('\r\n');
    await dialog.locator('input[type=file]').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(again) });
    // As a create, the code is taken.
    await dialog.getByText('共 1 行：0 行可导入，1 行有错误').waitFor();
    await dialog.getByRole('checkbox', { name: /按「商品编码」更新已有记录/ }).check();
    await dialog.getByText('全部 1 行都可以导入（其中 1 行更新已有记录）').waitFor();
    await dialog.getByText('将更新').waitFor();
    await dialog.getByRole('button', { name: '全部导入' }).click();
    await page.getByText('已导入 1 条记录：新增 0 条，更新 1 条').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const rows = await sessionApi<{ rows: { goodsCode: string; unitPrice: number; version: number }[] }>(context, '/api/farmMaterials/list/page?goodsCode=BRW-IMP-1&pageSize=10');
    expect(rows.rows.map((r) => [r.goodsCode, r.unitPrice, r.version])).toEqual([['BRW-IMP-1', 121.5, 2]]);
  });
});

