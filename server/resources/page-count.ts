import type { Queryable } from '../db/database.ts';
import { COUNT_CAP } from './page.ts';
import type { PageQuery } from './page-query.ts';

export interface PageTotal {
  total: number;
  /** false: `total` is the planner's estimate (or a lower bound), see docs/resources.md "Counts". */
  exact: boolean;
}

/**
 * The total of a page reply at a bounded cost. Counting costs one heap visit per match
 * (an expression index never allows an index-only scan), so:
 *
 * - a page that is not full ends the result: the total is known without counting;
 * - a page past the end counts exactly (bounded by the offset the rows query walked anyway);
 * - a full page asks the planner how many rows match (EXPLAIN, no execution): above
 *   COUNT_CAP the estimate is the total, flagged inexact, never below the rows known to
 *   exist; at or below it the matches are counted exactly, up to the cap.
 */
export async function pageTotal(db: Queryable, q: PageQuery, rowsOnPage: number): Promise<PageTotal> {
  if (rowsOnPage > 0 && rowsOnPage < q.pageSize) return { total: q.offset + rowsOnPage, exact: true };
  if (rowsOnPage === 0) return { total: q.offset === 0 ? 0 : await countUpTo(db, q, q.offset), exact: true };
  const known = q.offset + rowsOnPage;
  const estimate = await plannerEstimate(db, q);
  if (estimate > COUNT_CAP) return { total: Math.max(estimate, known), exact: false };
  // Up to the cap, or to the end of the next page when that is further, so that the pager
  // can always go one page on; one more row than the limit tells "the limit" from "more".
  const limit = Math.max(COUNT_CAP, known + q.pageSize);
  const counted = await countUpTo(db, q, limit + 1);
  return counted > limit ? { total: limit, exact: false } : { total: counted, exact: true };
}

async function countUpTo(db: Queryable, q: PageQuery, limit: number): Promise<number> {
  const params = [...q.params, limit];
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${q.from} r WHERE ${q.where} LIMIT $${params.length}) m`,
    params,
  );
  return rows[0].n;
}

/**
 * The planner's row estimate for the page's conditions. Planning over a table with many
 * partial indexes costs a few milliseconds on PGlite, and the figure changes only when
 * the statistics do (ANALYZE), so it is kept for ESTIMATE_TTL_MS per database, SQL and values.
 */
export async function plannerEstimate(db: Queryable, q: PageQuery): Promise<number> {
  const key = `${q.from}\0${q.where}\0${JSON.stringify(q.params)}`;
  const cache = estimates.get(db) ?? new Map<string, { n: number; at: number }>();
  estimates.set(db, cache);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < ESTIMATE_TTL_MS) return hit.n;
  const { rows } = await db.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${q.from} r WHERE ${q.where}`, q.params);
  const raw = Object.values(rows[0])[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  const n = Math.round(plan[0].Plan['Plan Rows']);
  if (cache.size >= ESTIMATE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, { n, at: now });
  return n;
}

export const ESTIMATE_TTL_MS = 30_000;
const ESTIMATE_CACHE_SIZE = 1_000;
const estimates = new WeakMap<Queryable, Map<string, { n: number; at: number }>>();
