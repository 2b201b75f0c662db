import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { COUNT_CAP } from '../../server/resources/page.ts';
import { call, demoOrg } from './resource-fixtures.ts';

// The page query counts matches up to a cap (docs/resources.md, "The page shape"):
// these tests put more than COUNT_CAP records of one farm behind one filter value.
const EXTRA = COUNT_CAP + 50;
const BASE = '/api/farmMaterials/list/page';

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
       SELECT 'farmMaterials', $1, $2, jsonb_build_object('name', 'count ' || g, 'category', 'other', 'unit', '袋', 'unitPrice', g % 997)
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

  it('stops counting at the cap and says so with totalExact: false', async () => {
    const r = await call(t, admin, 'GET', `${BASE}?category=other&sort=-unitPrice`);
    expect([r.http, r.status]).toEqual([200, 200]);
    expect(matching).toBeGreaterThan(COUNT_CAP);
    expect(r.data.total).toBe(COUNT_CAP);
    expect(r.data.totalExact).toBe(false);
    expect(r.data.rows).toHaveLength(20);
    const prices = r.data.rows.map((row: { unitPrice: number }) => row.unitPrice);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('counts to the end of a page past the cap, so that the pager offers the next page', async () => {
    const pageSize = 500;
    const pageIndex = Math.ceil(COUNT_CAP / pageSize) + 1;
    const r = await call(t, admin, 'GET', `${BASE}?category=other&pageSize=${pageSize}&pageIndex=${pageIndex}`);
    const limit = (pageIndex + 1) * pageSize;
    if (matching <= limit) {
      expect(r.data.total).toBe(matching);
      expect(r.data).not.toHaveProperty('totalExact');
    } else {
      expect([r.data.total, r.data.totalExact]).toEqual([limit, false]);
    }
    expect(r.data.rows).toHaveLength(Math.min(pageSize, matching - (pageIndex - 1) * pageSize));
  });

  it('gives the true total on a page past the end, and an exact total under the cap', async () => {
    const far = await call(t, admin, 'GET', `${BASE}?category=other&pageIndex=100000&pageSize=500`);
    expect([far.data.rows.length, far.data.total]).toEqual([0, matching]);
    expect(far.data).not.toHaveProperty('totalExact');
    const small = await call(t, admin, 'GET', `${BASE}?category=fertilizer`);
    const fertilizer = (
      await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'farmMaterials' AND data->>'category' = 'fertilizer'`)
    ).rows[0].n;
    expect(small.data.total).toBe(fertilizer);
    expect(Object.keys(small.data).sort()).toEqual(['pageIndex', 'pageSize', 'rows', 'total']);
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

  it('declares totalExact in the OpenAPI document of the page reply', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = r.json();
    const page = doc.paths[BASE].get.responses['200'].content['application/json'].schema.properties.data;
    expect(page.properties.totalExact).toMatchObject({ type: 'boolean' });
    expect(page.required).not.toContain('totalExact');
  });
});
