/**
 * Shared materials between the farms of a group (server/materials/share.ts, docs/materials.md
 * "Shared materials") and the supply offers' «order from one»: farm offers, farm2 requests,
 * farm hands over — both ledgers move in one transaction; an over-request is refused with
 * how much is left; another group's farm sees nothing; every transition is refused from the
 * wrong state, by the wrong side and without its element code; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, demoOrg, makeUser, type Body, type Reply } from './resource-fixtures.ts';

const S = '/api/shareMaterial';
const M = '/api/farmMaterials';

describe.each(engines())('shared materials on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let factory: string;
  let farmOrg: number;
  let farm2Org: number;
  let store: number;
  let store2: number;
  let urea: Body;

  const ok = (r: Reply) => {
    expect(r.status, r.raw.body).toBe(200);
    return r.data as Body;
  };
  const balance = async (storeId: unknown, materialId: unknown) =>
    Number((await t.db.query<{ q: string | null }>('SELECT sum(quantity)::text AS q FROM material_balances WHERE store_id = $1 AND material_id = $2', [storeId, materialId])).rows[0].q ?? 0);
  const theirs = async (code: string) =>
    Number((await t.db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 AND data->>'goodsCode' = $2`, [farm2Org, code])).rows[0].id);
  const counts = async () =>
    JSON.stringify(
      (
        await t.db.query(
          `SELECT (SELECT count(*) FROM share_offers) AS o, (SELECT count(*) FROM share_requests) AS r, (SELECT md5(string_agg(id || status || version, ',' ORDER BY id)) FROM share_requests) AS rs,
                  (SELECT md5(string_agg(id || quantity::text || status || version, ',' ORDER BY id)) FROM share_offers) AS os,
                  (SELECT count(*) FROM material_movements) AS m, (SELECT md5(string_agg(store_id || ':' || material_id || ':' || batch || ':' || quantity, ',' ORDER BY store_id, material_id, batch)) FROM material_balances) AS b,
                  (SELECT count(*) FROM operation_log) AS l`,
        )
      ).rows[0],
    );
  const move = (token: string, id: unknown, name: string, body: Body = {}, lang = 'zh') => call(t, token, 'POST', `${S}/requests/${id}/transitions/${name}`, body, lang);
  const stockIn = async (storeId: number, materialId: unknown, batch: string, quantity: number, unitPrice = 100) =>
    ok(await call(t, farm, 'POST', `${M}/movements/stockIn`, { storeId, movedOn: '2026-05-01', lines: [{ materialId, batch, quantity, unitPrice }] }));
  const newOffer = async (quantity: number, batch: string, extra: Body = {}) =>
    ok(await call(t, farm, 'POST', `${S}/offers`, { storeId: store, materialId: urea.id, batch, quantity, unitPrice: 95.5, validUntil: '2099-12-31', note: '集团互助', ...extra }));

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    factory = `Bearer ${await t.login('factory')}`;
    farmOrg = (await demoOrg(t.db, 'farm')).orgId;
    farm2Org = (await demoOrg(t.db, 'farm2')).orgId;
    store = (ok(await call(t, farm, 'GET', `${M}/stores/page?pageSize=5&sort=id`)).rows as Body[])[0].id as number;
    store2 = (ok(await call(t, farm2, 'GET', `${M}/stores/page?pageSize=5&sort=id`)).rows as Body[])[0].id as number;
    urea = (ok(await call(t, farm, 'GET', `${M}/list/page?pageSize=50`)).rows as Body[]).find((m) => m.goodsCode === 'FL-002')!;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seed: a living market between farm and farm2, each seeing the group’s open offers and its own requests', async () => {
    const seen = ok(await call(t, farm, 'GET', `${S}/offers/page?pageSize=50`)).rows as Body[];
    expect(new Set(seen.map((o) => o.farmName))).toEqual(new Set(['禾丰生态农场', '嫩江源合作农场']));
    expect(new Set(seen.filter((o) => o.mine).map((o) => o.status))).toEqual(new Set(['open', 'requested']));
    const seen2 = ok(await call(t, farm2, 'GET', `${S}/offers/page?pageSize=50`)).rows as Body[];
    expect(seen2.filter((o) => !o.mine).length).toBe(3);
    // The stock behind an offer is the offering farm's business.
    expect(seen2.filter((o) => !o.mine).every((o) => o.stock === null)).toBe(true);
    expect(seen.filter((o) => o.mine).every((o) => typeof o.stock === 'number' && (o.stock as number) >= (o.left as number))).toBe(true);
    const requests = ok(await call(t, farm2, 'GET', `${S}/requests/page?side=mine&pageSize=50`)).rows as Body[];
    expect(new Set(requests.map((r) => r.status))).toEqual(new Set(['requested', 'handedOver', 'refused', 'cancelled']));
    const handed = requests.find((r) => r.status === 'handedOver')!;
    expect(handed.stockOutNumber).toMatch(/^CK\d{6}$/);
    expect(handed.stockInNumber).toMatch(/^RK\d{6}$/);
    expect(requests.find((r) => r.status === 'requested')!._transitions).toEqual(['cancel']);
    const toFarm = ok(await call(t, farm, 'GET', `${S}/requests/page?side=toMe&status=requested`)).rows as Body[];
    expect(toFarm.length).toBe(1);
    expect(toFarm[0]._transitions).toEqual(['handOver', 'refuse']);
    // Balances still equal the sum of the movements after the seeded hand-over.
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM material_balances b WHERE b.quantity <> coalesce((SELECT sum(CASE WHEN m.direction = 'in' THEN l.quantity ELSE -l.quantity END)
         FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id WHERE m.store_id = b.store_id AND l.material_id = b.material_id AND l.batch = b.batch), 0)`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('farm offers, farm2 requests, farm hands over: a stock-out at farm and a stock-in at farm2, in one transaction, audited', async () => {
    await stockIn(store, urea.id, 'SH-1', 12, 100);
    const their = await theirs('FL-002');
    const offer = await newOffer(10, 'SH-1');
    expect(offer).toMatchObject({ number: expect.stringMatching(/^GX\d{6}$/), status: 'open', quantity: 10, left: 10, unitPrice: '95.5000', mine: true });
    // farm2 sees it, with the request allowed; farm does not request its own.
    const row = (ok(await call(t, farm2, 'GET', `${S}/offers/page?pageSize=100`)).rows as Body[]).find((o) => o.id === offer.id)!;
    expect(row._can).toMatchObject({ request: true, edit: false, delete: false });
    expect((await call(t, farm, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store, quantity: 1 })).data.errors).toEqual([{ field: 'offerId', message: '不能申请本场自己的共享' }]);
    const asked = ok(await call(t, farm2, 'POST', `${S}/offers/${offer.id}/requests`, { toStoreId: store2, quantity: 6, note: '追肥' }));
    expect(asked.status).toBe('requested');
    const req = (asked.requests as Body[])[0];
    expect(req).toMatchObject({ status: 'requested', quantity: 6, amount: '573.00', side: 'requester', _transitions: ['cancel'] });
    const hereBefore = await balance(store, urea.id);
    const thereBefore = await balance(store2, their);
    const done = ok(await move(farm, req.id, 'handOver', { version: req.version }));
    expect(done).toMatchObject({ handedOver: 6, left: 4, status: 'open' });
    expect(await balance(store, urea.id)).toBe(hereBefore - 6);
    expect(await balance(store2, their)).toBe(thereBefore + 6);
    const after = (done.requests as Body[]).find((r) => r.id === req.id)!;
    expect(after).toMatchObject({ status: 'handedOver', _transitions: [] });
    // The stock-in at farm2 keeps the batch and the cost: 6 × 100.
    const inNo = Number(String(after.stockInNumber).slice(2));
    expect(ok(await call(t, farm2, 'GET', `${M}/movements/${inNo}`))).toMatchObject({ direction: 'in', purpose: '接收自 禾丰生态农场', reference: after.stockOutNumber });
    const line = (await t.db.query<{ batch: string; amount: string }>('SELECT batch, amount::text AS amount FROM material_movement_lines WHERE movement_id = $1', [inNo])).rows[0];
    expect(line).toEqual({ batch: 'SH-1', amount: '600.00' });
    const log = (await t.db.query<{ action: string; changes: Body }>(`SELECT action, changes FROM operation_log WHERE action LIKE 'shareMaterials.%' AND resource = 'shareRequests' AND record_id = $1 ORDER BY id`, [String(req.id)])).rows;
    expect(log.map((l) => l.action)).toEqual(['shareMaterials.request', 'shareMaterials.handOver']);
    expect(log[1].changes).toMatchObject({ status: { from: 'requested', to: 'handedOver' }, stockIn: after.stockInNumber, stockOut: after.stockOutNumber });
    // Handed over once: a second move is refused from its state.
    const again = await move(farm, req.id, 'handOver');
    expect(again.status).toBe(40001);
    expect(again.message).toContain('已交接');
  });

  it('an over-request is refused with how much is left; a hand-over the stock no longer covers is refused by the ledger, nothing moved', async () => {
    await stockIn(store, urea.id, 'SH-2', 5, 80);
    const offer = await newOffer(5, 'SH-2');
    const before = await counts();
    const over = await call(t, farm2, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store2, quantity: 6 });
    expect(over.status).toBe(40001);
    expect(over.data.errors).toEqual([{ field: 'quantity', message: `共享 ${offer.number} 只剩 5 袋 可申请，本次申请 6 袋` }]);
    const en = await call(t, farm2, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store2, quantity: 6 }, 'en');
    expect(en.data.errors[0].message).toBe(`Offer ${offer.number} has only 5 袋 left to request; this request asks for 6 袋`);
    expect(await counts()).toBe(before);
    // An offer never exceeds the stock.
    const tooBig = await call(t, farm, 'POST', `${S}/offers`, { storeId: store, materialId: urea.id, batch: 'SH-2', quantity: 6, unitPrice: 1, validUntil: '2099-01-01' });
    expect(tooBig.data.errors).toEqual([{ field: 'quantity', message: '一号农资库中「尿素」（批次 SH-2）只剩 5 袋，不能共享 6 袋' }]);
    // Two requests of 4 each wait; the stock is used meanwhile: the hand-over says how much is left.
    const a = ((ok(await call(t, farm2, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store2, quantity: 4 })).requests as Body[]).find((r) => r.status === 'requested'))!;
    ok(await call(t, farm, 'POST', `${M}/movements/stockOut`, { storeId: store, movedOn: '2026-05-03', lines: [{ materialId: urea.id, batch: 'SH-2', quantity: 3 }] }));
    const mid = await counts();
    const short = await move(farm, a.id, 'handOver');
    expect(short.status).toBe(40001);
    expect(short.data.errors).toEqual([{ field: 'quantity', message: '库存不足：一号农资库中「尿素」（批次 SH-2）只剩 2 袋，本单要出 4 袋' }]);
    expect(await counts()).toBe(mid);
    // Concurrency: two hand-overs of 1.5 each against the 2 in stock, at the same moment: one succeeds, the other is told what is left.
    ok(await move(farm2, a.id, 'cancel'));
    const r1 = ((ok(await call(t, farm2, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store2, quantity: 1.5 })).requests as Body[]).find((r) => r.status === 'requested'))!;
    const r2 = ((ok(await call(t, farm2, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store2, quantity: 1.5 })).requests as Body[]).filter((r) => r.status === 'requested').find((r) => r.id !== r1.id))!;
    const both = await Promise.all([move(farm, r1.id, 'handOver'), move(farm, r2.id, 'handOver')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 40001]);
    expect(await balance(store, urea.id)).toBeGreaterThanOrEqual(0);
    const refusedOne = both.find((r) => r.status === 40001)!;
    expect(refusedOne.data.errors[0].message).toContain('只剩 0.5 袋');
  });

  it('transitions are refused from the wrong state, by the wrong side and without the element code', async () => {
    await stockIn(store, urea.id, 'SH-3', 8, 100);
    const offer = await newOffer(8, 'SH-3');
    const req = ((ok(await call(t, farm2, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store2, quantity: 3 })).requests as Body[])[0]);
    const before = await counts();
    // Wrong side: the requester cannot hand over or refuse; the offering farm cannot cancel.
    const side = await move(farm2, req.id, 'handOver');
    expect([side.status, side.message]).toEqual([40001, '只有提供共享的农场能「同意并交接」']);
    expect((await move(farm, req.id, 'cancel')).message).toBe('只有申请的农场能「取消申请」');
    // Without a reason, a refusal is refused.
    expect((await move(farm, req.id, 'refuse')).data.errors).toEqual([{ field: 'reason', message: '请填写拒绝原因' }]);
    // Without the element code: 40301, before anything about the request is told.
    const { token: noCode } = await makeUser(t, { orgId: farmOrg, menus: ['shareMaterial', 'shareMaterialIndex'], elements: ['shareMaterialIndex:view'] });
    expect((await move(noCode, req.id, 'handOver')).status).toBe(40301);
    expect((await move(noCode, 999999, 'handOver')).status).toBe(40301);
    expect((await call(t, noCode, 'POST', `${S}/offers`, { storeId: store, materialId: urea.id, quantity: 1, unitPrice: 1, validUntil: '2099-01-01' })).status).toBe(40301);
    // An offer with a waiting request is neither changed nor withdrawn.
    expect((await call(t, farm, 'POST', `${S}/offers/${offer.id}/withdraw`, {})).message).toBe(`共享 ${offer.number} 还有待处理的申请，请先同意或拒绝`);
    expect(await counts()).toBe(before);
    // Refused with a reason; then no longer cancelled.
    expect(ok(await move(farm, req.id, 'refuse', { reason: '本场也要用' })).requested).toBe(0);
    const late = await move(farm2, req.id, 'cancel');
    expect([late.status, late.message]).toEqual([40001, `${req.number} 的状态是「已拒绝」，不能「取消申请」`]);
    // Withdrawn: no more requests, no edit.
    ok(await call(t, farm, 'POST', `${S}/offers/${offer.id}/withdraw`, { version: offer.version }));
    expect((await call(t, farm2, 'POST', `${S}/requests`, { offerId: offer.id, toStoreId: store2, quantity: 1 })).message).toBe(`${offer.number} 的状态是「已撤回」，不能「申请」`);
    expect((await call(t, farm, 'PUT', `${S}/offers/${offer.id}`, { storeId: store, materialId: urea.id, quantity: 2, unitPrice: 1, validUntil: '2099-01-01' })).status).toBe(40001);
    // farm2 cannot withdraw farm's offer.
    const other = await newOffer(1, 'SH-3');
    expect((await call(t, farm2, 'POST', `${S}/offers/${other.id}/withdraw`, {})).message).toBe('只有提供共享的农场能「撤回」');
  });

  it('another group’s farm sees nothing and reaches nothing', async () => {
    const { rows: bloc } = await t.db.query<{ id: number }>(`INSERT INTO blocs(name, city) VALUES ('测试另一集团', '长春市') RETURNING id`);
    const { rows: org } = await t.db.query<{ id: number }>(`INSERT INTO organisations(name, type, bloc_id, city) VALUES ('另一集团农场', 0, $1, '长春市') RETURNING id`, [bloc[0].id]);
    const codes = ['shareMaterial', 'shareMaterialIndex'];
    const { token: stranger } = await makeUser(t, { orgId: org[0].id, menus: codes, elements: ['shareMaterialIndex:add', 'shareMaterialIndex:request', 'shareMaterialIndex:handOver', 'shareMaterialIndex:cancel', 'shareMaterialIndex:refuse'] });
    expect(ok(await call(t, stranger, 'GET', `${S}/offers/page?pageSize=100`)).total).toBe(0);
    expect(ok(await call(t, stranger, 'GET', `${S}/requests/page?pageSize=100`)).total).toBe(0);
    const someOffer = (ok(await call(t, farm, 'GET', `${S}/offers/page?mine=true`)).rows as Body[])[0];
    expect((await call(t, stranger, 'GET', `${S}/offers/${someOffer.id}`)).status).toBe(40401);
    expect((await call(t, stranger, 'POST', `${S}/requests`, { offerId: someOffer.id, toStoreId: store2, quantity: 1 })).data.errors[0].field).toBe('toStoreId');
    const waiting = (ok(await call(t, farm, 'GET', `${S}/requests/page?side=toMe&status=requested`)).rows as Body[])[0];
    expect((await move(stranger, waiting.id, 'handOver')).status).toBe(40401);
    // The manufacturer (no group, no farm) holds no code of the farms' market.
    expect((await call(t, factory, 'GET', `${S}/offers/page`)).status).toBe(40301);
    // farm2 does not see farm's withdrawn offers nor requests between others.
    const seen2 = ok(await call(t, farm2, 'GET', `${S}/offers/page?pageSize=200`)).rows as Body[];
    expect(seen2.every((o) => o.mine || o.status !== 'withdrawn' || (o.requested as number) >= 0)).toBe(true);
  });

  it('bad input: 40001 on the field, nothing changed', async () => {
    const before = await counts();
    const bad = async (token: string, url: string, body: Body, field: string) => {
      const r = await call(t, token, 'POST', url, body);
      expect(r.status, JSON.stringify(r.data)).toBe(40001);
      expect((r.data.errors as Body[]).map((e) => e.field)).toContain(field);
    };
    const base = { storeId: store, materialId: urea.id, quantity: 1, unitPrice: 1, validUntil: '2099-01-01' };
    await bad(farm, `${S}/offers`, { ...base, quantity: 0 }, 'quantity');
    await bad(farm, `${S}/offers`, { ...base, quantity: 1.0001 }, 'quantity');
    await bad(farm, `${S}/offers`, { ...base, unitPrice: -1 }, 'unitPrice');
    await bad(farm, `${S}/offers`, { ...base, validUntil: '2020-01-01' }, 'validUntil');
    await bad(farm, `${S}/offers`, { ...base, validUntil: 'soon' }, 'validUntil');
    await bad(farm, `${S}/offers`, { ...base, storeId: store2 }, 'storeId');
    await bad(farm, `${S}/offers`, { ...base, materialId: await theirs('FL-002') }, 'materialId');
    await bad(farm, `${S}/offers`, { ...base, note: '<b>x</b>' }, 'note');
    await bad(farm, `${S}/offers`, { ...base, batch: 'NO-SUCH-BATCH' }, 'quantity');
    await bad(farm2, `${S}/requests`, { offerId: 999999, toStoreId: store2, quantity: 1 }, 'offerId');
    await bad(farm2, `${S}/requests`, { toStoreId: store2, quantity: 1 }, 'offerId');
    await bad(farm2, `${S}/requests`, { offerId: 1, toStoreId: store2, quantity: -1 }, 'quantity');
    const r = await call(t, farm, 'POST', `${S}/requests/1/transitions/explode`, {});
    expect(r.status).toBe(40001);
    expect(await counts()).toBe(before);
  });

  it('supply offers: the manufacturers’ products on sale; «order from one» makes a draft the factory does not see until submitted', async () => {
    const products = ok(await call(t, farm, 'GET', `${M}/supply/page?pageSize=50`)).rows as Body[];
    expect(products.length).toBeGreaterThan(3);
    expect(products.every((p) => p.manufacturerName === '丰沃肥业有限公司' && typeof p.price === 'string')).toBe(true);
    const withdrawn = (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'fertilizerProducts' AND NOT coalesce((data->>'onSale')::boolean, false)`)).rows[0].n;
    expect(withdrawn).toBeGreaterThan(0);
    const product = products[0];
    // A product whose name the catalogue lacks needs the material named.
    const noMatch = await call(t, farm, 'POST', `${M}/supply/${product.id}/order`, { storeId: store, quantity: 5 });
    const materialId = noMatch.status === 200 ? undefined : urea.id;
    if (noMatch.status !== 200) expect(noMatch.data.errors[0]).toMatchObject({ field: 'materialId', message: expect.stringContaining(String(product.name)) });
    const order = materialId === undefined ? (noMatch.data as Body) : ok(await call(t, farm, 'POST', `${M}/supply/${product.id}/order`, { storeId: store, materialId, quantity: 5 }));
    expect(order).toMatchObject({ status: 'draft', sellerName: '丰沃肥业有限公司', storeId: store });
    expect((order.lines as Body[])[0]).toMatchObject({ quantity: 5, unitPrice: Number(product.price) });
    const factoryIds = async () => (ok(await call(t, factory, 'GET', '/api/fertilizerFactory/orders/page?pageSize=200')).rows as Body[]).map((o) => o.id);
    expect(await factoryIds()).not.toContain(order.id);
    expect((await call(t, factory, 'GET', `/api/fertilizerFactory/orders/${order.id}`)).status).toBe(40401);
    ok(await call(t, farm, 'POST', `${M}/purchase/${order.id}/transitions/submit`, {}));
    expect(await factoryIds()).toContain(order.id);
    // Bad input and rights.
    expect((await call(t, farm, 'POST', `${M}/supply/${999999}/order`, { storeId: store, materialId: urea.id, quantity: 1 })).data.errors).toEqual([{ field: 'id', message: '商品不存在或已下架' }]);
    expect((await call(t, farm, 'POST', `${M}/supply/${product.id}/order`, { storeId: store2, materialId: urea.id, quantity: 1 })).data.errors[0].field).toBe('storeId');
    expect((await call(t, farm, 'POST', `${M}/supply/${product.id}/order`, { storeId: store, materialId: urea.id, quantity: 0 })).data.errors[0].field).toBe('quantity');
    const { token: reader } = await makeUser(t, { orgId: farmOrg, menus: ['farmMaterialsManage', 'farmMaterialsSupply'], elements: ['farmMaterialsSupply:view'] });
    expect((await call(t, reader, 'GET', `${M}/supply/page`)).status).toBe(200);
    expect((await call(t, reader, 'POST', `${M}/supply/${product.id}/order`, { storeId: store, materialId: urea.id, quantity: 1 })).status).toBe(40301);
    expect((await call(t, farm2, 'GET', `${M}/purchase/${order.id}`)).status).toBe(40401);
    expect(farm2Org).not.toBe(farmOrg);
  });
});
