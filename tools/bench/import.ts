/**
 * Imports (docs/import.md): a 5,000-row file of the material catalogue (the goods-code hook
 * runs on every row) imported with `validOnly` by the demo farm, as CSV and as xlsx, while
 * 10 other clients read the catalogue's first page one request after another. Prints rows
 * per second of each import, and p50/p99 of the page reads while it ran (and before it, as
 * a baseline). The server runs in a child process on a freshly seeded database, PGlite in
 * a temporary folder as the default server keeps it.
 *
 *   npm run bench -- import
 *   BENCH_ENGINES=pglite BENCH_IMPORT_ROWS=5000 BENCH_READERS=10 npm run bench -- import
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import writeXlsxFile from 'write-excel-file/node';
import type { Database } from '../../server/db/database.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 5000);
const READERS = Number(process.env.BENCH_READERS ?? 10);
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const LIST = '/api/farmMaterials/list';
const HEADERS = ['商品编码', '农资名称', '品类', '单位', '单价（元）'];

const rowsOf = (prefix: string, n = ROWS) => Array.from({ length: n }, (_, i) => [`${prefix}-${i}`, `基准农资 ${i}`, '肥料', '袋', 100 + (i % 50)]);

async function csvFile(prefix: string, n = ROWS): Promise<Buffer> {
  return Buffer.from(`\uFEFF${[HEADERS, ...rowsOf(prefix, n)].map((r) => r.join(',')).join('\r\n')}\r\n`);
}

async function xlsxFile(prefix: string): Promise<Buffer> {
  return writeXlsxFile([HEADERS.map((value) => ({ value })), ...rowsOf(prefix).map((r) => r.map((value) => ({ value })))]).toBuffer();
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export async function run(): Promise<void> {
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const loadAtStart = load();
  const lines: string[] = [];
  for (const engine of ['pglite', 'postgres'] as const) {
    if (!ENGINES.includes(engine)) lines.push(`${engine.padEnd(9)} not run (BENCH_ENGINES)`);
    else if (engine === 'postgres' && !(await postgresReachable())) lines.push(`postgres  skipped: no PostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, '//')}`);
    else lines.push(...(await measure(engine)));
  }
  console.log(`\nimport of ${ROWS.toLocaleString('en')} catalogue rows (validOnly), ${READERS} clients reading the first page meanwhile`);
  console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${load()} at the end (2 cores, shared)`);
  console.log('engine    file  import s  rows/s   reads  p50 ms  p99 ms  max ms   (the readers without an import: p50 / p99 ms)');
  for (const line of lines) console.log(line);
}

async function postgresReachable(): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function measure(engine: 'pglite' | 'postgres'): Promise<string[]> {
  const where = engine === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-import-')) : `bench_${randomBytes(4).toString('hex')}`;
  const child = fork(fileURLToPath(import.meta.url), ['--serve', engine, where], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { port: number }));
      child.once('exit', (code) => reject(new Error(`${engine} server exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const login = async (username: string) => {
      const { DEMO_PASSWORD } = await import('../../server/seed/seed.ts');
      const r = await fetch(`${url}/api/auth/jwt/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
      return `Bearer ${((await r.json()) as { data: string }).data}`;
    };
    const importer = await login('farm');
    const reader = await login('farm2');
    const page = async () => {
      const started = performance.now();
      const r = await fetch(`${url}${LIST}/page?pageSize=20&sort=-id`, { headers: { authorization: reader } });
      if (r.status !== 200) throw new Error(`page read: HTTP ${r.status}`);
      await r.arrayBuffer();
      return performance.now() - started;
    };
    const post = async (content: Buffer, fileName: string, rows = ROWS) => {
      const r = await fetch(`${url}${LIST}/import`, {
        method: 'POST',
        headers: { authorization: importer, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'validOnly', fileName, content: content.toString('base64') }),
      });
      const body = (await r.json()) as { status: number; message: string; data: { imported: number } };
      if (body.status !== 200 || body.data.imported !== rows) throw new Error(`import of ${fileName}: ${body.status} ${body.message}`);
    };
    // Warm: the reader worker, the page query's plan, the import's statements.
    await post(await csvFile('WARM', 20), 'warm.csv', 20);
    /** The readers, each one page request after another, until `until` settles. */
    const readWhile = async (until: Promise<unknown>) => {
      let done = false;
      void until.finally(() => {
        done = true;
      });
      const reads = await Promise.all(
        Array.from({ length: READERS }, async () => {
          const times: number[] = [];
          while (!done) times.push(await page());
          return times;
        }),
      );
      return reads.flat();
    };
    // The same readers for 5 s without an import: what the machine gives them anyway.
    const idle = await readWhile(new Promise((resolve) => setTimeout(resolve, 5000)));
    const out: string[] = [];
    for (const [kind, make] of [['csv', csvFile], ['xlsx', xlsxFile]] as const) {
      const file = await make(`B-${kind.toUpperCase()}-${engine}`);
      const started = performance.now();
      const importing = post(file, `bench.${kind}`);
      const all = await readWhile(importing);
      await importing;
      const seconds = (performance.now() - started) / 1000;
      out.push(
        [
          engine.padEnd(9),
          kind.padEnd(5),
          seconds.toFixed(1).padStart(8),
          (ROWS / seconds).toFixed(0).padStart(7),
          String(all.length).padStart(7),
          percentile(all, 50).toFixed(0).padStart(7),
          percentile(all, 99).toFixed(0).padStart(7),
          Math.max(...all).toFixed(0).padStart(7),
          `   (${percentile(idle, 50).toFixed(0)} / ${percentile(idle, 99).toFixed(0)})`,
        ].join(' '),
      );
      console.log(`[${engine}] ${out.at(-1)}`);
    }
    return out;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    if (engine === 'pglite') rmSync(where, { recursive: true, force: true });
  }
}

/** The child: a migrated and seeded database, the server on a free loopback port. */
async function serve(engine: 'pglite' | 'postgres', where: string): Promise<void> {
  const { migrate } = await import('../../server/db/migrate.ts');
  const { seedIfEmpty } = await import('../../server/seed/seed.ts');
  const { buildApp } = await import('../../server/app.ts');
  const { loadConfig } = await import('../../server/config.ts');
  let db: Database;
  let dropSchema = async () => {};
  if (engine === 'pglite') {
    const { openPglite } = await import('../../server/db/pglite.ts');
    db = await openPglite(where);
  } else {
    const { openPostgres } = await import('../../server/db/postgres.ts');
    const admin = await openPostgres({ connectionString: PG_URL, max: 1 });
    await admin.exec(`CREATE SCHEMA ${where}`);
    db = await openPostgres({ connectionString: PG_URL, searchPath: where, max: 10 });
    dropSchema = async () => {
      await admin.exec(`DROP SCHEMA IF EXISTS ${where} CASCADE`);
      await admin.close();
    };
  }
  await migrate(db);
  await seedIfEmpty(db);
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-data-'));
  const app = await buildApp({ db, config: { ...loadConfig({ DATA_DIR: dir, DEVICE_SIMULATOR: 'off' }), distDir: join(dir, 'no-dist') } });
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.on('SIGTERM', async () => {
    await app.close();
    await db.close();
    await dropSchema();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  process.send!({ port });
}

if (process.argv[2] === '--serve') await serve(process.argv[3] as 'pglite' | 'postgres', process.argv[4]);
