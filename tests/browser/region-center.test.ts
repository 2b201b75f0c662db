/**
 * The regional center oversees its region in the console (docs/auth-and-accounts.md, "The
 * regional center's region"): as `center`, the farm list shows the region's farms, the
 * trace codes list the farms' batches, each with its farm, without an add button (read
 * only), and the home shows the region's figures. The API side: tests/api/region-scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { openShell } from './shell-support.ts';
import { readsOnly } from './file-server.ts';

// Reads and navigates only: the project's shared server (file-server.ts).
readsOnly();

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = (await openShell(browser, { user: 'center', path: '/multiFarm/index', width: 1440 })).page;
});
afterAll(async () => {
  await browser?.close();
});

const rows = (screen: string) => page.locator(`[data-screen="${screen}"]:visible table.sg-table tbody tr[data-row-key]`);

describe('the regional center', () => {
  it('lists the farms of its region', async () => {
    await rows('multiFarm').filter({ hasText: '禾丰生态农场' }).first().waitFor();
    await rows('multiFarm').filter({ hasText: '嫩江源合作农场' }).first().waitFor();
  });

  it('reads the farms’ trace codes, and is offered no way to add one', async () => {
    await page.goto('/trackInfoManage/index');
    await rows('traceCodes').first().waitFor();
    await expect.poll(async () => (await rows('traceCodes').allInnerTexts()).join('\n')).toMatch(/禾丰|嫩江源/);
    expect(await page.locator('[data-screen="traceCodes"]:visible').getByRole('button', { name: /新\s?增/ }).count()).toBe(0);
  });

  it('opens on the region’s figures: the area its farms have planted', async () => {
    await page.goto('/farmMain/index');
    const stat = page.locator('.ant-statistic').filter({ has: page.getByText('在田面积', { exact: true }) }).first();
    await expect.poll(async () => Number((await stat.locator('.ant-statistic-content-value').innerText().catch(() => '0')).replace(/,/g, ''))).toBeGreaterThan(0);
  });

  it('compares its farms’ places in the environment charts, each line named with its farm', async () => {
    await page.goto('/environment/index');
    const chart = page.locator('.eqc-chart[role="img"]').first();
    await chart.waitFor();
    // Same-named houses of two farms are two lines: every line of a several-farm viewer names its farm.
    const label = (await chart.getAttribute('aria-label')) ?? '';
    const lines = label.slice(label.indexOf(':') + 1).split(',').map((s) => s.trim()).filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^(禾丰生态农场|嫩江源合作农场|绿源育苗基地) · /);
  });
});

