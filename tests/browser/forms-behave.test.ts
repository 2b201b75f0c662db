/**
 * Issue 29, items 2 and 5 in Chromium as `farm` (zh), on the stock-in form (a date field, a
 * select, number fields and a line list rjsf fills on mount):
 * - the date picker speaks Chinese (weekdays 一 二 三…, months «11月»), never «Su Mo Tu»;
 * - an untouched form leaves without asking about unsaved changes;
 * - Enter in the date field confirms the date and does not submit the form;
 * - saving replaces the form by the movement's detail, the form's tab closes, and «返回»
 *   on the detail goes back to the list, not to an empty new form.
 * Item 3, as `center`: rejecting a plan with an empty reason shows the message under the
 * reason and keeps the dialog open, without an uncaught page error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, newPage } from './browser.ts';

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

const STORES = '/farmMaterialsManage/farmMaterialsStore';
const NEW_STOCK_IN = '/farmMaterialsManage/addEnterGoods/add/0';

async function choose(label: string, option: string): Promise<void> {
  // The form's field: the list kept alive in its hidden tab has a filter of the same name.
  await page.getByLabel(label, { exact: true }).filter({ visible: true }).first().click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
  await page.keyboard.press('Escape');
}

/** From the stores page's movements, the «入库» button: a form opened as a user opens it. */
async function openNewStockIn(): Promise<void> {
  await page.getByRole('tab', { name: '出入库单' }).click();
  // The button whose text is «入库»: the strip's close button of a form tab left open is named
  // after that tab («…入库…») too.
  await page.locator('button').filter({ hasText: /^入库$/ }).first().click();
  await page.waitForURL(`**${NEW_STOCK_IN}`);
  await page.getByLabel('入库日期', { exact: true }).waitFor();
}

const tabKeys = () => page.locator('[data-testid=tab]').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-key')));

describe('forms behave, one format (issue 29) as farm', () => {
  it('a Chinese calendar; no question on leaving an untouched form; Enter in a date does not submit; a save closes the form and «返回» leads to the list', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    await page.goto(STORES);
    await openNewStockIn();

    // Untouched (rjsf filled in the first line on mount): cancel leaves without asking.
    await page.getByRole('button', { name: '取消', exact: true }).click();
    await page.waitForURL((url) => url.pathname === STORES);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);

    await openNewStockIn();
    const day = page.getByLabel('入库日期', { exact: true });
    await day.click();
    const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
    await panel.waitFor();
    const weekdays = (await panel.locator('.ant-picker-content thead th').allTextContents()).map((s) => s.trim());
    expect(weekdays).toEqual(['一', '二', '三', '四', '五', '六', '日']);
    expect(await panel.locator('.ant-picker-month-btn').first().textContent()).toMatch(/^\d{1,2}月$/);
    expect(await panel.textContent()).not.toMatch(/\b(Su|Mo|Tu|We|Th|Fr|Sa)\b|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/);

    // Enter confirms the typed date; the form is not submitted (no required-field messages, same page).
    await day.fill('2026-06-15');
    await page.keyboard.press('Enter');
    await expect.poll(() => day.inputValue()).toBe('2026-06-15');
    await page.waitForTimeout(300);
    expect(await page.locator('.ant-form-item-explain-error').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(NEW_STOCK_IN);
    // Nor from a number field.
    await page.getByLabel('数量', { exact: true }).fill('2');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(await page.locator('.ant-form-item-explain-error').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(NEW_STOCK_IN);

    await choose('仓库', '农药专用库');
    await choose('农资', '吡虫啉');
    await page.getByLabel('批次', { exact: true }).fill('F29-1');
    expect(await tabKeys()).toContain(NEW_STOCK_IN);
    await page.getByRole('button', { name: '保 存' }).or(page.getByRole('button', { name: '保存' })).first().click();
    await page.waitForURL(/\/farmMaterialsManage\/addEnterGoods\/detail\/show\/\d+$/);
    const detail = new URL(page.url()).pathname;
    // The form's tab closed; the detail has one.
    await expect.poll(tabKeys).toContain(detail);
    expect(await tabKeys()).not.toContain(NEW_STOCK_IN);

    // «返回» on the saved movement: the list, not an empty new form.
    await page.getByRole('button', { name: '返回', exact: true }).click();
    await page.waitForURL((url) => url.pathname === STORES);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  });

  it('center: rejecting with an empty reason is a message on the field, never a page error', async () => {
    await context?.close();
    ({ context, page } = await newPage(browser));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/login');
    await logIn(page, 'center');
    await page.waitForURL('**/dashboard');
    await page.goto('/examineFactory/plantAdmin');
    const row = page.locator('tr').filter({ hasText: '待审核' }).first();
    await row.waitFor();
    const direct = row.getByRole('button', { name: '驳回' });
    if (await direct.isVisible()) await direct.click();
    else {
      await row.getByTestId('more-actions').click();
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '驳回' }).click();
    }
    const dialog = page.locator('.ant-modal:visible').last();
    await dialog.getByRole('button', { name: /^确\s?定$/ }).click();
    await dialog.getByRole('alert').filter({ hasText: '请填写此项' }).waitFor();
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: /^取\s?消$/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });
});
