/**
 * `npm run bench -- console-load`: the real console as a newcomer meets it. Builds it for
 * production (`npm run build`'s configuration, with Vite's manifest) into a temporary
 * folder, serves it with the real API server over a fresh seeded PGlite on a local port,
 * and in headless Chromium with a cold cache (a fresh context per run) measures:
 *
 * - the JavaScript each route loads (gzip, from the manifest: tools/bundle-budget.ts);
 * - the login form ready: from navigation to the moment the form's submit button is in
 *   the DOM (a client-rendered page is usable once rendered), and the JavaScript bytes
 *   fetched until then (Resource Timing; compressed sizes when the server compresses);
 * - what `/login` has fetched by network idle, nobody typing: JavaScript and CSS as
 *   transferred (the console waits for sign-in or the first key: console-loading.ts);
 * - login to a table with rows visible: from the click on "登录" at
 *   /login?redirect=/baseManager/userManager to the first row of that table.
 *
 * Times are taken in the page (performance.now(), MutationObserver), medians of RUNS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openDatabase } from '../../server/db/open.ts';
import { seedIfEmpty } from '../../server/seed/seed.ts';
import { buildConsole, routeSizes } from '../bundle-budget.ts';

const RUNS = 5;
// A table the seed fills (the users), so that rows appear without creating any.
const TABLE = '/baseManager/userManager';
const kB = 1000;

interface Timings {
  jsAtIdle?: number;
  cssAtIdle?: number;
  formReady?: number;
  clicked?: number;
  rows?: number;
  jsBeforeForm?: number;
  jsFiles?: number;
}

declare global {
  interface Window {
    __load?: Timings;
  }
}

/**
 * Runs in the page before any of its scripts: notes when the form and the rows appear.
 * Text, not a function: tsx's transform would add helpers the page does not have.
 */
