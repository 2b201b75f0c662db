/**
 * Issue 9 items 8 and 9 at 1440 px, in zh and en: the role-permission tree (search,
 * expand / collapse all, all / none per section, the role in the drawer title, the
 * summary of what is granted and removed before saving) and the operation log in words
 * (the action, the record by name, the change as field: old → new, the family filter).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { api, apiToken, openShell } from './shell-support.ts';
import { variants } from '../support/tier.ts';

let browser: Browser;
let context: BrowserContext | undefined;
let admin: string;
const RUN = Date.now().toString(36).slice(-5);

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiToken('admin');
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

const TEXT = {
  zh: {
    permissions: '权限',
    keyword: '关键字',
    query: '查询',
    save: '保存',
    confirmTitle: '确认权限变更',
    confirmOk: '确认保存',
    keepEditing: '返回修改',
    search: '搜索菜单或按钮',
    expandAll: '全部展开',
    collapseAll: '全部收起',
    gateLog: '操作日志',
    dict: '数据字典',
    system: '系统管理',
    granted: '授予',
    removed: '移除',
    action: '操作',
    permAction: '修改角色权限',
    grantedField: '授予',
    family: '操作类别',
    familyRoles: '角色',
    roleActions: ['新增角色', '修改角色', '删除角色', '修改角色权限'],
  },
  en: {
    permissions: 'Permissions',
    keyword: 'Keyword',
    query: 'Search',
    save: 'Save',
    confirmTitle: 'Confirm the permission changes',
    confirmOk: 'Save',
    keepEditing: 'Keep editing',
    search: 'Search menus or elements',
    expandAll: 'Expand all',
    collapseAll: 'Collapse all',
    gateLog: 'Operation log',
    dict: 'Dictionaries',
    system: 'System administration',
    granted: 'Granted',
    removed: 'Removed',
    action: 'Action',
    permAction: 'Role permissions changed',
    grantedField: 'Granted',
    family: 'Action family',
    familyRoles: 'Roles',
    roleActions: ['Role added', 'Role edited', 'Role deleted', 'Role permissions changed'],
  },
} as const;

async function open(lang: 'zh' | 'en', path: string): Promise<Page> {
  const opened = await openShell(browser, { user: 'admin', lang, width: 1440, path });
  context = opened.context;
  opened.page.setDefaultTimeout(15_000);
  return opened.page;
}

const grid = (page: Page): Locator => page.locator('table.sg-table:visible').first();
const row = (page: Page, text: string): Locator => grid(page).locator('tbody tr[data-row-key]').filter({ hasText: text });
const drawer = (page: Page): Locator => page.locator('.ant-drawer-section:visible');
const node = (scope: Locator, key: string): Locator => scope.locator('.ant-tree-treenode').filter({ has: scope.page().locator(`[data-tree-key="${key}"]`) });
const checked = async (scope: Locator, key: string) => (await node(scope, key).locator('.ant-tree-checkbox-checked').count()) === 1;

async function searchList(page: Page, screen: string, label: string, value: string, lang: 'zh' | 'en') {
  const form = page.locator(`[data-screen="${screen}"]:visible`).getByRole('search');
  await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole('button', { name: TEXT[lang].query }).click();
}

for (const lang of variants(['zh', 'en'] as const)) {
  describe(`role permissions and the operation log (${lang}, 1440 px)`, () => {
    const x = TEXT[lang];
    const code = `perm${lang}${RUN}`;
    const name = lang === 'zh' ? `权限测试${RUN}` : `Perm test ${RUN}`;
    let roleId: number;

    beforeAll(async () => {
      const created = await api<{ id: number }>(admin, '/api/admin/role', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code, name: { zh: name, en: name, es: name } }),
      });
      expect(created.status).toBe(200);
      roleId = created.data.id;
      const perms = await api<{ version: number }>(admin, `/api/admin/role/${roleId}/permissions`);
      const granted = await api(admin, `/api/admin/role/${roleId}/permissions`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ version: perms.data.version, menus: ['baseManager', 'gateLogManager'], elements: ['gateLogManager:view'] }),
      });
      expect(granted.status).toBe(200);
    });

    it('searches the tree, collapses and expands it, names the role, and confirms a summary of what is granted and removed', async () => {
      const page = await open(lang, '/baseManager/groupManager');
      await searchList(page, 'groupManager', x.keyword, code, lang);
      await row(page, code).getByRole('button', { name: x.permissions }).click();
      const tree = drawer(page).locator('[data-checkbox-tree]');
      await tree.locator('.ant-tree').waitFor();
      // The role's name in the drawer's title; a wide drawer.
      await expect.poll(() => drawer(page).locator('.ant-drawer-title').innerText()).toContain(name);
      expect((await drawer(page).boundingBox())!.width).toBeGreaterThanOrEqual(900);
      expect((await tree.locator('.ant-tree-list-holder').boundingBox())!.height).toBeGreaterThan(400);

      // Collapse all: only the sections are left; expand all opens them again.
      await tree.getByRole('button', { name: x.collapseAll }).click();
      await expect.poll(() => tree.locator('.ant-tree-treenode .ant-tree-switcher_open').count()).toBe(0);
      await expect.poll(() => node(tree, 'dictManager').count()).toBe(0);
      await tree.getByRole('button', { name: x.expandAll }).click();
      await expect.poll(() => tree.locator('.ant-tree-treenode .ant-tree-switcher_open').count()).toBeGreaterThan(0);

      // Search narrows the tree to the matches and their ancestors, highlighted.
      const search = tree.getByPlaceholder(x.search);
      await search.fill(x.gateLog);
      await expect.poll(() => tree.locator('mark').first().innerText()).toBe(x.gateLog);
      await node(tree, 'gateLogManager').waitFor();
      await node(tree, 'baseManager').waitFor();
      await expect.poll(() => node(tree, 'dictManager').count()).toBe(0);
      expect(await checked(tree, 'gateLogManager')).toBe(true);
      // Unchecking the entry takes its element codes with it.
      await node(tree, 'gateLogManager').locator('.ant-tree-checkbox').click();
      await expect.poll(() => checked(tree, 'gateLogManager')).toBe(false);

      await search.fill(x.dict);
      await node(tree, 'dictManager:add').waitFor();
      await node(tree, 'dictManager:add').locator('.ant-tree-checkbox').click();
      await expect.poll(() => checked(tree, 'dictManager')).toBe(true);

      // Saving asks first, with the changes by name, per section; "keep editing" sends nothing.
      let puts = 0;
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().includes(`/api/admin/role/${roleId}/permissions`)) puts++;
      });
      await drawer(page).getByRole('button', { name: x.save, exact: true }).click();
      const summary = page.getByTestId('tree-summary');
      await summary.waitFor();
      const section = summary.locator(`[data-section="baseManager"]`);
      await expect.poll(() => section.innerText()).toContain(x.system);
      const granted = await section.getByTestId('tree-summary-granted').innerText();
      expect(granted).toContain(x.granted);
      expect(granted).toContain(x.dict);
      expect(granted).toMatch(new RegExp(`${x.dict} › `));
      const removed = await section.getByTestId('tree-summary-removed').innerText();
      expect(removed).toContain(x.removed);
      expect(removed).toContain(x.gateLog);
      expect(removed).not.toContain(x.dict);
      const box = page.locator('.ant-modal-confirm:visible');
      await box.getByRole('button', { name: x.keepEditing }).click();
      await box.waitFor({ state: 'hidden' });
      expect(puts).toBe(0);
      await drawer(page).getByRole('button', { name: x.save, exact: true }).click();
      await page.locator('.ant-modal-confirm:visible').getByRole('button', { name: x.confirmOk, exact: true }).click();
      await drawer(page).waitFor({ state: 'hidden' });
      expect(puts).toBe(1);
      const after = await api<{ menus: string[]; elements: string[] }>(admin, `/api/admin/role/${roleId}/permissions`);
      expect(after.data.menus.sort()).toEqual(['baseManager', 'dictManager']);
      expect(after.data.elements).toEqual(['dictManager:add']);
    });

    it('shows the log in words: the action, the role by name, the change as field: old → new; filters by family', async () => {
      const page = await open(lang, '/baseManager/gateLogManager');
      const screen = page.locator('[data-screen="gateLogManager"]:visible');
      const form = screen.getByRole('search');
      await form.getByLabel(x.family, { exact: true }).click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: new RegExp(`^${x.familyRoles}$`) }).first().click();
      await page.keyboard.press('Escape');
      await form.getByRole('button', { name: x.query }).click();
      const line = row(page, name).filter({ hasText: x.permAction }).first();
      await line.waitFor();
      // Every row of the family is a role action (once the filtered page has replaced the unfiltered one).
      const notRole = async () => {
        const texts = await grid(page).locator('tbody tr[data-row-key]').allInnerTexts();
        return texts.length === 0 ? ['(no rows)'] : texts.filter((text) => !x.roleActions.some((a) => text.includes(a)));
      };
      await expect.poll(notRole).toEqual([]);
      // The cell shows the first line of the change; «all» opens every line.
      expect(await line.innerText()).toContain(`${x.grantedField}:`);
      await line.getByTestId('changes-expand').click();
      const all = page.getByTestId('changes-all').last();
      await all.waitFor();
      const text = await all.innerText();
      expect(text).toContain(`${x.grantedField}:`);
      expect(text).toContain(x.dict);
      expect(text).toContain(x.gateLog);
      expect(text).not.toContain('gateLogManager');
    });
  });
}
