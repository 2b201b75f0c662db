/**
 * Issue 9, items 6, 7, 10 and 12 in Chromium against the real server, at 1440 and 800 px
 * in zh and en: row actions beyond two under «更多 / More», the status column in view at
 * 1440, dates never clipped, a list's filters, sort, page and size kept in the address
 * over reload and back, the columns a narrow screen keeps, the pinned home tab with Close
 * All / Close Others / Close Left / Close Right, no tab for a forbidden page, the
 * organisation labels, the layout without a frame or document scroll, and the quick
 * guide of the instruction dialog.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
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

const USERS = '/baseManager/userManager';
const LOG = '/baseManager/gateLogManager';
const grid = (page: Page): Locator => page.locator('table.sg-table:visible').first();
const rows = (page: Page): Locator => grid(page).locator('tbody tr[data-row-key]');
const headers = (page: Page) => grid(page).locator('thead th').allInnerTexts();
const tab = (page: Page, key: string) => page.locator(`[data-testid=tab][data-key="${key}"]`);
const tabTitles = (page: Page) => page.getByTestId('tab-label').allTextContents();
const openMenu = (page: Page): Locator => page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');

async function go(page: Page, path: string): Promise<void> {
  await navigateInConsole(page, path);
  await page.locator(`[data-testid=tab][data-key="${path}"][data-active=true]`).waitFor();
}

/** Closes the open dropdown and waits until it is gone, so that the next one is the only one. */
async function closeMenu(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await openMenu(page).first().waitFor({ state: 'detached', timeout: 5_000 });
}

async function fromContextMenu(page: Page, key: string, action: string): Promise<void> {
  await tab(page, key).getByTestId('tab-label').click({ button: 'right' });
  const item = openMenu(page).getByRole('menuitem', { name: action, exact: true });
  await item.waitFor();
  await item.dispatchEvent('click');
  // A menu whose tab stays open stays open too: close it before the next one.
  if (await openMenu(page).count()) await closeMenu(page);
}

