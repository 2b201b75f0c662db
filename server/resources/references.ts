import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import { business, type FieldError } from '../http/envelope.ts';
import type { Lang } from '../i18n/lang.ts';
import { t } from '../i18n/catalog.ts';
import type { LocalText as LocalizedText } from '../../runtime/schema/resource/types.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { dataExpr, ident, ownerExprs, rowsOf, tableOf } from './sql.ts';
import { msg } from './messages.ts';

/**
 * The one rule of what a record may name (docs/auth-and-accounts.md, "References"): a
 * record lives with an owner (a farm, a group, or the platform) and may name only
 *
 * - a platform record (the libraries), from anywhere;
 * - a farm's record of the same farm — never another farm's, not even one of the same bloc
 *   that the writer (a service provider, a regional center) may also write for: a provider
 *   writing for farm 2 names farm 2's stores, not farm 1's;
 * - a group's record of the same group.
 *
 * Everything else answers exactly as a record that does not exist, so a refusal tells
 * nothing about another tenant. The resource engine (store.ts) checks every declared
 * reference of a document with it; the business modules' own routes (the stock ledger, the
 * market, sales, quality records naming a harvest batch) call it for the ids they are sent.
 */

/** Who owns the record being written. */
export interface RecordOwner {
  farmId: number | null;
  blocId: number | null;
}

/** A kind of record that others name by id: a resource document, or a business module's table. */
export interface ReferenceTarget {
  name: string;
  title: LocalizedText;
  scope: 'farm' | 'group' | 'platform';
  /** The table, aliased `t` in the queries below. */
  table: string;
  /** The condition that keeps this kind's rows of the table. */
  rows: (alias: string) => string;
  owner: (alias: string) => { farm: string; bloc: string };
  /** The record as one jsonb value (`'{}'::jsonb` when the callers need none of it). */
  data: (alias: string) => string;
}

/** A resource document as a reference target (JSON-stored or table-backed alike). */
export function documentTarget(doc: ResourceDocument): ReferenceTarget {
  return {
    name: doc.name,
    title: doc.title,
    scope: doc.scope,
    table: tableOf(doc),
    rows: (alias) => rowsOf(doc, alias),
    owner: (alias) => ownerExprs(doc, alias),
    data: (alias) => dataExpr(doc, alias),
  };
}

/**
 * A farm resource stored in the engine's JSON table, named by a business module that does
 * not hold its document (the stock ledger naming stores, materials, suppliers, planting
 * groups and tasks). Its title is the name: modules answer with their own sentences.
 */
export function farmRecordTarget(name: string): ReferenceTarget {
  const literal = ident(name);
  return {
    name,
    title: { zh: name, en: name, es: name },
    scope: 'farm',
    table: 'resource_records',
    rows: (alias) => `${alias}.resource = ${literal}`,
    owner: (alias) => ({ farm: `${alias}.farm_id`, bloc: `${alias}.bloc_id` }),
    data: (alias) => `${alias}.data`,
  };
}

export interface Referable {
  id: number;
  farmId: number | null;
  data: Record<string, unknown>;
}

/**
 * Of `ids`, the records of `target` that a record of `owner` may name, by id. FOR SHARE
 * holds each until commit, so a concurrent delete waits and then sees the new reference.
 */
export async function referable(db: Queryable, target: ReferenceTarget, owner: RecordOwner, ids: number[], lock = true): Promise<Map<number, Referable>> {
  const wanted = [...new Set(ids.filter((id) => Number.isSafeInteger(id)))];
  if (!wanted.length) return new Map();
  const p = new Params();
  const own = target.owner('t');
  const where =
    target.scope === 'platform'
      ? 'TRUE'
      : target.scope === 'farm'
        ? owner.farmId === null ? 'FALSE' : `${own.farm} = ${p.add(owner.farmId)}`
        : owner.blocId === null ? 'FALSE' : `${own.bloc} = ${p.add(owner.blocId)}`;
  const { rows } = await db.query<{ id: number; farm_id: number | null; data: Record<string, unknown> }>(
    `SELECT t.id, ${own.farm} AS farm_id, ${target.data('t')} AS data FROM ${target.table} t
      WHERE ${target.rows('t')} AND t.id = ANY(${p.add(wanted)}::bigint[]) AND ${where} ORDER BY t.id${lock ? ' FOR SHARE OF t' : ''}`,
    p.values,
  );
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), farmId: r.farm_id === null ? null : Number(r.farm_id), data: r.data ?? {} }]));
}

/** One reference field of a write: the ids it names (one for a scalar field, several for a list). */
export interface ReferenceCheck {
  field: string;
  target: ReferenceTarget;
  ids: number[];
  /** The field holds a list of ids: a refusal names the item (`fieldIds.2`). */
  list?: boolean;
}

/**
 * Refuses (40001, every offending field named, `resource.referenceMissing`) a write whose
 * references are not all referable by `owner`; a list field is named at its item
 * (`fieldIds.2`). Missing and foreign ids give the same sentence.
 */
export async function refuseUnreferable(db: Queryable, owner: RecordOwner, checks: ReferenceCheck[], lang: Lang): Promise<void> {
  const problems: FieldError[] = [];
  let first: ReferenceTarget | null = null;
  for (const check of checks) {
    const found = await referable(db, check.target, owner, check.ids);
    const message = t(lang, msg['resource.referenceMissing'], { target: check.target.title[lang] });
    check.ids.forEach((id, i) => {
      if (found.has(id)) return;
      first ??= check.target;
      problems.push({ field: check.list ? `${check.field}.${i}` : check.field, message });
    });
  }
  if (first) throw business(msg['resource.referenceMissing'], { target: (first as ReferenceTarget).title[lang] }, problems);
}
