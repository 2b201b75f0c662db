/**
 * Turns operation-log rows into what a person reads: the record acted on by its name
 * (looked up when the log is read, so a renamed record shows its current name and a
 * deleted one the name it had), and the change as a list of «field: old → new».
 */
import type { Queryable } from '../db/database.ts';
import type { Lang } from '../i18n/lang.ts';
import type { AuditCatalogue } from './words.ts';

export interface ChangeLine {
  field: string;
  title: string;
  /** Absent when the entry records a value rather than a change (a creation's fields, a deletion's last state). */
  from?: string;
  to: string;
}

const YES: Record<Lang, string> = { zh: '是', en: 'yes', es: 'sí' };
const NO: Record<Lang, string> = { zh: '否', en: 'no', es: 'no' };
const GONE: Record<Lang, string> = { zh: '已删除', en: 'deleted', es: 'eliminado' };
export const EMPTY = '—';

function isWords(v: unknown): v is Record<Lang, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).zh === 'string' && typeof (v as Record<string, unknown>).en === 'string';
}

/** A value as text: empty as «—», yes / no, lists joined, texts in the reader's language. */
export function valueText(v: unknown, lang: Lang, cat: AuditCatalogue, resource: string | null): string {
  if (v === null || v === undefined || v === '') return EMPTY;
  if (typeof v === 'boolean') return v ? YES[lang] : NO[lang];
  if (Array.isArray(v)) return v.length ? v.map((x) => valueText(x, lang, cat, resource)).join(lang === 'zh' ? '、' : ', ') : EMPTY;
  if (isWords(v)) return v[lang];
  if (typeof v === 'object') {
    // Nested values read like the top level: field titles (through the document's nested
    // properties), enum and coded values in words (`kind: airTemperature` → «传感类型: 空气温度»).
    const parts = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => !(Array.isArray(x) && x.length === 0))
      .map(([k, x]) => `${cat.field(resource, k, lang)}: ${cat.enumTitle(resource, k, x, lang) ?? valueText(x, lang, cat, resource)}`);
    return parts.length ? parts.join('; ') : EMPTY;
  }
  return String(v);
}

function isChange(v: unknown): v is { from: unknown; to: unknown } {
  return !!v && typeof v === 'object' && !Array.isArray(v) && 'from' in v && 'to' in v && Object.keys(v).length === 2;
}

/** Bookkeeping that says nothing to a person: the version counter and the owning farm of a record write. */
const QUIET = new Set(['version', 'farmId', 'blocId']);

export function changeLines(cat: AuditCatalogue, resource: string | null, changes: unknown, lang: Lang): ChangeLine[] {
  if (!changes || typeof changes !== 'object' || Array.isArray(changes)) return [];
  const c = changes as Record<string, unknown>;
  // Record writes of the resource engine: { farmId, blocId, version, fields: { name: {from, to} } }.
  const fields = c.fields && typeof c.fields === 'object' && !Array.isArray(c.fields) && cat.document(resource) ? (c.fields as Record<string, unknown>) : null;
  const entries = fields ? Object.entries(fields) : Object.entries(c).filter(([k]) => !QUIET.has(k));
  const version = c.version as { from?: unknown; to?: unknown } | undefined;
  const created = !!fields && version?.from === null;
  const deleted = !!fields && version?.to === null;
  const text = (field: string, v: unknown) => cat.enumTitle(resource, field, v, lang) ?? valueText(v, lang, cat, resource);
  const lines = entries.map(([field, v]): ChangeLine => {
    const title = cat.field(resource, field, lang);
    if (isChange(v)) {
      // A creation's "from" is null throughout and a deletion's "to": show the value alone.
      if (created) return { field, title, to: text(field, v.to) };
      if (deleted) return { field, title, to: text(field, v.from) };
      return { field, title, from: text(field, v.from), to: text(field, v.to) };
    }
    return { field, title, to: text(field, v) };
  });
  // A value that is empty says nothing (a permission change that granted nothing, a deleted role without menus).
  return lines.filter((l) => l.from !== undefined || l.to !== EMPTY);
}

/** One line of text for exports and the collapsed cell. */
export function changeText(lines: ChangeLine[]): string {
  return lines.map((l) => (l.from === undefined ? `${l.title}: ${l.to}` : `${l.title}: ${l.from} → ${l.to}`)).join('; ');
}

interface LogRow {
  resource: string | null;
  record_id: string | null;
  changes: unknown;
}

