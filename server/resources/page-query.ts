import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { business } from '../http/envelope.ts';
import type { Lang } from '../i18n/lang.ts';
import { t } from '../i18n/catalog.ts';
import { DEFAULT_PAGE_SIZE } from '../../runtime/protocol/page.ts';
import { parseSort, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { msg } from './messages.ts';
import { fieldExpr, likePattern, orderBy, ownerJoin, paramCast, rowsOf, scopeCondition, tableOf } from './sql.ts';

/** A page request of one resource turned into SQL pieces: the conditions, the order, the window. */
export interface PageQuery {
  /** The resource's table (resource_records, or its own: sql.ts tableOf), aliased `r` by the queries. */
  from: string;
  /** The join of a row's owner farm (sql.ts ownerJoin). */
  join: string;
  /** `<this resource's rows> AND <scope> AND <filters>`, over `<from> r`. */
  where: string;
  /** Bind parameters of `where`, `$1`… in order. */
  params: unknown[];
  /** ORDER BY list; its last key is always `r.id`, so equal sort values keep one order across pages. */
  order: string;
  pageIndex: number;
  pageSize: number;
  offset: number;
}

/** Reads the query string of `GET <basePath>/page` (already validated by the route schema). */
export function pageQuery(doc: ResourceDocument, user: SessionUser, query: Record<string, unknown>): PageQuery {
  const pageIndex = (query.pageIndex as number | undefined) ?? 1;
  const pageSize = (query.pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE;
  const sort = parseSort((query.sort as string | undefined) ?? doc.defaultSort, doc);
  if ('error' in sort) throw business(msg['resource.badSort'], { detail: sort.error }, [{ field: 'sort', message: sort.error }]);

  const p = new Params();
  // A page is a read: a regional center sees its region's records too (auth/region-scope.ts).
  const where = [rowsOf(doc), scopeCondition(doc, user, p, 'r', 'read')];
  for (const s of doc.searchable) {
    if (s.filter === 'keyword') {
      const value = query[s.field];
      if (value === undefined) continue;
      const pattern = p.add(likePattern(String(value)));
      where.push(`(${(s.fields ?? []).map((f) => `${fieldExpr(doc, f)} ILIKE ${pattern}`).join(' OR ')})`);
      continue;
    }
    const expr = fieldExpr(doc, s.field);
    const cast = paramCast(doc, s.field);
    if (s.filter === 'range') {
      const from = query[`${s.field}From`];
      const to = query[`${s.field}To`];
      if (from !== undefined && to !== undefined && (from as number | string) > (to as number | string)) {
        throw business(msg['resource.rangeReversed'], {}, (lang: Lang) => [{ field: `${s.field}From`, message: t(lang, msg['resource.rangeReversed']) }]);
      }
      if (from !== undefined) where.push(`${expr} >= ${p.add(from)}::${cast}`);
      if (to !== undefined) where.push(`${expr} <= ${p.add(to)}::${cast}`);
      continue;
    }
    const value = query[s.field];
    if (value === undefined) continue;
    if (s.filter === 'eq') where.push(`${expr} = ${p.add(value)}::${cast}`);
    else if (s.filter === 'like') where.push(`${expr} ILIKE ${p.add(likePattern(String(value)))}`);
    else {
      // One value (what a select box sends) is an equality, which the planner estimates
      // from the expression statistics and matches to a (filter, sort) index; `= ANY`
      // of several values cannot keep the index's order.
      const values = value as unknown[];
      if (values.length === 1) where.push(`${expr} = ${p.add(values[0])}::${cast}`);
      else where.push(`${expr} = ANY(${p.add(values)}::${cast}[])`);
    }
  }
  return { from: tableOf(doc), join: ownerJoin(doc), where: where.join(' AND '), params: p.values, order: orderBy(doc, sort), pageIndex, pageSize, offset: (pageIndex - 1) * pageSize };
}

/**
 * The rows of the page: its ids first, by the index that matches filter and sort, then
 * only those rows joined to their owner and labels — PostgreSQL computes the SELECT list
 * for every row an OFFSET skips, not just the ones returned.
 */
export function pageRowsSql(q: PageQuery, select: string): { sql: string; params: unknown[] } {
  const params = [...q.params, q.pageSize, q.offset];
  const sql = `SELECT ${select}
      FROM (SELECT r.id FROM ${q.from} r WHERE ${q.where}
             ORDER BY ${q.order} LIMIT $${params.length - 1} OFFSET $${params.length}) page
      JOIN ${q.from} r ON r.id = page.id ${q.join}
      ORDER BY ${q.order}`;
  return { sql, params };
}
