import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { api, openShell } from './shell-support.ts';
import { readsOnly } from './file-server.ts';
import { variants } from '../support/tier.ts';

// Reads and navigates only: the project's shared server (file-server.ts).
readsOnly();

// Issue 9 items 4 and 5 at 1440 px: a show view is a read view (descriptions, references
// by name, enums by label, no form controls, no required marks), and the record names the
// tab, the heading and the browser title, in zh and in en.
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

const RULE = '寒地水稻插秧栽培规则';

const cases = [
  { lang: 'zh' as const, title: '种植规则', app: '智慧农场管理平台', crop: '水稻', status: '已发布', label: '规则名称' },
  { lang: 'en' as const, title: 'Planting rule', app: 'Smart Farm Management Platform', crop: '水稻', status: 'Published', label: 'Rule name' },
];

describe('read views and record titles (1440 px)', () => {
  it.each(variants(cases))('$lang: the show view reads, and the tab and the browser title name the record', async ({ lang, title, app, crop, status, label }) => {
    const opened = await openShell(browser, { user: 'admin', lang, width: 1440, path: '/agricultureKnowledge/plantRules' });
    context = opened.context;
    const { page, token } = opened;
    const found = await api<{ rows: { id: number; name: string }[] }>(token, `/api/kms/plantRules/page?name=${encodeURIComponent(RULE)}`);
    const id = found.data.rows.find((r) => r.name === RULE)!.id;
    const path = `/agricultureKnowledge/editPlantRules/show/${id}`;
    await page.goto(path);

    const form = page.locator('[data-screen="plantRulesForm"]');
    const read = form.getByTestId('read-view');
    await read.waitFor();
    // Label and value; the crop reference by its name, the status enum by its label.
    const item = (name: string) => read.locator('.ant-descriptions-item-container').filter({ has: page.locator('.ant-descriptions-item-label', { hasText: name }) });
    await expect.poll(() => item(label).locator('.ant-descriptions-item-content').textContent()).toBe(RULE);
    await read.getByText(crop, { exact: true }).waitFor();
    await read.getByText(status, { exact: true }).waitFor();
    expect(await form.locator('input, textarea, select, [aria-disabled=true], .ant-form-item-required').count()).toBe(0);

    const named = `${title} · ${RULE}`;
    await page.getByRole('heading', { name: named }).waitFor();
    const active = page.locator(`[data-testid=tab][data-key="${path}"]`);
    await expect.poll(() => active.getByTestId('tab-label').textContent()).toBe(named);
    await expect.poll(() => page.title()).toBe(`${named} - ${app}`);

    // The browser title follows the active tab: back on the list it names the list.
    await page.locator('[data-testid=tab][data-key="/agricultureKnowledge/plantRules"]').getByTestId('tab-label').click();
    await page.waitForURL('**/agricultureKnowledge/plantRules');
    const listTitle = lang === 'zh' ? '种植规则' : 'Planting rules';
    await expect.poll(() => page.title()).toBe(`${listTitle} - ${app}`);
    // The record's tab keeps its name while another tab is shown.
    await expect.poll(() => active.getByTestId('tab-label').textContent()).toBe(named);
  });
});
