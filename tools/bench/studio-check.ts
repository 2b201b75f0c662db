/**
 * `npm run bench -- studio-check`: validation of one document as you type in the schema
 * studio's editor, in headless Chromium (tools/bench/studio-check-page, production build):
 * cropsManager edited 200 keystrokes long, each text checked as the editor's linter does
 * (the publish gate over the effective set with the draft in place, the preview's registry,
 * diagnostics at line and column). Prints p50 / p99 of a keystroke's check and the first
 * check (which computes the set's baseline once), with the machine's load average. The
 * editor runs the check 300 ms after the last keystroke, so a check well under a frame
 * budget of idle time keeps typing smooth.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const RUNS = 3;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export async function run(): Promise<void> {
  const root = resolve(import.meta.dirname, 'studio-check-page');
  const out = mkdtempSync(join(tmpdir(), 'studio-check-'));
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: false, mode: 'production', logLevel: 'warn', build: { outDir: out, emptyOutDir: true, target: 'es2022' } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const server = createServer((req, res) => {
    const path = join(out, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = path.startsWith(out) && existsSync(path) && extname(path) ? path : join(out, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const load = loadavg().map((n) => n.toFixed(2)).join(', ');
    const typed: number[] = [];
    const firsts: number[] = [];
    let info = { problems: 0, bytes: 0 };
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto(`${url}?keys=200`);
      await page.waitForFunction(() => window.__studioCheck?.ready === true, undefined, { timeout: 120_000 });
      const r = await page.evaluate(() => window.__studioCheck);
      typed.push(...(r.typed ?? []));
      firsts.push(r.first ?? Number.NaN);
      info = { problems: r.problems ?? 0, bytes: r.bytes ?? 0 };
      await page.close();
    }
    console.log(`load average ${load}; cropsManager (${info.bytes} bytes), ${RUNS} pages × 200 keystrokes; ${info.problems} problems on the last text`);
    console.log(`check per keystroke (gate + preview registry + line/column): p50 ${quantile(typed, 0.5).toFixed(1)} ms, p99 ${quantile(typed, 0.99).toFixed(1)} ms, max ${Math.max(...typed).toFixed(1)} ms`);
    console.log(`first check of a page (with the effective set's baseline): median ${quantile(firsts, 0.5).toFixed(0)} ms`);
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(out, { recursive: true, force: true });
  }
}
