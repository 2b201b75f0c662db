/**
 * `npm run bench -- browser-screens`: the screen runtime measured in headless Chromium.
 * Builds tools/bench/screens-page (a Vite entry rendering the real runtime components
 * with generated data) into a temporary folder, serves it on a local port, opens it in
 * Debian's Chromium and prints the timings the page took with performance.now(), next
 * to the issue's targets (printed, not asserted).
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';

const TARGETS: Record<string, string> = {
  'table first render, 10,000 × 50 (request, parse, render)': '< 150 ms',
  'row selection (commit)': '< 16 ms',
  'form first render, 200 fields': '< 200 ms',
  'route building, 1,000 menu entries (screens → routes → permitted/401)': '< 5 ms',
};

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

export async function run(): Promise<void> {
  const root = resolve(import.meta.dirname, 'screens-page');
  const out = mkdtempSync(join(tmpdir(), 'screens-bench-'));
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: false, mode: 'production', logLevel: 'warn', plugins: [react()], build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 10_000 } });
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
  const port = typeof address === 'object' && address ? address.port : 0;

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => window.__bench?.done === true, undefined, { timeout: 300_000, polling: 200 });
    const bench = (await page.evaluate(() => window.__bench))!;
    if (bench.error) throw new Error(`the bench page failed: ${bench.error}`);
    const width = Math.max(...Object.keys(bench.results).map((k) => k.length));
    console.log(`Chromium ${browser.version()}, headless; ${new Date().toISOString()}`);
    for (const [name, value] of Object.entries(bench.results)) {
      const shown = typeof value === 'number' && !Number.isInteger(value) ? `${value.toFixed(1)} ms` : typeof value === 'number' && /render|selection|page \(|building|validating/.test(name) ? `${value} ms` : String(value);
      console.log(`  ${name.padEnd(width)}  ${shown.padStart(10)}${TARGETS[name] ? `   target ${TARGETS[name]}` : ''}`);
    }
  } finally {
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

declare global {
  interface Window {
    __bench?: { done: boolean; results: Record<string, number | string>; error?: string };
  }
}
