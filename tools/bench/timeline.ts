/**
 * `npm run bench -- timeline`: the planting-plan timeline in headless Chromium with 500
 * items (tools/bench/timeline-page: the pure component, production build). Prints the first
 * render (page script start → first frame painted with the rows, median of 5 fresh pages),
 * a mouse drag (pointer down → bar saved and painted, median of 5) and the time from each
 * pointer move to the next frame during the drags, with the machine's load average. The
 * first render with 20 items is printed beside it: rows are virtualised, so 500 should cost
 * about what 20 do.
 */
import { loadavg } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { serveTimelinePage } from './timeline-page/serve.ts';

const RUNS = 5;
const ITEMS = 500;

export async function run(): Promise<void> {
  const site = await serveTimelinePage();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const load = loadavg().map((n) => n.toFixed(2)).join(', ');
    const baseline: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${site.url}?items=20&lang=zh&zoom=week`);
      await page.waitForFunction(() => window.__timeline?.ready === true, undefined, { timeout: 60_000 });
      baseline.push(await page.evaluate(() => window.__timeline.firstRenderMs ?? Number.NaN));
      await context.close();
    }
    const firstRender: number[] = [];
    const drags: number[] = [];
    const moveFrames: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto(`${site.url}?items=${ITEMS}&lang=zh&zoom=week`);
      await page.waitForFunction(() => window.__timeline?.ready === true, undefined, { timeout: 60_000 });
      firstRender.push(await page.evaluate(() => window.__timeline.firstRenderMs ?? Number.NaN));
      drags.push(await dragOnce(page, i));
      moveFrames.push(...(await page.evaluate(() => window.__timeline.moveFrames)));
      await context.close();
    }
    console.log(`load average ${load}; ${ITEMS} items, ${RUNS} fresh pages, week zoom, 1400 × 900`);
    print('first render, 20 items (baseline): first frame with rows painted', baseline, '—');
    print(`first render, ${ITEMS} items: first frame with rows painted`, firstRender, '< 300 ms, about the 20-item baseline');
    print('drag: pointer down → moved 3 days → saved and painted', drags, '(includes a 20 ms simulated round trip and 8 pointer moves)');
    print('pointer move → next frame, during drags', moveFrames, '≤ 16.7 ms (one frame)');
  } finally {
    await browser.close();
    await site.close();
  }
}

/** Drags the first fully visible bar three days right and times it until saved and painted. */
async function dragOnce(page: Page, run: number): Promise<number> {
  const bars = page.locator('.ptl-bar');
  const viewport = (await page.locator('.ptl-scroll').boundingBox())!;
  let box: { x: number; y: number; width: number; height: number } | null = null;
  let index = -1;
  for (let i = run; i < (await bars.count()); i++) {
    const b = await bars.nth(i).boundingBox();
    if (b && b.width >= 20 && b.x > viewport.x + 240 && b.x + b.width + 40 < viewport.x + viewport.width) {
      box = b;
      index = Number(await bars.nth(i).getAttribute('data-bar-index'));
      break;
    }
  }
  if (!box) throw new Error('no bar fully in view to drag');
  const savesBefore = await page.evaluate(() => window.__timeline.saves.length);
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const started = await page.evaluate(() => performance.now());
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 31, y, { steps: 8 });
  await page.mouse.up();
  // The save lands after the simulated round trip; then one more frame paints it.
  await page.waitForFunction((before) => window.__timeline.saves.length > before, savesBefore, { polling: 'raf' });
  if (!(await page.evaluate((i) => window.__timeline.saves.some((s) => s.id === i + 1), index))) throw new Error(`the drag of bar ${index} was not saved`);
  return page.evaluate((t0) => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now() - t0))), started);
}

function print(label: string, values: number[], target: string): void {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`${label.padEnd(66)} median ${at(0.5).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (n = ${values.length}); target ${target}`);
}
