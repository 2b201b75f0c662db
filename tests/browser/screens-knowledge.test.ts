/**
 * Issue 4, proof on real screens: the knowledge-base crop management (both sections),
 * crop subtypes and planting rules, rendered from their schema documents by the generic
 * renderer, against the real server with seeded data, in Chromium.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { cookieMap, launchBrowser, logIn, newPage } from './browser.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
});

/** A prefix unique to this run, so that reruns against a long-running server do not collide. */
const RUN = `T${Date.now().toString(36).slice(-5)}`;

async function loggedIn(username: string): Promise<Page> {
  ({ context, page } = await newPage(browser));
  await page.goto('/login');
  await logIn(page, username);
  await page.waitForURL('**/dashboard');
  return page;
}

async function api<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown): Promise<T> {
  const { token } = await cookieMap(context);
  const res = await context.request.fetch(url, { method, headers: { Authorization: token, 'Accept-Language': 'zh' }, data });
  const body = (await res.json()) as { status: number; message: string; data: T };
  if (body.status !== 200) throw new Error(`${method} ${url}: ${body.status} ${body.message}`);
  return body.data;
}

function crop(name: string, status = 1) {
  return { name, category: 'vegetable', growthDaysMin: 60, growthDaysMax: 90, status };
}

/** Picks an option of the antd select labelled `label` inside `scope`. */
async function choose(scope: Locator | Page, label: string, option: string): Promise<void> {
  await scope.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
}

/** The visible instance of a screen (the console keeps other tabs' screens alive, hidden). */
function screen(id: string): Locator {
  return page.locator(`[data-screen="${id}"]:visible`);
}
function grid(): Locator {
  return page.locator('table.sg-table:visible');
}
function row(text: string): Locator {
  return grid().locator('tbody tr').filter({ hasText: text });
}

