/**
 * The planting timeline in Chromium with 500 items (the harness page of
 * tools/bench/timeline-page, the pure component with an in-memory owner): rows are
 * virtualised, a bar is rescheduled with the keyboard, another is dragged and resized with
 * the mouse, and a refused drag snaps back with the refusal shown at the bar.
 * The console's adapter (widgets/planting-timeline/index.tsx) over the real planItems
 * resource is tested once that resource is merged (docs/planting.md).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePlan, TODAY } from '../../tools/bench/timeline-page/generate.ts';
import { serveTimelinePage } from '../../tools/bench/timeline-page/serve.ts';
import { dayOf, isoOf } from '../../widgets/planting-timeline/dates.ts';
import { launchBrowser } from './browser.ts';
import { axeSeriousViolations } from './shell-support.ts';

const plan = generatePlan(500);
const today = dayOf(TODAY);
const PX_PER_DAY_WEEK = 10;
// Bars near today among the first rows (not row 1, which the keyboard test moves): in view when the page opens (it scrolls to today).
const nearToday = plan.tasks.slice(1, 16).filter((t) => dayOf(t.startOn) >= today - 30 && dayOf(t.endOn) <= today + 60 && dayOf(t.endOn) - dayOf(t.startOn) >= 2);
const [dragged, refused, resized] = nearToday;

let browser: Browser;
let site: Awaited<ReturnType<typeof serveTimelinePage>>;
let page: Page;

beforeAll(async () => {
  expect(nearToday.length).toBeGreaterThanOrEqual(3);
  site = await serveTimelinePage();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  await page.goto(`${site.url}?items=500&lang=en&zoom=week&refuse=${refused.id}`);
  await page.waitForFunction(() => window.__timeline?.ready === true);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const bar = (id: number) => page.locator(`[data-bar-index="${id - 1}"]`);
const saves = () => page.evaluate(() => window.__timeline.saves);
const shift = (iso: string, days: number) => isoOf(dayOf(iso) + days);

async function drag(id: number, from: 'middle' | 'end', dx: number) {
  const box = (await bar(id).boundingBox())!;
  const x = from === 'middle' ? box.x + box.width / 2 : box.x + box.width - 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 8 });
  await page.mouse.up();
}

describe('planting timeline, 500 items', () => {
  it('renders a window of rows, not 500, with the legend, stages, key nodes and today', async () => {
    const rows = await page.locator('.ptl-row').count();
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(60);
    expect(await page.locator('.ptl-legend li').allTextContents()).toEqual(['○Not published', '•Published', '▶In progress', '✓Done', '!Overdue']);
    expect(await page.locator('.ptl-stage').count()).toBe(5);
    expect(await page.locator('.ptl-keynode').count()).toBe(6);
    expect(await page.locator('.ptl-today-line').count()).toBe(1);
    expect(await axeSeriousViolations(page)).toEqual([]);
  });

  it('keyboard: → twice and shift+→ once, Enter saves; ↓ and End move the focus, even to row 500', async () => {
    const first = plan.tasks[0];
    await bar(1).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(saves).toContainEqual({ id: 1, startOn: shift(first.startOn, 2), endOn: shift(first.endOn, 3) });
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Weeding #2, /);
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^\w+ #500, /);
    await page.keyboard.press('Home');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-bar-index'))).toBe('0');
  });

  it('mouse: a drag moves a bar by whole days, a drag of its end resizes it', async () => {
    await drag(Number(dragged.id), 'middle', 3 * PX_PER_DAY_WEEK + 2);
    await expect.poll(saves).toContainEqual({ id: dragged.id, startOn: shift(dragged.startOn, 3), endOn: shift(dragged.endOn, 3) });
    await drag(Number(resized.id), 'end', 2 * PX_PER_DAY_WEEK - 1);
    await expect.poll(saves).toContainEqual({ id: resized.id, startOn: resized.startOn, endOn: shift(resized.endOn, 2) });
  });

  it('a refused drag snaps back and says why at the bar', async () => {
    const before = (await bar(Number(refused.id)).boundingBox())!;
    await drag(Number(refused.id), 'middle', -4 * PX_PER_DAY_WEEK);
    const alert = page.locator(`[data-row-index="${Number(refused.id) - 1}"] [role="alert"]`);
    await expect.poll(() => alert.textContent()).toBe('Not saved: The dates must fall inside the seasonClose');
    const after = (await bar(Number(refused.id)).boundingBox())!;
    expect(after.x).toBeCloseTo(before.x, 0);
    expect(await bar(Number(refused.id)).getAttribute('aria-label')).toContain(`${refused.name}, `);
    expect(await page.evaluate(() => window.__timeline.refused)).toEqual([refused.id]);
    expect((await saves()).some((s) => s.id === refused.id)).toBe(false);
  });
});
