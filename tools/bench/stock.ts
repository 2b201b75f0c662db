/**
 * The stock ledger (server/materials, docs/materials.md) under load: stock-outs of one
 * material by 20 concurrent writers (each draw takes the balance row's lock, checks it never
 * goes below zero and posts a movement with its line, in one transaction), and the running-
 * balance ledger of one material in one store with 100,000 movements (first, middle and last
 * page). The real app on the seeded demo database, `farm` logged in, timed around app.inject
 * (the whole Fastify pipeline: auth, validation, the ledger's SQL; no socket).
 *
 *   npm run bench -- stock
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- stock
 *   BENCH_DRAWS=1000 BENCH_WRITERS=20 BENCH_MOVEMENTS=100000 npm run bench -- stock
 *
 * PostgreSQL runs when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, in a schema of its own
 * dropped at the end (tests/support/engines.ts).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { engines } from '../../tests/support/engines.ts';

const WRITERS = Number(process.env.BENCH_WRITERS ?? 20);
const DRAWS = Number(process.env.BENCH_DRAWS ?? 600);
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 100_000);
const PAGE_RUNS = 20;
const M = '/api/farmMaterials';

type Body = Record<string, unknown>;

export async function run(): Promise<void> {
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const loadAtStart = load();
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const lines: string[] = [];
  for (const engine of engines()) lines.push(...(await measure(engine.name, () => createTestApp(engine))));
  if (!process.env.TEST_DATABASE_URL) lines.push('postgres  not run (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  console.log(`\nstock ledger: ${DRAWS} stock-outs of one material by ${WRITERS} concurrent writers; the ledger page of one material with ${MOVEMENTS.toLocaleString('en')} movements`);
  console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${load()} at the end (2 cores, shared)`);
  console.log('engine    what                                   n     p50 ms  p99 ms  other');
  for (const line of lines) console.log(line);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(engine: string, open: () => Promise<TestApp>): Promise<string[]> {
  const t = await open();
  const out: string[] = [];
  try {
    const token = `Bearer ${await t.login('farm')}`;
    const call = async (method: 'GET' | 'POST', url: string, payload?: Body) => {
      const res = await t.app.inject({ method, url, payload, headers: { authorization: token } });
      const body = res.json() as { status: number; data: Body & { rows?: Body[]; total?: number } };
      if (body.status !== 200) throw new Error(`${method} ${url}: ${res.body.slice(0, 300)}`);
      return body.data;
    };
    const store = ((await call('GET', `${M}/stores/page?pageSize=1&sort=id`)).rows ?? [])[0];
    const material = await call('POST', `${M}/list`, { goodsCode: `BENCH-${Date.now()}`, name: '基准尿素', category: 'fertilizer', unit: '袋', unitPrice: 120 });
    await call('POST', `${M}/movements/stockIn`, { storeId: store.id, movedOn: '2026-03-01', lines: [{ materialId: material.id, batch: 'B1', quantity: DRAWS + 10, unitPrice: 120 }] });

    // 20 writers, each drawing one bag at a time until DRAWS are drawn.
    const latencies: number[] = [];
    let next = 0;
    const writer = async () => {
      while (next < DRAWS) {
        next++;
        const s = performance.now();
        await call('POST', `${M}/movements/stockOut`, { storeId: store.id, movedOn: '2026-03-02', lines: [{ materialId: material.id, batch: 'B1', quantity: 1 }] });
        latencies.push(performance.now() - s);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, writer));
    const wall = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const left = await t.db.query<{ q: string }>('SELECT sum(quantity)::text AS q FROM material_balances WHERE store_id = $1 AND material_id = $2', [store.id, material.id]);
    if (Number(left.rows[0].q) !== 10) throw new Error(`balance ${left.rows[0].q} after ${DRAWS} draws of ${DRAWS + 10}`);
    out.push(
      `${engine.padEnd(9)} stock-out, ${String(WRITERS).padStart(2)} writers on one material   ${String(latencies.length).padStart(5)}  ${pct(latencies, 50).toFixed(1).padStart(6)}  ${pct(latencies, 99).toFixed(1).padStart(6)}  ${(latencies.length / wall).toFixed(0)} draws/s, balance exact (10 left)`,
    );

    // 100,000 movements of another material in one store, written by SQL (the ledger's own
    // tables, as the ledger writes them), then its running-balance ledger page by page.
    const heavy = await call('POST', `${M}/list`, { goodsCode: `BENCH-L-${Date.now()}`, name: '基准复合肥', category: 'fertilizer', unit: '袋', unitPrice: 150 });
    const farm = (await t.db.query<{ farm_id: number }>('SELECT farm_id FROM resource_records WHERE id = $1', [heavy.id])).rows[0].farm_id;
    const s0 = performance.now();
    await t.db.query(
      `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, purpose, created_at)
       SELECT $1, CASE WHEN g % 2 = 1 THEN 'in' ELSE 'out' END, $2, date '2020-01-01' + (g / 60), 'bench', timestamp '2020-01-01' + g * interval '1 minute'
         FROM generate_series(1, $3::int) g`,
      [farm, store.id, MOVEMENTS],
    );
    await t.db.query(
      `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount)
       SELECT m.id, 1, $1, 'L1', CASE WHEN m.direction = 'in' THEN 3 ELSE 2 END, 150, CASE WHEN m.direction = 'in' THEN 450 ELSE 300 END
         FROM material_movements m WHERE m.purpose = 'bench' AND m.store_id = $2`,
      [heavy.id, store.id],
    );
    await t.db.query(
      `INSERT INTO material_balances(farm_id, store_id, material_id, batch, quantity, value)
       SELECT $1, $2, $3, 'L1', sum(CASE WHEN m.direction = 'in' THEN l.quantity ELSE -l.quantity END), sum(CASE WHEN m.direction = 'in' THEN l.amount ELSE -l.amount END)
         FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id WHERE l.material_id = $3`,
      [farm, store.id, heavy.id],
    );
    const filled = ((performance.now() - s0) / 1000).toFixed(1);
    const pages = Math.ceil(MOVEMENTS / 20);
    for (const [label, pageIndex] of [['first', 1], ['middle', Math.ceil(pages / 2)], ['last', pages]] as const) {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < PAGE_RUNS + 2; i++) {
        const s = performance.now();
        const page = await call('GET', `${M}/ledger/page?storeId=${store.id}&materialId=${heavy.id}&pageSize=20&pageIndex=${pageIndex}`);
        if (i >= 2) times.push(performance.now() - s);
        total = Number(page.total ?? 0);
      }
      if (total !== MOVEMENTS) throw new Error(`the ledger counts ${total} movements, not ${MOVEMENTS}`);
      times.sort((a, b) => a - b);
      out.push(
        `${engine.padEnd(9)} ledger page ${label.padEnd(6)} (${String(pageIndex).padStart(4)} of ${pages}), 20 rows ${String(times.length).padStart(5)}  ${pct(times, 50).toFixed(1).padStart(6)}  ${pct(times, 99).toFixed(1).padStart(6)}  ${label === 'first' ? `${MOVEMENTS.toLocaleString('en')} movements written in ${filled} s` : ''}`,
      );
    }
  } finally {
    await t.close();
  }
  return out;
}
