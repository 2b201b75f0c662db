/**
 * Shared set-up of the resource engine's API tests. Everything is derived from the
 * loaded resource documents, so a new document is covered by every test with no code.
 */
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from 'vitest';
import type { TestApp } from '../support/app.ts';
import type { Queryable } from '../../server/db/database.ts';
import { readResourceDocuments } from '../../server/resources/load.ts';
import { authorityKeys, accessKeys, writeJsonSchema, type ResourceDocument, type WriteAction } from '../../runtime/schema/resource.ts';
import { createAjv } from '../../runtime/schema/ajv.ts';
import { transitionOwnedFields } from '../../runtime/schema/transitions.ts';

/**
 * Documents whose records a manufacturer owns (its products, dealers, packages and product
 * articles): the suites here write and scope as a farm of the demo bloc, which holds none of
 * them; their contract and scope are tested in materials-orders.test.ts ("the manufacturer's
 * side") and materials-traces.test.ts (articles and packages).
 */
export const MANUFACTURER_OWNED = new Set(['fertilizerProducts', 'fertilizerAgents', 'fertilizerCombos', 'productArticles']);
/**
 * The documents stored in the engine's JSON table. Table-backed ones (`storage`) are
 * excluded: their rows are another table's (seedling bases are organisations, each its
 * own farm), so the generic owner and seed assumptions below do not hold for them; they
 * have tests of their own (resource-table-storage.test.ts, admin-registrations.test.ts).
 */
export const docs: ResourceDocument[] = (await readResourceDocuments()).filter((d) => !d.storage && !MANUFACTURER_OWNED.has(d.name));
const menuTree = JSON.parse(readFileSync(new URL('../../schemas/menus.json', import.meta.url), 'utf8')) as { menus: { code?: string }[] };

export type Body = Record<string, unknown>;

let seq = 0;

export interface Reply {
  http: number;
  status: number;
  message: string;
  data: any;
  raw: LightMyRequestResponse;
}

/** One call through app.inject, the envelope unpacked. */
export async function call(
  t: TestApp,
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  lang = 'zh',
): Promise<Reply> {
  const headers: Record<string, string> = { 'accept-language': lang };
  if (token) headers.authorization = token;
  const raw = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  let body: any = null;
  try {
    body = raw.json();
  } catch {
    body = { status: undefined, message: raw.body, data: null };
  }
  return { http: raw.statusCode, status: body?.status, message: body?.message, data: body?.data, raw };
}

/** The record's own properties of a reply row (what a form would post). */
export function recordOf(doc: ResourceDocument, row: Body): Body {
  const out: Body = {};
  for (const key of Object.keys(doc.record.properties)) if (row[key] !== undefined) out[key] = row[key];
  return out;
}

/**
 * A copy of `row` that is a valid new record, told apart from it: the display field gets
 * `tag` (or, when a pattern constrains it, a suffix the pattern accepts), and every other
 * pattern-constrained string (codes, which guards may keep unique) gets such a suffix.
 */
export function variant(doc: ResourceDocument, row: Body, tag: string, opts: { dropOptionalRefs?: boolean } = {}): Body {
  const body = recordOf(doc, row);
  seq += 1;
  for (const [name, field] of Object.entries(doc.record.properties)) {
    if (field.type !== 'string' || field.enum || field.format) continue;
    const max = field.maxLength ?? 50;
    if (name === doc.displayField && (!field.pattern || new RegExp(field.pattern, 'u').test(tag.slice(0, max)))) {
      body[name] = tag.slice(0, max);
      continue;
    }
    if (!field.pattern || typeof body[name] !== 'string') continue;
    const re = new RegExp(field.pattern, 'u');
    const original = body[name] as string;
    const candidates = [`${original}${seq}`, `${original}_${seq}`, `${original}x${seq}`, `${original.slice(0, Math.max(1, max - 6))}${seq}`];
    const ok = candidates.find((c) => c.length <= max && re.test(c));
    if (ok) body[name] = ok;
  }
  // A file belongs to one record (server/files/field-type.ts): a new record starts without the row's files.
  for (const [name, field] of Object.entries(doc.record.properties)) if (field['x-file']) delete body[name];
  // The state and reasons of a document declaring transitions are the engine's to set on a new record.
  for (const field of transitionOwnedFields(doc)) delete body[field];
  if (opts.dropOptionalRefs) {
    for (const field of Object.keys(doc.references ?? {})) if (!(doc.record.required ?? []).includes(field)) delete body[field];
  }
  return body;
}

