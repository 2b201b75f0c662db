/**
 * The material-lot report and recalls (issue 25 items 3, 4 and 6; docs/harvest-sales-trace.md):
 * the seeded story (a supplier's fungicide lot traced to one batch and two customers, the
 * recall in progress); a material-lot recall marks exactly the batches the lot reached,
 * refuses their sales, says recalled on their pages, lists and notifies their customers
 * (notices and the SMS mailbox); progress is reconciled against what was sold; the reports
 * export as CSV (neutralised) and XLSX in the FSMA 204 shape.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';

describe.each(engines())('material lots and recalls on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let provider: string;

  const ok = async (token: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, lang = 'zh') => {
    const r = await call(t, token, method, url, body, lang);
    expect(r.status, r.raw.body).toBe(200);
    return r.data;
  };
  const mailbox = () => (existsSync(t.config.smsMailbox) ? readFileSync(t.config.smsMailbox, 'utf8') : '');

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    provider = `Bearer ${await t.login('provider')}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seeded story: the recalled fungicide lot reached one batch and two customers; the batch’s report lists exactly its inputs, lots, suppliers, sales and customers', async () => {
    const material = (await t.db.query<{ id: string }>(`SELECT id FROM resource_records WHERE resource = 'farmMaterials' AND data->>'goodsCode' = 'NT-BMJ-10'`)).rows[0].id;
    const report = await ok(farm, 'GET', `/api/farmHarvest/materialLots/trace?materialId=${material}&lot=BJ2409-07`);
    const events = (e: string) => report.rows.filter((r: Body) => r.event === e);
    expect(events('receiving')).toEqual([expect.objectContaining({ step: 'back', traceabilityLotCode: 'BJ2409-07', quantity: 10, counterparty: expect.any(String), reference: expect.stringMatching(/^RK\d{6}$/) })]);
    expect(events('inputApplied').length).toBe(1);
    const [batch] = events('harvesting');
    expect(events('harvesting').length).toBe(1);
    expect(batch).toMatchObject({ status: 'recalled', sourceReference: 'BJ2409-07' });
    expect(events('shipping').map((r: Body) => r.counterparty).sort()).toEqual(['大庆百汇生鲜超市', '齐齐哈尔惠民社区团购']);

    // The batch's own report, against the ledger and the sales read here independently.
    const h = (await t.db.query<{ id: string; farm_id: number; group_id: string; harvested_on: string; planted_on: string | null }>(
      `SELECT h.id, h.farm_id, h.group_id, h.harvested_on::text, g.data->>'plantedOn' AS planted_on FROM harvests h JOIN resource_records g ON g.id = h.group_id WHERE h.batch_no = $1`,
      [batch.traceabilityLotCode],
    )).rows[0];
    const lotReport = await ok(farm, 'GET', `/api/farmHarvest/harvests/${h.id}/lotTrace`);
    const inputs = await t.db.query<{ number: string; batch: string; supplier: string | null }>(
      `SELECT 'CK' || lpad(m.id::text, 6, '0') AS number, l.batch,
              (SELECT coalesce(su.data->>'name', '') FROM material_movements i JOIN material_movement_lines li ON li.movement_id = i.id LEFT JOIN resource_records su ON su.id = i.supplier_id
                WHERE i.direction = 'in' AND li.material_id = l.material_id AND li.batch = l.batch AND i.farm_id = m.farm_id ORDER BY i.moved_on LIMIT 1) AS supplier
         FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id
        WHERE m.farm_id = $1 AND m.direction = 'out' AND m.reverses_id IS NULL AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = m.id)
          AND (m.group_id = $2 OR m.task_id IN (SELECT id FROM resource_records WHERE resource = 'farmingTasks' AND data->>'groupId' = $2::text))
          AND m.moved_on <= $3::date AND ($4::date IS NULL OR m.moved_on >= $4::date)`,
      [h.farm_id, h.group_id, h.harvested_on, h.planted_on],
    );
    const back = lotReport.rows.filter((r: Body) => r.step === 'back');
    expect(back.map((r: Body) => `${r.reference}/${r.traceabilityLotCode}`).sort()).toEqual(inputs.rows.map((r) => `${r.number}/${r.batch}`).sort());
    expect(back.map((r: Body) => r.traceabilityLotCode)).toContain('BJ2409-07');
    for (const r of back) {
      const i = inputs.rows.find((x) => x.number === r.reference && x.batch === r.traceabilityLotCode)!;
      if (i.supplier) expect(r.counterparty).toBe(i.supplier);
    }
    const sales = await t.db.query<{ customer: string; phone: string; quantity: string }>(
      `SELECT o.customer, o.customer_phone AS phone, trim_scale(l.quantity)::text AS quantity FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id WHERE l.harvest_id = $1`,
      [h.id],
    );
    expect(lotReport.rows.filter((r: Body) => r.event === 'shipping').map((r: Body) => `${r.counterparty}/${r.contact}/${r.quantity}`).sort()).toEqual(sales.rows.map((s) => `${s.customer}/${s.phone}/${Number(s.quantity)}`).sort());

    // The recall is in progress: one buyer contacted with part returned, one still to reach.
    const recalls = (await ok(farm, 'GET', '/api/farmHarvest/recalls/page?kind=materialLot')).rows;
    const recall = recalls.find((r: Body) => String(r.subject).includes('BJ2409-07'));
    expect(recall).toMatchObject({ customers: 2, contacted: 1, reconciled: 0, state: 'open', batches: batch.traceabilityLotCode });
    const contacts = (await ok(farm, 'GET', `/api/farmHarvest/recalls/${recall.id}/contacts/page`)).rows;
    expect(contacts.map((c: Body) => `${c.customer}/${c.state}`).sort()).toEqual(['大庆百汇生鲜超市/contacted', '齐齐哈尔惠民社区团购/toContact']);
    expect((await call(t, farm2, 'GET', `/api/farmHarvest/recalls/${recall.id}`)).status).toBe(40401);
  });

  it('a material-lot recall marks exactly the batches the lot reached, refuses their sales, says so on their pages, and notifies their customers', async () => {
    const groups = (await ok(farm, 'GET', '/api/farmPlantGroup/groups/page?pageSize=3&sort=id')).rows;
    const [g1, g2, g3] = groups;
    const store = (await ok(farm, 'GET', '/api/farmMaterials/stores/page?pageSize=1&sort=id')).rows[0].id;
    const fungicide = await ok(farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'RC-F1', name: '召回测试杀菌剂', category: 'pesticide', unit: '袋', safetyIntervalDays: 2 });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockIn', { storeId: store, movedOn: '2036-04-01', lines: [{ materialId: fungicide.id, batch: 'LOT-BAD', quantity: 10, unitPrice: 5 }, { materialId: fungicide.id, batch: 'LOT-GOOD', quantity: 10, unitPrice: 5 }] });
    const out = (groupId: number, batch: string, movedOn: string) => ok(farm, 'POST', '/api/farmMaterials/movements/stockOut', { storeId: store, movedOn, groupId, lines: [{ materialId: fungicide.id, batch, quantity: 1 }] });
    await out(g1.id, 'LOT-BAD', '2036-05-10');
    await out(g2.id, 'LOT-GOOD', '2036-05-10');
    const reversed = await out(g3.id, 'LOT-BAD', '2036-05-10');
    await ok(farm, 'POST', `/api/farmMaterials/movements/${reversed.id}/reverse`, {});
    const harvest = (groupId: number, on: string) => ok(farm, 'POST', '/api/farmHarvest/harvests', { groupId, harvestedOn: on, quantity: 100, unit: '公斤', grade: 'first' });
    const before = await harvest(g1.id, '2036-05-09');
    const reached1 = await harvest(g1.id, '2036-05-20');
    const reached2 = await harvest(g1.id, '2036-06-01');
    const otherLot = await harvest(g2.id, '2036-05-20');
    const reversedOnly = await harvest(g3.id, '2036-05-20');
    const sell = (harvestId: number, customer: string, phone: string, quantity: number, lang = 'zh') =>
      call(t, farm, 'POST', '/api/marketing/sale/orders', { customer, customerPhone: phone, orderedOn: '2036-06-05', lines: [{ harvestId, quantity, unitPrice: 3 }] }, lang);
    expect((await sell(reached1.id, '=HYPERLINK("x")超市', '13800000001', 10)).status).toBe(200);
    expect((await sell(reached1.id, '=HYPERLINK("x")超市', '13800000001', 5)).status).toBe(200);
    expect((await sell(reached2.id, '东风食堂', '13800000002', 20)).status).toBe(200);
    expect((await sell(otherLot.id, '不相干客户', '13800000003', 7)).status).toBe(200);
    const code = (await ok(farm, 'POST', '/api/trackInfoManage/codes', { harvestId: reached1.id })).code;

    // The report before the recall: the reached batches and their customers, nothing else.
    const report = await ok(farm, 'GET', `/api/farmHarvest/materialLots/trace?materialId=${fungicide.id}&lot=LOT-BAD`);
    expect(report.rows.filter((r: Body) => r.event === 'harvesting').map((r: Body) => r.traceabilityLotCode).sort()).toEqual([reached1.batchNo, reached2.batchNo].sort());
    expect(report.rows.filter((r: Body) => r.event === 'inputApplied').length).toBe(1);
    expect((await call(t, farm2, 'GET', `/api/farmHarvest/materialLots/trace?materialId=${fungicide.id}&lot=LOT-BAD`)).status).toBe(40401);

    const recallBody = { kind: 'materialLot', materialId: fungicide.id, lot: 'LOT-BAD', reason: '供应商召回：有效成分不合格' };
    expect((await call(t, provider, 'POST', '/api/farmHarvest/recalls', recallBody)).status).toBe(40301);
    expect((await call(t, farm2, 'POST', '/api/farmHarvest/recalls', recallBody)).status).toBe(40001);
    const unknownLot = await call(t, farm, 'POST', '/api/farmHarvest/recalls', { ...recallBody, lot: 'NO-SUCH' });
    expect(unknownLot.data.errors).toEqual([{ field: 'lot', message: '台账里没有 召回测试杀菌剂 批号 NO-SUCH 的出入库记录' }]);
    const sent = mailbox().length;
    const recall = await ok(farm, 'POST', '/api/farmHarvest/recalls', recallBody);
    expect(recall).toMatchObject({ kind: 'materialLot', customers: 2, contacted: 0, state: 'open' });
    const marked = (await t.db.query<{ id: string }>('SELECT id FROM harvests WHERE recalled_at IS NOT NULL AND id = ANY($1::bigint[]) ORDER BY id', [[before.id, reached1.id, reached2.id, otherLot.id, reversedOnly.id]])).rows.map((r) => Number(r.id));
    expect(marked).toEqual([reached1.id, reached2.id]);
    expect((await call(t, farm, 'POST', '/api/farmHarvest/recalls', recallBody)).data.errors[0]).toEqual({ field: 'lot', message: `召回测试杀菌剂 批号 LOT-BAD 已经召回（${recall.number}）` });

    // Sales of the reached batches are refused; the others still sell.
    expect((await sell(reached2.id, '新客户', '13800000009', 1, 'en')).data.errors).toEqual([{ field: 'lines.0.harvestId', message: `Batch ${reached2.batchNo} has been recalled and cannot be sold` }]);
    expect((await sell(before.id, '新客户', '13800000009', 1)).status).toBe(200);
    // The public page says so in the visitor's language.
    const page = async (lang: string) => (await t.app.inject({ method: 'GET', url: `/t/${code}`, headers: { 'accept-language': lang } })).body;
    expect(await page('zh')).toContain('本批次已召回');
    expect(await page('en')).toContain('This batch was recalled on');
    expect(await page('es')).toContain('Este lote fue retirado el');

    // The customers: per batch and customer, with contact and quantity (two orders of one buyer add up).
    const contacts = (await ok(farm, 'GET', `/api/farmHarvest/recalls/${recall.id}/contacts/page`)).rows;
    expect(contacts.map((c: Body) => `${c.batchNo}/${c.customer}/${c.phone}/${c.sold}/${c.sms}`).sort()).toEqual(
      [`${reached1.batchNo}/=HYPERLINK("x")超市/13800000001/15/sent`, `${reached2.batchNo}/东风食堂/13800000002/20/sent`].sort(),
    );
    // The SMS mailbox got one recall text per customer, naming the batch and the quantity.
    const texts = mailbox().slice(sent).trim().split('\n');
    expect(texts.length).toBe(2);
    expect(texts.find((l) => l.includes('\t13800000001\trecall\t'))).toContain(`批次 ${reached1.batchNo}，15 公斤`);
    expect(texts.find((l) => l.includes('\t13800000002\trecall\t'))).toContain(`批次 ${reached2.batchNo}，20 公斤`);
    // The notice reached the farm's users.
    const notice = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notices n JOIN notice_receipts r ON r.notice_id = n.id JOIN users u ON u.id = r.user_id WHERE n.title = $1 AND u.username = 'farm'`,
      [`召回 ${recall.number}：召回测试杀菌剂 LOT-BAD`],
    );
    expect(notice.rows[0].n).toBe(1);

    // The export, CSV (a formula-like customer neutralised) and XLSX.
    const csv = await t.app.inject({ method: 'GET', url: `/api/farmHarvest/materialLots/trace/export?materialId=${fungicide.id}&lot=LOT-BAD&format=csv`, headers: { authorization: farm, 'accept-language': 'en' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Step,Critical tracking event (CTE),Date,Traceability lot code (TLC),Product / input,Quantity,Unit of measure,Location,Source / recipient,Contact,Reference document type,Reference document number,Source reference,Status');
    expect(lines.length).toBe(report.rows.length + 1);
    expect(csv.body).toContain(`"'=HYPERLINK(""x"")超市"`);
    expect(csv.body).toContain('Shipping');
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/farmHarvest/harvests/${reached1.id}/lotTrace/export?format=xlsx`, headers: { authorization: farm } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await t.app.inject({ method: 'GET', url: `/api/farmHarvest/harvests/${reached1.id}/lotTrace/export?format=csv`, headers: { authorization: farm2 } })).json().status).toBe(40401);
  });

  it('records progress per customer and refuses returned + destroyed beyond what was sold, in zh/en/es', async () => {
    const recall = (await ok(farm, 'GET', '/api/farmHarvest/recalls/page?keyword=LOT-BAD')).rows[0];
    const contact = (await ok(farm, 'GET', `/api/farmHarvest/recalls/${recall.id}/contacts/page`)).rows.find((c: Body) => c.customer === '东风食堂');
    const put = (token: string, body: Body, lang = 'zh') => call(t, token, 'PUT', `/api/farmHarvest/recallContacts/${contact.id}`, body, lang);
    const sentences = {
      zh: `退回 12 + 销毁 8.5 = 20.5 公斤，超过了批次 ${contact.batchNo} 卖给 东风食堂 的 20 公斤`,
      en: `Returned 12 + destroyed 8.5 = 20.5 公斤, more than the 20 公斤 of batch ${contact.batchNo} sold to 东风食堂`,
      es: `Devuelto 12 + destruido 8.5 = 20.5 公斤, más que los 20 公斤 del lote ${contact.batchNo} vendidos a 东风食堂`,
    };
    for (const [lang, message] of Object.entries(sentences)) {
      const refused = await put(farm, { contacted: true, returned: 12, destroyed: 8.5 }, lang);
      expect(refused.status).toBe(40001);
      expect(refused.data.errors).toEqual([{ field: 'returned', message }, { field: 'destroyed', message }]);
    }
    expect((await ok(farm, 'GET', `/api/farmHarvest/recallContacts/${contact.id}`))).toMatchObject({ returned: 0, destroyed: 0, contacted: false });
    expect((await put(provider, { contacted: true, returned: 1, destroyed: 0 })).status).toBe(40301);
    expect((await put(farm2, { contacted: true, returned: 1, destroyed: 0 })).status).toBe(40401);
    // A quantity back means the customer was reached.
    expect(await ok(farm, 'PUT', `/api/farmHarvest/recallContacts/${contact.id}`, { contacted: false, returned: 12, destroyed: 0 })).toMatchObject({ contacted: true, returned: 12, outstanding: 8, state: 'contacted' });
    expect(await ok(farm, 'PUT', `/api/farmHarvest/recallContacts/${contact.id}`, { contacted: true, returned: 12, destroyed: 8, note: '剩余部分现场销毁' })).toMatchObject({ outstanding: 0, state: 'reconciled' });
    expect((await ok(farm, 'GET', `/api/farmHarvest/recalls/${recall.id}`))).toMatchObject({ customers: 2, contacted: 1, reconciled: 1, state: 'open' });
    const log = await t.db.query(`SELECT 1 FROM operation_log WHERE action = 'recalls.progress' AND record_id = $1`, [String(recall.id)]);
    expect(log.rows.length).toBe(2);
  });
});
