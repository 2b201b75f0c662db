import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { engines } from '../support/engines.ts';
import { transitionOwnedFields } from '../../runtime/schema/transitions.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import {
  filterParamNames,
  IMPLICIT_SORTABLE,
  MAX_ID,
  META_FIELDS,
  parseSort,
  scalarTypeOf,
  type FieldSchema,
  type ResourceDocument,
} from '../../runtime/schema/resource.ts';
import { allCodes, demoOrg, docs, fingerprint, makeUser, someRow, variant, type Body } from './resource-fixtures.ts';

/**
 * Property-based bad input over every resource: generated invalid bodies, query strings
 * and ids get a 40001 (HTTP 400, or 413 for an oversized body) or 40401 reply, never a
 * 500, and the records and the operation log are exactly as before.
 */
// Per resource and property, on each engine; every run draws new cases, so CI covers more
// over time. `npm run test:full` (TEST_FULL=1) draws five times as many.
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.TEST_FULL === '1' ? 200 : 40));
const byName = (list: ResourceDocument[]) => list.map((d) => [d.name, d] as const);

function wrongTypeValue(field: FieldSchema): fc.Arbitrary<unknown> {
  const others: fc.Arbitrary<unknown>[] = [fc.constant(null)];
  if (field.type !== 'object') others.push(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }));
  if (field.type !== 'string') others.push(fc.string());
  if (field.type !== 'integer' && field.type !== 'number') others.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
  if (field.type === 'integer') others.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)));
  if (field.type !== 'boolean') others.push(fc.boolean());
  if (field.type !== 'array') others.push(fc.array(fc.jsonValue(), { maxLength: 3 }));
  return fc.oneof(...others);
}

/** A value of the right type that breaks one of the field's bounds, when it has one. */
function outOfBounds(field: FieldSchema): fc.Arbitrary<unknown> | null {
  if (field.type === 'string' && field.maxLength) return fc.integer({ min: field.maxLength + 1, max: field.maxLength + 40 }).map((n) => '长'.repeat(n));
  if (field.type === 'string' && field.enum) return fc.string({ minLength: 1 }).filter((s) => !field.enum!.includes(s));
  if ((field.type === 'integer' || field.type === 'number') && field.maximum !== undefined)
    return fc.oneof(
      fc.integer({ min: 1, max: 1_000_000 }).map((d) => field.maximum! + d),
      fc.integer({ min: 1, max: 1_000_000 }).map((d) => field.minimum! - d),
    );
  if (field.type === 'array' && field.maxItems) return fc.constant(Array.from({ length: field.maxItems + 1 }, () => field.items?.enum?.[0] ?? 1));
  return null;
}

function invalidBody(doc: ResourceDocument, base: Body): fc.Arbitrary<{ raw?: string; body?: unknown }> {
  const props = doc.record.properties;
  const names = Object.keys(props);
  // Fields that declared transitions own are set by the engine, so a body may leave them out.
  const owned = new Set(transitionOwnedFields(doc));
  const required = (doc.record.required ?? []).filter((r) => !owned.has(r));
  const known = new Set([...names, ...META_FIELDS]);
  const mutations: fc.Arbitrary<{ raw?: string; body?: unknown }>[] = [
    // Not an object at all.
    fc.oneof(fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 4 }), fc.string(), fc.integer(), fc.boolean()).map((body) => ({ body })),
    // Not JSON.
    fc.string({ minLength: 1 }).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }).map((raw) => ({ raw })),
    // A property of the wrong type.
    fc.constantFrom(...names).chain((name) => wrongTypeValue(props[name]).map((v) => ({ body: { ...base, [name]: v } }))),
    // An unknown property.
    fc.tuple(fc.string({ minLength: 1, maxLength: 30 }).filter((k) => !known.has(k) && k !== '__proto__'), fc.jsonValue()).map(([k, v]) => ({ body: { ...base, [k]: v } })),
    // A random object: lacks at least one required property.
    fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 6 }).filter((o) => required.some((r) => !(r in o))).map((body) => ({ body })),
  ];
  if (required.length) mutations.push(fc.constantFrom(...required).map((r) => { const b = { ...base }; delete b[r]; return { body: b }; }));
  const bounded = names.map((n) => [n, outOfBounds(props[n])] as const).filter((x): x is readonly [string, fc.Arbitrary<unknown>] => x[1] !== null);
  if (bounded.length) mutations.push(fc.constantFrom(...bounded).chain(([n, arb]) => arb.map((v) => ({ body: { ...base, [n]: v } }))));
  return fc.oneof(...mutations);
}

