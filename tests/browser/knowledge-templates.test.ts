/**
 * Issue 13, the knowledge base in Chromium: a farm operator copies a system template into
 * its farm from the system-template list, lands on the copy's form, changes a work item
 * and saves; the copy changed, the system template did not.
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

type Template = { id: number; name: string; workItems: { name: string }[] };

describe('system templates as farm', () => {
  it('copies the tomato whole-season template into the farm, edits a work item of the copy and saves it', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    await page.goto('/sysTemplateManage/index');
    const row = page.locator('table.sg-table:visible tbody tr').filter({ hasText: '日光温室越冬茬番茄全季农事' });
    await row.waitFor();
    // The farm reads the platform's list: no add, edit or delete, but «复制到本农场».
    expect(await page.getByRole('button', { name: '新增' }).count()).toBe(0);
    await row.getByRole('button', { name: '复制到本农场' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确 定' }).or(page.getByRole('dialog').getByRole('button', { name: '确定' })).first().click();
    await page.waitForURL(/\/agricultureKnowledge\/template\/seasonWork\/\d+\/edit$/);
    const copyId = Number(page.url().split('/').at(-2));

    const name = page.getByLabel('农事', { exact: true }).nth(2);
    await expect.poll(() => name.inputValue()).toBe('深翻整地起垄');
    await name.fill('深翻整地起垄（加深至 30 厘米）');
    await page.getByRole('button', { name: '保 存' }).or(page.getByRole('button', { name: '保存' })).first().click();
    await page.getByText('已保存').or(page.getByText('保存成功')).first().waitFor();

    const copy = await api<Template & { sourceTemplateId: number }>(`/api/agricultureKnowledge/planTemplates/${copyId}`);
    expect(copy.workItems[2].name).toBe('深翻整地起垄（加深至 30 厘米）');
    const source = await api<Template>(`/api/kms/systemTemplates/${copy.sourceTemplateId}`);
    expect(source.workItems[2].name).toBe('深翻整地起垄');
  });
});
