/**
 * The seedling base's demo land, devices and marketing (server/land/nursery-seed.ts,
 * server/devices/seed.ts, server/harvest/seed.ts): seedlings for sale, brand pages and the
 * season's accounts; a compound with two nursery houses, a store and its people; the
 * first house has sensors with a month of readings, a misting valve, a heater and a camera,
 * two scenarios and a cleared alarm, each device placed inside the house's shape — and the
 * two demo farms' devices stay their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';

type Units = { units: { unit: string; devices: { code: string; kind: string; farmId: number }[] }[] };

for (const engine of engines()) {
  describe(`the seedling base's land, devices and marketing on ${engine.name}`, () => {
    let t: TestApp;
    let nursery: string;
    let nurseryId: number;
    beforeAll(async () => {
      t = await createTestApp(engine);
      nursery = await t.login('nursery');
      nurseryId = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'nursery'`)).rows[0].org_id;
    });
    afterAll(async () => t?.close());

    it('shows its nursery house with sensors, a misting valve, a heater and a camera, and nothing of the farms', async () => {
      const reply = await call(t, nursery, 'GET', '/api/devices/units');
      expect(reply.status).toBe(200);
      const { units } = reply.data as Units;
      expect(units.map((u) => u.unit)).toEqual(['育苗一号连栋温室']);
      const devices = units[0].devices;
      expect(devices.every((d) => d.farmId === nurseryId)).toBe(true);
      expect(devices.map((d) => d.kind).sort()).toEqual(['airConditioner', 'camera', 'sensor', 'sensor', 'sensor', 'switch', 'valve']);
    });

    it('has a month of hourly air temperatures, two scenarios, an alarm in its history, and every device on its map', async () => {
      const to = new Date();
      const from = new Date(to.getTime() - 29 * 86_400_000);
      const series = await call(t, nursery, 'GET', `/api/devices/readings/series?kind=airTemperature&from=${from.toISOString()}&to=${to.toISOString()}&bucket=day`);
      expect(series.status).toBe(200);
      const points = JSON.stringify(series.data);
      expect(points).toContain('育苗一号连栋温室');
      const { rows } = await t.db.query<{ readings: number; scenarios: number; alarms: number; unplaced: number }>(
        `SELECT (SELECT count(*)::int FROM device_readings WHERE farm_id = $1) AS readings,
                (SELECT count(*)::int FROM device_scenarios WHERE farm_id = $1) AS scenarios,
                (SELECT count(*)::int FROM device_alarms WHERE farm_id = $1) AS alarms,
                (SELECT count(*)::int FROM devices WHERE farm_id = $1 AND (lng IS NULL OR lat IS NULL)) AS unplaced`,
        [nurseryId],
      );
      // 6 channels × 30 days × 24 hours.
      expect(rows[0]).toEqual({ readings: 6 * 30 * 24, scenarios: 2, alarms: 1, unplaced: 0 });
    });

    it('has its compound on the land screens: a boundary, two nursery houses with shapes, facilities and people', async () => {
      const page = async (base: string) => ((await call(t, nursery, 'GET', `${base}/page?pageIndex=1&pageSize=50`)).data as { rows: Record<string, unknown>[] }).rows;
      const houses = await page('/api/land/greenhouses');
      expect(houses.map((h) => h.name).sort()).toEqual(['育苗一号连栋温室', '育苗二号连栋温室']);
      expect(houses.every((h) => typeof h.geometry === 'string' && Number(h.areaMu) > 0)).toBe(true);
      expect((await page('/api/land/boundaries')).length).toBe(1);
      expect((await page('/api/land/facilities')).map((f) => f.name)).toContain('基质与农资仓库');
      expect((await page('/api/land/people')).length).toBeGreaterThanOrEqual(5);
    });

    it('sells its seedlings per plant, has brand pages, and accounts whose summary adds up to the fen', async () => {
      const page = async (base: string) => ((await call(t, nursery, 'GET', `${base}/page?pageIndex=1&pageSize=50`)).data as { rows: Record<string, unknown>[] }).rows;
      const products = await page('/api/marketing/products');
      expect(products.length).toBe(4);
      expect(products.every((p) => p.unit === '株')).toBe(true);
      expect((await page('/api/marketing/brand')).map((a) => a.kind).sort()).toEqual(['article', 'certificate', 'story']);
      const year = new Date().toISOString().slice(0, 4);
      const period = `from=${year}-01-01&to=${year}-12-31`;
      const summary = await call(t, nursery, 'GET', `/api/farmAccounting/summary?${period}`);
      expect(summary.status).toBe(200);
      const entries = ((await call(t, nursery, 'GET', `/api/farmAccounting/entries/page?${period}&pageIndex=1&pageSize=200`)).data as { rows: { direction: string; amount: string; note: string | null }[] }).rows;
      // The seedling income and the subsidy by hand, and the materials bought (posted by the purchases).
      expect(entries.filter((e) => e.direction === 'income').map((e) => e.note)).toEqual(expect.arrayContaining(['辣椒穴盘苗 9.8 万株（寿光市洛城街道蔬菜合作社）', '集约化育苗补贴']));
      const cents = (direction: string) => entries.filter((e) => e.direction === direction).reduce((sum, e) => sum + Math.round(Number(e.amount) * 100), 0);
      const text = (c: number) => `${Math.trunc(c / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;
      expect(cents('income')).toBe(10_400_000);
      expect(summary.data).toMatchObject({ income: text(cents('income')), expense: text(cents('expense')), profit: text(cents('income') - cents('expense')) });
    });
  
    it('lifted last season’s seedlings in batches per plant and sold them: orders, income posted from them, a trace code', async () => {
      const page = async (base: string) => ((await call(t, nursery, 'GET', `${base}/page?pageIndex=1&pageSize=50`)).data as { rows: Record<string, unknown>[]; total: number });
      const batches = await page('/api/farmHarvest/harvests');
      expect(batches.total).toBe(2);
      expect(batches.rows.every((b) => b.unit === '株' && Number(b.sold) > 0 && Number(b.sold) <= Number(b.quantity))).toBe(true);
      const orders = await page('/api/marketing/sale/orders');
      expect(orders.total).toBe(4);
      const { rows } = await t.db.query<{ sold: string; lines: string; income: string; totals: string; codes: number }>(
        `SELECT (SELECT sum(sold) FROM harvests WHERE farm_id = $1) AS sold,
                (SELECT sum(l.quantity) FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id WHERE o.farm_id = $1) AS lines,
                (SELECT sum(amount) FROM account_entries WHERE farm_id = $1 AND source = 'sale') AS income,
                (SELECT sum(total) FROM sales_orders WHERE farm_id = $1) AS totals,
                (SELECT count(*)::int FROM trace_codes WHERE farm_id = $1) AS codes`,
        [nurseryId],
      );
      // What the batches say is sold is what the order lines drew; each order's income is posted once.
      expect(Number(rows[0].sold)).toBe(150_000);
      expect(Number(rows[0].lines)).toBe(150_000);
      expect(rows[0].income).toBe(rows[0].totals);
      expect(Number(rows[0].totals)).toBe(60000 * 0.85 + 36000 * 0.82 + 30000 * 0.85 + 24000 * 0.8);
      expect(rows[0].codes).toBe(1);
    });
  });
}
