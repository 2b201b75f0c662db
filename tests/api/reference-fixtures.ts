/**
 * The references the engine checks, as the generated tests walk them: every declared
 * reference of a document and every module reference (server/modules.ts hands the engine
 * `ResourceExtension.references`), with a record of a given farm to name.
 */
import type { Queryable } from '../../server/db/database.ts';
import { engineOptions } from '../../server/modules.ts';
import { documentTarget, type ReferenceTarget } from '../../server/resources/references.ts';
import { rowsOf, tableOf } from '../../server/resources/sql.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { readResourceDocuments } from '../../server/resources/load.ts';

const all = await readResourceDocuments();
const byName = new Map(all.map((d) => [d.name, d]));

/** Every reference field of `doc` whose target is a farm's record, with its target. */
export function references(doc: ResourceDocument): [string, ReferenceTarget][] {
  const declared = Object.entries(doc.references ?? {}).map(([field, ref]) => [field, documentTarget(byName.get(ref.resource)!)] as [string, ReferenceTarget]);
  const modules = (engineOptions.extensions ?? []).filter((e) => e.resource === doc.name).flatMap((e) => Object.entries(e.references ?? {}));
  return [...declared, ...modules];
}

export function farmReferences(doc: ResourceDocument): [string, ReferenceTarget][] {
  return references(doc).filter(([, target]) => target.scope === 'farm');
}

/** The id of some record of `target` that belongs to `farmId` (the demo seed gives each kind some). */
export async function recordOfFarm(db: Queryable, target: ReferenceTarget, farmId: number): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`SELECT t.id FROM ${target.table} t WHERE ${target.rows('t')} AND ${target.owner('t').farm} = $1 ORDER BY t.id LIMIT 1`, [farmId]);
  if (!rows[0]) throw new Error(`no ${target.name} record of farm ${farmId} in the seed`);
  return Number(rows[0].id);
}

/** How many records `doc` holds. */
export async function countOf(db: Queryable, doc: ResourceDocument): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${tableOf(doc)} r WHERE ${rowsOf(doc)}`);
  return rows[0].n;
}
