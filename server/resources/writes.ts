import type { Queryable } from '../db/database.ts';
import { isSelfOwned, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { ident, rowsOf, sqlName, tableOf } from './sql.ts';

/**
 * The statements that store a record, for either kind of storage (docs/resources.md,
 * "Table-backed storage"): the JSON table keeps the record in `data`; a table of its own
 * keeps each property in its column, its fixed values on every row and the owner in the
 * owner columns. The callers (store.ts) hold the row lock, check the version and log.
 */

/** A property's value as a column parameter: arrays and objects go to json/jsonb columns as text. */
function columnValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

/** The columns (and values) a record writes: every mapped property not fixed; NULL for one left out. */
function columnValues(doc: ResourceDocument, data: Record<string, unknown>): [string, unknown][] {
  const storage = doc.storage!;
  const fixed = storage.fixed ?? {};
  return Object.entries(storage.columns)
    .filter(([, column]) => !(column in fixed))
    .map(([field, column]) => [column, data[field] === undefined ? null : columnValue(data[field])]);
}

/** A property mapped to a fixed column holds the fixed value, whatever was sent (the schema allows only it). */
export function settleFixedFields(doc: ResourceDocument, data: Record<string, unknown>): void {
  const fixed = doc.storage?.fixed;
  if (!fixed) return;
  for (const [field, column] of Object.entries(doc.storage!.columns)) if (column in fixed) data[field] = fixed[column];
}

export async function insertRecord(
  tx: Queryable,
  doc: ResourceDocument,
  owner: { farmId: number | null; blocId: number | null },
  data: Record<string, unknown>,
  userId: number,
): Promise<number> {
  if (!doc.storage) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by)
       VALUES (${ident(doc.name)}, $1, $2, $3, $4, $4) RETURNING id`,
      [owner.farmId, owner.blocId, JSON.stringify(data), userId],
    );
    return Number(rows[0].id);
  }
  const storage = doc.storage;
  // A property left out takes the column's default (a status that starts enabled, say).
  const pairs = columnValues(doc, data).filter(([, value]) => value !== null);
  pairs.push(...Object.entries(storage.fixed ?? {}));
  if (storage.owner?.farmId && !isSelfOwned(doc)) pairs.push([storage.owner.farmId, owner.farmId]);
  if (storage.owner?.blocId) pairs.push([storage.owner.blocId, owner.blocId]);
  pairs.push(['created_by', userId], ['updated_by', userId]);
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO ${tableOf(doc)} (${pairs.map(([c]) => sqlName(c)).join(', ')})
     VALUES (${pairs.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    pairs.map(([, v]) => v),
  );
  return Number(rows[0].id);
}

/**
 * Replaces the stored record when its version is still `version`; false when it is not (a
 * lost race). A table of its own gets only the columns whose value changes from `stored`
 * (the record as read under the row lock): a column that other writers keep, or that the
 * database generates (registration_requests' fields, generated from the submission), is
 * only ever read, and an untouched column is not rewritten.
 */
export async function updateRecord(
  tx: Queryable,
  doc: ResourceDocument,
  id: number,
  version: number,
  data: Record<string, unknown>,
  userId: number,
  stored?: Record<string, unknown>,
): Promise<boolean> {
  const same = (field: string) => stored !== undefined && JSON.stringify(stored[field] ?? null) === JSON.stringify(data[field] ?? null);
  const columnOf = new Map(Object.entries(doc.storage?.columns ?? {}).map(([field, column]) => [column, field]));
  const pairs: [string, unknown][] = doc.storage
    ? columnValues(doc, data).filter(([column]) => !same(columnOf.get(column)!))
    : [['data', JSON.stringify(data)]];
  const values = [...pairs.map(([, v]) => v), userId, id, version];
  const n = pairs.length;
  const res = await tx.query(
    `UPDATE ${tableOf(doc)} r SET ${pairs.map(([c], i) => `${sqlName(c)} = $${i + 1}, `).join('')}
            version = r.version + 1, updated_by = $${n + 1}, updated_at = now()
      WHERE r.id = $${n + 2} AND ${rowsOf(doc)} AND r.version = $${n + 3}`,
    values,
  );
  return res.rowCount === 1;
}

export async function deleteRecords(tx: Queryable, doc: ResourceDocument, ids: number[]): Promise<void> {
  await tx.query(`DELETE FROM ${tableOf(doc)} r WHERE ${rowsOf(doc)} AND r.id = ANY($1::bigint[])`, [ids]);
}
