import type { SessionUser } from '../auth/session-user.ts';
import { farmOwnerScope, type ScopeMode } from '../auth/region-scope.ts';
import type { Params } from '../db/params.ts';
import { scalarTypeOf, type ResourceDocument, type SortKey } from '../../runtime/schema/resource.ts';

/**
 * SQL for the resource engine. Every value that comes from a request is a bind
 * parameter. The only text spliced into SQL is a resource name or a property name of a
 * loaded document, which the meta-schema restricts to letters and digits (checked again
 * by `ident`) — and that is what lets the planner match the partial expression indexes.
 */

const IDENT = /^[A-Za-z][A-Za-z0-9]{0,62}$/;

/** A document identifier as an SQL string literal; anything else is a programming error. */
export function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`not an identifier: ${JSON.stringify(name)}`);
  return `'${name}'`;
}

const META_COLUMNS: Record<string, string> = { id: 'r.id', createdAt: 'r.created_at', updatedAt: 'r.updated_at' };

const SQL_NAME = /^[a-z][a-z0-9_]{0,62}$/;

/** A table or column name of a document's `storage`, quoted; anything else is a programming error. */
export function sqlName(name: string): string {
  if (!SQL_NAME.test(name)) throw new Error(`not an SQL name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** A fixed value of a document's `storage` as an SQL literal. */
function literal(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`not an integer: ${value}`);
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Where a resource's rows live: the engine's JSON table, or the table its document names
 * (docs/resources.md, "Table-backed storage"). Every query of the engine is written
 * against the alias `r` of this table and the helpers below, so both kinds run the same code.
 */
export function tableOf(doc: ResourceDocument): string {
  return doc.storage ? sqlName(doc.storage.table) : 'resource_records';
}

/** The condition that keeps this resource's rows of its table: its name, or its fixed values. */
export function rowsOf(doc: ResourceDocument, alias = 'r'): string {
  const prefix = alias ? `${alias}.` : '';
  if (!doc.storage) return `${prefix}resource = ${ident(doc.name)}`;
  const fixed = Object.entries(doc.storage.fixed ?? {}).map(([column, value]) => `${prefix}${sqlName(column)} = ${literal(value)}`);
  return fixed.length ? fixed.join(' AND ') : 'TRUE';
}

/** The owner farm's and group's columns (SQL, aliased), NULL where the resource has none. */
export function ownerExprs(doc: ResourceDocument, alias = 'r'): { farm: string; bloc: string } {
  if (!doc.storage) return { farm: `${alias}.farm_id`, bloc: `${alias}.bloc_id` };
  const owner = doc.storage.owner ?? {};
  return {
    farm: owner.farmId ? `${alias}.${sqlName(owner.farmId)}` : 'NULL::integer',
    bloc: owner.blocId ? `${alias}.${sqlName(owner.blocId)}` : 'NULL::integer',
  };
}

/** The record as one jsonb value: the JSON column, or the mapped columns (absent when NULL, like a JSON record's). */
export function dataExpr(doc: ResourceDocument, alias = 'r'): string {
  if (!doc.storage) return `${alias}.data`;
  const pairs = Object.entries(doc.storage.columns).map(([field, column]) => `${ident(field)}, ${alias}.${sqlName(column)}`);
  // jsonb_build_object takes at most 100 arguments: 40 pairs per call.
  const parts: string[] = [];
  for (let i = 0; i < pairs.length; i += 40) parts.push(`jsonb_build_object(${pairs.slice(i, i + 40).join(', ')})`);
  return `jsonb_strip_nulls(${parts.join(' || ')})`;
}

/** The names of a resource's entries in the operation log. */
export function auditNames(doc: ResourceDocument): { action: string; resource: string } {
  return { action: doc.storage?.audit?.action ?? doc.name, resource: doc.storage?.audit?.resource ?? doc.name };
}

/**
 * The SQL expression of a record property (or meta field) as filters and sorts use it.
 * Indexes are built on the same expressions (see indexes.ts), so they must stay in step.
 */
export function fieldExpr(doc: ResourceDocument, field: string, alias = 'r'): string {
  const prefix = alias ? `${alias}.` : '';
  const meta = META_COLUMNS[field];
  if (meta) return meta.replace('r.', prefix);
  const type = scalarTypeOf(doc.record.properties[field]);
  const column = doc.storage?.columns[field];
  if (column) {
    // A column compares with the parameter cast of paramCast; text keeps dates and times comparable as the JSON path does.
    if (type === 'string') return `(${prefix}${sqlName(column)})::text`;
    if (type === 'number' || type === 'boolean') return `${prefix}${sqlName(column)}`;
    throw new Error(`${doc.name}.${field} is not a scalar property`);
  }
  const text = `(${prefix}data->>${ident(field)})`;
  if (type === 'number') return `(${text}::numeric)`;
  if (type === 'boolean') return `(${text}::boolean)`;
  if (type === 'string') return text;
  throw new Error(`${doc.name}.${field} is not a scalar property`);
}

/** Cast for a parameter compared with fieldExpr, so both engines infer the same type. */
export function paramCast(doc: ResourceDocument, field: string): string {
  const type = scalarTypeOf(doc.record.properties[field]);
  return type === 'number' ? 'numeric' : type === 'boolean' ? 'boolean' : 'text';
}

/**
 * Which records of `doc` the caller may see ('read') or change ('write', the default, so
 * that no query widens by accident). Platform administrators: all. farm: the caller's
 * organisation (a regional center, reading: and the farms of its region); a service
 * provider (a bloc, no organisation): the farms of its bloc as they are now. group: the
 * caller's bloc. platform: everyone (writes are still gated by element codes).
 */
export function scopeCondition(doc: ResourceDocument, user: SessionUser, p: Params, alias = 'r', mode: ScopeMode = 'write'): string {
  if (user.platformAdmin || doc.scope === 'platform') return 'TRUE';
  const owner = ownerExprs(doc, alias);
  if (doc.scope === 'farm') return farmOwnerScope(user, p, owner.farm, mode);
  if (user.blocId != null) return `${owner.bloc} = ${p.add(user.blocId)}`;
  return 'FALSE';
}

export function orderBy(doc: ResourceDocument, keys: SortKey[]): string {
  const parts = keys.map((k) => `${fieldExpr(doc, k.field)} ${k.desc ? 'DESC' : 'ASC'}`);
  // A unique last key makes paging stable when sort values repeat.
  if (!keys.some((k) => k.field === 'id')) parts.push(`r.id ${keys[keys.length - 1]?.desc ? 'DESC' : 'ASC'}`);
  return parts.join(', ');
}

/** `%` and `_` typed by a user are literal characters, not wildcards. */
export function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SELECT list of a reply row: meta columns, the owner farm's name, reference labels. */
export function rowSelect(doc: ResourceDocument, targets: Map<string, ResourceDocument>): string {
  const labels = Object.entries(doc.references ?? {}).map(([field, ref]) => {
    const target = targets.get(ref.resource);
    if (!target) throw new Error(`${doc.name}.${field} references unknown ${ref.resource}`);
    return `${ident(field)}, (SELECT t.data->>${ident(target.displayField)} FROM resource_records t
              WHERE t.resource = ${ident(target.name)} AND t.id = (r.data->>${ident(field)})::bigint)`;
  });
  const owner = ownerExprs(doc);
  return `r.id, r.version, ${owner.farm} AS farm_id, o.name AS farm_name, ${owner.bloc} AS bloc_id, ${dataExpr(doc)} AS data,
          r.created_at, r.updated_at, r.created_by, r.updated_by,
          ${labels.length ? `jsonb_build_object(${labels.join(', ')})` : `'{}'::jsonb`} AS labels`;
}

/** The owner farm of a reply row (its name), joined to the row aliased `r`. */
export function ownerJoin(doc: ResourceDocument): string {
  return `LEFT JOIN organisations o ON o.id = ${ownerExprs(doc).farm}`;
}

/** FROM of a reply row of a JSON-stored resource (what business modules reading those rows use). */
export const ROW_FROM = 'resource_records r LEFT JOIN organisations o ON o.id = r.farm_id';

/** FROM of a reply row (rowSelect): the resource's table as `r` with its owner farm. */
export function rowFrom(doc: ResourceDocument): string {
  return `${tableOf(doc)} r ${ownerJoin(doc)}`;
}

export interface RecordRow {
  id: number;
  version: number;
  farm_id: number | null;
  farm_name: string | null;
  bloc_id: number | null;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  created_by: number | null;
  updated_by: number | null;
  labels: Record<string, string | null>;
}

/** A row as the API shows it: meta fields first, then the record's own properties. */
export function rowView(r: RecordRow): Record<string, unknown> {
  return {
    id: Number(r.id),
    version: r.version,
    farmId: r.farm_id,
    farmName: r.farm_name,
    blocId: r.bloc_id,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    createdBy: r.created_by,
    updatedBy: r.updated_by,
    labels: r.labels ?? {},
    ...r.data,
  };
}
