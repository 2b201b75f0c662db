/**
 * Issue 13, a season run through the console (docs/planting.md, "Tests"): as `farm`, a
 * planting group on two plots from the list's add form, its plan from a whole-season
 * farm-work template (makePlantPlan), the plan on the timeline (a task dragged a day with
 * the mouse and saved; a drag before planting refused in place, nothing saved), a task
 * published, recorded (workers, hours, a material) and compared with its plan item; the
 * plan submitted; as `center`, the plan rejected with a reason, then (submitted again by
 * the farm) approved. One browser, one page per account, the real server and database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { apiAs, button, escapeRegExp, openShell } from './shell-support.ts';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
// SHOTS=<folder>: a failed step leaves a screenshot of each page there and its accessibility tree in the log.
afterEach(async (ctx) => {
  if (process.env.SHOTS && ctx.task.result?.state === 'fail') {
    for (const [i, c] of contexts.entries()) for (const p of c.pages()) {
      await p.screenshot({ path: `${process.env.SHOTS}/${ctx.task.name.slice(0, 20)}-${i}.png` });
      console.log(await p.locator('.ant-drawer, main').last().ariaSnapshot().catch(() => ''));
    }
  }
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

/** Unique per run: the test may run again on a server it already ran against. */
const RUN = Date.now().toString(36).slice(-5);
const GROUP = `${RUN}秋茬番茄`;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (date: string, n: number) => iso(Date.parse(`${date}T00:00:00Z`) + n * DAY);
const TODAY = iso(Date.now());
// The season: planted today, the tomato template's 120 days fit in it with nothing to spare
// at the end (its last item ends on day 119).
const SEASON_START = addDays(TODAY, -10);
const PLANTED = TODAY;
const SEASON_END = addDays(PLANTED, 119);

type Item = { id: number; name: string; orderNumber: number; itemType: string; startOn: string; endOn: string; version: number };
type Plan = { id: number; groupId: number; name: string; reviewStatus: string; rejectReason?: string; version: number };
type Task = { id: number; planItemId: number; title: string; status: string; assigneeIds: number[] };
type FarmRecord = { id: number; taskId: number; workerNames: string; hours: number; materials?: { name: string; quantity: number; unit: string }[] };

/** The API as `user` sees it (checks what the console saved). */
const farmApi = apiAs('farm');

/** Picks `option` in the antd select labelled `label` (a multi-select stays open: Escape closes it). */
async function choose(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  await scope.getByLabel(label, { exact: true }).click();
  // The option list is virtual (the land seed gives a farm some 26 plots): search for it first.
  await page.keyboard.type(option);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
  const select = scope.locator('.ant-select', { has: page.getByLabel(label, { exact: true }) });
  await expect.poll(() => select.innerText()).toContain(option);
}
async function closeDropdown(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').count()).toBe(0);
}

/**
 * Types an ISO date into the antd date picker labelled `label`; Tab commits it (Enter would
 * also submit the form the picker is in).
 */
async function pickDate(scope: Locator, label: string, date: string): Promise<void> {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(date);
  await input.press('Tab');
  await expect.poll(() => input.inputValue()).toBe(date);
  // Its panel closes with an animation over the next fields: wait until it is gone.
  await expect.poll(() => scope.page().locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').count()).toBe(0);
}

/** The visible instance of a screen (the console keeps other tabs' screens alive, hidden). */
const screen = (page: Page, id: string) => page.locator(`[data-screen="${id}"]:visible`).first();
const rowOf = (scope: Locator, text: string | RegExp) => scope.locator('table.sg-table tbody tr').filter({ hasText: text }).first();

/** Confirms the open confirmation dialog (antd spaces two-character labels: «确 定»). */
async function confirm(page: Page): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm:visible, .ant-modal:visible').last();
  await button(dialog, '确定').click();
}

/** Pixels per day of the timeline's day zoom (docs/planting.md, "Mouse"). */
const PX_PER_DAY = 32;

/** Drags a timeline bar by its middle `dx` pixels with the mouse. */
async function dragBar(page: Page, bar: Locator, dx: number): Promise<void> {
  await bar.scrollIntoViewIfNeeded();
  const box = (await bar.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 6 });
  await page.mouse.up();
}

let farm: Page;
let center: Page;
let groupId = 0;
let plan: Plan;
let items: Item[] = [];

