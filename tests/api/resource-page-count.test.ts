import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { COUNT_CAP } from '../../server/resources/page.ts';
import { call, demoOrg } from './resource-fixtures.ts';
import { createHttpClient } from '../../runtime/http/client.ts';
import { createNotifierSlot } from '../../runtime/http/notifier-slot.ts';
import { fetchAllRows, type PageReply } from '../../runtime/screens/export.ts';
import type { AddressInfo } from 'node:net';

// The page query counts matches exactly up to a cap and gives the planner's estimate past
// it (docs/resources.md, "Counts"): these tests put more than COUNT_CAP records of one
// farm behind one filter value, with prices that repeat (ties in the sort order).
const EXTRA = COUNT_CAP + 50;
const BASE = '/api/farmMaterials/list/page';

interface Row {
  id: number;
  unitPrice: number;
  category: string;
}

describe.each(engines())('page counts of the resource engine on $name', (engine) => {
  let t: TestApp;
  let admin: string;
  let matching: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin');
    const farm = await demoOrg(t.db, 'farm');
    await t.db.query(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data)
       SELECT 'farmMaterials', $1, $2, jsonb_build_object('name', 'count ' || g, 'category', 'other', 'unit', '袋', 'unitPrice', g % 97)
         FROM generate_series(1, $3::int) g`,
      [farm.orgId, farm.blocId, EXTRA],
    );
    await t.db.query('ANALYZE resource_records');
    matching = (
      await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'farmMaterials' AND data->>'category' = 'other'`)
    ).rows[0].n;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives the planner estimate past the cap and says so with totalExact: false', async () => {
    const r = await call(t, admin, 'GET', `${BASE}?category=other&sort=-unitPrice`);
    expect([r.http, r.status]).toEqual([200, 200]);
    expect(matching).toBeGreaterThan(COUNT_CAP);
    expect(r.data.totalExact).toBe(false);
    // Fresh statistics of a simple distribution: the estimate lands near the truth.
    expect(r.data.total).toBeGreaterThan(matching * 0.7);
    expect(r.data.total).toBeLessThan(matching * 1.3);
    expect(r.data.rows).toHaveLength(20);
    const prices = r.data.rows.map((row: Row) => row.unitPrice);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('never gives an estimate below the rows already known to exist', async () => {
    const pageSize = 500;
    const pageIndex = Math.floor(matching / pageSize);
    const r = await call(t, admin, 'GET', `${BASE}?category=other&pageSize=${pageSize}&pageIndex=${pageIndex}`);
    expect(r.data.rows).toHaveLength(pageSize);
    expect(r.data.total).toBeGreaterThanOrEqual(pageIndex * pageSize);
  });

  it('knows the exact total from a page that is not full, without counting', async () => {
    const pageSize = 500;
    const pageIndex = Math.ceil(matching / pageSize);
    const r = await call(t, admin, 'GET', `${BASE}?category=other&pageSize=${pageSize}&pageIndex=${pageIndex}`);
    expect(r.data.rows).toHaveLength(matching - (pageIndex - 1) * pageSize);
    expect(r.data.total).toBe(matching);
    expect(r.data).not.toHaveProperty('totalExact');
  });

  it('gives the true total on a page past the end, and an exact total under the cap', async () => {
    const far = await call(t, admin, 'GET', `${BASE}?category=other&pageIndex=100000&pageSize=500`);
    expect([far.data.rows.length, far.data.total]).toEqual([0, matching]);
    expect(far.data).not.toHaveProperty('totalExact');
    const fertilizer = (
      await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'farmMaterials' AND data->>'category' = 'fertilizer'`)
    ).rows[0].n;
    // A page size below the number of matches, so that the count runs rather than the short-page rule.
    const pageSize = Math.max(1, fertilizer - 1);
    const small = await call(t, admin, 'GET', `${BASE}?category=fertilizer&pageSize=${pageSize}`);
    expect(small.data.rows).toHaveLength(pageSize);
    expect(small.data.total).toBe(fertilizer);
    // An exact total: no totalExact (the administrator's page of farm materials spans farms).
    expect(Object.keys(small.data).sort()).toEqual(['pageIndex', 'pageSize', 'rows', 'spansFarms', 'total']);
  });

  it.each(['unitPrice', '-unitPrice', 'category', '-category'])('keeps one order across pages when sort values repeat (sort=%s)', async (sort) => {
    const field = sort.replace('-', '') as 'unitPrice' | 'category';
    const desc = sort.startsWith('-');
    const pageSize = 100;
    const seen: Row[] = [];
    for (let pageIndex = 1; seen.length < matching; pageIndex++) {
      const r = await call(t, admin, 'GET', `${BASE}?category=other&sort=${sort}&pageSize=${pageSize}&pageIndex=${pageIndex}`);
      expect(r.data.rows.length).toBeGreaterThan(0);
      seen.push(...r.data.rows);
    }
    // Every match exactly once, in sort order, equal values by id in the same direction.
    expect(new Set(seen.map((row) => row.id)).size).toBe(matching);
    const key = (row: Row) => row[field];
    const expected = [...seen].sort((a, b) => {
      const c = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id;
      return desc ? -c : c;
    });
    expect(seen.map((row) => row.id)).toEqual(expected.map((row) => row.id));
    expect(new Set(seen.map(key)).size).toBeLessThan(seen.length);
  });

  it('filters the same with one value of an "in" filter as with that value among others', async () => {
    const one = await call(t, admin, 'GET', `${BASE}?category=fertilizer&sort=name&pageSize=500`);
    const two = await call(t, admin, 'GET', `${BASE}?category=fertilizer&category=seed&sort=name&pageSize=500`);
    expect(one.data.rows.length).toBeGreaterThan(0);
    expect(one.data.rows.every((row: { category: string }) => row.category === 'fertilizer')).toBe(true);
    const fromTwo = two.data.rows.filter((row: { category: string }) => row.category === 'fertilizer').map((row: { id: number }) => row.id);
    expect(fromTwo).toEqual(one.data.rows.map((row: { id: number }) => row.id));
    expect(two.data.rows.some((row: { category: string }) => row.category === 'seed')).toBe(true);
  });

  it('exports every matching row through the console client although the total is not exact', async () => {
    // Half the rows seen by the statistics, half not (no ANALYZE after them): the estimate
    // is about half the truth, so a full page's total is below the rows that exist, and only
    // a short page may end the export.
    await t.db.query('ALTER TABLE resource_records SET (autovacuum_enabled = false)');
    const farm = await demoOrg(t.db, 'farm');
    const insert = (from: number) =>
      t.db.query(
        `INSERT INTO resource_records(resource, farm_id, bloc_id, data)
         SELECT 'farmMaterials', $1, $2, jsonb_build_object('name', 'late ' || g, 'category', 'seedling', 'unit', '袋', 'unitPrice', g % 7)
           FROM generate_series($3::int, $3::int + 1599) g`,
        [farm.orgId, farm.blocId, from],
      );
    await insert(1);
    await t.db.query('ANALYZE resource_records');
    await insert(1601);
    const late = (
      await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'farmMaterials' AND data->>'category' = 'seedling'`)
    ).rows[0].n;
    const first = await call(t, admin, 'GET', `${BASE}?category=seedling&pageSize=500`);
    expect(first.data.totalExact).toBe(false);
    expect(first.data.total).toBeLessThan(late);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const http = createHttpClient({
      baseUrl: `http://127.0.0.1:${port}`,
      getToken: () => admin,
      getLanguage: () => 'en',
      notifier: createNotifierSlot(),
      translate: (key) => key,
      endSession: () => undefined,
    });
    const { rows } = await fetchAllRows(async (params) => (await http.get<PageReply>(BASE, params)).data, { category: 'seedling', sort: 'unitPrice' }, late + 100);
    expect(rows).toHaveLength(late);
    expect(new Set(rows.map((row) => row.id)).size).toBe(late);
  });

  it('declares totalExact in the OpenAPI document of the page reply', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = r.json();
    const page = doc.paths[BASE].get.responses['200'].content['application/json'].schema.properties.data;
    expect(page.properties.totalExact).toMatchObject({ type: 'boolean' });
    expect(page.required).not.toContain('totalExact');
  });
});
