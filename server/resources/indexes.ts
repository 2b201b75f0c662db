import { createHash } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { fieldExpr, ident } from './sql.ts';

/**
 * The expression indexes that each document's searchable, sortable and reference
 * properties need, partial on the resource name, so that a page query of one resource
 * reads only that resource's index entries. Farm-scoped resources also get a
 * (farm_id, expression) index: a farm user's query is always narrowed to one farm.
 * `id` ends every index because it ends every ORDER BY (stable paging).
 *
 * Then one index per equality filter × sort key (`filterPairs`): (scope column,
 * filter, sort, id). A page query "category = x ORDER BY unitPrice DESC, id DESC" walks
 * it from one end and stops after the page, reading only matching entries; with the
 * single-field indexes alone it walks the sort index and throws away every entry of
 * another category, which costs (1 / share of the filter) × offset heap visits.
 */
export function indexStatements(doc: ResourceDocument): string[] {
  // A table of its own has the indexes its migration gives it.
  if (doc.storage) return [];
  const fields = new Set<string>([
    ...doc.searchable.flatMap((s) => (s.filter === 'keyword' ? [] : [s.field])),
    ...doc.sortable,
    ...Object.keys(doc.references ?? {}),
  ]);
  const where = `WHERE resource = ${ident(doc.name)}`;
  const out: string[] = [];
  for (const field of fields) {
    const expr = fieldExpr(doc, field, '');
    out.push(`CREATE INDEX IF NOT EXISTS ${indexName(doc, [field], 'a')} ON resource_records ((${expr}), id) ${where}`);
    if (doc.scope === 'farm') out.push(`CREATE INDEX IF NOT EXISTS ${indexName(doc, [field], 'f')} ON resource_records (farm_id, (${expr}), id) ${where}`);
    if (doc.scope === 'group') out.push(`CREATE INDEX IF NOT EXISTS ${indexName(doc, [field], 'g')} ON resource_records (bloc_id, (${expr}), id) ${where}`);
  }
  const scopeColumn = doc.scope === 'farm' ? 'farm_id, ' : doc.scope === 'group' ? 'bloc_id, ' : '';
  for (const { filter, sort } of filterPairs(doc)) {
    const cols = `${scopeColumn}(${fieldExpr(doc, filter, '')}), (${fieldExpr(doc, sort, '')}), id`;
    out.push(`CREATE INDEX IF NOT EXISTS ${indexName(doc, [filter, sort], 'p')} ON resource_records (${cols}) ${where}`);
  }
  return out;
}

/**
 * The (filter, sort) pairs that get an index of their own: every `eq` or `in` filter
 * (an `in` with one value is sent as an equality, see store.ts) with every declared
 * sortable field and the first key of the default sort (`updatedAt` for many documents).
 * `like` filters (contains) and `range` filters cannot lead such an index usefully:
 * those pages walk the sort index and test the filter on each entry.
 */
export function filterPairs(doc: ResourceDocument): { filter: string; sort: string }[] {
  const defaultFirst = doc.defaultSort.split(',')[0].replace(/^-/, '');
  const sorts = [...new Set([...doc.sortable, defaultFirst])].filter((f) => f !== 'id');
  const pairs: { filter: string; sort: string }[] = [];
  for (const s of doc.searchable) {
    if (s.filter !== 'eq' && s.filter !== 'in') continue;
    for (const sort of sorts) if (sort !== s.field) pairs.push({ filter: s.field, sort });
  }
  return pairs;
}

/**
 * Statistics of each declared expression over the whole table. The planner does not
 * use the statistics of partial expression indexes for row estimates; without these it
 * guesses 0.5% for every filter and picks poor plans (a sort of every match instead of
 * walking the sort index) once a resource grows.
 */
export function statisticsStatements(doc: ResourceDocument): { name: string; sql: string }[] {
  // Statistics cannot be partial: they are computed over every resource's rows, so only
  // text expressions qualify — a numeric cast would fail on another resource's "draft".
  if (doc.storage) return [];
  const fields = new Set<string>(
    [...doc.searchable.map((s) => s.field), ...doc.sortable].filter((f) => doc.record.properties[f]?.type === 'string'),
  );
  return [...fields].flatMap((field) => {
    const expr = fieldExpr(doc, field, '');
    const name = `rr_st_${field.slice(0, 30)}_${createHash('sha1').update(expr).digest('hex').slice(0, 8)}`.toLowerCase();
    // Values together with the resource name: a value such as category 'seed' belongs to
    // one or two resources only, and the planner's estimate of a page's total (see
    // page-count.ts) would otherwise multiply the two selectivities as if independent.
    const pairName = `rr_sr_${field.slice(0, 30)}_${createHash('sha1').update(expr).digest('hex').slice(0, 8)}`.toLowerCase();
    return [
      { name, sql: `CREATE STATISTICS IF NOT EXISTS ${name} ON (${expr}) FROM resource_records` },
      { name: pairName, sql: `CREATE STATISTICS IF NOT EXISTS ${pairName} (mcv) ON resource, (${expr}) FROM resource_records` },
    ];
  });
}

/** Readable and short enough for PostgreSQL's 63 characters; the hash keeps it unique and tied to the expression. */
function indexName(doc: ResourceDocument, fields: string[], kind: string): string {
  const exprs = fields.map((f) => fieldExpr(doc, f, ''));
  const hash = createHash('sha1').update([doc.name, ...fields, kind, ...exprs].join('\0')).digest('hex').slice(0, 8);
  const names = fields.map((f) => f.slice(0, fields.length > 1 ? 12 : 20)).join('_');
  return `rr_${doc.name.slice(0, fields.length > 1 ? 20 : 24)}_${names}_${kind}_${hash}`.toLowerCase();
}

/**
 * Creates the missing indexes and statistics, then refreshes the table's statistics
 * (a sample, so quick even for millions of rows): embedded PGlite has no autovacuum to
 * do it. Several servers starting together take turns.
 */
export async function ensureIndexes(db: Database, docs: ResourceDocument[]): Promise<void> {
  const indexes = docs.flatMap((doc) => indexStatements(doc).map((sql) => ({ name: /IF NOT EXISTS (\S+)/.exec(sql)![1], sql })));
  const statistics = [...new Map(docs.flatMap(statisticsStatements).map((s) => [s.name, s])).values()];
  // What a previous start made is there already: only the missing ones are created (a
  // restart then costs one query, not some hundred statements).
  const { rows } = await db.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname = ANY($1::text[])
     UNION ALL SELECT stxname FROM pg_statistic_ext WHERE stxnamespace = current_schema()::regnamespace AND stxname = ANY($2::text[])`,
    [indexes.map((i) => i.name), statistics.map((s) => s.name)],
  );
  const before = new Set(rows.map((r) => r.name));
  if ([...indexes, ...statistics].some((x) => !before.has(x.name))) {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(74203)');
      for (const { sql } of [...indexes, ...statistics]) await tx.query(sql);
    });
  }
  await db.query('ANALYZE resource_records');
}
