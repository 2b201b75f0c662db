import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { business } from '../http/envelope.ts';
import type { Lang } from '../i18n/lang.ts';
import { t } from '../i18n/catalog.ts';
import { DEFAULT_PAGE_SIZE } from '../../runtime/protocol/page.ts';
import { parseSort, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { msg } from './messages.ts';
import { fieldExpr, ident, likePattern, orderBy, paramCast, scopeCondition } from './sql.ts';

/** A page request of one resource turned into SQL pieces: the conditions, the order, the window. */
export interface PageQuery {
  /** `r.resource = '…' AND <scope> AND <filters>`, over `resource_records r`. */
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
  const where = [`r.resource = ${ident(doc.name)}`, scopeCondition(doc, user, p)];
  for (const s of doc.searchable) {
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
  return { where: where.join(' AND '), params: p.values, order: orderBy(doc, sort), pageIndex, pageSize, offset: (pageIndex - 1) * pageSize };
}

/**
 * The rows of the page: its ids first, by the index that matches filter and sort, then
 * only those rows joined to their owner and labels — PostgreSQL computes the SELECT list
 * for every row an OFFSET skips, not just the ones returned.
 */
export function pageRowsSql(q: PageQuery, select: string): { sql: string; params: unknown[] } {
  const params = [...q.params, q.pageSize, q.offset];
  const sql = `SELECT ${select}
      FROM (SELECT r.id FROM resource_records r WHERE ${q.where}
             ORDER BY ${q.order} LIMIT $${params.length - 1} OFFSET $${params.length}) page
      JOIN resource_records r ON r.id = page.id LEFT JOIN organisations o ON o.id = r.farm_id
      ORDER BY ${q.order}`;
  return { sql, params };
}