/** What each hand-written resource's records are called; `$1` is the list of ids. */
const NAME_QUERIES: Record<string, (lang: Lang) => string> = {
  users: () => `SELECT id::text AS id, COALESCE(NULLIF(name, ''), username) AS name FROM users WHERE id = ANY($1::int[])`,
  session: () => `SELECT id::text AS id, COALESCE(NULLIF(name, ''), username) AS name FROM users WHERE id = ANY($1::int[])`,
  roles: (lang) => `SELECT id::text AS id, COALESCE(name->>'${lang}', name->>'zh', code) AS name FROM roles WHERE id = ANY($1::int[])`,
  organisations: () => `SELECT id::text AS id, name FROM organisations WHERE id = ANY($1::int[])`,
  blocs: () => `SELECT id::text AS id, name FROM blocs WHERE id = ANY($1::int[])`,
  menus: (lang) => `SELECT id::text AS id, COALESCE(title->>'${lang}', title->>'zh', code) AS name FROM menus WHERE id = ANY($1::int[])`,
  notices: () => `SELECT id::text AS id, title AS name FROM notices WHERE id = ANY($1::int[])`,
  registration_requests: () => `SELECT id::text AS id, (payload->>'orgName') || ' · ' || (payload->>'username') AS name FROM registration_requests WHERE id = ANY($1::int[])`,
  business: () => `SELECT b.id::text AS id, o.name AS name FROM business b JOIN organisations o ON o.id = b.farm_id WHERE b.id = ANY($1::int[])`,
};

/** The name a deleted record had, from what its deletion logged. */
function nameInChanges(row: LogRow, cat: AuditCatalogue, lang: Lang): string | null {
  const c = row.changes as Record<string, unknown> | null;
  if (!c || typeof c !== 'object') return null;
  const doc = cat.document(row.resource);
  if (doc && c.fields && typeof c.fields === 'object') {
    const f = (c.fields as Record<string, { from?: unknown }>)[doc.displayField];
    return typeof f?.from === 'string' ? f.from : null;
  }
  for (const k of ['name', 'username', 'orgName']) {
    const v = c[k];
    if (isWords(v)) return v[lang];
    if (typeof v === 'string' && v) return v;
  }
  return null;
}

const ID = /^\d{1,10}$/;

/**
 * The names of the records the rows acted on, by `${resource}:${recordId}`: the current
 * name when the record still exists, else «name (deleted)» when the log kept it, else
 * nothing (the reader then shows the id).
 */
export async function recordNames(db: Queryable, cat: AuditCatalogue, rows: LogRow[], lang: Lang): Promise<Map<string, string>> {
  const wanted = new Map<string, Set<number>>();
  for (const r of rows) {
    if (!r.resource || !r.record_id || !ID.test(r.record_id)) continue;
    if (!cat.document(r.resource) && !NAME_QUERIES[r.resource]) continue;
    let set = wanted.get(r.resource);
    if (!set) wanted.set(r.resource, (set = new Set()));
    set.add(Number(r.record_id));
  }
  const names = new Map<string, string>();
  await Promise.all(
    [...wanted.entries()].map(async ([resource, ids]) => {
      const doc = cat.document(resource);
      const list = [...ids].filter((n) => n <= 2147483647);
      const result = doc
        ? await db.query<{ id: string; name: string | null }>(
            `SELECT id::text AS id, data->>$3 AS name FROM resource_records WHERE resource = $2 AND id = ANY($1::bigint[])`,
            [list, resource, doc.displayField],
          )
        : await db.query<{ id: string; name: string | null }>(NAME_QUERIES[resource](lang), [list]);
      for (const r of result.rows) if (r.name) names.set(`${resource}:${r.id}`, String(r.name));
    }),
  );
  for (const r of rows) {
    const key = `${r.resource}:${r.record_id}`;
    if (!r.resource || !r.record_id || names.has(key)) continue;
    const old = nameInChanges(r, cat, lang);
    if (old) names.set(key, `${old} (${GONE[lang]})`);
  }
  return names;
}

/** Menu and element codes by name: «作物管理», «作物管理 › 新增». */
export async function permissionNames(db: Queryable, lang: Lang): Promise<Map<string, string>> {
  const { rows } = await db.query<{ code: string; title: Record<Lang, string>; elements: { code: string; title: Record<Lang, string> }[] | null }>(
    'SELECT code, title, elements FROM menus',
  );
  const names = new Map<string, string>();
  for (const r of rows) {
    const menu = r.title?.[lang] ?? r.title?.zh ?? r.code;
    names.set(r.code, menu);
    for (const e of r.elements ?? []) names.set(e.code, `${menu} › ${e.title?.[lang] ?? e.title?.zh ?? e.code}`);
  }
  return names;
}