function pageParamNames(doc: ResourceDocument): string[] {
  return ['pageIndex', 'pageSize', 'sort', ...doc.searchable.flatMap(filterParamNames)];
}

/** One query parameter that must be refused. */
function invalidQuery(doc: ResourceDocument): fc.Arbitrary<[string, string]> {
  const allowed = new Set(pageParamNames(doc));
  const sortable = [...doc.sortable, ...IMPLICIT_SORTABLE];
  const isValidSort = (s: string) => /^-?[a-zA-Z][A-Za-z0-9]{0,39}(,-?[a-zA-Z][A-Za-z0-9]{0,39}){0,4}$/.test(s) && !('error' in parseSort(s, doc));
  const out: fc.Arbitrary<[string, string]>[] = [
    fc.oneof(fc.integer({ min: 501, max: 1e9 }), fc.integer({ min: -1e9, max: 0 })).map((n) => ['pageSize', String(n)]),
    fc.oneof(fc.integer({ min: 1_000_001, max: 2e9 }), fc.integer({ min: -1e9, max: 0 })).map((n) => ['pageIndex', String(n)]),
    fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && !Number.isFinite(Number(s))).map((s) => ['pageSize', s]),
    fc.string({ minLength: 1 }).filter((s) => !isValidSort(s)).map((s) => ['sort', s]),
    fc.constantFrom(...sortable).map((f) => ['sort', `${f},${f}`]),
    fc.tuple(fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !allowed.has(k)), fc.string({ minLength: 1 })),
  ];
  for (const s of doc.searchable) {
    const field = doc.record.properties[s.field];
    const type = scalarTypeOf(field);
    for (const param of filterParamNames(s)) {
      if (type === 'number') out.push(fc.string({ minLength: 1 }).filter((v) => v.trim() !== '' && !Number.isFinite(Number(v))).map((v) => [param, v]));
      if (type === 'string' && field.maxLength) out.push(fc.constant([param, 'x'.repeat(field.maxLength + 1)]));
      if (type === 'string' && field.enum && s.filter !== 'like') out.push(fc.string({ minLength: 1 }).filter((v) => !field.enum!.includes(v)).map((v) => [param, v]));
    }
  }
  return fc.oneof(...out);
}

/** Path segments that are no record id, however generously coerced. */
const invalidId = fc.oneof(
  fc.string({ minLength: 1 }).filter((s) => !Number.isFinite(Number(s)) && s !== 'page' && s !== 'batch'),
  fc.integer({ min: -1e9, max: 0 }).map(String),
  fc.integer({ min: MAX_ID + 1, max: Number.MAX_SAFE_INTEGER }).map(String),
  fc.double({ min: 1.0001, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)).map(String),
  fc.constantFrom('1e400', '-0.5', '%00', '1;DELETE', "1' OR '1'='1", '../1'),
);

