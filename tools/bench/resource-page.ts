/**
 * Page-query throughput of the resource engine: one resource (farmMaterials) holding
 * 100,000 records of one farm, queried by that farm's user with page size 20, one
 * filter (category) and one sort (-unitPrice), by autocannon on loopback for 10 s.
 * The server runs in a child process so that the load generator does not share its
 * event loop; PGlite keeps its data in a temporary folder as the default server does.
 *
 *   npm run bench -- resource-page
 *   BENCH_PG_URL=postgres://… BENCH_SECONDS=10 BENCH_CONNECTIONS=10 npm run bench -- resource-page
 *   BENCH_CPU_PROF=/tmp/prof npm run bench -- resource-page     # a .cpuprofile of each server
 *   BENCH_ENGINES=postgres npm run bench -- resource-page        # one engine only
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import type { Envelope, Page } from '../../runtime/protocol/index.ts';
import type { Database } from '../../server/db/database.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CATEGORIES = ['fertilizer', 'pesticide', 'seed', 'seedling', 'equipment', 'other'];
const BASE = '/api/farmMaterials/list/page';
/** Issue 10's targets for this query under 10 concurrent clients: p99 in milliseconds. */
const TARGET_P99: Record<'pglite' | 'postgres', number> = { pglite: 60, postgres: 20 };

interface Ready {
  port: number;
  token: string;
  loadSeconds: number;
  indexSeconds: number;
}