/** The changes with the codes in every `menus` / `elements` list replaced by their names. */
export function withPermissionNames(changes: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(changes)) return changes.map((x) => withPermissionNames(x, names));
  if (!changes || typeof changes !== 'object') return changes;
  return Object.fromEntries(
    Object.entries(changes as Record<string, unknown>).map(([k, v]) => [
      k,
      (k === 'menus' || k === 'elements') && Array.isArray(v) ? v.map((c) => (typeof c === 'string' ? (names.get(c) ?? c) : c)) : withPermissionNames(v, names),
    ]),
  );
}

/** Reference fields of the hand-written entries (the engine's documents add their own `references`): the resource their ids name. */
const REFERENCE_FIELDS: Record<string, string> = {
  storeId: 'farmStores',
  materialId: 'farmMaterials',
  supplierId: 'farmMaterialsSupplier',
  groupId: 'plantGroups',
  planId: 'plantPlans',
  planItemId: 'planItems',
  taskId: 'farmingTasks',
  cropId: 'crops',
  fieldId: 'farmFields',
};

function referenceTargets(cat: AuditCatalogue, resource: string | null): Record<string, string> {
  const doc = cat.document(resource);
  const own = Object.fromEntries(Object.entries(doc?.references ?? {}).map(([field, ref]) => [field, (ref as { resource: string }).resource]));
  return { ...REFERENCE_FIELDS, ...own };
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 2147483647;

/** Walks `changes`, calling `visit(field, id)` on every id held by a reference field (alone or as a change's from / to). */
function eachReference(changes: unknown, targets: Record<string, string>, visit: (target: string, id: number) => void, key?: string): void {
  if (Array.isArray(changes)) {
    for (const x of changes) eachReference(x, targets, visit, key);
    return;
  }
  if (key && targets[key]) {
    if (isId(changes)) {
      visit(targets[key], changes);
      return;
    }
    if (changes && typeof changes === 'object') {
      const c = changes as { from?: unknown; to?: unknown };
      if (isId(c.from)) visit(targets[key], c.from);
      if (isId(c.to)) visit(targets[key], c.to);
      return;
    }
  }
  if (changes && typeof changes === 'object') for (const [k, v] of Object.entries(changes as Record<string, unknown>)) eachReference(v, targets, visit, k);
}

/**
 * The names of the records the entries' reference fields point at (a stock line's
 * `materialId: 371` reads as the material's name), by `${resource}:${id}`: one query per
 * referenced resource document for the whole page.
 */
export async function referenceNames(db: Queryable, cat: AuditCatalogue, rows: readonly { resource: string | null; changes: unknown }[]): Promise<Map<string, string>> {
  const wanted = new Map<string, Set<number>>();
  for (const r of rows)
    eachReference(r.changes, referenceTargets(cat, r.resource), (target, id) => {
      if (!cat.document(target)) return;
      let set = wanted.get(target);
      if (!set) wanted.set(target, (set = new Set()));
      set.add(id);
    });
  const names = new Map<string, string>();
  await Promise.all(
    [...wanted.entries()].map(async ([resource, ids]) => {
      const doc = cat.document(resource)!;
      const { rows: found } = await db.query<{ id: string; name: unknown }>(`SELECT id::text AS id, data->$3 AS name FROM resource_records WHERE resource = $2 AND id = ANY($1::bigint[])`, [[...ids], resource, doc.displayField]);
      for (const f of found) if (f.name !== null && f.name !== undefined && f.name !== '') names.set(`${resource}:${f.id}`, typeof f.name === 'string' ? f.name : JSON.stringify(f.name));
    }),
  );
  return names;
}

/** The changes with every referenced id that has a name replaced by the name. */
export function withReferenceNames(changes: unknown, cat: AuditCatalogue, resource: string | null, names: Map<string, string>): unknown {
  if (!names.size) return changes;
  const targets = referenceTargets(cat, resource);
  const swap = (target: string, v: unknown) => (isId(v) ? (names.get(`${target}:${v}`) ?? v) : v);
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (key && targets[key]) {
      if (isId(v)) return swap(targets[key], v);
      if (v && typeof v === 'object' && !Array.isArray(v) && ('from' in v || 'to' in v)) {
        const c = v as { from?: unknown; to?: unknown };
        return { ...c, ...('from' in c ? { from: swap(targets[key], c.from) } : {}), ...('to' in c ? { to: swap(targets[key], c.to) } : {}) };
      }
    }
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(changes);
}
