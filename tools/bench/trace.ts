/**
 * Traceability at the size of five seasons (issue 25, docs/harvest-sales-trace.md): the real
 * app on the seeded demo database, to which the first demo farm's five earlier seasons are
 * added by SQL (200 planting groups, 2,400 stock-outs drawing 50 material lots, 600 harvest
 * batches, 3,600 sales); then, one request at a time, timed around app.inject (the whole
 * Fastify pipeline: auth, validation, SQL, JSON or file; no socket):
 *
 * - the lot report (one step back, one step forward) of a batch, as JSON and as the FSMA 204
 *   files (CSV, XLSX);
 * - the material-lot report of a lot (every group it was applied to, every batch and customer);
 * - the recall of a material lot (batches marked, customers listed, notices, one text each
 *   to the development SMS mailbox), each on a lot of its own.
 *
 *   npm run bench -- trace
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- trace
 *
 * PostgreSQL runs when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, in a schema of its own
 * dropped at the end (tests/support/engines.ts).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { engines } from '../../tests/support/engines.ts';

const SEASONS = [2019, 2020, 2021, 2022, 2023];
const GROUPS_PER_SEASON = 40;
const OUTS_PER_GROUP = 12;
const LOTS_PER_SEASON = 10;
const BATCHES_PER_GROUP = 3;
const SALES_PER_BATCH = 6;
const REPORTS = Number(process.env.BENCH_REPORTS ?? 60);
const FILES = Number(process.env.BENCH_FILES ?? 15);
const RECALLS = Number(process.env.BENCH_RECALLS ?? 20);
const WARMUP = 3;

type Body = Record<string, unknown>;

export async function run(): Promise<void> {
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const loadAtStart = load();
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const lines: string[] = [];
  for (const engine of engines()) lines.push(...(await measure(engine.name, () => createTestApp(engine))));
  if (!process.env.TEST_DATABASE_URL) lines.push('postgres  not run (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  console.log(`\ntraceability over ${SEASONS.length} generated seasons of one farm (+ the demo seed), one request at a time, app.inject (no socket)`);
  console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${load()} at the end (2 cores, shared)`);
  console.log('engine    what                                   n    p50 ms  p99 ms  rows (mean)');
  for (const line of lines) console.log(line);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function generate(t: TestApp): Promise<void> {
  const farm = (await t.db.query<{ id: number; bloc_id: number | null; user_id: number }>(
    `SELECT o.id, o.bloc_id, (SELECT u.id FROM users u WHERE u.username = 'farm') AS user_id FROM organisations o WHERE o.name = '禾丰生态农场'`,
  )).rows[0];
  const pick = async (resource: string, extra = '') =>
    (await t.db.query<{ id: string }>(`SELECT id FROM resource_records WHERE resource = $1 AND farm_id = $2 ${extra} ORDER BY id LIMIT 5`, [resource, farm.id])).rows.map((r) => Number(r.id));
  const materials = await pick('farmMaterials');
  const [store] = await pick('farmStores');
  const [supplier] = await pick('farmMaterialsSupplier');
  const [crop] = (await t.db.query<{ id: string }>(`SELECT (data->>'cropId') AS id FROM resource_records WHERE resource = 'plantGroups' AND farm_id = $1 AND data->>'cropId' IS NOT NULL LIMIT 1`, [farm.id])).rows.map((r) => Number(r.id));
  const [field] = await pick('farmFields');
  const args = [farm.id, farm.bloc_id, farm.user_id];
  await t.db.query(
    `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by)
     SELECT 'plantGroups', $1, $2, jsonb_build_object('name', '基准 ' || y || ' 组 ' || g, 'cropId', $4::bigint, 'fieldId', $5::bigint, 'areaMu', 10, 'status', 'closed',
                                                     'plantedOn', to_char(make_date(y, 4, 15) + (g % 20), 'YYYY-MM-DD'), 'bench', y || '-' || g), $3, $3
       FROM unnest($6::int[]) AS y, generate_series(1, ${GROUPS_PER_SEASON}) AS g`,
    [...args, crop, field, SEASONS],
  );
  // Each season's lots, bought in March.
  await t.db.query(
    `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, supplier_id, purpose, reference, created_by)
     SELECT $1, 'in', $3, make_date(y, 3, 1), $4, '基准采购', 'BI-' || y || '-' || l, $2 FROM unnest($5::int[]) AS y, generate_series(0, ${LOTS_PER_SEASON - 1}) AS l`,
    [farm.id, farm.user_id, store, supplier, SEASONS],
  );
  await t.db.query(
    `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount)
     SELECT m.id, 1, ($1::bigint[])[1 + (split_part(m.reference, '-', 3)::int % array_length($1::bigint[], 1))], 'Y' || split_part(m.reference, '-', 2) || '-L' || split_part(m.reference, '-', 3), 1000, 10, 10000
       FROM material_movements m WHERE m.reference LIKE 'BI-%'`,
    [materials],
  );
  // Twelve stock-outs per group, ten days apart from its planting, each of one lot of its season.
  await t.db.query(
    `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, purpose, group_id, reference, created_by)
     SELECT $1, 'out', $3, (g.data->>'plantedOn')::date + 10 * k, '基准用药', g.id, 'BO-' || split_part(g.data->>'bench', '-', 1) || '-' || ((split_part(g.data->>'bench', '-', 2)::int + k) % ${LOTS_PER_SEASON}), $2
       FROM resource_records g, generate_series(0, ${OUTS_PER_GROUP - 1}) AS k
      WHERE g.resource = 'plantGroups' AND g.farm_id = $1 AND g.data ? 'bench'`,
    [farm.id, farm.user_id, store],
  );
  await t.db.query(
    `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount)
     SELECT m.id, 1, ($1::bigint[])[1 + (split_part(m.reference, '-', 3)::int % array_length($1::bigint[], 1))], 'Y' || split_part(m.reference, '-', 2) || '-L' || split_part(m.reference, '-', 3), 2, 10, 20
       FROM material_movements m WHERE m.reference LIKE 'BO-%'`,
    [materials],
  );
  // Three batches per group (100, 106 and 112 days after planting), six buyers of each.
  await t.db.query(
    `INSERT INTO harvests(id, farm_id, batch_no, group_id, harvested_on, quantity, unit, grade, created_by, sold)
     SELECT n.id, $1, 'PC' || to_char(n.on_day, 'YYYYMMDD') || '-' || lpad(n.id::text, 6, '0'), n.group_id, n.on_day, 1000, '公斤', 'first', $2, ${SALES_PER_BATCH * 10}
       FROM (SELECT nextval(pg_get_serial_sequence('harvests', 'id')) AS id, g.id AS group_id, (g.data->>'plantedOn')::date + 100 + 6 * b AS on_day
               FROM resource_records g, generate_series(0, ${BATCHES_PER_GROUP - 1}) AS b WHERE g.resource = 'plantGroups' AND g.farm_id = $1 AND g.data ? 'bench') n`,
    [farm.id, farm.user_id],
  );
  await t.db.query(
    `INSERT INTO sales_orders(farm_id, customer, customer_phone, ordered_on, total, note, created_by)
     SELECT $1, '基准客户 ' || ((h.id * 7 + k) % 300), '139' || lpad(((h.id * 7 + k) % 300)::text, 8, '0'), h.harvested_on + k, 36, 'BENCH-' || h.id, $2
       FROM harvests h JOIN resource_records g ON g.id = h.group_id AND g.data ? 'bench', generate_series(1, ${SALES_PER_BATCH}) AS k WHERE h.farm_id = $1`,
    [farm.id, farm.user_id],
  );
  await t.db.query(
    `INSERT INTO sales_order_lines(order_id, line_no, harvest_id, quantity, unit_price, amount)
     SELECT o.id, 1, split_part(o.note, '-', 2)::bigint, 10, 3.6, 36 FROM sales_orders o WHERE o.note LIKE 'BENCH-%'`,
  );
  await t.db.query('ANALYZE');
}

/** The app, retried when its plugins do not start in Fastify's ten seconds (a shared machine under heavy load). */
async function openRetrying(open: () => Promise<TestApp>): Promise<TestApp> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await open();
    } catch (err) {
      if ((err as { code?: string }).code !== 'AVV_ERR_PLUGIN_EXEC_TIMEOUT' || attempt >= 4) throw err;
      console.log(`the app did not start in time (attempt ${attempt}); again`);
    }
  }
}

