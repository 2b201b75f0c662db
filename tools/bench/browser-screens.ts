/**
 * `npm run bench -- browser-screens`: the screen runtime measured in headless Chromium.
 * Builds tools/bench/screens-page (a Vite entry rendering the real runtime components
 * with generated data) into a temporary folder, serves it on a local port, opens it in
 * Debian's Chromium and prints the timings the page took with performance.now(), next
 * to the issue's targets (printed, not asserted), with the machine's load average.
 * `BENCH_PROFILE=out.cpuprofile` also records a CPU profile of the page (Chrome DevTools
 * Protocol Profiler; open it in DevTools) and prints the functions with the most self time.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
// The console's own build rules (icons by file, the screens' help apart), so the page bundles the documents as the console does.
import { iconsByFile, screenHelpApart } from '../../vite.config.ts';

/** Targets by figure: the limit in ms and how it reads. Issue 10's are the `cold` ones and the selection. */
const TARGETS: Record<string, { ms: number; text: string }> = {
  'cold 10 × 5: first row painted, from the renderer\'s start': { ms: 50, text: '≤ 50 ms (issue 10)' },
  'cold 100 × 50: first row painted, from the renderer\'s start': { ms: 50, text: '≤ 50 ms (issue 10)' },
  'cold 10000 × 50: first row painted, from the renderer\'s start': { ms: 100, text: '≤ 100 ms (issue 10)' },
  'table render, 10,000 × 50, data in memory: first rows painted': { ms: 150, text: '< 150 ms' },
  'table first render incl. request + parse: first rows painted': { ms: 150, text: '< 150 ms' },
  'row selection: click → committed + layout (median of 5)': { ms: 16.7, text: 'in the next frame (≤ 16.7 ms, issue 10)' },
  'form first render, 200 fields: first fields painted': { ms: 200, text: '< 200 ms' },
  'form: all 200 fields painted': { ms: 200, text: '< 200 ms' },
  'route building, 1,000 menu entries (screens → routes → permitted/401)': { ms: 5, text: '< 5 ms' },
};

/** The cold cases of issue 10, each in a fresh page: rows × columns. */
const COLD_CASES = ['10x5', '100x50', '10000x50'];

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

export async function run(): Promise<void> {
  const root = resolve(import.meta.dirname, 'screens-page');
  const out = mkdtempSync(join(tmpdir(), 'screens-bench-'));
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: false, mode: 'production', logLevel: 'warn', plugins: [react(), iconsByFile(), screenHelpApart()], build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 10_000, minify: !process.env.BENCH_PROFILE } });
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
    const load = loadavg().map((n) => n.toFixed(2)).join(', ');
    const results: Record<string, number | string> = {};
    const open = async (query: string, profile: boolean) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      const profileTo = profile ? process.env.BENCH_PROFILE : undefined;
      const cdp = profileTo ? await page.context().newCDPSession(page) : null;
      // BENCH_PROFILE_PHASE=table|memory|selection|form profiles that phase alone (console.profile in the page).
      const phase = profileTo ? process.env.BENCH_PROFILE_PHASE : undefined;
      const phaseProfile = new Promise<Parameters<typeof printHotFunctions>[0]>((r) => cdp?.on('Profiler.consoleProfileFinished', (e) => r(e.profile)));
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        if (!phase) await cdp.send('Profiler.start');
      }
      await page.goto(`http://127.0.0.1:${port}/${query}${phase ? `${query ? '&' : '?'}profile=${phase}` : ''}`);
      await page.waitForFunction(() => window.__bench?.done === true, undefined, { timeout: 120_000, polling: 200 });
      if (cdp && profileTo) {
        const { profile: p } = phase ? { profile: await phaseProfile } : await cdp.send('Profiler.stop');
        writeFileSync(profileTo, JSON.stringify(p));
        printHotFunctions(p);
      }
      const bench = (await page.evaluate(() => window.__bench))!;
      await context.close();
      if (bench.error) throw new Error(`the bench page failed: ${bench.error}`);
      Object.assign(results, bench.results);
    };
    // BENCH_PROFILE_PHASE=cold profiles the largest cold case instead of a phase of the main page.
    const coldProfile = process.env.BENCH_PROFILE_PHASE === 'cold';
    for (const spec of COLD_CASES) await open(`?cold=${spec}`, coldProfile && spec === COLD_CASES[COLD_CASES.length - 1]);
    await open('', !coldProfile);
    const width = Math.max(...Object.keys(results).map((k) => k.length));
    console.log(`Chromium ${browser.version()}, headless; ${new Date().toISOString()}`);
    for (const [name, value] of Object.entries(results)) {
      const shown = typeof value === 'number' ? `${value.toFixed(1)} ms` : value;
      const target = TARGETS[name];
      const verdict = target && typeof value === 'number' ? (value <= target.ms ? 'met' : 'NOT met') : '';
      console.log(`  ${name.padEnd(width)}  ${shown.padStart(10)}${target ? `   target ${target.text}: ${verdict}` : ''}`);
    }
    console.log(`load average (1, 5, 15 min): ${load} at the start, ${loadavg().map((n) => n.toFixed(2)).join(', ')} at the end`);
  } finally {
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The 20 functions with the most self time in a CDP CPU profile. */
function printHotFunctions(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const f = byId.get(samples[i])!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  console.log('hottest functions (self time):');
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${k}`);
}

declare global {
  interface Window {
    __bench?: { done: boolean; results: Record<string, number | string>; error?: string };
  }
}
