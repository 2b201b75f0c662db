import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, navigateInConsole } from './browser.ts';
import { openShell, pathOf } from './shell-support.ts';
import { readsOnly } from './file-server.ts';
import { variants } from '../support/tier.ts';

// Reads and navigates only: the project's shared server (file-server.ts).
readsOnly();

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

async function open(opts: Parameters<typeof openShell>[1]): Promise<Page> {
  const opened = await openShell(browser, opts);
  context = opened.context;
  return opened.page;
}

const CROPS = '/agricultureKnowledge/cropsManager';
const tabTitles = (page: Page) => page.getByTestId('tab-label').allTextContents();
const tab = (page: Page, key: string) => page.locator(`[data-testid=tab][data-key="${key}"]`);

/** Goes somewhere inside the console without a page load (the way a menu link does). */
async function go(page: Page, path: string): Promise<void> {
  await navigateInConsole(page, path);
  // A user never navigates twice within one frame; wait until the shell has seen this page.
  await page.locator(`[data-testid=tab][data-key="${path}"][data-active=true]`).waitFor();
}

/** Right-clicks a tab and picks an action of its context menu. */
async function fromContextMenu(page: Page, key: string, action: string): Promise<void> {
  await tab(page, key).getByTestId('tab-label').click({ button: 'right' });
  const item = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: action, exact: true });
  await item.waitFor();
  // The pop-up zooms in at the pointer; a DOM click does not depend on where it is mid-animation.
  await item.dispatchEvent('click');
}

async function openCropsFromMenu(page: Page, sectionTitle: string): Promise<void> {
  const nav = page.getByTestId('side-menu');
  const link = nav.locator(`a[href="${CROPS}"]`);
  // The page left the section: its submenu closes, with an animation that may start only
  // after the URL changed. Wait until it is closed, then open it and take the link.
  await expect.poll(() => link.isVisible()).toBe(false);
  await expect.poll(() => nav.locator('[class*="motion-collapse"]').count()).toBe(0);
  await nav.getByText(sectionTitle, { exact: true }).click();
  await link.click();
  await page.waitForURL(`**${CROPS}`);
}