describe('crop management as admin', () => {
  it('lists, searches, pages and sorts at /agricultureKnowledge/cropsManager', async () => {
    await loggedIn('admin');
    for (let i = 1; i <= 21; i++) await api('POST', '/api/kms/crops', crop(`${RUN}作物${String(i).padStart(2, '0')}`));
    await page.goto('/agricultureKnowledge/cropsManager');
    await page.getByRole('heading', { name: '作物管理' }).waitFor();
    await row('水稻').waitFor();

    // Search: the name filter is a "like" filter; 10 of the 21 contain "作物1".
    const search = screen('cropsManager').getByRole('search');
    await search.getByLabel('作物名称').fill(`${RUN}作物1`);
    const searched = page.waitForRequest((r) => r.url().includes('/api/kms/crops/page') && decodeURIComponent(r.url()).includes(`name=${RUN}作物1`));
    await search.getByRole('button', { name: '查询' }).click();
    await searched;
    await expect.poll(() => grid().locator('tbody tr[data-row-key]').count()).toBe(10);
    await page.getByText('共 10 条').waitFor();

    // Paging over the 21: 20 on page 1, 1 on page 2.
    await search.getByLabel('作物名称').fill(RUN);
    await search.getByRole('button', { name: '查询' }).click();
    await page.getByText('共 21 条').waitFor();
    await expect.poll(() => grid().locator('tbody tr[data-row-key]').count()).toBe(20);
    const second = page.waitForRequest((r) => r.url().includes('/api/kms/crops/page') && r.url().includes('pageIndex=2'));
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await second;
    await expect.poll(() => grid().locator('tbody tr[data-row-key]').count()).toBe(1);

    // Sorting by name, descending on the second click: the first row is the last name.
    const header = grid().locator('th').filter({ hasText: '作物名称' });
    const asc = page.waitForRequest((r) => r.url().includes('sort=name'));
    await header.getByRole('button').click();
    await asc;
    await expect(header.getAttribute('aria-sort')).resolves.toBe('ascending');
    await expect.poll(() => grid().locator('tbody tr[data-row-key]').first().textContent()).toContain(`${RUN}作物01`);
    const desc = page.waitForRequest((r) => r.url().includes('sort=-name'));
    await header.getByRole('button').click();
    await desc;
    await expect.poll(() => grid().locator('tbody tr[data-row-key]').first().textContent()).toContain(`${RUN}作物21`);

    // Batch delete of the run's crops through the selection.
    await page.getByRole('checkbox', { name: '全选本页' }).check();
    await page.getByRole('button', { name: '批量删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await page.getByText('共 1 条').waitFor();
  });

  it('adds a crop through the form, meets a server field error, edits it, sees it in the list and deletes it', async () => {
    await loggedIn('admin');
    await page.goto('/agricultureKnowledge/cropsManager');
    await row('水稻').waitFor();
    const name = `${RUN}番薯`;

    await page.getByRole('button', { name: '新增' }).click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByText('新增作物信息').waitFor();
    // The browser validates with the record schema first: an empty form is refused without a request.
    await drawer.getByRole('button', { name: '保存' }).click();
    // In words for people, the server's words (runtime/schema/messages.ts), not ajv's.
    await drawer.locator('.ant-form-item-explain-error').getByText('请输入作物名称', { exact: true }).waitFor();
    await drawer.getByLabel('作物名称').fill(name);
    await choose(drawer, '作物分类', '蔬菜');
    // A cross-field rule of the document shows on its field as the user types.
    await drawer.getByLabel('最短生育期（天）').fill('120');
    await drawer.getByLabel('最长生育期（天）').fill('100');
    const reversed = drawer.locator('.ant-form-item-explain-error').getByText('最长生育期（天）不能小于最短生育期（天）');
    await reversed.waitFor();
    await drawer.getByLabel('最短生育期（天）').fill('90');
    await drawer.getByLabel('最长生育期（天）').fill('120');
    await reversed.waitFor({ state: 'detached' });
    await drawer.getByLabel('停用').check();
    const created = page.waitForResponse((r) => r.url().endsWith('/api/kms/crops') && r.request().method() === 'POST');
    await drawer.getByRole('button', { name: '保存' }).click();
    expect((await (await created).json()).status).toBe(200);
    await page.getByText('保存成功').waitFor();
    await row(name).waitFor();

    // Edit while someone else changes the record: the server refuses the stale version (40001, field "version").
    const [{ id }] = (await api<{ rows: { id: number }[] }>('GET', `/api/kms/crops/page?name=${encodeURIComponent(name)}`)).rows;
    await row(name).getByRole('button', { name: '编辑' }).click();
    await drawer.getByText('编辑作物信息').waitFor();
    await expect(drawer.getByLabel('作物名称').inputValue()).resolves.toBe(name);
    const current = await api<Record<string, unknown>>('GET', `/api/kms/crops/${id}`);
    await api('PUT', `/api/kms/crops/${id}`, { ...crop(name, 0), version: current.version, englishName: 'Changed elsewhere' });
    await drawer.getByLabel('英文名称').fill('Sweet potato');
    await drawer.getByRole('button', { name: '保存' }).click();
    await drawer.getByRole('alert').getByText('该记录已被他人修改，请刷新后重试').waitFor();

    // Closing a dirty form asks first. The server's warning toast can sit over the drawer's
    // close button, and a pointer resting on it keeps it open: move away and let it fade.
    await page.mouse.move(5, 700);
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 15_000 });
    await page.locator('.ant-drawer-close').click();
    await page.getByRole('dialog').getByText('表单有未保存的修改，离开后将丢失。').waitFor();
    await page.getByRole('button', { name: '离开' }).click();
    await drawer.waitFor({ state: 'hidden' });

    await row(name).getByRole('button', { name: '编辑' }).click();
    await expect.poll(() => drawer.getByLabel('英文名称').inputValue()).toBe('Changed elsewhere');
    await drawer.getByLabel('英文名称').fill('Sweet potato');
    await drawer.getByRole('button', { name: '保存' }).click();
    await row(name).filter({ hasText: 'Sweet potato' }).waitFor();

    // Delete is offered only for disabled crops (when status = 0), after a confirmation naming the crop.
    // (view and edit inline; a third action goes under «更多»).
    await expect(row('水稻').getByRole('button', { name: '删除' }).count()).resolves.toBe(0);
    await expect(row('水稻').getByTestId('more-actions').count()).resolves.toBe(0);
    await row(name).getByTestId('more-actions').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '删除' }).click();
    await page.getByText(`确定删除作物「${name}」吗？`).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await page.getByText('已删除').first().waitFor();
    await expect.poll(() => row(name).count()).toBe(0);
  });

  it('serves the same screen at /bigData-kms/cropsManager and opens the crop detail with its varieties', async () => {
    await loggedIn('admin');
    await page.goto('/bigData-kms/cropsManager');
    await row('水稻').waitFor();
    await row('水稻').getByRole('button', { name: '详情' }).click();
    await page.waitForURL(/\/bigData-kms\/growthCycle\/\d+\/\d+$/);
    await page.getByRole('heading', { name: '作物详情' }).waitFor();
    await page.getByText('Oryza sativa L.').waitFor();
    await row('龙粳31').waitFor();
  });

  it('crop subtypes list with their crop labels', async () => {
    await loggedIn('admin');
    await page.goto('/agricultureKnowledge/cropSubtype');
    await row('龙粳31').filter({ hasText: '水稻' }).waitFor();
    await page.getByText('共 6 条').waitFor();
  });

  it('a section root redirects to the first child the user may open', async () => {
    await loggedIn('admin');
    await page.goto('/bigData-kms');
    await page.waitForURL('**/bigData-kms/cropsManager');
    await row('水稻').waitFor();
  });
});

