/**
 * The lot trace report (issue 25, docs/harvest-sales-trace.md "The lot report") in Chromium,
 * as `farm`: from the harvest list's «追溯报告» to the report of the oldest batch, which shows
 * its inputs with their lots and suppliers, the harvest and its customers; sorted by a column
 * header; exported as CSV with every row.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, newPage, sessionApi } from './browser.ts';

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

type Row = { step: string; event: string; date: string; traceabilityLotCode: string; counterparty: string | null; quantity: number; reference: string | null };

describe('the lot trace report as farm', () => {
  it('opens from the harvest list, shows back and forward, sorts, and exports every row as CSV', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    const batches = await sessionApi<{ rows: { id: number; batchNo: string }[] }>(context, '/api/farmHarvest/harvests/page?pageSize=500');
    const oldest = batches.rows.reduce((a, b) => (a.id < b.id ? a : b));
    const report = await sessionApi<{ rows: Row[]; total: number }>(context, `/api/farmHarvest/harvests/${oldest.id}/lotTrace`);
    const input = report.rows.find((r) => r.step === 'back')!;
    const sale = report.rows.find((r) => r.event === 'shipping')!;

    await page.goto(`/farmHarvest/index?keyword=${oldest.batchNo}`);
    const line = page.getByRole('row').filter({ hasText: oldest.batchNo }).first();
    await line.waitFor();
    const more = line.getByRole('button', { name: '追溯报告' });
    if (await more.count()) await more.click();
    else {
      await line.getByRole('button', { name: /更多|more/i }).click();
      await page.getByRole('menuitem', { name: '追溯报告' }).click();
    }
    await page.waitForURL(`**/farmHarvest/lotTrace/${oldest.id}`);
    const table = page.getByRole('table');
    await table.getByRole('row').filter({ hasText: input.traceabilityLotCode }).first().waitFor();
    await expect.poll(() => table.getByRole('row').filter({ hasText: String(sale.counterparty) }).count()).toBeGreaterThan(0);
    await expect.poll(() => table.getByRole('row').filter({ hasText: '采收' }).filter({ hasText: oldest.batchNo }).count()).toBeGreaterThan(0);
    await expect.poll(() => table.getByRole('row').filter({ hasText: '向后一步：投入品' }).count()).toBe(report.rows.filter((r) => r.step === 'back').length);

    // Sorting by quantity (descending on the second click) asks the server and reorders the rows.
    const quantityHeader = table.getByRole('columnheader', { name: '数量' }).getByRole('button');
    await quantityHeader.click();
    await page.waitForURL(/list\.sort=quantity/);
    await quantityHeader.click();
    await page.waitForURL(/list\.sort=-quantity/);
    const largest = [...report.rows].sort((a, b) => b.quantity - a.quantity)[0];
    const firstRow = table.locator('tbody tr:not(.ant-table-measure-row)').first();
    await expect.poll(async () => (await firstRow.innerText()).includes(largest.traceabilityLotCode)).toBe(true);

    // Export as CSV: every row of the report, with its lot codes and customers.
    await page.getByRole('button', { name: '导出' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByText('导出 CSV').click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.trim().split(/\r?\n/).length).toBe(report.total + 1);
    expect(csv).toContain(input.traceabilityLotCode);
    expect(csv).toContain(String(sale.counterparty));
    expect(csv).toContain(oldest.batchNo);
  });
});
