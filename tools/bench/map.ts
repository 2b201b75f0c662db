/**
 * `npm run bench -- map`: the farm map (widgets/map/farm-map.ts, production build, no tiles)
 * in headless Chromium with 2,000 plots (tools/bench/map-page). Prints the first render
 * (script start → first complete render with every plot, median of 5 fresh pages; 200 plots
 * beside it as a baseline), and the frame intervals during a 1 s pan and a 1 s zoom-in
 * animation with the time the map takes to settle (a complete render) after each, with the
 * machine's load average. Headless Chromium without a GPU draws on the CPU: a desktop
 * browser is faster.
 */
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { serveMapPage } from './map-page/serve.ts';

const RUNS = 5;

export async function run(): Promise<void> {
  const site = await serveMapPage();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const load = loadavg().map((n) => n.toFixed(2)).join(', ');
    const first = async (plots: number) => {
      const out: number[] = [];
      const frames: Record<'pan' | 'zoom', number[]> = { pan: [], zoom: [] };
      const settle: Record<'pan' | 'zoom', number[]> = { pan: [], zoom: [] };
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        const page = await context.newPage();
        page.on('pageerror', (e) => console.error('page error:', e.message));
        await page.goto(`${site.url}?plots=${plots}`);
        await page.waitForFunction(() => window.__map?.ready === true, undefined, { timeout: 60_000 });
        out.push(await page.evaluate(() => window.__map.firstRenderMs ?? Number.NaN));
        for (const kind of ['pan', 'zoom'] as const) {
          const r = await page.evaluate((k) => window.__map.animate(k), kind);
          frames[kind].push(...r.frames);
          settle[kind].push(r.settleMs);
        }
        await context.close();
      }
      return { out, frames, settle };
    };
    const small = await first(200);
    const big = await first(2000);
    console.log(`load average ${load}; ${RUNS} fresh pages, 1400 × 860 map, no tiles, CPU drawing`);
    print('first render, 200 plots (baseline)', small.out);
    print('first render, 2,000 plots: script start → complete render', big.out);
    print('pan (1 s animation), 2,000 plots: frame interval', big.frames.pan);
    print('pan: animation end → complete render', big.settle.pan);
    print('zoom in (1 s animation), 2,000 plots: frame interval', big.frames.zoom);
    print('zoom: animation end → complete render', big.settle.zoom);
  } finally {
    await browser.close();
    await site.close();
  }
}

function print(label: string, values: number[]) {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`${label}: median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (n = ${sorted.length})`);
}
