/**
 * Harvest, sales, accounts and traceability (server/harvest, docs/harvest-sales-trace.md) on
 * every engine: a batch is never sold beyond what was harvested, also with 20 orders at once;
 * totals and period reports exact to the fen; a harvest inside a pesticide's safety interval
 * is flagged with the stock-out that causes it; the public trace page shows the batch and
 * nothing private, survives bad codes, and limits floods of reviews.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';

describe.each(engines())('harvest, sales and trace on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let provider: string;
  let group: Body;
  let farm2Group: Body;

  const ok = async (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    const r = await call(t, token, method, url, body);
    expect(r.status, r.raw.body).toBe(200);
    return r.data;
  };
  const harvest = (token: string, groupId: unknown, quantity: number, harvestedOn = '2025-09-20') =>
    call(t, token, 'POST', '/api/farmHarvest/harvests', { groupId, harvestedOn, quantity, unit: '公斤', grade: 'first' });
  const sell = (token: string, lines: Body[], lang = 'zh', orderedOn = '2025-09-22') => call(t, token, 'POST', '/api/marketing/sale/orders', { customer: '测试客户', orderedOn, lines }, lang);
  const batch = async (id: unknown) => (await t.db.query<{ quantity: string; sold: string }>('SELECT quantity::text, sold::text FROM harvests WHERE id = $1', [id])).rows[0];

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    provider = `Bearer ${await t.login('provider')}`;
    group = (await ok(farm, 'GET', '/api/farmPlantGroup/groups/page?pageSize=1&sort=id')).rows[0];
    farm2Group = (await ok(farm2, 'GET', '/api/farmPlantGroup/groups/page?pageSize=1&sort=id')).rows[0];
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seed: batches, sales, accounts, trace codes and reviews per farm; the provider sees its farms', async () => {
    for (const token of [farm, farm2]) {
      expect((await ok(token, 'GET', '/api/farmHarvest/harvests/page')).total).toBeGreaterThan(2);
      expect((await ok(token, 'GET', '/api/marketing/sale/orders/page')).total).toBeGreaterThan(1);
      expect((await ok(token, 'GET', '/api/farmAccounting/entries/page?source=manual')).total).toBe(7);
      expect((await ok(token, 'GET', '/api/trackInfoManage/codes/page')).total).toBe(2);
      expect((await ok(token, 'GET', '/api/commentSuggestion/page')).total).toBe(5);
      // Every tab of quality and safety has records: the farm's certificates and soil, the process checks, the outputs' residue tests.
      for (const kind of ['certification', 'soilTest', 'processCheck', 'residueTest'])
        expect((await ok(token, 'GET', `/api/qualityandSafety/records/page?kind=${kind}`)).total, kind).toBeGreaterThan(0);
    }
    const mismatch = await t.db.query(`SELECT h.id FROM harvests h WHERE h.sold <> coalesce((SELECT sum(l.quantity) FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id WHERE l.harvest_id = h.id AND o.status = 'confirmed'), 0)`);
    expect(mismatch.rows).toEqual([]);
    const farms = await ok(provider, 'GET', '/api/yxhome/farms/page');
    expect(farms.rows.map((r: Body) => r.name).sort()).toEqual(['嫩江源合作农场', '禾丰生态农场'].sort());
    expect(Number((await ok(provider, 'GET', '/api/yxhome/overview')).salesIncome)).toBeGreaterThan(0);
  });

  it('a harvest gets a generated batch number; bad input and another farm’s group are refused', async () => {
    const r = await harvest(farm, group.id, 100.5);
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.batchNo).toMatch(/^PC20250920-\d{6}$/);
    expect(r.data).toMatchObject({ quantity: 100.5, sold: 0, left: 100.5, unit: '公斤' });
    const other = await harvest(farm, farm2Group.id, 10);
    expect(other.status).toBe(40001);
    expect(other.data.errors.map((e: Body) => e.field)).toEqual(['groupId']);
    const bad = await call(t, farm, 'POST', '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: '2025-13-01', quantity: -1, unit: '公斤', grade: 'best' });
    expect(bad.status).toBe(40001);
    expect((await harvest(farm, group.id, 1.2345)).data.errors[0].field).toBe('quantity');
  });

  it('overselling a batch is refused on the line with what is left, in the caller’s language, nothing changed', async () => {
    const b = (await harvest(farm, group.id, 10)).data;
    const first = await sell(farm, [{ harvestId: b.id, quantity: 6.5, unitPrice: 3.3 }]);
    expect(first.status, first.raw.body).toBe(200);
    expect(first.data.total).toBe('21.45');
    const before = await t.db.query('SELECT count(*)::int AS n FROM sales_orders');
    const over = await sell(farm, [{ harvestId: b.id, quantity: 2, unitPrice: 3 }, { harvestId: b.id, quantity: 1.6, unitPrice: 3 }]);
    expect(over.status).toBe(40001);
    expect(over.data.errors).toEqual([{ field: 'lines.1.quantity', message: `批次 ${b.batchNo} 只剩 1.5 公斤 未售，本单要售 1.6 公斤` }]);
    const en = await sell(farm, [{ harvestId: b.id, quantity: 4, unitPrice: 3 }], 'en');
    expect(en.data.errors[0].message).toBe(`Batch ${b.batchNo} has only 3.5 公斤 unsold; this order sells 4 公斤`);
    const es = await sell(farm, [{ harvestId: b.id, quantity: 4, unitPrice: 3 }], 'es');
    expect(es.data.errors[0].message).toContain('solo le quedan 3.5');
    expect((await t.db.query('SELECT count(*)::int AS n FROM sales_orders')).rows).toEqual(before.rows);
    expect(await batch(b.id)).toEqual({ quantity: '10.000', sold: '6.500' });
    // Another farm's batch behaves as missing.
    const theirs = await sell(farm2, [{ harvestId: b.id, quantity: 1, unitPrice: 1 }]);
    expect(theirs.data.errors.map((e: Body) => e.field)).toEqual(['lines.0.harvestId']);
  });

  it('20 concurrent orders of the last 7 units: exactly 7 succeed, the batch is sold out and never beyond', async () => {
    const b = (await harvest(farm, group.id, 7)).data;
    const replies = await Promise.all(Array.from({ length: 20 }, () => sell(farm, [{ harvestId: b.id, quantity: 1, unitPrice: 2.5 }])));
    expect(replies.filter((r) => r.status === 200).length).toBe(7);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused.every((r) => r.status === 40001 && /只剩 0 公斤/.test(r.data.errors[0].message))).toBe(true);
    expect(await batch(b.id)).toEqual({ quantity: '7.000', sold: '7.000' });
    // Two batches drawn in opposite line orders at once: no deadlock.
    const x = (await harvest(farm, group.id, 5)).data;
    const y = (await harvest(farm, group.id, 5)).data;
    const crossed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => sell(farm, i % 2 ? [{ harvestId: x.id, quantity: 1, unitPrice: 1 }, { harvestId: y.id, quantity: 1, unitPrice: 1 }] : [{ harvestId: y.id, quantity: 1, unitPrice: 1 }, { harvestId: x.id, quantity: 1, unitPrice: 1 }])),
    );
    expect(crossed.filter((r) => r.status === 200).length).toBe(5);
    expect(await batch(x.id)).toEqual({ quantity: '5.000', sold: '5.000' });
  });

  it('totals and period reports are exact to the fen; a cancelled sale gives its quantity back and reverses its income', async () => {
    const from = '2031-01-01';
    const to = '2031-12-31';
    const b = (await harvest(farm, group.id, 1000, '2031-03-01')).data;
    // 0.1 + 0.2 style amounts that floats would get wrong.
    const o1 = await sell(farm, [{ harvestId: b.id, quantity: 3, unitPrice: 0.1 }, { harvestId: b.id, quantity: 0.333, unitPrice: 0.3 }], 'zh', '2031-03-05');
    expect(o1.data.total).toBe('0.40'); // 0.30 + round(0.0999, 2) = 0.10
    const o2 = await sell(farm, [{ harvestId: b.id, quantity: 7, unitPrice: 1234567.89 }], 'zh', '2031-04-10');
    expect(o2.data.total).toBe('8641975.23');
    await ok(farm, 'POST', '/api/farmAccounting/entries', { entryOn: '2031-03-20', direction: 'expense', category: 'labour', amount: 0.1, note: '测试' });
    await ok(farm, 'POST', '/api/farmAccounting/entries', { entryOn: '2031-04-20', direction: 'expense', category: 'labour', amount: 0.2 });
    const summary = await ok(farm, 'GET', `/api/farmAccounting/summary?from=${from}&to=${to}`);
    expect(summary).toMatchObject({ income: '8641975.63', expense: '0.30', profit: '8641975.33' });
    const months = await ok(farm, 'GET', `/api/farmAccounting/report/month?from=${from}&to=${to}`);
    expect(months.map((m: Body) => [m.month, m.income, m.expense, m.profit])).toEqual([
      ['2031-03', '0.40', '0.10', '0.30'],
      ['2031-04', '8641975.23', '0.20', '8641975.03'],
    ]);
    const crops = await ok(farm, 'GET', `/api/farmAccounting/report/crop?from=${from}&to=${to}`);
    expect(crops.find((c: Body) => c.crop === b.crop)).toMatchObject({ income: '8641975.63' });
    const csv = await t.app.inject({ method: 'GET', url: `/api/farmAccounting/report/export?from=${from}&to=${to}`, headers: { authorization: farm } });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('2031-04,8641975.23,0.20,8641975.03');
    // Cancel: the quantity comes back and the income is reversed in the same period's report.
    await ok(farm, 'POST', `/api/marketing/sale/orders/${o2.data.id}/cancel`);
    expect((await batch(b.id)).sold).toBe('3.333');
    const again = await call(t, farm, 'POST', `/api/marketing/sale/orders/${o2.data.id}/cancel`);
    expect(again.status).toBe(40001);
    // The reversal is dated on the day of the cancellation, a negative income of the same category and crop.
    const reversal = (await ok(farm, 'GET', '/api/farmAccounting/entries/page?source=sale&pageSize=500')).rows.filter((r: Body) => r.reference === o2.data.number);
    expect(reversal.map((r: Body) => r.amount).sort()).toEqual(['-8641975.23', '8641975.23']);
    expect(reversal.find((r: Body) => r.amount === '-8641975.23').entryOn).toBe(new Date().toISOString().slice(0, 10));
    // Entries from sales are not deleted by hand; bad categories refused.
    const saleEntry = (await ok(farm, 'GET', `/api/farmAccounting/entries/page?source=sale&from=${from}&to=${to}`)).rows[0];
    expect((await call(t, farm, 'DELETE', `/api/farmAccounting/entries/${saleEntry.entryId}`)).status).toBe(40001);
    const wrong = await call(t, farm, 'POST', '/api/farmAccounting/entries', { entryOn: '2031-04-20', direction: 'income', category: 'labour', amount: 1.005 });
    expect(wrong.data.errors.map((e: Body) => e.field)).toEqual(['category', 'amount']);
    // Purchases (the materials ledger's stock-ins) are expenses of the accounts.
    const purchases = await ok(farm, 'GET', '/api/farmAccounting/entries/page?source=purchase');
    expect(purchases.total).toBeGreaterThan(0);
    expect(purchases.rows[0]).toMatchObject({ direction: 'expense', category: 'materials' });
    expect(purchases.rows[0].reference).toMatch(/^RK\d{6}$/);
  });

  it('a harvest inside a pesticide’s safety interval is flagged with the stock-out that causes it', async () => {
    const stores = await ok(farm, 'GET', '/api/farmMaterials/stores/page?pageSize=5&sort=id');
    const pesticide = await ok(farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'SI-TEST', name: '测试杀虫剂', category: 'pesticide', unit: '瓶', safetyIntervalDays: 10 });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockIn', { storeId: stores.rows[0].id, movedOn: '2032-06-01', lines: [{ materialId: pesticide.id, quantity: 5, unitPrice: 20 }] });
    const out = await ok(farm, 'POST', '/api/farmMaterials/movements/stockOut', { storeId: stores.rows[0].id, movedOn: '2032-06-10', groupId: group.id, lines: [{ materialId: pesticide.id, quantity: 1 }] });
    const inside = (await call(t, farm, 'POST', '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: '2032-06-19', quantity: 50, unit: '公斤', grade: 'first', safetyOverrideReason: '霜冻前抢收' })).data;
    expect(inside.safety).toBe('inInterval');
    expect(inside.safetyFlags).toEqual([{ movementId: out.id, movementNumber: out.number, material: '测试杀虫剂', appliedOn: '2032-06-10', intervalDays: 10, safeFrom: '2032-06-20' }]);
    const after = (await harvest(farm, group.id, 50, '2032-06-20')).data;
    expect(after.safety).toBe('ok');
    const page = await ok(farm, 'GET', '/api/farmHarvest/harvests/page?from=2032-06-19&to=2032-06-19');
    expect(page.rows[0].safetyNote).toContain(out.number);
    // Reversed, the application no longer flags the harvest.
    await ok(farm, 'POST', `/api/farmMaterials/movements/${out.id}/reverse`, {});
    expect((await ok(farm, 'GET', `/api/farmHarvest/harvests/${inside.id}`)).safety).toBe('ok');
  });

  it('the public trace page shows the batch and nothing private, survives bad codes, and limits floods of reviews', async () => {
    const b = (await harvest(farm, group.id, 80, '2025-09-01')).data;
    await ok(farm, 'POST', '/api/marketing/sale/orders', { customer: '秘密客户有限公司', orderedOn: '2025-09-02', lines: [{ harvestId: b.id, quantity: 3, unitPrice: 98.76 }] });
    const made = await ok(farm, 'POST', '/api/trackInfoManage/codes', { harvestId: b.id });
    expect(made.code).toMatch(/^[A-Z0-9]{12}$/);
    expect((await ok(farm, 'POST', '/api/trackInfoManage/codes', { harvestId: b.id })).code).toBe(made.code);
    const page = await t.app.inject({ method: 'GET', url: `/t/${made.code}`, headers: { 'accept-language': 'zh' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain(b.batchNo);
    expect(page.body).toContain('禾丰生态农场');
    expect(page.body.length).toBeLessThan(30000);
    // Nothing private: people's names, the farm's contact, customers, prices, other batches.
    const people = (await t.db.query<{ name: string }>(`SELECT name FROM users WHERE name <> ''`)).rows.map((r) => r.name);
    for (const name of people) expect(page.body, name).not.toContain(name);
    const contact = (await t.db.query<{ contact: string; phone: string }>(`SELECT contact, phone FROM organisations WHERE name = '禾丰生态农场'`)).rows[0];
    expect(page.body).not.toContain(contact.contact);
    expect(page.body).not.toContain(contact.phone);
    for (const secret of ['秘密客户', '98.76', '296.28', '元', '¥']) expect(page.body).not.toContain(secret);
    const others = (await t.db.query<{ batch_no: string }>('SELECT batch_no FROM harvests WHERE id <> $1', [b.id])).rows;
    for (const o of others) expect(page.body).not.toContain(o.batch_no);
    // Scans are counted; the QR image is an SVG of the page's address.
    expect((await t.db.query('SELECT scans FROM trace_codes WHERE code = $1', [made.code])).rows[0].scans).toBe(1);
    const qr = await t.app.inject({ method: 'GET', url: `/t/${made.code}/qr.svg` });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toContain('image/svg+xml');
    expect(qr.body).toContain('<svg');
    // Bad codes: a plain 404 page, never an error.
    for (const bad of ['NOPE', 'ZZZZZZZZZZZZ', '%3Cscript%3E', "1'%20OR%201=1", 'a'.repeat(300)]) {
      const r = await t.app.inject({ method: 'GET', url: `/t/${bad}` });
      // A path longer than the router takes is refused before it reaches the page (414).
      expect([404, 414], bad).toContain(r.statusCode);
      expect(r.body).not.toContain('<script');
      expect([404, 414]).toContain((await t.app.inject({ method: 'GET', url: `/t/${bad}/qr.svg` })).statusCode);
      expect([404, 414]).toContain((await t.app.inject({ method: 'POST', url: `/t/${bad}/reviews`, payload: 'content=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode);
    }
    // A review is sanitised and stored; a flood from one sender is limited.
    const post = (content: string, ip = '203.0.113.9') =>
      t.app.inject({ method: 'POST', url: `/t/${made.code}/reviews`, remoteAddress: ip, payload: `kind=review&rating=5&content=${encodeURIComponent(content)}&nickname=${encodeURIComponent('<b>小王</b>')}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const first = await post('<script>alert(1)</script>很好吃\u0000');
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`/t/${made.code}?sent=1`);
    const stored = (await t.db.query<{ content: string; nickname: string }>('SELECT content, nickname FROM trace_reviews WHERE code = $1', [made.code])).rows[0];
    expect(stored).toEqual({ content: 'alert(1) 很好吃', nickname: '小王' });
    const flood = await Promise.all(Array.from({ length: 30 }, (_, i) => post(`第 ${i} 条`)));
    expect(flood.filter((r) => r.statusCode === 303).length).toBe(2);
    expect(flood.filter((r) => r.statusCode === 429).length).toBe(28);
    expect((await t.db.query('SELECT count(*)::int AS n FROM trace_reviews WHERE code = $1', [made.code])).rows[0].n).toBe(3);
    expect((await post('', '203.0.113.10')).statusCode).toBe(400);
    // The farm answers; the answer shows on the page, with the review escaped.
    const review = (await ok(farm, 'GET', '/api/commentSuggestion/page?answered=no&keyword=很好吃')).rows[0];
    await ok(farm, 'POST', `/api/commentSuggestion/${review.id}/answer`, { answer: '谢谢支持' });
    expect((await call(t, farm2, 'POST', `/api/commentSuggestion/${review.id}/answer`, { answer: 'x' })).status).toBe(40401);
    const shown = await t.app.inject({ method: 'GET', url: `/t/${made.code}` });
    expect(shown.body).toContain('谢谢支持');
    expect(shown.body).not.toContain('<script>');
  });

  it('permissions: the provider reads but does not write; a farm does not see another farm’s rows', async () => {
    expect((await call(t, provider, 'GET', '/api/marketing/sale/orders/page')).status).toBe(200);
    expect((await sell(provider, [{ harvestId: 1, quantity: 1, unitPrice: 1 }])).status).toBe(40301);
    expect((await call(t, provider, 'POST', '/api/farmAccounting/entries', { entryOn: '2031-01-01', direction: 'expense', category: 'labour', amount: 1 })).status).toBe(40301);
    const theirs = (await ok(farm2, 'GET', '/api/farmHarvest/harvests/page?pageSize=1')).rows[0];
    expect((await call(t, farm, 'GET', `/api/farmHarvest/harvests/${theirs.id}`)).status).toBe(40401);
    const mine = await ok(farm, 'GET', '/api/farmHarvest/harvests/page?pageSize=500');
    expect(mine.rows.every((r: Body) => r.farmName === '禾丰生态农场')).toBe(true);
  });
});