describe('tab strip (item 4)', () => {
  it('every visited route is a tab (each detail its own), titles localised; close goes to the last tab; tabs survive a reload (1280, zh)', async () => {
    const page = await open({ user: 'admin', path: CROPS });
    const detailLinks = page.locator('a[href^="/agricultureKnowledge/growthCycle/"]');
    await detailLinks.nth(1).waitFor();
    const [first, second] = [await detailLinks.nth(0).getAttribute('href'), await detailLinks.nth(1).getAttribute('href')];
    expect(first).not.toBe(second);
    // Each detail's tab names its crop once the record is loaded (作物详情 · 水稻).
    await go(page, first!);
    await page.getByRole('heading', { name: /^作物详情 · / }).waitFor();
    await go(page, second!);
    await page.getByRole('heading', { name: /^作物详情 · / }).waitFor();
    await go(page, '/dashboard');
    await expect.poll(() => page.getByTestId('tab').count()).toBe(4);
    const titles = await tabTitles(page);
    // The home tab is pinned first, without a close button.
    expect(titles[0]).toBe('首页');
    expect(titles[1]).toBe('作物管理');
    expect(titles[2]).toMatch(/^作物详情 · ./);
    expect(titles[2]).not.toBe(titles[3]);
    expect(await tab(page, '/dashboard').getByTestId('tab-close').count()).toBe(0);

    await page.reload();
    await page.getByTestId('tab-strip').waitFor();
    await expect.poll(() => tabTitles(page)).toEqual(titles);

    // Closing the active tab (the second detail, last) opens the last remaining one: the first detail.
    await tab(page, second!).getByTestId('tab-label').click();
    await page.waitForURL(`**${second}`);
    await tab(page, second!).getByTestId('tab-close').click();
    await page.waitForURL(`**${first}`);
    expect(await page.getByTestId('tab').count()).toBe(3);
    // Closing another tab stays.
    await tab(page, CROPS).getByTestId('tab-close').click();
    await expect.poll(() => page.getByTestId('tab').count()).toBe(2);
    expect(pathOf(page)).toBe(first);
  });

  it('Refresh, Close, Close Others and Close All from the context menu and the buttons keep the home tab (1280, en)', async () => {
    const page = await open({ user: 'admin', lang: 'en', path: CROPS });
    await go(page, '/errorLog');
    await go(page, '/dashboard');
    await expect.poll(() => tabTitles(page)).toEqual(['Home', 'Crops', 'Error log']);

    await fromContextMenu(page, '/errorLog', 'Close Others');
    await page.waitForURL('**/errorLog');
    await expect.poll(() => tabTitles(page)).toEqual(['Home', 'Error log']);

    await go(page, '/dashboard');
    await fromContextMenu(page, '/errorLog', 'Close');
    await expect.poll(() => tabTitles(page)).toEqual(['Home']);
    expect(pathOf(page)).toBe('/dashboard');

    await go(page, CROPS);
    await go(page, '/errorLog');
    await page.getByTestId('tab-actions').click();
    await page.getByRole('menuitem', { name: 'Close All' }).click();
    // The home tab stays: a signed-in user is never dropped onto the public start page.
    await page.waitForURL('**/dashboard');
    await expect.poll(() => tabTitles(page)).toEqual(['Home']);
  });

  it('a wizard opened from the address bar is one tab, whatever step it shows (farm initialisation, 1280, en)', async () => {
    const page = await open({ user: 'farm', lang: 'en', path: '/farm/initialization' });
    // The wizard writes its step into its own address (?step=0); that is the same tab.
    await page.waitForURL('**/farm/initialization?step=*', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/farm/initialization?step=1', { timeout: 60_000 });
    await expect.poll(() => tabTitles(page)).toEqual(['Home', 'Farm initialisation']);
  });

  it('a keepAlive screen keeps its search form and selection across tabs, and loses them on Refresh and on Close (1280, zh)', async () => {
    const page = await open({ user: 'admin', path: CROPS });
    const name = page.getByPlaceholder('作物名称');
    const firstRow = page.locator('tbody tr[data-row-key]').first().getByRole('checkbox');
    await firstRow.waitFor();
    await name.fill('稻');
    await firstRow.check();
    // The selection is the grid's state, committed after the click's render.
    await expect.poll(() => firstRow.isChecked()).toBe(true);

    await page.getByTestId('breadcrumbs').getByRole('link', { name: '首页' }).click();
    await page.getByTestId('welcome').waitFor();
    await tab(page, CROPS).getByTestId('tab-label').click();
    await page.waitForURL(`**${CROPS}`);
    expect(await name.inputValue()).toBe('稻');
    await expect.poll(() => firstRow.isChecked()).toBe(true);

    // Refresh: a fresh view.
    await page.getByTestId('tab-refresh').click();
    await expect.poll(() => page.getByPlaceholder('作物名称').inputValue()).toBe('');
    await page.locator('tbody tr[data-row-key]').first().waitFor();
    expect(await page.locator('tbody tr[data-row-key]').first().getByRole('checkbox').isChecked()).toBe(false);

    // Close, then open again from the menu: a fresh view too.
    await page.getByPlaceholder('作物名称').fill('麦');
    await fromContextMenu(page, CROPS, '关闭');
    await page.waitForURL('**/dashboard');
    await openCropsFromMenu(page, '农业知识库');
    await page.locator('tbody tr[data-row-key]').first().waitFor();
    expect(await page.getByPlaceholder('作物名称').inputValue()).toBe('');
  });

  it('a keepAlive page keeps its table page and scroll position when revisited (error log, 800, en)', async () => {
    const page = await open({ user: 'farm', lang: 'en', width: 800, path: '/errorLog' });
    await page.evaluate(() => {
      for (let i = 1; i <= 15; i++) void Promise.reject(new Error(`keep-alive test error ${i}`));
    });
    const table = page.getByTestId('page-scroller');
    await table.locator('.ant-pagination-item-2').click();
    await table.getByText('keep-alive test error 5', { exact: true }).waitFor();
    const scroller = page.getByTestId('page-scroller');
    await scroller.evaluate((el) => el.scrollTo(0, 300));
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
    const scrolled = await scroller.evaluate((el) => el.scrollTop);

    await go(page, '/dashboard');
    await page.getByTestId('welcome').waitFor();
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
    await tab(page, '/errorLog').getByTestId('tab-label').click();
    await table.getByText('keep-alive test error 5', { exact: true }).waitFor();
    expect(await table.locator('.ant-pagination-item-active').textContent()).toBe('2');
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(scrolled);

    // Refresh drops the kept view: page 1 again.
    await page.getByTestId('tab-refresh').click();
    await expect.poll(() => table.locator('.ant-pagination-item-active').textContent()).toBe('1');
  });
});

describe('language and size (item 5)', () => {
  it('switching language re-renders menu, tabs, breadcrumbs and the screen at once, without a page load; the cookie keeps it', async () => {
    const page = await open({ user: 'admin', path: CROPS });
    await go(page, '/dashboard');
    await go(page, CROPS);
    await page.getByRole('heading', { name: '作物管理' }).waitFor();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    await page.getByTestId('language-switch').click();
    await page.locator('.ant-select-item-option[title="English"]').click();
    await page.getByRole('heading', { name: 'Crops', exact: true }).waitFor();
    await expect.poll(() => tabTitles(page)).toEqual(['Home', 'Crops']);
    await expect.poll(() => page.getByTestId('breadcrumbs').locator('li:not(.ant-breadcrumb-separator)').allTextContents()).toEqual([
      'Home',
      'Agricultural knowledge',
      'Crops',
    ]);
    await page.getByRole('navigation', { name: 'Navigation menu' }).getByText('Agricultural knowledge', { exact: true }).waitFor();
    await page.getByPlaceholder('Crop name').waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect((await context!.cookies()).find((c) => c.name === 'language')?.value).toBe('en');

    await page.getByTestId('language-switch').click();
    await page.locator('.ant-select-item-option[title="Español"]').click();
    await page.getByRole('heading', { name: 'Cultivos', exact: true }).waitFor();
    await expect.poll(() => tabTitles(page)).toEqual(['Inicio', 'Cultivos']);
  });

  it('size large / medium / small reaches every antd component and is kept in the size cookie (800, en and zh)', async () => {
    for (const lang of variants(['en', 'zh'] as const)) {
      const page = await open({ user: 'admin', lang, width: 800, path: CROPS });
      const search = page.locator('main .ant-btn').first();
      await search.waitFor();
      expect(await search.evaluate((el) => el.className)).not.toMatch(/ant-btn-(lg|sm)/);
      await page.getByTestId('size-switch').click();
      await page.getByRole('menuitem', { name: lang === 'en' ? 'Large' : '大' }).click();
      await expect.poll(() => search.evaluate((el) => el.className)).toMatch(/ant-btn-lg/);
      await expect.poll(() => page.locator('main .ant-input').first().evaluate((el) => el.className)).toMatch(/ant-input-lg/);
      expect((await context!.cookies()).find((c) => c.name === 'size')?.value).toBe('large');
      await page.reload();
      await expect.poll(() => page.locator('main .ant-btn').first().evaluate((el) => el.className)).toMatch(/ant-btn-lg/);
      await page.getByTestId('size-switch').click();
      await page.getByRole('menuitem', { name: lang === 'en' ? 'Small' : '小' }).click();
      await expect.poll(() => page.locator('main .ant-btn').first().evaluate((el) => el.className)).toMatch(/ant-btn-sm/);
      await context!.close();
      context = undefined;
    }
  });
});