describe('tables people can read (item 6)', () => {
  for (const lang of variants(['zh', 'en'] as const)) {
    it(`the user list at 1440 px (${lang}): two actions inline, the rest under «${lang === 'zh' ? '更多' : 'More'}», the status column in view`, async () => {
      const page = await open({ user: 'admin', lang, width: 1440, path: USERS });
      const farmRow = rows(page).filter({ hasText: '13800000002' });
      await farmRow.waitFor();
      const actionCell = farmRow.locator('td').last();
      const inline = actionCell.locator('button:not([data-testid=more-actions])');
      expect(await inline.count()).toBe(2);
      const more = actionCell.getByTestId('more-actions');
      await expect.poll(() => more.innerText()).toContain(lang === 'zh' ? '更多' : 'More');
      await more.click();
      const items = await openMenu(page).getByRole('menuitem').allInnerTexts();
      expect(items).toEqual(lang === 'zh' ? ['停用', '重置密码', '删除'] : ['Disable', 'Reset password', 'Delete']);
      await closeMenu(page);

      // The status column is whole and left of the (sticky) action column, inside the grid's box.
      const status = grid(page).locator('thead th', { hasText: lang === 'zh' ? '状态' : 'Status' });
      const actions = grid(page).locator('thead th').last();
      const box = (await page.locator('.sg-scroll:visible').first().boundingBox())!;
      const s = (await status.boundingBox())!;
      const a = (await actions.boundingBox())!;
      expect(s.x + s.width).toBeLessThanOrEqual(a.x + 1);
      expect(a.x + a.width).toBeLessThanOrEqual(box.x + box.width + 1);
      expect(a.width).toBeLessThan(260);
      // The farm operator is a farm operator, the manufacturer's account an organisation operator (not 农场操作员).
      const factoryRow = rows(page).filter({ hasText: '13800000004' });
      expect(await factoryRow.innerText()).toContain(lang === 'zh' ? '机构操作员' : 'Organisation operator');
      // Role names come from the database in the user's language.
      expect(await farmRow.innerText()).toContain(lang === 'zh' ? '农场经营者' : 'Farm operator');
    });
  }

  it('date and time cells are never clipped; long text ends in an ellipsis with the whole text as tooltip (1440, zh)', async () => {
    const page = await open({ user: 'admin', width: 1440, path: LOG });
    await rows(page).first().waitFor();
    const clipped = await grid(page).evaluate((table) =>
      [...table.querySelectorAll('tbody td')]
        .filter((td) => /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/.test(td.textContent ?? ''))
        .map((td) => ({ text: td.textContent, fits: td.scrollWidth <= td.clientWidth }))
        .filter((c) => !c.fits),
    );
    const dates = await grid(page).evaluate((table) => [...table.querySelectorAll('tbody td')].filter((td) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(td.textContent ?? '')).length);
    expect(dates).toBeGreaterThan(0);
    expect(clipped).toEqual([]);
    // Every text cell carries its whole text as a tooltip.
    const cell = rows(page).first().locator('td').nth(1);
    expect(await cell.getAttribute('title')).toBe(await cell.innerText());
  });

  it('filters, sort, page size and page live in the address: reload, back and a shared link keep them (1440, zh)', async () => {
    const page = await open({ user: 'admin', width: 1440, path: USERS });
    await rows(page).first().waitFor();
    const keyword = page.getByRole('search').getByLabel('关键字', { exact: true });
    await keyword.fill('farm');
    await page.getByRole('search').locator('button[type=submit]').click();
    await page.waitForURL((u) => u.searchParams.get('filter.keyword') === 'farm');
    await expect.poll(() => rows(page).count()).toBe(2);
    // Sort by a sortable header and change the page size.
    await page.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '20' }).first().click();
    await page.waitForURL((u) => u.searchParams.get('list.size') === '20');
    const filtered = pathOf(page);
    // One tab for the list, whatever its filters.
    expect(await page.locator(`[data-testid=tab][data-key="${USERS}"]`).count()).toBe(1);

    await page.reload();
    await rows(page).first().waitFor();
    expect(pathOf(page)).toBe(filtered);
    await expect.poll(() => keyword.inputValue()).toBe('farm');
    await expect.poll(() => rows(page).count()).toBe(2);
    await expect.poll(() => page.locator('.ant-pagination-options .ant-select').innerText()).toContain('20');

    // A new search is a new history entry; back restores the previous one, form included.
    await keyword.fill('admin');
    await page.getByRole('search').locator('button[type=submit]').click();
    await page.waitForURL((u) => u.searchParams.get('filter.keyword') === 'admin');
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get('filter.keyword') === 'farm');
    await expect.poll(() => keyword.inputValue()).toBe('farm');
    await expect.poll(() => rows(page).count()).toBe(2);

    // A shared link opens the same list in a fresh session.
    const fresh = await openShell(browser, { user: 'admin', width: 1440, path: filtered });
    try {
      await expect.poll(() => rows(fresh.page).count()).toBe(2);
      await expect.poll(() => fresh.page.getByRole('search').getByLabel('关键字', { exact: true }).inputValue()).toBe('farm');
    } finally {
      await fresh.context.close();
    }
  });

  for (const lang of variants(['zh', 'en'] as const)) {
    it(`under 1024 px the user list keeps its most important columns; the column menu shows the others (800, ${lang})`, async () => {
      const page = await open({ user: 'admin', lang, width: 800, path: USERS });
      await rows(page).first().waitFor();
      const shown = await headers(page);
      const [username, name, status, phone] = lang === 'zh' ? ['用户名', '姓名', '状态', '手机号'] : ['Username', 'Name', 'Status', 'Phone'];
      expect(shown).toEqual(expect.arrayContaining([username, name, status]));
      expect(shown).not.toContain(phone);
      // The action column is still there with at most two buttons and «more».
      expect(await rows(page).first().locator('td').last().locator('button:not([data-testid=more-actions])').count()).toBeLessThanOrEqual(2);
      // The user can still show a hidden column.
      await page.getByRole('button', { name: lang === 'zh' ? '列' : 'Columns' }).click();
      await page.locator('.ant-popover:not(.ant-popover-hidden)').getByText(phone, { exact: true }).click();
      await expect.poll(() => headers(page)).toContain(phone);
    });
  }
});

