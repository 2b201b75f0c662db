/**
 * /farmMain/index is one page whose blocks differ by who holds it (a page child's
 * `requires`): a manufacturer opens on its orders, a farm on its fields, never the other's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { api, openShell } from './shell-support.ts';
import { readsOnly } from './file-server.ts';

// Reads and navigates only: the project's shared server (file-server.ts).
readsOnly();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The number a stat block titled `title` shows (antd's statistic: its title, then its value). */
async function statValue(page: import('playwright-core').Page, title: string): Promise<string> {
  const stat = page.locator('.ant-statistic').filter({ has: page.getByText(title, { exact: true }) }).first();
  await stat.locator('.ant-statistic-content-value').waitFor();
  return (await stat.locator('.ant-statistic-content-value').innerText()).replace(/,/g, '');
}

describe('home pages by account', () => {
  it('the manufacturer sees its orders to accept, and no farm figures', async () => {
    const { context, page, token } = await openShell(browser, { user: 'factory', path: '/farmMain/index', width: 1440 });
    const overview = (await api<{ toAccept: number; customers: number }>(token, '/api/fertilizerFactory/home/overview')).data;
    await expect.poll(() => statValue(page, '待受理订单'), { timeout: 15_000 }).toBe(String(overview.toAccept));
    expect(await statValue(page, '客户农场')).toBe(String(overview.customers));
    await page.getByText('今年每月订货与发货金额（元）').waitFor();
    expect(await page.getByText('在田面积', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('the farm sees its fields and tasks, and no manufacturer block', async () => {
    const { context, page } = await openShell(browser, { user: 'farm', path: '/farmMain/index', width: 1440 });
    await page.getByText('在田面积', { exact: true }).waitFor();
    await page.getByText('今日与逾期任务').first().waitFor();
    expect(await page.getByText('待受理订单', { exact: true }).count()).toBe(0);
    await context.close();
  });
});
