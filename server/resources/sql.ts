import type { SessionUser } from '../auth/session-user.ts';
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

/**
 * The SQL expression of a record property (or meta field) as filters and sorts use it.
 * Indexes are built on the same expressions (see indexes.ts), so they must stay in step.
 */
export function fieldExpr(doc: ResourceDocument, field: string, alias = 'r'): string {
  const prefix = alias ? `${alias}.` : '';
  const meta = META_COLUMNS[field];
  if (meta) return meta.replace('r.', prefix);
  const type = scalarTypeOf(doc.record.properties[field]);
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
 * Which records of `doc` the caller may see and change. Platform administrators: all.
 * farm: the caller's organisation; a service provider (a bloc, no organisation): the
 * farms of its bloc as they are now. group: the caller's bloc. platform: everyone
 * (writes are still gated by element codes).
 */
export function scopeCondition(doc: ResourceDocument, user: SessionUser, p: Params, alias = 'r'): string {
  if (user.platformAdmin || doc.scope === 'platform') return 'TRUE';
  if (doc.scope === 'farm') {
    if (user.orgId != null) return `${alias}.farm_id = ${p.add(user.orgId)}`;
    if (user.blocId != null) return `${alias}.farm_id IN (SELECT o.id FROM organisations o WHERE o.bloc_id = ${p.add(user.blocId)})`;
    return 'FALSE';
  }
  if (user.blocId != null) return `${alias}.bloc_id = ${p.add(user.blocId)}`;
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
  return `r.id, r.version, r.farm_id, o.name AS farm_name, r.bloc_id, r.data,
          r.created_at, r.updated_at, r.created_by, r.updated_by,
          ${labels.length ? `jsonb_build_object(${labels.join(', ')})` : `'{}'::jsonb`} AS labels`;
}

export const ROW_FROM = 'resource_records r LEFT JOIN organisations o ON o.id = r.farm_id';

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
