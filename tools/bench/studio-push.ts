/**
 * `npm run bench -- studio-push`: the time from a publish in the schema studio to another
 * console showing it (docs/studio.md, "Push"). Builds the console for production, serves it
 * with two API instances on one seeded PGlite (as two servers on one database), logs a
 * console in (headless Chromium) with cropsManager open, and PUBLISHES times publishes a new
 * column title through the API. Measured from just before the publish request to the moment
 * that console shows the "newer version" notice (its event received, the published set
 * fetched, its registry rebuilt), by the page's clock and the bench's, which are one
 * machine's. Two cases: the console on the instance that published (its own event), and on
 * the other instance (which learns of the publish by polling the database, every second;
 * with REDIS_URL set, through Redis pub/sub instead of waiting for the poll). After each, "reload" shows the new
 * title, checked before the next publish.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openDatabase } from '../../server/db/open.ts';
import { seedIfEmpty } from '../../server/seed/seed.ts';
import { buildConsole } from '../bundle-budget.ts';

const PUBLISHES = 10;
const FILE = 'schemas/screens/knowledge/cropsManager.json';
const ROUTE = '/agricultureKnowledge/cropsManager';

/** Notes, in the page, when the notice appears (Date.now(), comparable with the bench's clock). */
const WATCH = `(() => {
  window.__noticeAt = undefined;
  new MutationObserver(() => {
    if (window.__noticeAt === undefined && document.querySelector('[data-testid="schema-update-notice"]')) window.__noticeAt = Date.now();
  }).observe(document, { childList: true, subtree: true });
})();`;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
}

export async function run(): Promise<void> {
  const load = loadavg().map((n) => n.toFixed(2)).join(', ');
  const dir = mkdtempSync(join(tmpdir(), 'studio-push-'));
  const distDir = join(dir, 'dist');
  await buildConsole(distDir);
  const config = { ...loadConfig({ DATA_DIR: join(dir, 'data') }), distDir, host: '127.0.0.1', port: 0 };
  const db = await openDatabase({ dataDir: config.dataDir });
  await migrate(db);
  await seedIfEmpty(db);
  const apps = [await buildApp({ db, config }), await buildApp({ db, config })];
  const bases: string[] = [];
  for (const app of apps) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    bases.push(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const bundled = JSON.parse(readFileSync(new URL(`../../${FILE}`, import.meta.url), 'utf8')) as { columns: { title?: unknown }[] };
  const token = (await (await fetch(`${bases[0]}/api/auth/jwt/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'demo_2026' }) })).json()).data as string;
  let revision = 0;
  let n = 0;
  const publish = async () => {
    const doc = structuredClone(bundled);
    const title = `名称${++n}`;
    doc.columns[0].title = { zh: title, en: `Name ${n}`, es: `Nombre ${n}` };
    const res = await fetch(`${bases[0]}/api/studio/publish`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ file: FILE, content: JSON.stringify(doc), baseRevision: revision, comment: 'bench' }),
    });
    const body = (await res.json()) as { status: number; message: string; data: { revision: number } };
    if (body.status !== 200) throw new Error(`publish: ${body.status} ${body.message}`);
    revision = body.data.revision;
    return { title, answeredAt: Date.now() };
  };

  const results: { name: string; ms: number[]; afterReply: number[]; request: number[] }[] = [];
  try {
    for (const [name, base] of [
      ['console on the instance that published', bases[0]],
      [`console on another instance (${process.env.REDIS_URL ? 'Redis pub/sub' : 'database poll'})`, bases[1]],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: WATCH });
      const page: Page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${base}/login?redirect=${encodeURIComponent(ROUTE)}`);
      await page.getByLabel('用户名').fill('farm');
      await page.getByLabel('密码').fill('demo_2026');
      const events = page.waitForRequest((r) => r.url().endsWith('/api/schemas/events'));
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await events;
      await page.locator('[data-screen="cropsManager"] tbody tr').first().waitFor();
      // The set fetched after login (and the first publish's registry work) not counted: one warm-up.
      const ms: number[] = [];
      const afterReply: number[] = [];
      const request: number[] = [];
      for (let i = 0; i < PUBLISHES + 1; i++) {
        await page.evaluate(() => {
          (window as unknown as { __noticeAt?: number }).__noticeAt = undefined;
        });
        const started = Date.now();
        const { title, answeredAt } = await publish();
        await page.waitForFunction(() => (window as unknown as { __noticeAt?: number }).__noticeAt !== undefined, undefined, { polling: 10 });
        const at = await page.evaluate(() => (window as unknown as { __noticeAt: number }).__noticeAt);
        if (i > 0) {
          ms.push(at - started);
          afterReply.push(Math.max(0, at - answeredAt));
          request.push(answeredAt - started);
        }
        await page.getByTestId('schema-update-notice').getByRole('button').click();
        await page.locator('th:visible').filter({ hasText: title }).first().waitFor();
      }
      results.push({ name, ms, afterReply, request });
      await context.close();
    }
  } finally {
    await browser.close();
    for (const app of apps) await app.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`Chromium ${browser.version()}, headless; two API instances on one PGlite; ${PUBLISHES} publishes each (after one warm-up)`);
  for (const r of results) {
    console.log(`  ${`publish → notice on the open screen, ${r.name}`.padEnd(78)} p50 ${String(percentile(r.ms, 0.5)).padStart(5)} ms   p90 ${String(percentile(r.ms, 0.9)).padStart(5)} ms`);
    console.log(`    of which the publish request (gate, render check, store): p50 ${percentile(r.request, 0.5)} ms; from its reply to the notice: p50 ${percentile(r.afterReply, 0.5)} ms`);
    console.log(`    runs: ${r.ms.join(', ')} ms`);
  }
  console.log(`load average (1, 5, 15 min): ${load} at the start, ${loadavg().map((x) => x.toFixed(2)).join(', ')} at the end`);
}
