/**
 * A form's live preview through the console and the real server: as `farm`, makePlantPlan of
 * a seeded growing group waits for a template and a start date, then draws the generator's
 * preview on the planting timeline (bars of the template's work items, nothing stored); a
 * start date outside the season is explained in place with the server's sentence; a work
 * item moved on the preview keeps its new dates; saving lands on the new plan's detail, whose
 * items are the preview's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cookieMap, launchBrowser, logIn, newPage } from './browser.ts';

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

interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}

async function api<T = unknown>(url: string, body?: unknown): Promise<Envelope<T>> {
  const { token } = await cookieMap(context);
  const res = await context.request.fetch(url, { method: body ? 'POST' : 'GET', headers: { Authorization: token, 'Accept-Language': 'zh' }, data: body });
  return (await res.json()) as Envelope<T>;
}

type Group = { id: number; name: string; status: string; plantedOn: string; seasonStart?: string; seasonEnd?: string };
type Item = { orderNumber: number; itemType: string; name: string; startOn: string; endOn: string };

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('plan preview as farm', () => {
  it('previews the plan of a template and a date on the timeline, explains a date outside the season, moves a work item, and saves', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');

    // A growing group and a whole-season template whose plan fits its season from the planting date.
    const groups = (await api<{ rows: Group[] }>('/api/farmPlantGroup/groups/page?pageSize=100')).data.rows.filter((g) => g.status === 'growing' && g.seasonEnd);
    const templates = (await api<{ value: number; label: string }[]>('/api/farmPlantGroup/plans/templateOptions?planTypeId=3')).data;
    let found: { group: Group; template: { value: number; label: string }; items: Item[] } | null = null;
    for (const group of groups)
      for (const template of templates) {
        if (found) break;
        const r = await api<{ items: Item[] }>('/api/farmPlantGroup/plans/generate', { groupId: group.id, templateId: template.value, startOn: group.plantedOn, planTypeId: 3, preview: true });
        if (r.status === 200) found = { group, template, items: r.data.items };
      }
    expect(found, 'a seeded growing group with a whole-season template that fits').not.toBeNull();
    const { group, template, items } = found!;
    const work = items.filter((i) => i.itemType === 'work');
    expect(work.length).toBeGreaterThan(0);
    const plansBefore = (await api<{ total: number }>(`/api/farmPlantGroup/plans/page?groupId=${group.id}&pageSize=1`)).data.total;

    await page.goto(`/farmPlantGroup/makePlantPlan/${group.id}/3`);
    const form = page.locator('[data-screen="makePlantPlan"]:visible');
    const preview = form.getByRole('region', { name: '计划预览' });
    await expect.poll(() => preview.textContent()).toContain('后显示预览');

    await form.getByLabel('计划模板', { exact: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: new RegExp(`^${escapeRegex(template.label)}$`) }).first().click();

    // A start date whose plan runs past the season's end: the server's sentence, in place.
    const late = addDays(group.seasonEnd!, -1);
    const date = form.getByLabel('开始日期', { exact: true });
    await date.click();
    await date.fill(late);
    // Tab, not Enter: Enter in a field submits the form.
    await date.press('Tab');
    await expect.poll(() => preview.getByRole('alert').textContent(), { timeout: 15_000 }).toContain(`晚于种植季结束日期 ${group.seasonEnd}`);

    // The planting date: the template's work items as bars on the timeline.
    await date.click();
    await date.fill(group.plantedOn);
    await date.press('Tab');
    const first = preview.getByRole('button', { name: new RegExp(`^${escapeRegex(work[0].name)}，${work[0].startOn} 至 ${work[0].endOn}`) });
    await first.waitFor({ timeout: 15_000 });
    expect(await preview.getByRole('button', { name: /，共 \d+ 天，未发布$/ }).count()).toBeGreaterThan(0);
    expect(await preview.getByRole('alert').count()).toBe(0);
    // Previewing stored nothing.
    expect((await api<{ total: number }>(`/api/farmPlantGroup/plans/page?groupId=${group.id}&pageSize=1`)).data.total).toBe(plansBefore);

    // Adjust: the first work item one day later with the keyboard; the server answers the preview with it moved.
    const moved = { ...work[0], startOn: addDays(work[0].startOn, 1), endOn: addDays(work[0].endOn, 1) };
    await first.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await preview.getByRole('button', { name: new RegExp(`^${escapeRegex(moved.name)}，${moved.startOn} 至 ${moved.endOn}`) }).waitFor({ timeout: 15_000 });

    await form.getByRole('button', { name: '保存', exact: true }).click();
    await page.waitForURL(new RegExp(`/farmPlantGroup/FarmingPlanDetail2/${group.id}/\\d+$`), { timeout: 15_000 });
    const planId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await api<{ rows: Item[] }>(`/api/farmPlantGroup/planItems/page?planId=${planId}&pageSize=500`);
    const expected = items.map((i) => (i.orderNumber === moved.orderNumber ? moved : i));
    expect(stored.data.rows.map((r) => [r.orderNumber, r.name, r.startOn, r.endOn]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(expected.map((i) => [i.orderNumber, i.name, i.startOn, i.endOn]));
  });
});
