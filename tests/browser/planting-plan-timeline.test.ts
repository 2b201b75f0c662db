/**
 * Issue 13, the plan on the timeline through the console and the real engine: as `farm`,
 * a seeded plan opens on the timeline tab, a work item is moved a day with the keyboard and
 * saved (the engine stores the new dates), and the item list of the plan stays one tab away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, newPage, sessionApi } from './browser.ts';
import { readsOnly } from './file-server.ts';

// Reads and navigates only: the project's shared server (file-server.ts).
readsOnly();

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

type Row = { id: number; name: string; startOn: string; endOn: string; itemType: string; groupId?: number; planId?: number };

const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('plan timeline as farm', () => {
  it('opens a seeded plan on the timeline and saves a keyboard move through the engine', async () => {
    ({ context, page } = await newPage(browser));
    await page.goto('/login');
    await logIn(page, 'farm');
    await page.waitForURL('**/dashboard');
    const plans = await api<{ rows: (Row & { groupId: number })[] }>('/api/farmPlantGroup/plans/page?pageSize=50');
    // A plan with work items still ahead: the one of the season under way.
    let target: { plan: Row & { groupId: number }; item: Row } | null = null;
    for (const plan of plans.rows) {
      const items = await api<{ rows: Row[] }>(`/api/farmPlantGroup/planItems/page?planId=${plan.id}&pageSize=500`);
      const today = new Date().toISOString().slice(0, 10);
      const item = items.rows.find((r) => r.itemType === 'work' && r.startOn > today);
      if (item) {
        target = { plan, item };
        break;
      }
    }
    expect(target, 'a seeded plan with work ahead').not.toBeNull();
    const { plan, item } = target!;
    await page.goto(`/farmPlantGroup/FarmingPlanDetail2/${plan.groupId}/${plan.id}`);
    await page.getByRole('tab', { name: '时间轴' }).click();
    const bar = page.getByRole('button', { name: new RegExp(`^${item.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}，`) }).first();
    await bar.waitFor();
    await bar.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await api<Row>(`/api/farmPlantGroup/planItems/${item.id}`)).startOn, { timeout: 10_000 }).toBe(nextDay(item.startOn));
    const saved = await api<Row>(`/api/farmPlantGroup/planItems/${item.id}`);
    expect(saved.endOn).toBe(nextDay(item.endOn));
    // The plan's items are one tab away.
    await page.getByRole('tab', { name: '计划详情' }).click();
    await page.getByText(item.name).first().waitFor();
  });
});