async function measure(engine: string, open: () => Promise<TestApp>): Promise<string[]> {
  const t = await openRetrying(open);
  try {
    const g0 = performance.now();
    await generate(t);
    const generated = performance.now() - g0;
    const token = `Bearer ${await t.login('farm')}`;
    const inject = async (method: 'GET' | 'POST', url: string, payload?: Body) => {
      const res = await t.app.inject({ method, url, payload, headers: { authorization: token } });
      if (res.headers['content-type']?.toString().includes('json')) {
        const body = res.json() as { status: number; data: Body & { rows?: Body[]; total?: number } };
        if (body.status !== 200) throw new Error(`${method} ${url}: ${res.body.slice(0, 300)}`);
        return { rows: Number(body.data.total ?? body.data.customers ?? 0) };
      }
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode}`);
      return { rows: res.rawPayload.length };
    };
    const time = async (what: string, urls: { method: 'GET' | 'POST'; url: string; body?: Body }[], warm = true) => {
      if (warm) for (const u of urls.slice(0, WARMUP)) await inject(u.method, u.url, u.body);
      const ms: number[] = [];
      let rows = 0;
      for (const u of urls) {
        const s = performance.now();
        rows += (await inject(u.method, u.url, u.body)).rows;
        ms.push(performance.now() - s);
      }
      ms.sort((a, b) => a - b);
      return `${engine.padEnd(10)}${what.padEnd(39)}${String(urls.length).padStart(3)}  ${pct(ms, 50).toFixed(1).padStart(7)} ${pct(ms, 99).toFixed(1).padStart(7)}  ${Math.round(rows / urls.length)}`;
    };
    const batches = (await t.db.query<{ id: string }>(
      `SELECT h.id FROM harvests h JOIN resource_records g ON g.id = h.group_id AND g.data ? 'bench' ORDER BY (h.id * 7919) % 1000, h.id LIMIT $1`,
      [REPORTS],
    )).rows.map((r) => Number(r.id));
    const lots = (await t.db.query<{ material_id: string; batch: string }>(
      `SELECT DISTINCT l.material_id, l.batch FROM material_movement_lines l JOIN material_movements m ON m.id = l.movement_id WHERE m.reference LIKE 'BI-%' ORDER BY l.batch`,
    )).rows;
    const demo = (await t.db.query<{ id: string }>(`SELECT min(id) AS id FROM harvests WHERE farm_id = (SELECT id FROM organisations WHERE name = '禾丰生态农场')`)).rows[0].id;
    const out = [
      `${engine.padEnd(10)}generated in ${(generated / 1000).toFixed(1)} s: ${SEASONS.length * GROUPS_PER_SEASON} groups, ${SEASONS.length * GROUPS_PER_SEASON * OUTS_PER_GROUP} stock-outs, ${lots.length} lots, ${batches.length ? SEASONS.length * GROUPS_PER_SEASON * BATCHES_PER_GROUP : 0} batches, ${SEASONS.length * GROUPS_PER_SEASON * BATCHES_PER_GROUP * SALES_PER_BATCH} sales`,
      await time('lot report, demo batch (JSON)', Array.from({ length: 20 }, () => ({ method: 'GET' as const, url: `/api/farmHarvest/harvests/${demo}/lotTrace` }))),
      await time('lot report (JSON)', batches.map((id) => ({ method: 'GET' as const, url: `/api/farmHarvest/harvests/${id}/lotTrace` }))),
      await time('lot report CSV (bytes)', batches.slice(0, FILES).map((id) => ({ method: 'GET' as const, url: `/api/farmHarvest/harvests/${id}/lotTrace/export?format=csv` }))),
      await time('lot report XLSX (bytes)', batches.slice(0, FILES).map((id) => ({ method: 'GET' as const, url: `/api/farmHarvest/harvests/${id}/lotTrace/export?format=xlsx` }))),
      await time('material-lot report (JSON)', lots.map((l) => ({ method: 'GET' as const, url: `/api/farmHarvest/materialLots/trace?materialId=${l.material_id}&lot=${l.batch}` }))),
      await time('material-lot report XLSX (bytes)', lots.slice(0, FILES).map((l) => ({ method: 'GET' as const, url: `/api/farmHarvest/materialLots/trace/export?materialId=${l.material_id}&lot=${l.batch}&format=xlsx` }))),
      // Each recall on a lot of its own (a lot is recalled once); no warm-up, as each call writes.
      await time(
        'material-lot recall (customers)',
        lots.slice(-RECALLS).map((l) => ({ method: 'POST' as const, url: '/api/farmHarvest/recalls', body: { kind: 'materialLot', materialId: Number(l.material_id), lot: l.batch, reason: '基准：供应商召回' } })),
        false,
      ),
    ];
    return out;
  } finally {
    await t.close();
  }
}
