/**
 * Prints how PostgreSQL runs the resource engine's page query: EXPLAIN (ANALYZE, BUFFERS)
 * of the exact SQL the engine sends (server/resources/page-query.ts, page-count.ts) over
 * the benchmark's records (100,000 farmMaterials of one farm, tools/bench/resource-page.ts),
 * as that farm's user.
 *
 *   npx tsx tools/resource-plan.ts                                   # PGlite in memory
 *   npx tsx tools/resource-plan.ts --postgres [url]                  # a schema of its own, dropped after
 *   PLAN_ROWS=20000 npx tsx tools/resource-plan.ts -- 'category=seed&sort=name&pageIndex=3'
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { loadSessionUser } from '../server/auth/session-user.ts';
import { ensureIndexes } from '../server/resources/indexes.ts';
import { readResourceDocuments } from '../server/resources/load.ts';
import { pageQuery, pageRowsSql } from '../server/resources/page-query.ts';
import { pageTotal } from '../server/resources/page-count.ts';
import { rowSelect } from '../server/resources/sql.ts';
import { ResourceStore } from '../server/resources/store.ts';
import { CATEGORIES, seedBenchRecords } from './bench/resource-page.ts';

const args = process.argv.slice(2).filter((a) => a !== '--');
const pgIndex = args.indexOf('--postgres');
const pgUrl = pgIndex >= 0 ? (args[pgIndex + 1]?.startsWith('postgres') ? args[pgIndex + 1] : 'postgres://postgres@127.0.0.1:5432/test') : null;
const queryString = args.find((a) => a.includes('=') && !a.startsWith('postgres')) ?? 'category=fertilizer&sort=-unitPrice&pageIndex=10&pageSize=20';
const ROWS = Number(process.env.PLAN_ROWS ?? 100_000);

let db: Database;
let drop = async () => {};
if (pgUrl) {
  const { openPostgres } = await import('../server/db/postgres.ts');
  const schema = `plan_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres({ connectionString: pgUrl, max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  db = await openPostgres({ connectionString: pgUrl, searchPath: schema, max: 2 });
  drop = async () => {
    await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  };
} else {
  const { openPglite } = await import('../server/db/pglite.ts');
  db = await openPglite();
}

try {
  await migrate(db);
  const { userId } = await seedBenchRecords(db, ROWS);
  const docs = await readResourceDocuments();
  await ensureIndexes(db, docs);
  const doc = docs.find((d) => d.name === 'farmMaterials')!;
  const user = (await loadSessionUser(db, { id: userId }))!;

  // The query string as the route's schema leaves it: numbers as numbers, `in` filters as lists.
  const query: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(queryString)) {
    const filter = doc.searchable.find((s) => s.field === key);
    if (filter?.filter === 'in') query[key] = [...((query[key] as unknown[]) ?? []), value];
    else query[key] = /^\d+(\.\d+)?$/.test(value) && key !== 'name' ? Number(value) : value;
  }
  const q = pageQuery(doc, user, query);
  const rows = pageRowsSql(q, rowSelect(doc, new Map(docs.map((d) => [d.name, d]))));
  console.log(`${db.engine}, ${ROWS.toLocaleString('en')} farmMaterials records of one farm, as its user: ?${queryString}\n`);
  await explain('rows of the page', rows.sql, rows.params);
  const { total, exact } = await pageTotal(db, q, (await db.query(rows.sql, rows.params)).rows.length);
  console.log(`total: ${total}${exact ? ' (exact)' : " (the planner's estimate, totalExact: false)"}\n`);
  await explain('the planner estimate of the total (planning only)', `SELECT 1 FROM resource_records r WHERE ${q.where}`, q.params, false);
  await explain('an exact count capped at 1,001 (what runs when the estimate is at most 1,000)', `SELECT count(*)::int AS n FROM (SELECT 1 FROM resource_records r WHERE ${q.where} LIMIT 1001) m`, q.params);

  // One client, one request at a time: what a page costs the database with no queueing.
  const store = new ResourceStore(doc, new Map(docs.map((d) => [d.name, d])));
  const times: number[] = [];
  for (let n = 0; n < 300; n++) {
    const started = performance.now();
    await store.page(db, user, { category: [CATEGORIES[n % CATEGORIES.length]], sort: '-unitPrice', pageIndex: 1 + (Math.floor(n / CATEGORIES.length) % 10), pageSize: 20 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
  console.log(`store.page() run 300 times one after another (the benchmark's queries, no HTTP, no token check): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
} finally {
  await db.close();
  await drop();
}

async function explain(title: string, sql: string, params: unknown[], analyze = true): Promise<void> {
  // Run once first: the figures of interest are those of a warm cache, as under load.
  if (analyze) await db.query(sql, params);
  const { rows } = await db.query<Record<string, string>>(`EXPLAIN (${analyze ? 'ANALYZE, BUFFERS' : 'COSTS'}) ${sql}`, params);
  console.log(`-- ${title}\n${sql.replace(/\s+/g, ' ')}\n${rows.map((r) => Object.values(r)[0]).join('\n')}\n`);
}