const WATCH = `(() => {
  const t = {};
  window.__load = t;
  const check = () => {
    const now = performance.now();
    if (t.formReady === undefined && document.querySelector('form#login button[type=submit]')) {
      t.formReady = now;
      const js = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'));
      t.jsBeforeForm = js.reduce((n, e) => n + (e.transferSize || e.encodedBodySize), 0);
      t.jsFiles = js.length;
    }
    if (t.clicked !== undefined && t.rows === undefined && document.querySelector('[data-screen="userManager"] tbody tr[data-row-key]')) t.rows = now;
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  document.addEventListener('click', (e) => {
    if (t.clicked === undefined && e.target.closest && e.target.closest('form#login button[type=submit]')) t.clicked = performance.now();
  }, true);
})();`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function run(): Promise<void> {
  const load = loadavg().map((n) => n.toFixed(2)).join(', ');
  const dir = mkdtempSync(join(tmpdir(), 'console-load-'));
  const distDir = join(dir, 'dist');
  await buildConsole(distDir);
  const sizes = routeSizes(distDir);

  const config = { ...loadConfig({ DATA_DIR: join(dir, 'data') }), distDir, host: '127.0.0.1', port: 0 };
  const db = await openDatabase({ dataDir: config.dataDir });
  await migrate(db);
  await seedIfEmpty(db);
  const app = await buildApp({ db, config });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const runs: Required<Timings>[] = [];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: WATCH });
      // tsx (esbuild, keepNames) wraps the named functions of page.evaluate's callbacks in a
      // `__name` helper the page does not have.
      await context.addInitScript({ content: 'window.__name = (f) => f;' });
      const page = await context.newPage();
      await page.goto(`${base}/login?redirect=${encodeURIComponent(TABLE)}`, { waitUntil: 'networkidle' });
      await page.waitForFunction(() => window.__load?.formReady !== undefined, undefined, { polling: 50 });
      const idle = await page.evaluate(() => {
        const sum = (ext: string) =>
          performance
            .getEntriesByType('resource')
            .filter((e) => new URL(e.name).pathname.endsWith(ext))
            .reduce((n, e) => n + ((e as PerformanceResourceTiming).transferSize || (e as PerformanceResourceTiming).encodedBodySize), 0);
        return { js: sum('.js'), css: sum('.css') };
      });
      await page.getByLabel('用户名').fill('admin');
      await page.getByLabel('密码').fill('demo_2026');
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.waitForFunction(() => window.__load?.rows !== undefined, undefined, { timeout: 30_000, polling: 50 }).catch(async (err: unknown) => {
        const seen = await page.evaluate(() => ({ load: window.__load, rows: document.querySelectorAll('tbody tr').length, screens: [...document.querySelectorAll('[data-screen]')].map((e) => e.getAttribute('data-screen')) }));
        throw new Error(`no rows at ${page.url()}: ${JSON.stringify(seen)}`, { cause: err });
      });
      const t = { ...(await page.evaluate(() => window.__load))!, jsAtIdle: idle.js, cssAtIdle: idle.css };
      await context.close();
      // The first run also warms the server (PGlite's first queries); it is not counted.
      if (i > 0) runs.push(t as Required<Timings>);
    }
  } finally {
    await browser.close();
    await app.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const formReady = median(runs.map((r) => r.formReady));
  const loginToRows = median(runs.map((r) => r.rows - r.clicked));
  const jsBeforeForm = median(runs.map((r) => r.jsBeforeForm));
  const login = sizes.find((s) => s.route === '/login')!;
  const table = sizes.find((s) => s.route === 'table')!;
  const jsAtIdle = median(runs.map((r) => r.jsAtIdle));
  const cssAtIdle = median(runs.map((r) => r.cssAtIdle));
  const line = (name: string, figure: string, target: string, met: boolean) =>
    console.log(`  ${name.padEnd(58)} ${figure.padStart(12)}   target ${target}: ${met ? 'met' : 'NOT met'}`);
  console.log(`Chromium ${browser.version()}, headless, cold cache (a fresh context per run), real server on ${base}; median of ${RUNS} runs`);
  line('/login JavaScript (gzip, build)', `${(login.js / kB).toFixed(1)} kB`, '≤ 150 kB', login.js <= 150 * kB);
  line('/login CSS (gzip, build)', `${(login.css / kB).toFixed(1)} kB`, '≤ 30 kB', login.css <= 30 * kB);
  line('/login JavaScript fetched by network idle (transfer)', `${(jsAtIdle / kB).toFixed(1)} kB`, '≤ 150 kB', jsAtIdle <= 150 * kB);
  line('/login CSS fetched by network idle (transfer)', `${(cssAtIdle / kB).toFixed(1)} kB`, '≤ 30 kB', cssAtIdle <= 30 * kB);
  line('login + first table, JavaScript and CSS (gzip)', `${(table.gzip / kB).toFixed(1)} kB`, '≤ 350 kB', table.gzip <= 350 * kB);
  for (const s of sizes.filter((x) => x !== login && x !== table)) console.log(`  ${`${s.route} screen after login, JS + CSS (gzip)`.padEnd(58)} ${`${(s.gzip / kB).toFixed(1)} kB`.padStart(12)}   budget ${(s.budget / kB).toFixed(0)} kB`);
  console.log(`  ${'/login JavaScript as fetched before the form (transfer)'.padEnd(58)} ${`${(jsBeforeForm / kB).toFixed(1)} kB`.padStart(12)}   (${runs[0].jsFiles} files; uncompressed unless the server compresses)`);
  line('login form ready, from navigation', `${formReady.toFixed(0)} ms`, '≤ 400 ms', formReady <= 400);
  line('login → table with rows visible', `${loginToRows.toFixed(0)} ms`, '≤ 800 ms', loginToRows <= 800);
  console.log(`  runs: form ready ${runs.map((r) => r.formReady.toFixed(0)).join(', ')} ms; login → rows ${runs.map((r) => (r.rows - r.clicked).toFixed(0)).join(', ')} ms`);
  console.log(`load average (1, 5, 15 min): ${load} at the start, ${loadavg().map((n) => n.toFixed(2)).join(', ')} at the end`);
}
