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
 */
export function indexStatements(doc: ResourceDocument): string[] {
  const fields = new Set<string>([
    ...doc.searchable.map((s) => s.field),
    ...doc.sortable,
    ...Object.keys(doc.references ?? {}),
  ]);
  const out: string[] = [];
  for (const field of fields) {
    const expr = fieldExpr(doc, field, '');
    const where = `WHERE resource = ${ident(doc.name)}`;
    out.push(`CREATE INDEX IF NOT EXISTS ${indexName(doc, field, 'a')} ON resource_records ((${expr}), id) ${where}`);
    if (doc.scope === 'farm') out.push(`CREATE INDEX IF NOT EXISTS ${indexName(doc, field, 'f')} ON resource_records (farm_id, (${expr}), id) ${where}`);
    if (doc.scope === 'group') out.push(`CREATE INDEX IF NOT EXISTS ${indexName(doc, field, 'g')} ON resource_records (bloc_id, (${expr}), id) ${where}`);
  }
  return out;
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
  const fields = new Set<string>(
    [...doc.searchable.map((s) => s.field), ...doc.sortable].filter((f) => doc.record.properties[f]?.type === 'string'),
  );
  return [...fields].map((field) => {
    const expr = fieldExpr(doc, field, '');
    const name = `rr_st_${field.slice(0, 30)}_${createHash('sha1').update(expr).digest('hex').slice(0, 8)}`.toLowerCase();
    return { name, sql: `CREATE STATISTICS IF NOT EXISTS ${name} ON (${expr}) FROM resource_records` };
  });
}

/** Readable and short enough for PostgreSQL's 63 characters; the hash keeps it unique and tied to the expression. */
function indexName(doc: ResourceDocument, field: string, kind: string): string {
  const hash = createHash('sha1').update(`${doc.name}\0${field}\0${kind}\0${fieldExpr(doc, field, '')}`).digest('hex').slice(0, 8);
  return `rr_${doc.name.slice(0, 24)}_${field.slice(0, 20)}_${kind}_${hash}`.toLowerCase();
}

/**
 * Creates the missing indexes and statistics, then refreshes the table's statistics
 * (a sample, so quick even for millions of rows): embedded PGlite has no autovacuum to
 * do it. Several servers starting together take turns.
 */
export async function ensureIndexes(db: Database, docs: ResourceDocument[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(74203)');
    for (const doc of docs) for (const sql of indexStatements(doc)) await tx.query(sql);
    const seen = new Set<string>();
    for (const doc of docs) {
      for (const { name, sql } of statisticsStatements(doc)) {
        if (seen.has(name)) continue;
        seen.add(name);
        await tx.query(sql);
      }
    }
  });
  await db.query('ANALYZE resource_records');
}
