/**
 * The reads across the ledger for the planting side (server/materials/traces.ts,
 * docs/materials.md): the trace of a planting group's materials back to the stock-in of
 * their batch (a batch bought from the factory, received, drawn for a group names the
 * manufacturer and the purchase order), and the inputs applied per group and material per
 * mu against the production standard's limits, over-limit flags exact on decimals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, demoOrg, makeUser, type Body, type Reply } from './resource-fixtures.ts';

const M = '/api/farmMaterials';
const P = `${M}/purchase`;
const F = '/api/fertilizerFactory/orders';

describe.each(engines())('material traces and inputs applied on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let factory: string;
  let factoryOrg: number;
  let store: Body;
  let urea: Body;
  let compound: Body;
  let tomato: number;
  let group: Body;

  const ok = (r: Reply) => {
    expect(r.status, r.raw.body).toBe(200);
    return r.data as Body;
  };
  const move = (token: string, base: string, id: unknown, name: string, body: Body = {}) => call(t, token, 'POST', `${base}/${id}/transitions/${name}`, body);
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    factory = `Bearer ${await t.login('factory')}`;
    factoryOrg = (await demoOrg(t.db, 'factory')).orgId;
    store = (ok(await call(t, farm, 'GET', `${M}/stores/page?pageSize=5&sort=id`)).rows as Body[])[0];
    const materials = ok(await call(t, farm, 'GET', `${M}/list/page?pageSize=50`)).rows as Body[];
    urea = materials.find((m) => m.goodsCode === 'FL-002')!;
    compound = materials.find((m) => m.goodsCode === 'FL-001')!;
    tomato = Number((await t.db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'crops' AND data->>'name' = '番茄'`)).rows[0].id);
    group = ok(
      await call(t, farm, 'POST', '/api/farmPlantGroup/groups', { name: '追溯试验番茄', cropId: tomato, areaMu: 2.5, plantedOn: today, stage: 'seedling' }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seed: the first group of farm drew a batch bought from the factory, and its trace names the manufacturer', async () => {
    const first = (await t.db.query<{ id: number }>(`SELECT min(id) AS id FROM resource_records WHERE resource = 'plantGroups' AND farm_id = (SELECT org_id FROM users WHERE username = 'farm')`)).rows[0].id;
    const rows = ok(await call(t, farm, 'GET', `${M}/trace/${first}/page?pageSize=100`)).rows as Body[];
    expect(rows.length).toBeGreaterThan(5);
    const bought = rows.filter((r) => r.sourceKind === 'manufacturer');
    expect(bought.length).toBeGreaterThan(0);
    expect(bought[0]).toMatchObject({ source: '丰沃肥业有限公司', manufacturer: '丰沃肥业有限公司' });
    expect(bought[0].purchaseOrderNumber).toMatch(/^CG\d{6}$/);
    // The season's own draws lead to the farm's supplier.
    expect(rows.some((r) => r.sourceKind === 'supplier' && typeof r.source === 'string')).toBe(true);
    // Every line found the stock-in of its batch.
    expect(rows.filter((r) => r.stockInId === null)).toEqual([]);
  });

  it('a batch bought from the factory, received and drawn for a group shows up with the supplier, the order and the dates', async () => {
    const order = ok(await call(t, farm, 'POST', P, { sellerOrgId: factoryOrg, storeId: store.id, orderedOn: today, lines: [{ materialId: urea.id, quantity: 200, unitPrice: 98.5 }] }));
    ok(await move(farm, P, order.id, 'submit'));
    ok(await move(factory, F, order.id, 'accept'));
    const line = (ok(await call(t, factory, 'GET', `${F}/${order.id}`)).lines as Body[])[0];
    ok(await move(factory, F, order.id, 'ship', { waybill: 'SF-TRACE-1', lines: [{ lineId: line.id, quantity: 200, batch: 'TRACE-01', producedOn: '2026-01-05', expiresOn: '2029-01-05' }] }));
    const received = ok(await move(farm, P, order.id, 'receive'));
    const stockIn = (received.shipments as Body[])[0].movementNumber as string;
    const out = ok(await call(t, farm, 'POST', `${M}/movements/stockOut`, { storeId: store.id, movedOn: today, groupId: group.id, purpose: '追肥', lines: [{ materialId: urea.id, batch: 'TRACE-01', quantity: 12.5 }] }));

    const rows = ok(await call(t, farm, 'GET', `${M}/trace/${group.id}/page`)).rows as Body[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      movementId: out.id,
      movedOn: today,
      material: '尿素',
      batch: 'TRACE-01',
      quantity: 12.5,
      unit: '袋',
      stockInNumber: stockIn,
      stockInOn: today,
      stockInQuantity: 200,
      unitPrice: '98.5000',
      producedOn: '2026-01-05',
      expiresOn: '2029-01-05',
      source: '丰沃肥业有限公司',
      sourceKind: 'manufacturer',
      purchaseOrderId: order.id,
      purchaseOrderNumber: order.number,
      reversed: false,
    });
    expect(rows[0].shipmentNumber).toMatch(/^FH\d{6}$/);

    // Reversed: still in the trace, marked.
    ok(await call(t, farm, 'POST', `${M}/movements/${out.id}/reverse`, { note: '领错' }));
    const again = ok(await call(t, farm, 'GET', `${M}/trace/${group.id}/page`)).rows as Body[];
    expect(again).toHaveLength(1);
    expect(again[0].reversed).toBe(true);
  });

  it('inputs per mu against the tomato standard’s limits, the over-limit flag exact on decimals', async () => {
    // A stock of urea and compound fertilizer to draw from.
    ok(
      await call(t, farm, 'POST', `${M}/movements/stockIn`, {
        storeId: store.id,
        movedOn: today,
        lines: [
          { materialId: urea.id, batch: 'LIM-01', quantity: 300, unitPrice: 100 },
          { materialId: compound.id, batch: 'LIM-02', quantity: 50, unitPrice: 160 },
        ],
      }),
    );
    const draw = (materialId: unknown, batch: string, quantity: number) =>
      call(t, farm, 'POST', `${M}/movements/stockOut`, { storeId: store.id, movedOn: today, groupId: group.id, lines: [{ materialId, batch, quantity }] });
    // Exactly at the limit: 125 bags on 2.5 mu is 50 per mu, the standard's 50 (not over).
    ok(await draw(urea.id, 'LIM-01', 125));
    ok(await draw(compound.id, 'LIM-02', 10));
    const page = async (query = '') => ok(await call(t, farm, 'GET', `/api/farmInput/page?groupId=${group.id}${query}`)).rows as Body[];
    let rows = await page();
    const ureaRow = () => rows.find((r) => r.material === '尿素')!;
    expect(ureaRow()).toMatchObject({ groupId: group.id, group: '追溯试验番茄', crop: '番茄', areaMu: 2.5, quantity: 125, perMu: 50, maxPerMu: 50, over: false, times: 1 });
    expect(ureaRow().standard).toContain('NY/T 5007-2001');
    expect(rows.find((r) => r.material === '复合肥 15-15-15')).toMatchObject({ quantity: 10, perMu: 4, maxPerMu: 60, over: false });

    // 0.001 bag more: 50.0004 per mu, shown rounded to 50 but over the limit.
    ok(await draw(urea.id, 'LIM-01', 0.001));
    rows = await page();
    expect(ureaRow()).toMatchObject({ quantity: 125.001, perMu: 50, over: true, times: 2 });
    expect((await page('&over=true')).map((r) => r.material)).toEqual(['尿素']);
    expect((await page('&over=false')).map((r) => r.material)).toEqual(['复合肥 15-15-15']);

    // A period before today holds nothing of this group; the plot filter of another plot neither.
    const yesterday = new Date(Date.now() - 86400000).toISOString().slice(0, 10);
    expect(await page(`&from=2020-01-01&to=${yesterday}`)).toEqual([]);
    expect(await page(`&from=${today}&to=${today}`)).toHaveLength(2);
    expect(await page('&plotId=2147483647')).toEqual([]);

    // farm2 sees none of farm's inputs.
    const theirs = ok(await call(t, farm2, 'GET', `/api/farmInput/page?pageSize=500`)).rows as Body[];
    expect(theirs.map((r) => r.groupId)).not.toContain(group.id);
  });

  it('a standard’s limit in 克 against a pesticide kept in 袋 of 100 克: converted, shown per mu in 袋', async () => {
    const pesticide = (ok(await call(t, farm, 'GET', `${M}/list/page?pageSize=100`)).rows as Body[]).find((m) => m.goodsCode === 'NY-001')!;
    expect(pesticide).toMatchObject({ unit: '袋', contentPerUnit: 100, contentUnit: '克' });
    await t.db.query(`INSERT INTO resource_records(resource, data) VALUES ('productionStandards', $1)`, [
      JSON.stringify({ name: '番茄吡虫啉用量试验标准', code: 'TEST-IMI', cropId: group.cropId, limits: [{ material: pesticide.name, unit: '克', maxPerMu: 40 }] }),
    ]);
    ok(await call(t, farm, 'POST', `${M}/movements/stockIn`, { storeId: store.id, movedOn: today, lines: [{ materialId: pesticide.id, batch: 'IMI-01', quantity: 5, unitPrice: 8.5 }] }));
    const draw = (quantity: number) => call(t, farm, 'POST', `${M}/movements/stockOut`, { storeId: store.id, movedOn: today, groupId: group.id, lines: [{ materialId: pesticide.id, batch: 'IMI-01', quantity }] });
    const row = async () => (ok(await call(t, farm, 'GET', `/api/farmInput/page?groupId=${group.id}`)).rows as Body[]).find((r) => r.material === pesticide.name)!;
    // 0.5 袋 on 2.5 mu: 20 克 a mu against 40 克 (0.4 袋).
    ok(await draw(0.5));
    expect(await row()).toMatchObject({ quantity: 0.5, perMu: 0.2, maxPerMu: 0.4, over: false });
    expect((await row()).standard).toContain('TEST-IMI');
    // Exactly 40 克 a mu is not over; 0.001 袋 (0.1 克) more is.
    ok(await draw(0.5));
    expect(await row()).toMatchObject({ quantity: 1, perMu: 0.4, over: false });
    ok(await draw(0.001));
    expect(await row()).toMatchObject({ quantity: 1.001, over: true });
  });

  it('scope and bad input', async () => {
    // Another farm's group is missing; a manufacturer has no menu for either read.
    expect((await call(t, farm2, 'GET', `${M}/trace/${group.id}/page`)).status).toBe(40401);
    expect((await call(t, factory, 'GET', `${M}/trace/${group.id}/page`)).status).toBe(40301);
    expect((await call(t, factory, 'GET', '/api/farmInput/page')).status).toBe(40301);
    expect((await call(t, null, 'GET', '/api/farmInput/page')).status).toBe(40101);
    // Bad input: 40001 on the field, in the caller's language.
    const badId = await call(t, farm, 'GET', `${M}/trace/abc/page`);
    expect(badId.status).toBe(40001);
    const order = await call(t, farm, 'GET', '/api/farmInput/page?from=2026-05-02&to=2026-05-01');
    expect(order.status).toBe(40001);
    expect(order.data.errors).toEqual([{ field: 'to', message: '结束日期不能早于开始日期' }]);
    const en = await call(t, farm, 'GET', '/api/farmInput/page?from=2026-05-02&to=2026-05-01', undefined, 'en');
    expect(en.data.errors[0].message).toBe('The end date cannot be before the start date');
    expect((await call(t, farm, 'GET', '/api/farmInput/page?from=yesterday')).status).toBe(40001);
    expect((await call(t, farm, 'GET', '/api/farmInput/page?over=maybe')).status).toBe(40001);
    expect((await call(t, farm, 'GET', '/api/farmInput/page?unknown=1')).status).toBe(40001);
  });

  it('articles: the manufacturer writes its own products’ and packages’ articles (body cleaned), farms read them from the catalogue', async () => {
    const products = ok(await call(t, factory, 'GET', '/api/fertilizerFactory/products/page?pageSize=50')).rows as Body[];
    const organic = products.find((p) => p.name === '丰沃 生物有机肥')!;
    const potash = products.find((p) => p.name === '丰沃 硫酸钾')!;
    // The seeded article of a product, and of a package.
    const seeded = ok(await call(t, factory, 'GET', `/api/fertilizerFactory/articles/product/${organic.id}`));
    expect(seeded).toMatchObject({ id: organic.id, product: '丰沃 生物有机肥', manufacturer: '丰沃肥业有限公司', title: '改土养根的生物有机肥' });
    const combos = ok(await call(t, factory, 'GET', '/api/fertilizerFactory/combos/page')).rows as Body[];
    expect(combos).toHaveLength(2);
    const combo = ok(await call(t, factory, 'GET', `/api/fertilizerFactory/articles/combo/${combos.find((c) => String(c.name).startsWith('水稻'))!.id}`));
    expect(combo.contents).toBe('丰沃 复合肥 15-15-15 × 6袋；丰沃 大颗粒尿素 × 4袋；丰沃 硫酸钾 × 2袋');
    expect(combo.title).toBe('水稻全程营养套餐：10 亩一套');

    // A product without an article: written now, the script and the handler cleaned away.
    const bare = ok(await call(t, factory, 'GET', `/api/fertilizerFactory/articles/product/${potash.id}`));
    expect(bare.articleId).toBeNull();
    const written = ok(
      await call(t, factory, 'POST', '/api/fertilizerFactory/articles', { productId: potash.id, title: '硫酸钾的用法', content: '<p onclick="x()">穗肥每亩 5 公斤<script>alert(1)</script></p>' }),
    );
    expect(written.content).toBe('<p>穗肥每亩 5 公斤</p>');
    expect(ok(await call(t, factory, 'GET', `/api/fertilizerFactory/articles/product/${potash.id}`)).articleId).toBe(written.id);
    // One per product; product or package, one of them; a body of nothing is refused.
    const twice = await call(t, factory, 'POST', '/api/fertilizerFactory/articles', { productId: potash.id, title: '又一篇', content: '<p>x</p>' });
    expect(twice.status).toBe(40001);
    expect(twice.data.errors).toEqual([{ field: 'productId', message: '「丰沃 硫酸钾」已有文章，请修改那一篇' }]);
    const neither = await call(t, factory, 'POST', '/api/fertilizerFactory/articles', { title: '无主', content: '<p>x</p>' }, 'en');
    expect(neither.data.errors).toEqual([{ field: 'productId', message: 'Choose the product or the combination package the article is about (one of them)' }]);
    expect((await call(t, factory, 'POST', '/api/fertilizerFactory/articles', { comboId: combos[0].id, productId: potash.id, title: '两个', content: '<p>x</p>' })).status).toBe(40001);
    const empty = await call(t, factory, 'POST', '/api/fertilizerFactory/articles', { comboId: combos[0].id, title: '空', content: '<script>alert(1)</script>' });
    expect(empty.data.errors).toEqual([{ field: 'content', message: '正文不能为空' }]);
    expect((await call(t, factory, 'POST', '/api/fertilizerFactory/articles', { productId: potash.id, title: '<b>x</b>', content: '<p>x</p>' })).status).toBe(40001);

    // Only its own: a farm has no such menu; a second manufacturer sees none and writes none of them.
    expect((await call(t, farm, 'GET', `/api/fertilizerFactory/articles/product/${potash.id}`)).status).toBe(40301);
    expect((await call(t, farm, 'PUT', `/api/fertilizerFactory/articles/${written.id}`, { productId: potash.id, title: 'x', content: '<p>x</p>', version: written.version })).status).toBe(40301);
    const other = await t.db.query<{ id: number }>(`INSERT INTO organisations(name, type, city) VALUES ('另一肥业有限公司', 1, '潍坊市') RETURNING id`);
    const fp = ['fertilizerProduct:add', 'fertilizerProduct:edit', 'fertilizerProduct:delete', 'fertilizerProduct:view'];
    const them = `Bearer ${(await makeUser(t, { orgId: Number(other.rows[0].id), menus: ['fertilizerFactory', 'fertilizerProduct'], elements: fp })).token}`;
    expect((await call(t, them, 'GET', `/api/fertilizerFactory/articles/product/${potash.id}`)).status).toBe(40401);
    expect((await call(t, them, 'GET', `/api/fertilizerFactory/articles/${written.id}`)).status).toBe(40401);
    expect((await call(t, them, 'PUT', `/api/fertilizerFactory/articles/${written.id}`, { productId: potash.id, title: 'x', content: '<p>x</p>', version: written.version })).status).toBe(40401);
    expect((await call(t, them, 'DELETE', `/api/fertilizerFactory/articles/${written.id}`)).status).toBe(40401);
    // Its article cannot name another manufacturer's product; its package neither.
    expect((await call(t, them, 'POST', '/api/fertilizerFactory/articles', { productId: potash.id, title: 'x', content: '<p>x</p>' })).status).toBe(40001);
    const foreign = await call(t, them, 'POST', '/api/fertilizerFactory/combos', { name: '借来的套餐', price: 10, items: [{ productId: potash.id, quantity: 1 }] });
    expect(foreign.data.errors).toEqual([{ field: 'items.0.productId', message: '产品不存在' }]);
    // A product in a package is not deleted.
    expect((await call(t, factory, 'DELETE', `/api/fertilizerFactory/products/${potash.id}`)).status).toBe(40001);

    // The farm's catalogue material of that manufacturer and registration number shows the article.
    const materials = ok(await call(t, farm, 'GET', `${M}/list/page?pageSize=50`)).rows as Body[];
    const fw = materials.find((m) => m.goodsCode === 'FW-002')!;
    expect(ok(await call(t, farm, 'GET', `${M}/articles/${fw.id}`))).toMatchObject({ material: '丰沃 生物有机肥', productId: organic.id, title: '改土养根的生物有机肥' });
    // A material of another manufacturer: the material, no article.
    expect(ok(await call(t, farm, 'GET', `${M}/articles/${urea.id}`))).toMatchObject({ material: '尿素', productId: null, articleId: null, title: null });
    expect((await call(t, farm2, 'GET', `${M}/articles/${fw.id}`)).status).toBe(40401);
    expect((await call(t, farm, 'GET', `${M}/articles/0`)).status).toBe(40001);
  });
});
