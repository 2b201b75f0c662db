import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

/**
 * Generated bad input for the account calls. Every body starts valid and receives one
 * mutation that makes it invalid whatever Fastify's type coercion does (objects and
 * multi-element arrays never coerce to scalars). Each must get 40001 with HTTP 400 and
 * leave the database exactly as it was.
 */
type Body = Record<string, unknown>;

interface Field {
  kind: 'string' | 'integer' | 'ids';
  max?: number;
  /** A character the field's pattern refuses. */
  bad?: string[];
}

const PERSON: Record<string, Field> = {
  username: { kind: 'string', max: 32, bad: [' ', "'", '"', ';', '<', '%', '\u0000', '中'] },
  password: { kind: 'string', max: 20, bad: [' ', "'", '-', '<', '!'] },
  name: { kind: 'string', max: 64, bad: ['<', '>'] },
  mobilePhone: { kind: 'string', max: 11, bad: ['a', ' ', '-'] },
  description: { kind: 'string', max: 500, bad: ['<', '>'] },
  city: { kind: 'string', max: 64, bad: ['<'] },
  farmId: { kind: 'integer' },
  roleIds: { kind: 'ids' },
};

const wrongType = fc.oneof(fc.constant({}), fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { minKeys: 1, maxKeys: 3 }), fc.integer().map((n) => [{}, n]));
const badInteger = fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 2147483648, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom('1 OR 1=1', '1;DROP TABLE users', 'abc', '1.5', '--1', '1,2'));

function mutation(valid: Body, fields: Record<string, Field>, required: string[]): fc.Arbitrary<Body> {
  const names = Object.keys(fields);
  const drop = fc.constantFrom(...required).map((k) => {
    const b = { ...valid };
    delete b[k];
    return b;
  });
  const retype = fc.tuple(fc.constantFrom(...names), wrongType).map(([k, v]) => ({ ...valid, [k]: v }));
  const strings = names.filter((n) => fields[n].kind === 'string');
  const overlong = fc.tuple(fc.constantFrom(...strings), fc.integer({ min: 1, max: 2000 })).map(([k, extra]) => ({ ...valid, [k]: '1'.repeat(fields[k].max! + extra) }));
  const badChar = fc
    .tuple(fc.constantFrom(...strings), fc.nat(), fc.string({ minLength: 0, maxLength: 4, unit: fc.constantFrom('a', 'b', '1', '_') }))
    .map(([k, i, pad]) => {
      const bads = fields[k].bad!;
      const base = k === 'mobilePhone' ? '1380000000' : `ok${pad}x`;
      return { ...valid, [k]: `${base}${bads[i % bads.length]}` };
    });
  const unknown = fc
    .tuple(fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !(k in fields) && k !== '__proto__'), fc.jsonValue())
    .map(([k, v]) => ({ ...valid, [k]: v }));
  const ints = names.filter((n) => fields[n].kind === 'integer');
  const badInt = fc.tuple(fc.constantFrom(...ints), badInteger).map(([k, v]) => ({ ...valid, [k]: v }));
  const badIds = fc.oneof(
    badInteger.map((v) => ({ ...valid, roleIds: [v, 2] })),
    fc.constant({ ...valid, roleIds: [1, 1] }),
    fc.constant({ ...valid, roleIds: Array.from({ length: 51 }, (_, i) => i + 1) }),
  );
  return fc.oneof(drop, retype, overlong, badChar, unknown, badInt, badIds);
}

describe.each(engines())('generated bad input to the account calls on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
    await f.as('admin', 'GET', '/api/admin/user/baseInfo');
  });
  afterAll(async () => {
    await f?.close();
  });

  // New cases every run; `npm run test:full` (TEST_FULL=1) draws three times as many.
  const runs = Number(process.env.FUZZ_RUNS ?? (process.env.TEST_FULL === '1' ? 300 : 100));

  it(`refuses ${runs} invalid bodies to POST add/byFarmId with 40001 and changes nothing`, async () => {
    const valid = { farmId: await f.orgOf('farm'), username: 'fuzz_ok', password: 'fuzz_2026', name: '合法', mobilePhone: '13912345678', roleIds: [] };
    const before = await f.snapshot();
    await fc.assert(
      fc.asyncProperty(mutation(valid, PERSON, ['username', 'password', 'name']), async (body) => {
        const r = await f.as('admin', 'POST', '/api/admin/user/add/byFarmId', body);
        expect(r.http, JSON.stringify(body)).toBe(400);
        expect(r.status, JSON.stringify(body)).toBe(40001);
      }),
      { numRuns: runs },
    );
    expect(await f.snapshot()).toBe(before);
  });

  it(`refuses ${runs} invalid bodies to PUT /api/admin/user/{id} with 40001 and changes nothing`, async () => {
    const id = await f.userId('device');
    const { version } = (await f.as('admin', 'GET', `/api/admin/user/${id}`)).data;
    const fields: Record<string, Field> = { ...PERSON, version: { kind: 'integer' } };
    delete fields.farmId;
    delete fields.username;
    const valid = { version, name: '合法', description: 'ok' };
    const before = await f.snapshot();
    await fc.assert(
      fc.asyncProperty(mutation(valid, fields, ['version']), async (body) => {
        const r = await f.as('admin', 'PUT', `/api/admin/user/${id}`, body);
        expect(r.http, JSON.stringify(body)).toBe(400);
        expect(r.status, JSON.stringify(body)).toBe(40001);
      }),
      { numRuns: runs },
    );
    expect(await f.snapshot()).toBe(before);
  });

  it(`refuses ${runs} malformed ids and query strings with 40001, never a 500`, async () => {
    const urls = [
      (v: string) => `/api/admin/user/${v}`,
      (v: string) => `/api/admin/user/updateUserStatus?id=${v}&status=0`,
      (v: string) => `/api/admin/user/page/byFarmId?farmId=${v}`,
      (v: string) => `/api/coverfield/notice/setSelfNoticeRead?id=${v}`,
      (v: string) => `/api/coverfield/business/pageByIds/bytechmanId?techmanId=${v}`,
      (v: string) => `/api/farmManage/org/deleteFarm?id=${v}`,
      (v: string) => `/api/admin/user/page?pageSize=${v}`,
    ];
    const method = ['GET', 'PUT', 'GET', 'GET', 'GET', 'DELETE', 'GET'] as const;
    const bad = fc.oneof(
      badInteger.map(String),
      // Nothing that reads as a number (ajv coerces those) nor a bare word (static routes such as /admin/user/page).
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !Number.isFinite(Number(s)) && !/^[A-Za-z]+$/.test(s)),
    );
    const before = await f.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: urls.length - 1 }), bad, async (i, v) => {
        const url = urls[i](encodeURIComponent(v));
        const r = await f.as('admin', method[i], url);
        expect(r.http, url).toBeLessThan(500);
        expect([40001, 40401], url).toContain(r.status);
        if (r.status === 40401) expect(i, url).toBe(0); // a path segment that is no id reaches no route at all
      }),
      { numRuns: runs },
    );
    expect(await f.snapshot()).toBe(before);
  });
});