describe('tabs and shell (item 10)', () => {
  it('the home tab is pinned: Close Others and Close All keep it; Close Left and Close Right (1440, zh)', async () => {
    const page = await open({ user: 'admin', width: 1440, path: USERS });
    await go(page, LOG);
    await go(page, '/errorLog');
    await go(page, '/baseManager/dictManager');
    await expect.poll(() => tabTitles(page)).toHaveLength(5);
    expect((await tabTitles(page))[0]).toBe('首页');
    expect(await tab(page, '/dashboard').getAttribute('data-pinned')).toBe('true');

    await fromContextMenu(page, '/errorLog', '关闭右侧');
    await page.waitForURL('**/errorLog');
    await expect.poll(() => page.getByTestId('tab').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual(['/dashboard', USERS, LOG, '/errorLog']);

    await fromContextMenu(page, LOG, '关闭左侧');
    await expect.poll(() => page.getByTestId('tab').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual(['/dashboard', LOG, '/errorLog']);
    expect(pathOf(page)).toBe('/errorLog');

    // Closing left of the first tab after home, or closing the home tab, is not offered.
    await tab(page, LOG).getByTestId('tab-label').click({ button: 'right' });
    await expect.poll(() => openMenu(page).getByRole('menuitem', { name: '关闭左侧' }).getAttribute('aria-disabled')).toBe('true');
    await closeMenu(page);
    await tab(page, '/dashboard').getByTestId('tab-label').click({ button: 'right' });
    await expect.poll(() => openMenu(page).getByRole('menuitem', { name: '关闭', exact: true }).getAttribute('aria-disabled')).toBe('true');
    await closeMenu(page);

    await fromContextMenu(page, LOG, '关闭其他');
    await page.waitForURL(`**${LOG}`);
    await expect.poll(() => tabTitles(page)).toHaveLength(2);
    expect((await tabTitles(page))[0]).toBe('首页');

    await page.getByTestId('tab-actions').click();
    await page.getByRole('menuitem', { name: '关闭所有' }).click();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => tabTitles(page)).toEqual(['首页']);
  });

  it('no tab for a page the user may not open, nor for one that does not exist (800, en)', async () => {
    const page = await open({ user: 'farm', lang: 'en', width: 800 });
    await navigateInConsole(page, USERS);
    await page.locator('.ant-result-403').waitFor();
    expect(await tab(page, USERS).count()).toBe(0);
    await navigateInConsole(page, '/no/such/page');
    await page.locator('.ant-result-404').waitFor();
    expect(await tab(page, '/no/such/page').count()).toBe(0);
    expect(await tabTitles(page)).toEqual(['Home']);
  });

  it('organisation labels say what a person is: customer agent, technician, platform (1440, en and zh)', async () => {
    for (const [user, en, zh] of [
      ['agent', 'Customer agent', '客户代理'],
      ['tech', 'Technician', '技术员'],
      ['admin', 'Platform', '平台'],
      ['factory', 'Manufacturer', '厂家'],
    ] as const) {
      for (const lang of variants(['en', 'zh'] as const)) {
        const page = await open({ user, lang, width: 1440 });
        await expect.poll(() => page.getByTestId('org-label').innerText()).toBe(lang === 'en' ? en : zh);
        await context!.close();
        context = undefined;
      }
    }
  });
});

describe('columns a user acts on are in view at 1440 px (issue 29 item 6)', () => {
  it('harvest batches: 已售, 未售, the safety interval, release and the trace code without scrolling (farm, zh)', async () => {
    const page = await open({ user: 'farm', lang: 'zh', width: 1440, path: '/farmHarvest/index' });
    await rows(page).first().waitFor();
    const box = (await page.locator('.sg-scroll:visible').first().boundingBox())!;
    const actions = (await grid(page).locator('thead th').last().boundingBox())!;
    for (const title of ['批次号', '已售', '未售', '安全间隔期', '放行', '追溯码']) {
      const th = (await grid(page).locator('thead th').filter({ hasText: new RegExp(`^${title}$`) }).first().boundingBox())!;
      expect(th, title).not.toBeNull();
      expect(th.x, title).toBeGreaterThanOrEqual(box.x - 1);
      expect(th.x + th.width, title).toBeLessThanOrEqual(actions.x + 1);
    }
  });
});

describe('the customer agent’s world (issue 29 item 7)', () => {
  it('lists the farms the agent serves, and a farm’s «业务» opens that farm’s service business with its states in words', async () => {
    const page = await open({ user: 'agent', lang: 'zh', width: 1440, path: '/customerAgent/customers' });
    const farm = rows(page).filter({ hasText: '禾丰生态农场' });
    await farm.waitFor();
    await expect.poll(() => rows(page).count()).toBe(2);
    await farm.getByRole('button', { name: '业务' }).click();
    await page.waitForURL(/\/customerAgent\/business\?filter\.farmId=\d+/);
    // The customers' list has two rows too: wait for the business list's own words.
    await rows(page).filter({ hasText: '待农场授权' }).waitFor({ timeout: 30_000 });
    const texts = await rows(page).allInnerTexts();
    expect(texts).toHaveLength(2);
    expect(texts.join('\n')).toContain('进行中');
    expect(texts.every((r) => r.includes('禾丰生态农场'))).toBe(true);
  });
});

describe('layout and quick guide (items 7 and 12)', () => {
  for (const width of [1440, 800]) {
    it(`no white frame and no document scroll; the console fills the window (${width}, en)`, async () => {
      const page = await open({ user: 'admin', lang: 'en', width, path: USERS });
      await rows(page).first().waitFor();
      const m = await page.evaluate(() => ({
        margin: getComputedStyle(document.body).margin,
        scroll: document.scrollingElement!.scrollHeight - window.innerHeight,
        wide: document.scrollingElement!.scrollWidth - window.innerWidth,
      }));
      expect(m).toEqual({ margin: '0px', scroll: 0, wide: 0 });
      if (width === 1440) {
        // The app title is read whole, on two lines if need be.
        const title = page.getByTestId('sidebar-title');
        expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      }
    });
  }

  for (const lang of variants(['zh', 'en'] as const)) {
    it(`without a video the instruction dialog shows the current screen's quick guide (1440, ${lang})`, async () => {
      const page = await open({ user: 'admin', lang, width: 1440, path: USERS });
      await page.getByTestId('instruction-link').click();
      const dialog = page.getByRole('dialog', { name: lang === 'zh' ? '快速指南 · 用户管理' : 'Quick guide · Users' });
      await dialog.waitFor();
      const guide = dialog.getByTestId('instruction-guide');
      await guide.getByText(lang === 'zh' ? '各类机构的全部用户' : 'The users of every kind of organisation', { exact: false }).waitFor();
      expect(await guide.locator('.ant-typography').count()).toBe(2);
      expect(await page.getByTestId('instruction-empty').count()).toBe(0);
    });
  }
});
