import type { Queryable } from '../db/database.ts';
import { TABLE_META_COLUMNS, type ResourceDocument } from '../../runtime/schema/resource.ts';

/**
 * Table-backed documents against the database they will be served from: the table exists
 * and has the engine's meta columns and every column the document names. A mismatch
 * stops the start with one message listing each problem, rather than failing on the first
 * request that touches the missing column.
 */
export async function checkResourceTables(db: Queryable, docs: readonly ResourceDocument[]): Promise<void> {
  const problems: string[] = [];
  for (const doc of docs) {
    const storage = doc.storage;
    if (!storage) continue;
    const { rows } = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
      [storage.table],
    );
    if (!rows.length) {
      problems.push(`resource "${doc.name}": storage.table "${storage.table}" is no table of the database`);
      continue;
    }
    const have = new Set(rows.map((r) => r.column_name));
    const need: [string, string][] = [
      ...TABLE_META_COLUMNS.map((c): [string, string] => [`the engine's meta column`, c]),
      ...Object.entries(storage.columns).map(([field, c]): [string, string] => [`storage.columns.${field}`, c]),
      ...Object.keys(storage.fixed ?? {}).map((c): [string, string] => [`storage.fixed`, c]),
      ...Object.entries(storage.owner ?? {}).map(([key, c]): [string, string] => [`storage.owner.${key}`, c]),
    ];
    for (const [where, column] of need) {
      if (!have.has(column)) problems.push(`resource "${doc.name}": ${where} names column "${column}", which table "${storage.table}" does not have (it has: ${[...have].sort().join(', ')})`);
    }
  }
  if (problems.length) throw new Error(`table-backed resource${problems.length > 1 ? 's do' : ' does'} not match the database:\n  ${problems.join('\n  ')}`);
}