describe('planting rules as admin', () => {
  it('adds, shows and edits a rule through the shared form', async () => {
    await loggedIn('admin');
    await page.goto('/agricultureKnowledge/plantRules');
    await row('寒地水稻插秧栽培规则').waitFor();
    const name = `${RUN}番茄温室规则`;

    await page.getByRole('button', { name: '新增' }).click();
    await page.waitForURL('**/agricultureKnowledge/addPlantRules/add/0');
    let form = screen('plantRulesForm');
    await form.getByLabel('规则名称').fill(name);
    await choose(form, '作物', '番茄');
    await choose(form, '品种', '金棚1号');
    await form.getByLabel('适用区域').fill('山东寿光');
    await form.getByLabel('播种开始（月-日）').fill('03-01');
    await form.getByLabel('播种结束（月-日）').fill('03-20');
    await form.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/agricultureKnowledge/plantRules');
    await row(name).waitFor();

    await row(name).getByRole('button', { name: '查看' }).click();
    await page.waitForURL(/\/agricultureKnowledge\/editPlantRules\/show\/\d+$/);
    form = screen('plantRulesForm');
    // A read view: the name as a description, the crop by its name, no inputs.
    await form.getByTestId('read-view').getByText(name, { exact: true }).waitFor();
    await form.getByTestId('read-view').getByText('番茄', { exact: true }).waitFor();
    await expect(form.locator('input, textarea').count()).resolves.toBe(0);
    await expect(form.getByRole('button', { name: '保存' }).count()).resolves.toBe(0);
    await page.getByRole('heading', { name: `种植规则 · ${name}` }).waitFor();
    await form.getByRole('button', { name: '返回' }).click();
    await page.waitForURL('**/agricultureKnowledge/plantRules');

    await row(name).getByRole('button', { name: '编辑' }).click();
    await page.waitForURL(/\/agricultureKnowledge\/editPlantRules\/edit\/\d+$/);
    form = screen('plantRulesForm');
    await expect.poll(() => form.getByLabel('适用区域').inputValue()).toBe('山东寿光');
    await form.getByLabel('适用区域').fill('山东潍坊');
    await form.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/agricultureKnowledge/plantRules');
    await row(name).filter({ hasText: '山东潍坊' }).waitFor();
  });

  it('shows the server\'s field error on its field: the chosen crop was deleted meanwhile', async () => {
    await loggedIn('admin');
    const gone = `${RUN}已删作物`;
    const created = await api<{ id: number }>('POST', '/api/kms/crops', crop(gone));
    await page.goto('/bigData-kms/addPlantRules/add/0');
    const form = screen('plantRulesForm');
    await form.getByLabel('规则名称').fill(`${RUN}无效引用`);
    await choose(form, '作物', gone);
    await form.getByLabel('适用区域').fill('任意');
    await form.getByLabel('播种开始（月-日）').fill('04-01');
    await form.getByLabel('播种结束（月-日）').fill('04-20');
    await api('DELETE', `/api/kms/crops/${created.id}`);
    await form.getByRole('button', { name: '保存' }).click();
    const field = form.locator('.ant-form-item').filter({ has: page.getByLabel('作物', { exact: true }) });
    await field.locator('.ant-form-item-explain-error').getByText('引用的作物记录不存在').waitFor();
    expect(new URL(page.url()).pathname).toBe('/bigData-kms/addPlantRules/add/0');
  });
});

describe('outside the authority', () => {
  it('farm sees 401 on the routes it lacks and a read-only crop list on the one it holds', async () => {
    await loggedIn('farm');
    for (const path of ['/bigData-kms/cropsManager', '/agricultureKnowledge/cropSubtype', '/bigData-kms/plantRules']) {
      await page.goto(path);
      await page.getByText('抱歉，你没有访问该页面的权限。').waitFor();
    }
    await page.goto('/agricultureKnowledge/cropsManager');
    await row('水稻').waitFor();
    await expect(page.getByRole('button', { name: '新增' }).count()).resolves.toBe(0);
    await expect(row('水稻').getByRole('button', { name: '编辑' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: '导出' }).count()).resolves.toBe(1);
  });
});
