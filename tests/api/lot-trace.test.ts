/**
 * One step back, one step forward for a harvest lot (docs/harvest-sales-trace.md, "The lot
 * report"): the seeded batch lists exactly the ledger's inputs of its growing window with
 * their material lots and sources, its harvest, and exactly its sales with customers; sorts;
 * another farm's batch is missing. A recall marks the batch (its public page says so in zh, en
 * and es), refuses its sales, and lists the customers it went to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';

describe.each(engines())('the lot report on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let provider: string;

  const ok = async (token: string, url: string) => {
    const r = await call(t, token, 'GET', url);
    expect(r.status, r.raw.body).toBe(200);
    return r.data;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    provider = `Bearer ${await t.login('provider')}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seeded batch: exactly the ledger’s inputs of its growing window with lots and sources, the harvest, exactly its sales', async () => {
    const lot = (
      await t.db.query<{ id: string; batch_no: string; group_id: string; farm_id: number; harvested_on: string; planted_on: string | null; left_qty: string }>(
        `SELECT h.id, h.batch_no, h.group_id, h.farm_id, h.harvested_on::text, g.data->>'plantedOn' AS planted_on, trim_scale(h.quantity - h.sold)::text AS left_qty
           FROM harvests h JOIN resource_records g ON g.id = h.group_id
          WHERE h.farm_id = (SELECT id FROM organisations WHERE name = '禾丰生态农场') ORDER BY h.id LIMIT 1`,
      )
    ).rows[0];
    const report = await ok(farm, `/api/farmHarvest/harvests/${lot.id}/lotTrace`);
    // Back: computed here straight from the ledger, independently of the report's code.
    const inputs = await t.db.query<{ number: string; batch: string; quantity: string }>(
      `SELECT 'CK' || lpad(m.id::text, 6, '0') AS number, l.batch, trim_scale(l.quantity)::text AS quantity
         FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id
        WHERE m.farm_id = $1 AND m.direction = 'out' AND m.reverses_id IS NULL AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = m.id)
          AND (m.group_id = $2 OR m.task_id IN (SELECT id FROM resource_records WHERE resource = 'farmingTasks' AND data->>'groupId' = $2::text))
          AND m.moved_on <= $3::date AND ($4::date IS NULL OR m.moved_on >= $4::date)`,
      [lot.farm_id, lot.group_id, lot.harvested_on, lot.planted_on],
    );
    const back = report.rows.filter((r: Body) => r.step === 'back');
    expect(inputs.rows.length).toBeGreaterThan(2);
    expect(back.map((r: Body) => `${r.reference}/${r.traceabilityLotCode}/${r.quantity}`).sort()).toEqual(inputs.rows.map((r) => `${r.number}/${r.batch}/${Number(r.quantity)}`).sort());
    for (const r of back) {
      expect(r.event).toBe('inputApplied');
      expect(r.counterparty, JSON.stringify(r)).toBeTruthy();
      expect(r.sourceReference, JSON.stringify(r)).toMatch(/^RK\d{6}/);
    }
    const harvest = report.rows.filter((r: Body) => r.step === 'lot');
    expect(harvest).toEqual([expect.objectContaining({ event: 'harvesting', traceabilityLotCode: lot.batch_no, date: lot.harvested_on, referenceType: 'batch' })]);
    const sales = await t.db.query<{ number: string; customer: string; quantity: string }>(
      `SELECT 'XS' || lpad(o.id::text, 6, '0') AS number, o.customer, trim_scale(l.quantity)::text AS quantity FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id WHERE l.harvest_id = $1`,
      [lot.id],
    );
    expect(sales.rows.length).toBeGreaterThan(0);
    const shipped = report.rows.filter((r: Body) => r.event === 'shipping');
    expect(shipped.map((r: Body) => `${r.reference}/${r.counterparty}/${r.quantity}`).sort()).toEqual(sales.rows.map((r) => `${r.number}/${r.customer}/${Number(r.quantity)}`).sort());
    for (const r of shipped) expect(r).toMatchObject({ traceabilityLotCode: lot.batch_no, contact: expect.stringMatching(/^0451-/) });
    expect(report.rows.filter((r: Body) => r.event === 'onHand')).toEqual([expect.objectContaining({ quantity: Number(lot.left_qty) })]);
    // The default order reads as the lot's story: back (by date), the harvest, forward.
    expect(report.rows.map((r: Body) => r.step)).toEqual([...back.map(() => 'back'), 'lot', ...report.rows.filter((r: Body) => r.step === 'forward').map(() => 'forward')]);
    expect(report.total).toBe(report.rows.length);
  });

  it('sorts by any key data element, refuses an unknown one, and answers another farm’s batch as missing', async () => {
    const id = (await t.db.query<{ id: string }>(`SELECT min(id) AS id FROM harvests WHERE farm_id = (SELECT id FROM organisations WHERE name = '禾丰生态农场')`)).rows[0].id;
    const byQuantity = (await ok(farm, `/api/farmHarvest/harvests/${id}/lotTrace?sort=-quantity`)).rows.map((r: Body) => Number(r.quantity));
    expect(byQuantity).toEqual([...byQuantity].sort((a, b) => b - a));
    const byDate = (await ok(farm, `/api/farmHarvest/harvests/${id}/lotTrace?sort=date,-quantity`)).rows.map((r: Body) => String(r.date));
    expect(byDate).toEqual([...byDate].sort());
    const paged = await ok(farm, `/api/farmHarvest/harvests/${id}/lotTrace?pageSize=2&pageIndex=2`);
    expect(paged.rows.length).toBe(2);
    expect(paged.total).toBeGreaterThan(4);
    expect((await call(t, farm, 'GET', `/api/farmHarvest/harvests/${id}/lotTrace?sort=price`)).status).toBe(40001);
    expect((await call(t, farm2, 'GET', `/api/farmHarvest/harvests/${id}/lotTrace`)).status).toBe(40401);
  });

  it('the seeded recall: the early batch says recalled on its page, cannot be sold, and its report lists its buyers', async () => {
    const { rows } = await t.db.query<{ id: string; batch_no: string; code: string | null; reason: string }>(
      `SELECT h.id, h.batch_no, c.code, h.recall_reason AS reason FROM harvests h LEFT JOIN trace_codes c ON c.harvest_id = h.id
        WHERE h.recalled_at IS NOT NULL AND EXISTS (SELECT 1 FROM recalls r WHERE r.kind = 'batch' AND r.harvest_id = h.id)`,
    );
    expect(rows.length).toBe(1);
    const [b] = rows;
    expect(b.code).toBeTruthy();
    const batch = await ok(farm, `/api/farmHarvest/harvests/${b.id}`);
    expect(batch).toMatchObject({ recalled: true, recallReason: b.reason, safety: 'inInterval' });
    const zh = (await t.app.inject({ method: 'GET', url: `/t/${b.code}`, headers: { 'accept-language': 'zh' } })).body;
    expect(zh).toMatch(/本批次已召回（\d{4}-\d{2}-\d{2}）：复检发现代森锰锌残留超过国家标准限量，主动召回已售产品。如果您购买了本批次产品，请停止食用/);
    expect((await t.app.inject({ method: 'GET', url: `/t/${b.code}`, headers: { 'accept-language': 'en' } })).body).toContain('This batch was recalled on');
    expect((await t.app.inject({ method: 'GET', url: `/t/${b.code}`, headers: { 'accept-language': 'es' } })).body).toContain('Este lote fue retirado el');
    const sale = await call(t, farm, 'POST', '/api/marketing/sale/orders', { customer: '新客户', orderedOn: '2035-01-02', lines: [{ harvestId: Number(b.id), quantity: 1, unitPrice: 2 }] });
    expect(sale.status).toBe(40001);
    expect(sale.data.errors).toEqual([{ field: 'lines.0.harvestId', message: `批次 ${b.batch_no} 已召回，不能再销售` }]);
    const report = await ok(farm, `/api/farmHarvest/harvests/${b.id}/lotTrace`);
    expect(report.rows.find((r: Body) => r.step === 'lot').status).toBe('recalled');
    expect(report.rows.filter((r: Body) => r.event === 'shipping').length).toBeGreaterThan(0);
  });

  it('a recall marks the batch, refuses its sales in zh/en/es, lists exactly its confirmed buyers, and happens once', async () => {
    const group = (await ok(farm, '/api/farmPlantGroup/groups/page?pageSize=1&sort=id')).rows[0];
    const post = (token: string, url: string, body: unknown, lang = 'zh') => call(t, token, 'POST', url, body, lang);
    const b = (await post(farm, '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: '2035-08-01', quantity: 100, unit: '公斤', grade: 'first' })).data;
    const sell = (customer: string, quantity: number, lang = 'zh') =>
      post(farm, '/api/marketing/sale/orders', { customer, customerPhone: '0451-55550000', orderedOn: '2035-08-02', lines: [{ harvestId: b.id, quantity, unitPrice: 3 }] }, lang);
    expect((await sell('甲超市', 10)).status).toBe(200);
    expect((await sell('乙食堂', 20)).status).toBe(200);
    const cancelled = (await sell('丙饭店', 5)).data;
    expect((await post(farm, `/api/marketing/sale/orders/${cancelled.id}/cancel`, {})).status).toBe(200);
    expect((await post(provider, `/api/farmHarvest/harvests/${b.id}/recall`, { reason: '客户投诉异味' })).status).toBe(40301);
    expect((await post(farm2, `/api/farmHarvest/harvests/${b.id}/recall`, { reason: '客户投诉异味' })).status).toBe(40401);
    const short = await post(farm, `/api/farmHarvest/harvests/${b.id}/recall`, { reason: '  x ' });
    expect(short.status).toBe(40001);
    expect(short.data.errors[0].field).toBe('reason');
    const recalled = await post(farm, `/api/farmHarvest/harvests/${b.id}/recall`, { reason: '客户投诉异味，送检确认' });
    expect(recalled.status, recalled.raw.body).toBe(200);
    expect(recalled.data).toMatchObject({ recalled: true, recallReason: '客户投诉异味，送检确认' });
    expect(recalled.data.contacts.map((c: Body) => `${c.customer}/${c.phone}/${c.quantity}`).sort()).toEqual(['乙食堂/0451-55550000/20', '甲超市/0451-55550000/10']);
    const again = await post(farm, `/api/farmHarvest/harvests/${b.id}/recall`, { reason: '再次召回' });
    expect(again.status).toBe(40001);
    expect(again.data.errors[0].message).toBe(`批次 ${b.batchNo} 已经召回`);
    const sentences = { zh: `批次 ${b.batchNo} 已召回，不能再销售`, en: `Batch ${b.batchNo} has been recalled and cannot be sold`, es: `El lote ${b.batchNo} ha sido retirado y no se puede vender` };
    const orders = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sales_orders')).rows[0].n;
    const before = await orders();
    for (const [lang, sentence] of Object.entries(sentences)) expect((await sell('丁商店', 1, lang)).data.errors).toEqual([{ field: 'lines.0.harvestId', message: sentence }]);
    expect(await orders()).toBe(before);
    const log = await t.db.query(`SELECT 1 FROM operation_log WHERE action = 'harvests.recall' AND record_id = $1`, [String(b.id)]);
    expect(log.rows.length).toBe(1);
  });
});
