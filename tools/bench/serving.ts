/**
 * How the server delivers the console, with and without what server/http/ adds:
 * bytes and loopback time of the first load (index.html and the files it names) as
 * plain, gzip and brotli; 100 requests in a row with and without keep-alive; and a repeat visit with the
 * current cache headers (hashed assets immutable: only index.html is asked again, 304)
 * against the previous ones (`max-age=0`: every file asked again).
 *
 *   npm run bench -- serving                    # builds the console into a temporary folder first
 *   BENCH_DIST=dist npm run bench -- serving    # an existing build (precompressed by the Vite build)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
/** A household connection, to turn bytes into a transfer time that loopback cannot show. */
const LINK_MBIT = 20;

interface Fetched {
  status: number;
  bytes: number;
  headers: Record<string, string | string[] | undefined>;
}

function fetchRaw(port: number, path: string, headers: Record<string, string>, agent: Agent | false): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function run(): Promise<void> {
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const loadAtStart = load();
  const root = fileURLToPath(new URL('../..', import.meta.url));
  let dist = process.env.BENCH_DIST;
  let built: string | null = null;
  if (!dist || !existsSync(join(dist, 'index.html'))) {
    built = mkdtempSync(join(tmpdir(), 'bench-dist-'));
    dist = join(built, 'dist');
    const { build } = await import('vite');
    console.log('building the console (vite build, with its precompression step)…');
    await build({ root, mode: 'production', configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  }
  const { openPglite } = await import('../../server/db/pglite.ts');
  const { migrate } = await import('../../server/db/migrate.ts');
  const { buildApp } = await import('../../server/app.ts');
  const { loadConfig } = await import('../../server/config.ts');
  const db = await openPglite();
  await migrate(db);
  const app = await buildApp({ db, config: { ...loadConfig({ DATA_DIR: tmpdir() }), distDir: dist } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  try {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const named = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    const firstLoad = ['/', ...new Set(named)];
    const assets = readdirSync(join(dist, 'assets')).filter((f) => !/\.(br|gz)$/.test(f));

    // One load: every file at once over up to six connections, as a browser does.
    const loadAll = async (paths: string[], headers: (p: string) => Record<string, string>, keepAlive: boolean) => {
      const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: 6 }) : false;
      const started = performance.now();
      const results = await Promise.all(paths.map((p) => fetchRaw(port, p, headers(p), agent)));
      const ms = performance.now() - started;
      if (agent) agent.destroy();
      return { ms, bytes: results.reduce((n, r) => n + r.bytes, 0), results };
    };
    const median = async (fn: () => Promise<{ ms: number; bytes: number }>) => {
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await fn());
      runs.sort((a, b) => a.ms - b.ms);
      return runs[Math.floor(runs.length / 2)];
    };
    const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
    const wire = (n: number) => `${((n * 8) / (LINK_MBIT * 1e6) * 1000).toFixed(0)} ms`;

    console.log(`\nconsole delivery, ${firstLoad.length} files on the first load (index.html and what it names), ${assets.length} files in assets/, median of ${ROUNDS} loads on loopback`);
    console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start`);
    console.log(`case                                     body bytes      loopback   at ${LINK_MBIT} Mbit/s`);
    const line = (name: string, r: { ms: number; bytes: number }) => console.log(`${name.padEnd(44)} ${kb(r.bytes).padStart(10)} ${`${r.ms.toFixed(1)} ms`.padStart(10)} ${wire(r.bytes).padStart(10)}`);
    for (const encoding of ['identity', 'gzip', 'br']) {
      line(`first load, ${encoding === 'identity' ? 'uncompressed' : encoding}, keep-alive`, await median(() => loadAll(firstLoad, () => ({ 'accept-encoding': encoding }), true)));
    }
    const everything = ['/', ...assets.map((a) => `/assets/${a}`)];
    line(`every asset (${everything.length} files), uncompressed`, await median(() => loadAll(everything, () => ({ 'accept-encoding': 'identity' }), true)));
    line(`every asset (${everything.length} files), br`, await median(() => loadAll(everything, () => ({ 'accept-encoding': 'br' }), true)));

    // Repeat visit: the browser holds every file of the first load with its ETag.
    const first = await loadAll(firstLoad, () => ({ 'accept-encoding': 'br' }), true);
    const etags = new Map(firstLoad.map((p, i) => [p, String(first.results[i].headers.etag ?? '')]));
    const cacheControl = new Map(firstLoad.map((p, i) => [p, String(first.results[i].headers['cache-control'] ?? '')]));
    const asked = firstLoad.filter((p) => !/immutable/.test(cacheControl.get(p)!));
    const conditional = (p: string) => ({ 'accept-encoding': 'br', 'if-none-match': etags.get(p)! });
    const now = await median(() => loadAll(asked, conditional, true));
    const before = await median(() => loadAll(firstLoad, conditional, true));
    line(`repeat visit, now: ${asked.length} request (304), rest cached`, now);
    line(`repeat visit, before (max-age=0): ${firstLoad.length} requests (304)`, before);
    // Keep-alive: 100 requests one after another (a session's API calls), on one connection or a new one each.
    const sequential = async (keepAlive: boolean) => {
      const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
      const started = performance.now();
      let bytes = 0;
      for (let i = 0; i < 100; i++) bytes += (await fetchRaw(port, '/', { 'if-none-match': etags.get('/')!, ...(keepAlive ? {} : { connection: 'close' }) }, agent)).bytes;
      if (agent) agent.destroy();
      return { ms: performance.now() - started, bytes };
    };
    line('100 requests in a row, keep-alive', await median(() => sequential(true)));
    line('100 requests in a row, a new connection each', await median(() => sequential(false)));
    console.log(`cache headers: ${firstLoad.map((p) => `${p.replace(/^\/assets\//, '')}: ${cacheControl.get(p)}`).join('; ')}`);
    console.log(`load average at the end: ${load()}`);
  } finally {
    await app.close();
    await db.close();
    if (built) rmSync(built, { recursive: true, force: true });
  }
}