export async function run(): Promise<void> {
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const loadAtStart = load();
  const results: string[] = [];
  if (ENGINES.includes('pglite')) results.push(await measure('pglite'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  if (!ENGINES.includes('postgres')) results.push('postgres  not run (BENCH_ENGINES)');
  else if (await postgresReachable()) results.push(await measure('postgres', schema));
  else results.push(`postgres  skipped: no PostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, '//')}`);
  console.log(`\nresource page query, ${ROWS.toLocaleString('en')} records, page size 20, filter category, sort -unitPrice, ${CONNECTIONS} connections, ${SECONDS} s`);
  console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${load()} at the end (2 cores, shared)`);
  console.log('engine    req/s    p50 ms  p99 ms  requests  non-2xx  target p99   (bulk insert s, index build s)');
  for (const line of results) console.log(line);
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

async function measure(engine: 'pglite' | 'postgres', schema?: string): Promise<string> {
  const dataDir = engine === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-pglite-')) : undefined;
  const child = fork(fileURLToPath(import.meta.url), ['--serve', engine, schema ?? dataDir ?? ''], {
    // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the server per engine, to see where a request's time goes.
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`${engine} server exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${ready.port}`;
    // One check that the query does what is measured before measuring it.
    const probe = await fetch(`${url}${BASE}?pageIndex=1&pageSize=20&category=fertilizer&sort=-unitPrice`, { headers: { authorization: ready.token } });
    const body = (await probe.json()) as Envelope<Page<{ unitPrice: number }>>;
    // Past COUNT_CAP matches the total is the planner's estimate (`totalExact: false`); one category holds a sixth of the rows.
    if (body.status !== 200 || body.data.rows.length !== 20 || body.data.total < 20) throw new Error(`unexpected reply: ${JSON.stringify(body).slice(0, 300)}`);
    const total = `${body.data.total}${body.data.totalExact === false ? ' (the planner\'s estimate: totalExact false)' : ''} (true: about ${Math.round(ROWS / 6)})`;
    console.log(`[${engine}] ${ROWS} records loaded in ${ready.loadSeconds.toFixed(1)} s, indexes in ${ready.indexSeconds.toFixed(1)} s; sample total ${total}; running ${SECONDS} s…`);

    let n = 0;
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { authorization: ready.token },
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => {
            n += 1;
            const category = CATEGORIES[n % CATEGORIES.length];
            const pageIndex = 1 + (Math.floor(n / CATEGORIES.length) % 10);
            return { ...req, path: `${BASE}?pageIndex=${pageIndex}&pageSize=20&category=${category}&sort=-unitPrice` };
          },
        },
      ],
    });
    return [
      engine.padEnd(9),
      result.requests.average.toFixed(0).padStart(6),
      result.latency.p50.toFixed(1).padStart(9),
      result.latency.p99.toFixed(1).padStart(7),
      String(result.requests.total).padStart(9),
      String(result.non2xx + result.errors).padStart(8),
      `  ≤ ${TARGET_P99[engine]} ms ${result.latency.p99 <= TARGET_P99[engine] ? 'met' : 'NOT met'}`.padEnd(17),
      `  (${ready.loadSeconds.toFixed(1)}, ${ready.indexSeconds.toFixed(1)})`,
    ].join(' ');
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One farm, a role that reads farmMaterials, its user, and `rows` farmMaterials records of
 * that farm in six categories with random prices (also used by tools/resource-plan.ts).
 */
export async function seedBenchRecords(db: Database, rows: number): Promise<{ farmId: number; userId: number }> {
  const farm = (await db.query<{ id: number }>(`INSERT INTO organisations(name, type, city) VALUES ('基准农场', 0, '哈尔滨市') RETURNING id`)).rows[0].id;
  const role = (await db.query<{ id: number }>(
    `INSERT INTO roles(code, name, menus, elements) VALUES ('bench', '{"zh":"基准","en":"bench","es":"bench"}', '{farmMaterialsList}', '{}') RETURNING id`,
  )).rows[0].id;
  const user = (await db.query<{ id: number }>(`INSERT INTO users(username, name, password_hash, org_id) VALUES ('bench', 'bench', 'x', $1) RETURNING id`, [farm])).rows[0];
  await db.query('INSERT INTO user_roles(user_id, role_id) VALUES ($1, $2)', [user.id, role]);

  const chunk = 20_000;
  for (let start = 1; start <= rows; start += chunk) {
    await db.query(
      `INSERT INTO resource_records(resource, farm_id, data, created_by, updated_by)
       SELECT 'farmMaterials', $1, jsonb_build_object(
                'name', '农资 ' || g,
                'category', (ARRAY['fertilizer','pesticide','seed','seedling','equipment','other'])[1 + g % 6],
                'specification', (10 + g % 40) || ' 公斤/袋',
                'unit', '袋',
                'manufacturer', '厂家 ' || (g % 300),
                'unitPrice', round((random() * 2000)::numeric, 2),
                'stockQuantity', g % 1000,
                'safetyStock', 20,
                'shelfLifeMonths', 12 + g % 24,
                'remark', '批量生成的基准记录'),
              $2, $2
         FROM generate_series($3::int, $4::int) g`,
      [farm, user.id, start, Math.min(rows, start + chunk - 1)],
    );
  }
  return { farmId: farm, userId: user.id };
}

/** The child: a database with the records, the server on a free loopback port. */
async function serve(engine: 'pglite' | 'postgres', where: string): Promise<void> {
  const { migrate } = await import('../../server/db/migrate.ts');
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
  const t0 = Date.now();
  const { userId } = await seedBenchRecords(db, ROWS);
  const loadSeconds = (Date.now() - t0) / 1000;
  const t1 = Date.now();
  // What the engine does at start, done here first so that it is timed and complete.
  const { ensureIndexes } = await import('../../server/resources/indexes.ts');
  const { readResourceDocuments } = await import('../../server/resources/load.ts');
  await ensureIndexes(db, await readResourceDocuments());
  const app = await buildApp({ db, config: { ...loadConfig({ DATA_DIR: tmpdir() }), distDir: join(tmpdir(), 'no-dist') } });
  const indexSeconds = (Date.now() - t1) / 1000;
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const token = await app.tokens.issue({ id: userId, username: 'bench' });
  process.on('SIGTERM', async () => {
    await app.close();
    await db.close();
    await dropSchema();
    process.exit(0);
  });
  process.send!({ port, token, loadSeconds, indexSeconds } satisfies Ready);
}

if (process.argv[2] === '--serve') await serve(process.argv[3] as 'pglite' | 'postgres', process.argv[4]);