describe.each(engines())('bad input to every resource on $name', (engine) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const farm1 = await demoOrg(t.db, 'farm');
    token = (await makeUser(t, { orgId: farm1.orgId, ...allCodes() })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = async (method: string, url: string, input?: { raw?: string; body?: unknown }) => {
    const headers: Record<string, string> = { authorization: token };
    let payload: string | undefined;
    if (input) {
      headers['content-type'] = 'application/json';
      payload = input.raw ?? JSON.stringify(input.body);
    }
    const res = await t.app.inject({ method: method as 'GET', url, headers, payload });
    return { http: res.statusCode, body: res.json() as { status: number; data: any } };
  };

  describe.each(byName(docs))('%s', (_name, doc) => {
    let base: Body;
    let existing: Body;

    beforeAll(async () => {
      existing = await someRow(t, token, doc);
      base = variant(doc, existing, '模糊');
    });

    it(`refuses ${RUNS} generated invalid bodies on create and ${RUNS} on update, changing nothing`, async () => {
      const before = await fingerprint(t.db);
      await fc.assert(
        fc.asyncProperty(invalidBody(doc, base), async (input) => {
          const r = await send('POST', doc.basePath, input);
          expect([400, 413], JSON.stringify(r.body)).toContain(r.http);
          expect(r.body.status).toBe(40001);
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(invalidBody(doc, base), async (input) => {
          const withVersion = input.body && typeof input.body === 'object' && !Array.isArray(input.body) ? { body: { ...input.body, version: existing.version } } : input;
          const r = await send('PUT', `${doc.basePath}/${existing.id}`, withVersion);
          expect([400, 413], JSON.stringify(r.body)).toContain(r.http);
          expect(r.body.status).toBe(40001);
        }),
        { numRuns: RUNS },
      );
      // The version itself: missing, of the wrong type, out of range.
      for (const version of [undefined, '1', 0, -1, 1.5, MAX_ID + 1, null]) {
        const r = await send('PUT', `${doc.basePath}/${existing.id}`, { body: { ...base, version } });
        expect([r.http, r.body.status]).toEqual([400, 40001]);
      }
      const huge = await send('POST', doc.basePath, { body: { ...base, [doc.displayField]: 'x'.repeat(300 * 1024) } });
      expect([huge.http, huge.body.status]).toEqual([413, 40001]);
      expect(await fingerprint(t.db)).toBe(before);
    });

    it(`refuses ${RUNS} generated invalid page queries and answers ${RUNS} random ones without a server error`, async () => {
      const before = await fingerprint(t.db);
      await fc.assert(
        fc.asyncProperty(invalidQuery(doc), async ([key, value]) => {
          const q = new URLSearchParams({ [key]: value });
          const r = await send('GET', `${doc.basePath}/page?${q}`);
          expect([r.http, r.body.status], `${q}`).toEqual([400, 40001]);
          expect(r.body.data.errors.length).toBeGreaterThan(0);
        }),
        { numRuns: RUNS },
      );
      const names = pageParamNames(doc);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), fc.oneof(fc.string(), fc.integer().map(String))), { maxLength: 5 }),
          async (pairs) => {
            const q = new URLSearchParams(pairs);
            const r = await send('GET', `${doc.basePath}/page?${q}`);
            expect([200, 400], `${q}`).toContain(r.http);
            expect(r.body.status).toBe(r.http === 200 ? 200 : 40001);
          },
        ),
        { numRuns: RUNS },
      );
      expect(await fingerprint(t.db)).toBe(before);
    });

    it(`refuses ${RUNS} generated ids on read, update and delete`, async () => {
      const before = await fingerprint(t.db);
      await fc.assert(
        fc.asyncProperty(invalidId, fc.constantFrom('GET', 'PUT', 'DELETE'), async (id, method) => {
          const url = `${doc.basePath}/${encodeURIComponent(id)}`;
          const r = await send(method, url, method === 'PUT' ? { body: { ...base, version: 1 } } : undefined);
          expect([[400, 40001], [404, 40401]], `${method} ${url}`).toContainEqual([r.http, r.body.status]);
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(invalidId, fc.integer({ min: 1, max: 100 })), { minLength: 0, maxLength: 5 }), async (ids) => {
          // Any invalid id, or none at all, refuses the whole batch.
          fc.pre(ids.length === 0 || ids.some((x) => typeof x === 'string'));
          const r = await send('DELETE', `${doc.basePath}/batch`, { body: { ids } });
          expect([r.http, r.body.status]).toEqual([400, 40001]);
        }),
        { numRuns: RUNS },
      );
      expect(await fingerprint(t.db)).toBe(before);
    });
  });
});