/** Every code that the documents know: authority, aliases, and their element codes. */
export function allCodes(list: ResourceDocument[] = docs): { menus: string[]; elements: string[] } {
  const menus = new Set<string>(['gateLogManager']);
  const elements = new Set<string>();
  // Every code of the menu tree too: guards of other modules may ask for more (publishing, …).
  const walk = (entry: { code?: string; elements?: { code: string }[]; children?: unknown[] }) => {
    if (entry.code) menus.add(entry.code);
    for (const e of entry.elements ?? []) elements.add(e.code);
    for (const c of entry.children ?? []) walk(c as typeof entry);
  };
  for (const section of menuTree.menus) walk(section);
  for (const doc of list) {
    for (const m of authorityKeys(doc)) menus.add(m);
    for (const action of ['create', 'update', 'delete'] as WriteAction[]) for (const k of accessKeys(doc, action)) elements.add(k.element);
  }
  return { menus: [...menus], elements: [...elements] };
}

/** A user with its own role holding exactly `menus` and `elements`; returns a token. */
export async function makeUser(
  t: TestApp,
  opts: { orgId?: number | null; blocId?: number | null; menus: string[]; elements: string[]; platform?: boolean },
): Promise<{ id: number; token: string }> {
  seq += 1;
  const username = `rt_${seq}_${Math.random().toString(36).slice(2, 8)}`;
  const { rows: role } = await t.db.query<{ id: number }>(
    `INSERT INTO roles(code, name, menus, elements, platform) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [username, JSON.stringify({ zh: username, en: username, es: username }), opts.menus, opts.elements, opts.platform === true],
  );
  const { rows: user } = await t.db.query<{ id: number }>(
    `INSERT INTO users(username, name, password_hash, kind, org_id, bloc_id) VALUES ($1, $1, 'x', 'member', $2, $3) RETURNING id`,
    [username, opts.orgId ?? null, opts.blocId ?? null],
  );
  await t.db.query('INSERT INTO user_roles(user_id, role_id) VALUES ($1, $2)', [user[0].id, role[0].id]);
  return { id: user[0].id, token: await t.app.tokens.issue({ id: user[0].id, username }) };
}

export async function demoOrg(db: Queryable, username: string): Promise<{ orgId: number; blocId: number | null }> {
  const { rows } = await db.query<{ org_id: number; bloc_id: number | null }>(
    `SELECT u.org_id, o.bloc_id FROM users u JOIN organisations o ON o.id = u.org_id WHERE u.username = $1`,
    [username],
  );
  return { orgId: rows[0].org_id, blocId: rows[0].bloc_id };
}

/** A farm in no bloc, with no demo user: the "elsewhere" of scope tests. */
export async function outsideFarm(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`INSERT INTO organisations(name, type, city) VALUES ('测试外部农场', 0, '长春市') RETURNING id`);
  return rows[0].id;
}

/** Fingerprint of every stored record and the size of the operation log. */
export async function fingerprint(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ sum: string | null; n: number; logs: number }>(
    `SELECT md5(string_agg(id::text || ':' || version::text || ':' || coalesce(farm_id::text, '-') || ':' || data::text, ',' ORDER BY id)) AS sum,
            count(*)::int AS n, (SELECT count(*)::int FROM operation_log) AS logs
       FROM resource_records`,
  );
  return JSON.stringify(rows[0]);
}

/** Some existing row of `doc` visible to `token` (the demo seed gives every resource rows). */
export async function someRow(t: TestApp, token: string, doc: ResourceDocument): Promise<Body> {
  const r = await call(t, token, 'GET', `${doc.basePath}/page?pageSize=1&sort=id`);
  if (r.status !== 200 || !r.data.rows.length) throw new Error(`no ${doc.name} row visible: ${r.raw.body}`);
  return r.data.rows[0];
}

const ajv = createAjv();

/**
 * Where a rule outside a resource document refuses the records these suites generate, and
 * why. The suites derive a record from a seeded one; a few modules hold rules such a copy
 * cannot meet. Each entry is `resource:case` (`write`: the writer's own create or update;
 * `menuCodes`: a user holding only one menu entry's codes; `otherFarm`: a record generated
 * for a farm other than the seed's). A refusal of an unlisted pair fails its test, and so
 * does a listed pair whose test ran without a refusal: the list is the exact set of skips.
 */
export const EXPECTED_REFUSALS: Readonly<Record<string, string>> = {
  'appVersions:write': 'a version code is unique per platform; a copy of a seeded version repeats it',
  'appVersions:menuCodes': 'a version code is unique per platform; a copy of a seeded version repeats it',
  'articles:menuCodes': 'publishing an article needs the publish code, which a menu entry of the readers does not carry',
  'tankMaterials:menuCodes': 'writing the fertilizer library needs its maintainer code, beyond the menu entry',
  'farmingRecords:otherFarm': 'a record names a task of its own farm; the copied task is the seed farm\'s',
  'farmingTasks:otherFarm': 'assignees must be people of the task\'s farm; the copied ones are the seed farm\'s',
  'greenhouses:otherFarm': 'a greenhouse names a group of its own farm; the copied group is the seed farm\'s',
  'growthObservations:otherFarm': 'an observation names a plan of its own farm; the copied plan is the seed farm\'s',
  'planItems:otherFarm': 'an item names a plan of its own farm; the copied plan is the seed farm\'s',
  'plantGroups:otherFarm': 'a group\'s plots must be its own farm\'s; the copied plots are the seed farm\'s',
  'plantPlans:otherFarm': 'a plan names a planting group of its own farm; the copied group is the seed farm\'s',
};

export type RefusalCase = 'write' | 'menuCodes' | 'otherFarm';
/** Handles a refused generated write; never returns. */
export type Refused = (r: Reply) => never;

/**
 * What a test does when a generated write is refused: skip with the listed reason, or fail
 * naming the pair to list. A listed pair whose test finishes without a refusal fails too.
 */
export function declaredRefusals(ctx: TestContext, doc: ResourceDocument, kase: RefusalCase): Refused {
  const key = `${doc.name}:${kase}`;
  const reason = EXPECTED_REFUSALS[key];
  let refused = false;
  if (reason) {
    ctx.onTestFinished(() => {
      if (!refused) throw new Error(`'${key}' is listed in EXPECTED_REFUSALS (${reason}) but its generated writes were all accepted: take it off the list`);
    });
  }
  return (r: Reply): never => {
    refused = true;
    if (!reason) throw new Error(`${doc.name}: a rule outside the document refused a generated record (${r.status} ${r.message}); make the generated record meet it, or list '${key}' in EXPECTED_REFUSALS with the reason`);
    ctx.skip(`${key}: ${reason} (${r.message})`);
    throw new Error('unreachable: skip throws');
  };
}

/**
 * Writes a generated `body`. A 40001 for a body that the document itself accepts (or a
 * 40301 when the caller holds the document's codes) is a rule of another module: `refused`
 * decides whether that was declared.
 */
export async function writeOrSkip(
  t: TestApp,
  token: string,
  doc: ResourceDocument,
  method: 'POST' | 'PUT',
  url: string,
  body: Body,
  refused: Refused,
  opts: { codesHeld?: boolean } = {},
): Promise<Reply> {
  const r = await call(t, token, method, url, body);
  const valid = ajv.validate(writeJsonSchema(doc, method === 'POST' ? 'create' : 'update'), body);
  if ((r.status === 40001 && valid) || (r.status === 40301 && opts.codesHeld)) refused(r);
  return r;
}