describe('a planting season through the console', () => {
  it('farm: creates a planting group on two plots from the list', async () => {
    const opened = await openShell(browser, { user: 'farm', path: '/farmPlantGroup/list' });
    contexts.push(opened.context);
    farm = opened.page;
    await screen(farm, 'plantGroupList').locator('table.sg-table tbody tr[data-row-key]').first().waitFor();
    await button(screen(farm, 'plantGroupList'), '新建种植群组').click();
    await farm.waitForURL('**/farmPlantGroup/addPlantGroup');
    const form = screen(farm, 'plantGroupAdd');
    // The heading says what the menu says once (not «新增新建种植群组»).
    await form.getByRole('heading', { name: '新建种植群组', exact: true }).waitFor();
    await form.getByLabel('种植组名称').fill(GROUP);
    await choose(farm, form, '作物', '番茄');
    await choose(farm, form, '地块/温室', '一号日光温室');
    await farm.keyboard.type('北洼地');
    await farm.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: '北洼地' }).first().click();
    await closeDropdown(farm);
    await form.getByLabel('面积（亩）').fill('2.5');
    await form.getByLabel('季节', { exact: true }).fill('秋冬茬');
    await pickDate(form, '季节开始', SEASON_START);
    await pickDate(form, '季节结束', SEASON_END);
    await pickDate(form, '定植日期', PLANTED);
    await choose(farm, form, '生育阶段', '苗期');
    await button(form, '保存').click();
    await farm.waitForURL('**/farmPlantGroup/list');

    const groups = await farmApi<{ rows: { id: number; name: string; fieldIds: number[]; status: string; plantedOn: string }[] }>(
      `/api/farmPlantGroup/groups/page?name=${encodeURIComponent(GROUP)}`,
    );
    expect(groups.rows).toHaveLength(1);
    const [group] = groups.rows;
    expect(group.fieldIds).toHaveLength(2);
    expect(group).toMatchObject({ status: 'planned', plantedOn: PLANTED });
    groupId = group.id;
    await rowOf(screen(farm, 'plantGroupList'), GROUP).waitFor();
  });

  it('farm: makes the group\'s plan from a whole-season farm-work template', async () => {
    await rowOf(screen(farm, 'plantGroupList'), GROUP).getByRole('button', { name: '管理', exact: true }).click();
    await farm.waitForURL(`**/farmPlantGroup/management/${groupId}`);
    // The group's page names both plots.
    await screen(farm, 'plantGroupManagement').getByText(/一号日光温室, 北洼地|北洼地, 一号日光温室/).waitFor();
    await button(screen(farm, 'plantGroupManagement'), '按季节农事制定计划').click();
    await farm.waitForURL(`**/farmPlantGroup/makePlantPlan/${groupId}/3`);
    const form = screen(farm, 'makePlantPlan');
    await choose(farm, form, '计划模板', '日光温室番茄全季农事');
    await pickDate(form, '开始日期', PLANTED);
    await form.getByLabel('计划名称').fill(`${GROUP}全季计划`);
    await button(form, '保存').click();
    await farm.waitForURL(new RegExp(`/farmPlantGroup/FarmingPlanDetail2/${groupId}/\\d+$`));
    const planId = Number(farm.url().split('/').at(-1));
    plan = await farmApi<Plan>(`/api/farmPlantGroup/plans/${planId}`);
    expect(plan).toMatchObject({ groupId, name: `${GROUP}全季计划`, reviewStatus: 'draft' });
    items = (await farmApi<{ rows: Item[] }>(`/api/farmPlantGroup/planItems/page?planId=${planId}&pageSize=500`)).rows;
    const work = items.filter((i) => i.itemType === 'work');
    expect(work).toHaveLength(13);
    // Day 0 is the start date: 定植浇定根水 on day 0, 吊蔓 days 12–14, 分批采收 days 80–119.
    expect(work.find((i) => i.name === '定植浇定根水')).toMatchObject({ startOn: PLANTED, endOn: PLANTED });
    expect(work.find((i) => i.name === '吊蔓')).toMatchObject({ startOn: addDays(PLANTED, 12), endOn: addDays(PLANTED, 14) });
    expect(work.find((i) => i.name === '分批采收')).toMatchObject({ startOn: addDays(PLANTED, 80), endOn: SEASON_END });
    // The plan's detail lists them.
    await rowOf(screen(farm, 'farmingPlanPage'), '分批采收').waitFor();
  });

  it('farm: drags a task a day on the timeline (saved), and a drag before planting is refused in place', async () => {
    await farm.getByRole('tab', { name: '时间轴' }).click();
    const timeline = farm.getByRole('region', { name: '种植计划时间轴' });
    await timeline.waitFor();
    await timeline.getByRole('button', { name: '日', exact: true }).click();
    const barOf = (name: string) => timeline.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}，`) });

    const hang = items.find((i) => i.name === '吊蔓')!;
    await dragBar(farm, barOf('吊蔓'), PX_PER_DAY);
    await expect.poll(async () => (await farmApi<Item>(`/api/farmPlantGroup/planItems/${hang.id}`)).startOn).toBe(addDays(hang.startOn, 1));
    expect((await farmApi<Item>(`/api/farmPlantGroup/planItems/${hang.id}`)).endOn).toBe(addDays(hang.endOn, 1));
    await expect.poll(() => barOf('吊蔓').getAttribute('aria-label')).toContain(`${addDays(hang.startOn, 1)} 至 ${addDays(hang.endOn, 1)}`);

    // 定植浇定根水 is on the planting day: a day earlier is before planting, the server says so at the bar.
    const first = items.find((i) => i.name === '定植浇定根水')!;
    await dragBar(farm, barOf('定植浇定根水'), -PX_PER_DAY);
    const refusal = timeline.getByRole('alert');
    await expect.poll(() => refusal.textContent()).toMatch(new RegExp(`^未保存：.*计划日期 ${addDays(PLANTED, -1)} 早于种植组的定植日期 ${PLANTED}`));
    await expect.poll(() => barOf('定植浇定根水').getAttribute('aria-label')).toContain(`${PLANTED} 至 ${PLANTED}`);
    expect(await farmApi<Item>(`/api/farmPlantGroup/planItems/${first.id}`)).toMatchObject({ startOn: first.startOn, endOn: first.endOn, version: first.version });
    await refusal.getByRole('button', { name: '关闭' }).click();
    await refusal.waitFor({ state: 'detached' });
  });

  it('farm: changes a work item from the plan: 分批采收 now follows 吊蔓, saved with its lag', async () => {
    await farm.getByRole('tab', { name: '计划详情' }).click();
    const hang = items.find((i) => i.name === '吊蔓')!;
    const harvest = items.find((i) => i.name === '分批采收')!;
    await rowOf(screen(farm, 'farmingPlanPage'), '分批采收').getByRole('button', { name: '修改', exact: true }).click();
    const drawer = farm.getByRole('dialog', { name: /编辑计划条目/ });
    await drawer.getByLabel('名称', { exact: true }).first().waitFor();
    await choose(farm, drawer, '前置作业', '吊蔓');
    await drawer.getByLabel('间隔天数', { exact: true }).fill('3');
    await button(drawer, '保存').click();
    await drawer.waitFor({ state: 'detached' });
    const saved = await farmApi<Item & { after?: number; lagDays?: number }>(`/api/farmPlantGroup/planItems/${harvest.id}`);
    expect(saved).toMatchObject({ after: hang.id, lagDays: 3, startOn: harvest.startOn, endOn: harvest.endOn });
  });

  it('farm: publishes a task from the plan, records it (workers, hours, a material) and sees plan against record', async () => {
    await farm.getByRole('tab', { name: '计划详情' }).click();
    const item = items.find((i) => i.name === '定植浇定根水')!;
    await rowOf(screen(farm, 'farmingPlanPage'), '定植浇定根水').getByRole('button', { name: '发布任务' }).click();
    await farm.waitForURL(`**/farmPlantGroup/publistFarmingTask/${groupId}/${plan.id}/${item.orderNumber}`);
    const publish = screen(farm, 'publishFarmingTask');
    await choose(farm, publish, '执行人', '张伟');
    await closeDropdown(farm);
    await publish.getByLabel('备注').fill('定植当天浇透');
    await button(publish, '保存').click();
    await farm.waitForURL(`**/farmPlantGroup/FarmingPlanDetail2/${groupId}/${plan.id}`);
    const tasks = (await farmApi<{ rows: Task[] }>(`/api/farmPlantGroup/tasks/page?planId=${plan.id}`)).rows;
    expect(tasks).toHaveLength(1);
    const [task] = tasks;
    expect(task).toMatchObject({ planItemId: item.id, title: '定植浇定根水', status: 'published' });

    // The group's page lists the task; «计划与记录» opens the comparison, nothing recorded yet.
    await farm.getByTestId('tab-strip').getByText('种植群组管理').click();
    const management = screen(farm, 'plantGroupManagement');
    await rowOf(management, '定植浇定根水').getByRole('button', { name: '计划与记录' }).click();
    await farm.waitForURL(`**/farmPlantGroup/planAndRecord/${groupId}/${plan.id}/${item.orderNumber}/${task.id}`);
    const comparison = screen(farm, 'planAndRecord');
    await comparison.getByText(`尚未记录，计划 ${PLANTED} 至 ${PLANTED}`).waitFor();

    // Record the work from there: the drawer's form, a material the plan did not list.
    await button(comparison, '记录农事').click();
    const drawer = farm.getByRole('dialog', { name: '新增农事记录' });
    await pickDate(drawer, '作业日期', PLANTED);
    await drawer.getByLabel('作业人员').fill('张伟、吴刚');
    await drawer.getByLabel('工时（小时）').fill('3.5');
    await button(drawer, '添加一行').click();
    await drawer.getByLabel('名称', { exact: true }).fill('生根剂');
    await drawer.getByLabel('数量', { exact: true }).fill('2');
    await drawer.getByLabel('单位', { exact: true }).fill('公斤');
    await button(drawer, '保存').click();
    await drawer.waitFor({ state: 'detached' });

    const records = (await farmApi<{ rows: FarmRecord[] }>(`/api/farmPlantGroup/records/page?taskId=${task.id}`)).rows;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ taskId: task.id, workerNames: '张伟、吴刚', hours: 3.5, materials: [{ name: '生根剂', quantity: 2, unit: '公斤' }] });
    // The comparison reads again: done on the planned day, with a material beyond the plan.
    await comparison.getByText('按计划完成 计划外用料：生根剂').waitFor();
    await rowOf(comparison, '张伟、吴刚').waitFor();
  });

  it('center: rejects the submitted plan with a reason; the farm sees it and submits again; the center approves', async () => {
    // The farm submits the plan from its detail.
    await farm.goto(`/farmPlantGroup/FarmingPlanDetail2/${groupId}/${plan.id}`);
    await submitPlan();
    expect((await farmApi<Plan>(`/api/farmPlantGroup/plans/${plan.id}`)).reviewStatus).toBe('submitted');

    const opened = await openShell(browser, { user: 'center', path: '/examineFactory/plantAdmin' });
    contexts.push(opened.context);
    center = opened.page;
    const review = screen(center, 'plantAdminReview');
    const row = rowOf(review, plan.name);
    await row.waitFor();
    expect(await row.textContent()).toContain('待审核');
    await rowAction(center, row, '驳回');
    const dialog = center.locator('.ant-modal:visible').last();
    // A reason is required: confirming without one keeps the dialog open and says so. The
    // dialog is still opening on a loaded machine: a click it did not take is made again.
    await dialog.getByLabel('驳回原因').waitFor();
    await expect
      .poll(
        async () => {
          if (await dialog.getByRole('alert').isVisible()) return true;
          await button(dialog, '确定').click();
          return false;
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toBe(true);
    await dialog.getByLabel('驳回原因').fill('分批采收与种植季结束同日，请留出拉秧清园的时间');
    await button(dialog, '确定').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await farmApi<Plan>(`/api/farmPlantGroup/plans/${plan.id}`)).reviewStatus).toBe('rejected');
    expect((await farmApi<Plan>(`/api/farmPlantGroup/plans/${plan.id}`)).rejectReason).toBe('分批采收与种植季结束同日，请留出拉秧清园的时间');
    await expect.poll(() => row.textContent()).toContain('已驳回');

    // The farm reads the reason on its plan and submits it again.
    await farm.reload();
    await screen(farm, 'farmingPlanPage').getByText('分批采收与种植季结束同日，请留出拉秧清园的时间').waitFor();
    await submitPlan();
    expect((await farmApi<Plan>(`/api/farmPlantGroup/plans/${plan.id}`)).reviewStatus).toBe('submitted');

    // The center's list reads again and approves it.
    await button(review, '刷新').click();
    await expect.poll(() => row.textContent()).toContain('待审核');
    await rowAction(center, row, '审核通过');
    await confirm(center);
    await expect.poll(async () => (await farmApi<Plan>(`/api/farmPlantGroup/plans/${plan.id}`)).reviewStatus).toBe('approved');
    await expect.poll(() => row.textContent()).toContain('已通过');
  });
});

/** «提交审核» on the plan's detail, confirmed; waits until the detail shows it submitted. */
async function submitPlan(): Promise<void> {
  const detail = screen(farm, 'farmingPlanPage');
  await button(detail, '提交审核').click();
  await confirm(farm);
  await detail.getByText('待审核').first().waitFor();
}

/** A row's action: a button of the row, or an entry of its «更多» menu. */
async function rowAction(page: Page, row: Locator, label: string): Promise<void> {
  const direct = button(row, label);
  if (await direct.isVisible()) return direct.click();
  await row.getByTestId('more-actions').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: label }).click();
}

