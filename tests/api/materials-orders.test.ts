/**
 * Purchase orders across organisations (server/materials/orders.ts, docs/materials.md): the
 * farm orders from the manufacturer, which accepts and ships (partly), the farm receives
 * and the stock-in is posted through the ledger in the same transaction; each side sees only
 * its own orders; every transition only from its declared states, with its element code;
 * a shipment is received once, also when two receipts race. Then the hand-over between
 * the farms of a group (both or neither) and the stock-out of a farming record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, demoOrg, makeUser, type Body, type Reply } from './resource-fixtures.ts';

const M = '/api/farmMaterials';
const P = `${M}/purchase`;
const F = '/api/fertilizerFactory/orders';

describe.each(engines())('purchase orders on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let factory: string;
  let factoryOrg: number;
  let store: Body;
  let urea: Body;
  let dap: Body;

  const ok = (r: Reply) => {
    expect(r.status, r.raw.body).toBe(200);
    return r.data as Body;
  };
  const balance = async (storeId: unknown, materialId: unknown) =>
    Number((await t.db.query<{ q: string | null }>('SELECT sum(quantity)::text AS q FROM material_balances WHERE store_id = $1 AND material_id = $2', [storeId, materialId])).rows[0].q ?? 0);
  const logCount = async (action: string) => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM operation_log WHERE action = $1', [action])).rows[0].n;
  const newOrder = async (lines: Body[] = [{ materialId: urea.id, quantity: 30, unitPrice: 108.5 }, { materialId: dap.id, quantity: 12.5, unitPrice: 201.35 }]) =>
    ok(await call(t, farm, 'POST', P, { sellerOrgId: factoryOrg, storeId: store.id, orderedOn: '2026-03-01', expectedOn: '2026-03-10', note: '春耕备肥', lines }));
  const move = (token: string, base: string, id: unknown, name: string, body: Body = {}, lang = 'zh') => call(t, token, 'POST', `${base}/${id}/transitions/${name}`, body, lang);
  const submitted = async () => {
    const o = await newOrder();
    ok(await move(farm, P, o.id, 'submit'));
    return o;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    factory = `Bearer ${await t.login('factory')}`;
    factoryOrg = (await demoOrg(t.db, 'factory')).orgId;
    store = (ok(await call(t, farm, "GET", `${M}/stores/page?pageSize=5&sort=id`)).rows as Body[])[0];
    const materials = ok(await call(t, farm, 'GET', `${M}/list/page?pageSize=50`)).rows as Body[];
    urea = materials.find((m) => m.goodsCode === 'FL-002')!;
    dap = materials.find((m) => m.goodsCode === 'FL-003')!;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seed: orders in every state between farm, farm2 and factory; each side sees its own, never a draft of the farm', async () => {
    const mine = ok(await call(t, farm, 'GET', `${P}/page?pageSize=100`)).rows as Body[];
    expect(new Set(mine.map((r) => r.status))).toEqual(new Set(['draft', 'submitted', 'accepted', 'refused', 'shipped', 'received', 'closed']));
    expect(mine.every((r) => r.farmName === '禾丰生态农场')).toBe(true);
    const theirs = ok(await call(t, factory, 'GET', `${F}/page?pageSize=100`)).rows as Body[];
    expect(new Set(theirs.map((r) => r.farmName))).toEqual(new Set(['禾丰生态农场', '嫩江源合作农场']));
    expect(theirs.some((r) => r.status === 'draft')).toBe(false);
    expect(theirs.every((r) => r.sellerKind === 'manufacturer')).toBe(true);
    const farm2Ids = new Set((ok(await call(t, farm2, 'GET', `${P}/page?pageSize=100`)).rows as Body[]).map((r) => r.id));
    expect(mine.some((r) => farm2Ids.has(r.id))).toBe(false);
    // A shipment waits for the farm, and the factory has an order to accept.
    expect(mine.some((r) => r.status === 'shipped' && Number(r.pendingShipments) > 0 && (r._can as Body).receive === true)).toBe(true);
    expect(theirs.some((r) => (r._transitions as string[]).includes('accept'))).toBe(true);
    // A receipt's stock-in is not reversed on its own (the order would still say received).
    const received = (await t.db.query<{ id: string; movement: string }>(
      `SELECT s.id::text, s.received_movement_id::text AS movement FROM purchase_shipments s JOIN purchase_orders o ON o.id = s.order_id
        WHERE o.farm_id = $1 AND s.received_movement_id IS NOT NULL LIMIT 1`,
      [(await demoOrg(t.db, 'farm')).orgId],
    )).rows[0];
    expect(ok(await call(t, farm, 'GET', `${M}/movements/${received.movement}`)).reversible).toBe(false);
    const reversal = await call(t, farm, 'POST', `${M}/movements/${received.movement}/reverse`, {});
    expect(reversal.data.errors).toEqual([{ field: 'id', message: `这张入库单是采购收货（发货单 FH${received.id.padStart(6, '0')}）生成的，不能单独冲销` }]);
    // Every received shipment posted its stock-in.
    const { rows } = await t.db.query(
      `SELECT s.id FROM purchase_shipments s LEFT JOIN material_movements m ON m.id = s.received_movement_id
        WHERE (s.received_movement_id IS NULL) <> (s.received_on IS NULL) OR (s.received_movement_id IS NOT NULL AND m.id IS NULL)`,
    );
    expect(rows).toEqual([]);
    // The factory is refused the farm's side, the farm the factory's.
    expect((await call(t, factory, 'GET', `${P}/page`)).status).toBe(40301);
    expect((await call(t, farm, 'GET', `${F}/page`)).status).toBe(40301);
  });

  it('the whole flow: draft → submitted → accepted → shipped (partly, twice) → received, the stock-in posted; closed', async () => {
    const o = await newOrder();
    expect(o.status).toBe('draft');
    expect(o.number).toMatch(/^CG\d{6}$/);
    // 30 × 108.5 + 12.5 × 201.35 = 3255.00 + 2516.875 → 2516.88 (to the fen, exact).
    expect(o.totalAmount).toBe('5771.88');
    expect(o._transitions).toEqual(['submit']);
    // A draft is the farm's business: the manufacturer does not see it.
    expect((await call(t, factory, 'GET', `${F}/${o.id}`)).status).toBe(40401);
    const s = ok(await move(farm, P, o.id, 'submit', { version: o.version }));
    expect(s.status).toBe('submitted');
    // The manufacturer's list has it; farm2's has not.
    const theirs = ok(await call(t, factory, 'GET', `${F}/page?pageSize=100`)).rows as Body[];
    const mine = theirs.find((r) => r.id === o.id)!;
    expect(mine.farmName).toBe('禾丰生态农场');
    expect(mine._transitions).toEqual(['accept', 'refuse']);
    expect(((ok(await call(t, farm2, 'GET', `${P}/page?pageSize=100`)).rows as Body[]).map((r) => r.id))).not.toContain(o.id);
    expect((await call(t, farm2, 'GET', `${P}/${o.id}`)).status).toBe(40401);

    ok(await move(factory, F, o.id, 'accept'));
    const detail = ok(await call(t, factory, 'GET', `${F}/${o.id}`));
    const [l1, l2] = detail.lines as Body[];
    // Partial shipment: 20 of 30 urea.
    const first = ok(await move(factory, F, o.id, 'ship', { waybill: 'SF1234567', lines: [{ lineId: l1.id, quantity: 20, batch: 'FW2603A', producedOn: '2026-02-20', expiresOn: '2029-02-20' }] }));
    expect(first.status).toBe('shipped');
    expect((first.lines as Body[])[0]).toMatchObject({ shipped: 20, remaining: 10 });
    // More than is left to ship: refused on the line, nothing shipped.
    const over = await move(factory, F, o.id, 'ship', { lines: [{ lineId: l1.id, quantity: 8 }, { lineId: l1.id, quantity: 3 }] });
    expect(over.status).toBe(40001);
    expect(over.data.errors).toEqual([{ field: 'lines.1.quantity', message: '「尿素」只剩 2 袋 未发货，本次要发 3 袋' }]);
    expect(((ok(await call(t, factory, 'GET', `${F}/${o.id}`)).lines as Body[])[0]).shipped).toBe(20);

    const before = await balance(store.id, urea.id);
    const shipments = ok(await call(t, farm, 'GET', `${P}/${o.id}`)).shipments as Body[];
    expect(shipments).toHaveLength(1);
    const r1 = ok(await move(farm, P, o.id, 'receive', { shipmentId: shipments[0].id }));
    expect(r1.status).toBe('shipped');
    expect(await balance(store.id, urea.id)).toBe(before + 20);
    const movement = (r1.shipments as Body[])[0].movementNumber as string;
    const posted = ok(await call(t, farm, 'GET', `${M}/movements/${Number(movement.slice(2))}`));
    expect(posted).toMatchObject({ direction: 'in', reference: shipments[0].number });
    expect((posted.lines as Body[])[0]).toMatchObject({ batch: 'FW2603A', quantity: 20, amount: '2170.00' });

    // The rest (no lines = everything left), then received: the order is complete.
    const second = ok(await move(factory, F, o.id, 'ship', {}));
    expect((second.lines as Body[]).map((l) => l.remaining)).toEqual([0, 0]);
    expect((await move(factory, F, o.id, 'ship', {})).status).toBe(40001);
    const done = ok(await move(farm, P, o.id, 'receive', {}));
    expect(done.status).toBe('received');
    expect(await balance(store.id, urea.id)).toBe(before + 30);
    expect(await balance(store.id, l2.materialId)).toBeGreaterThanOrEqual(12.5);
    expect(ok(await call(t, factory, 'GET', `${F}/${o.id}`)).status).toBe('received');
    const closed = ok(await move(farm, P, o.id, 'close'));
    expect(closed.status).toBe('closed');
    expect(closed._transitions).toEqual([]);
    // Audited, one row per transition.
    const { rows } = await t.db.query<{ action: string }>(`SELECT action FROM operation_log WHERE resource = 'purchaseOrders' AND record_id = $1 ORDER BY id`, [String(o.id)]);
    expect(rows.map((r) => r.action)).toEqual([
      'purchaseOrders.create', 'purchaseOrders.submit', 'purchaseOrders.accept', 'purchaseOrders.ship', 'purchaseOrders.receive',
      'purchaseOrders.ship', 'purchaseOrders.receive', 'purchaseOrders.close',
    ]);
  });

  it('refusals: wrong side, missing element code, undeclared transition, other farm, draft-only edits', async () => {
    const o = await submitted();
    // The farm cannot accept its own order to a manufacturer; the manufacturer cannot submit or receive.
    expect((await move(farm, P, o.id, 'accept')).status).toBe(40301);
    expect((await move(factory, F, o.id, 'submit')).status).toBe(40001);
    expect((await move(factory, F, o.id, 'receive')).status).toBe(40001);
    // Not declared from this state: shipping a submitted order, receiving before anything shipped, submitting twice.
    const early = await move(factory, F, o.id, 'ship', {}, 'en');
    expect(early.status).toBe(40001);
    expect(early.data.errors[0].message).toBe(`Order ${o.number} is «Submitted», so «Ship» cannot be done now`);
    expect((await move(farm, P, o.id, 'receive')).status).toBe(40001);
    expect((await move(farm, P, o.id, 'submit')).status).toBe(40001);
    expect((await move(farm, P, o.id, 'nonsense')).status).toBe(40001);
    // A refusal needs its reason.
    const noReason = await move(factory, F, o.id, 'refuse', {});
    expect(noReason.data.errors).toEqual([{ field: 'reason', message: '请填写拒绝原因' }]);
    // Without the element code: 40301, before anything about the order.
    const { orgId } = await demoOrg(t.db, 'factory');
    const viewer = await makeUser(t, { orgId, menus: ['fertilizerFactory', 'fertilizerLists'], elements: ['fertilizerLists:view'] });
    expect((await move(`Bearer ${viewer.token}`, F, o.id, 'accept')).status).toBe(40301);
    expect((await move(`Bearer ${viewer.token}`, F, 999999, 'accept')).status).toBe(40301);
    // Another farm's order is missing for farm2, and farm2 reads nothing of it.
    expect((await move(farm2, P, o.id, 'close')).status).toBe(40401);
    // A submitted order no longer changes.
    expect((await call(t, farm, 'PUT', `${P}/${o.id}`, { sellerOrgId: factoryOrg, storeId: store.id, orderedOn: '2026-03-01', lines: [{ materialId: urea.id, quantity: 1, unitPrice: 1 }] })).status).toBe(40001);
    expect((await call(t, farm, 'DELETE', `${P}/${o.id}`)).status).toBe(40001);
    // Refused with the reason, then closed by the farm.
    const refused = ok(await move(factory, F, o.id, 'refuse', { reason: '该规格已停产' }));
    expect(refused).toMatchObject({ status: 'refused', refuseReason: '该规格已停产' });
    expect((await move(factory, F, o.id, 'accept')).status).toBe(40001);
    expect(ok(await move(farm, P, o.id, 'close')).status).toBe('closed');
  });

  it('bad input on the order: nothing written', async () => {
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM purchase_orders')).rows[0].n;
    const n = await count();
    const farm2Material = (ok(await call(t, farm2, 'GET', `${M}/list/page?pageSize=1`)).rows as Body[])[0];
    const bad = await call(t, farm, 'POST', P, { storeId: store.id, orderedOn: '2026-03-01', lines: [{ materialId: farm2Material.id, quantity: 1.2345, unitPrice: 1 }] });
    expect(bad.status).toBe(40001);
    expect(bad.data.errors.map((e: Body) => e.field).sort()).toEqual(['lines.0.materialId', 'lines.0.quantity', 'sellerOrgId']);
    expect((await call(t, farm, 'POST', P, { sellerOrgId: factoryOrg, storeId: store.id, orderedOn: '2026-03-01', lines: [] })).status).toBe(40001);
    const notFactory = await call(t, farm, 'POST', P, { sellerOrgId: (await demoOrg(t.db, 'farm2')).orgId, storeId: store.id, orderedOn: '2026-03-01', lines: [{ materialId: urea.id, quantity: 1, unitPrice: 1 }] });
    expect(notFactory.data.errors).toEqual([{ field: 'sellerOrgId', message: '厂家不存在' }]);
    expect(await count()).toBe(n);
    // A draft is edited and deleted.
    const o = await newOrder();
    const edited = ok(await call(t, farm, 'PUT', `${P}/${o.id}`, { ...o, lines: [{ materialId: urea.id, quantity: 2, unitPrice: 0.005 }] }));
    expect(edited).toMatchObject({ totalAmount: '0.01', lineCount: 1, version: 2 });
    ok(await call(t, farm, 'DELETE', `${P}/${o.id}`));
    expect(await count()).toBe(n);
  });

  it('the manufacturer’s shipment form: quantities typed per line, lines by position, each at most what is left', async () => {
    const o = await submitted();
    ok(await move(factory, F, o.id, 'accept'));
    const loaded = ok(await call(t, factory, 'GET', `${F}/${o.id}`));
    // The form posts the order it loaded, its lines with only their shown columns (no id).
    const lines = (loaded.lines as Body[]).map(({ id: _id, ...shown }) => shown);
    const none = await call(t, factory, 'PUT', `${F}/${o.id}/shipment`, { ...loaded, lines });
    expect(none.data.errors).toEqual([{ field: 'lines', message: '请至少在一行填写本次发货数量' }]);
    const over = await call(t, factory, 'PUT', `${F}/${o.id}/shipment`, { ...loaded, lines: [lines[0], { ...lines[1], shipNow: 12.6 }] });
    expect(over.data.errors[0].field).toBe('lines.0.quantity');
    const r = ok(await call(t, factory, 'PUT', `${F}/${o.id}/shipment`, { ...loaded, waybill: 'JD0001', lines: [{ ...lines[0], shipNow: 10, shipBatch: 'FW-A', shipExpiresOn: '2029-01-01' }, { ...lines[1], shipNow: null }] }));
    expect((r.lines as Body[]).map((l) => l.shipped)).toEqual([10, 0]);
    expect((r.shipments as Body[])[0]).toMatchObject({ waybill: 'JD0001', summary: '尿素 × 10袋（FW-A）', status: 'shipped' });
    // The farm has no such form.
    expect((await call(t, farm, 'PUT', `${F}/${o.id}/shipment`, { lines: [{ shipNow: 1 }] })).status).toBe(40301);
  });

  it('a shipment is received once: twice in a row and two receipts at once, one wins', async () => {
    const o = await submitted();
    ok(await move(factory, F, o.id, 'accept'));
    const lines = ok(await call(t, factory, 'GET', `${F}/${o.id}`)).lines as Body[];
    ok(await move(factory, F, o.id, 'ship', { lines: [{ lineId: lines[0].id, quantity: 5, batch: 'RACE1' }] }));
    const shipment = (ok(await call(t, farm, 'GET', `${P}/${o.id}`)).shipments as Body[])[0];
    const before = await balance(store.id, urea.id);
    const logs = await logCount('materialMovements.stockIn');
    const tries = await Promise.all([1, 2, 3, 4].map(() => move(farm, P, o.id, 'receive', { shipmentId: shipment.id })));
    expect(tries.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of tries.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(40001);
      expect(r.data.errors[0].message).toMatch(new RegExp(`^发货单 ${shipment.number} 已收货入库（入库单 RK\\d{6}），不能重复收货$`));
    }
    expect(await balance(store.id, urea.id)).toBe(before + 5);
    expect(await logCount('materialMovements.stockIn')).toBe(logs + 1);
    expect((await move(farm, P, o.id, 'receive', { shipmentId: shipment.id })).status).toBe(40001);
    // The rest is still to ship; closing short is allowed once nothing waits to be received.
    expect(ok(await move(farm, P, o.id, 'close')).status).toBe('closed');
  });

  it('an order to the farm’s own supplier: the farm records the supplier’s answer and shipment itself', async () => {
    const supplier = (ok(await call(t, farm, 'GET', `${M}/supplier/page?pageSize=1`)).rows as Body[])[0];
    const o = ok(await call(t, farm, 'POST', P, { supplierId: supplier.id, storeId: store.id, orderedOn: '2026-04-01', lines: [{ materialId: urea.id, quantity: 4, unitPrice: 110 }] }));
    ok(await move(farm, P, o.id, 'submit'));
    // Not the manufacturer's: it is not in its list.
    expect((await call(t, factory, 'GET', `${F}/${o.id}`)).status).toBe(40401);
    expect(ok(await call(t, farm, 'GET', `${P}/${o.id}`))._transitions).toEqual(['accept', 'refuse']);
    ok(await move(farm, P, o.id, 'accept'));
    ok(await move(farm, P, o.id, 'ship', {}));
    const before = await balance(store.id, urea.id);
    expect(ok(await move(farm, P, o.id, 'receive')).status).toBe('received');
    expect(await balance(store.id, urea.id)).toBe(before + 4);
  });

  it('a hand-over into another farm’s store is a request that farm accepts: nothing moves before; then a stock-out here and a stock-in there, both or neither', async () => {
    const farm2Org = (await demoOrg(t.db, 'farm2')).orgId;
    const options = ok(await call(t, farm, 'GET', `${M}/options/groupStores`)) as unknown as Body[];
    expect(options.length).toBeGreaterThan(0);
    expect(options.every((o) => String(o.label).startsWith('嫩江源合作农场 · '))).toBe(true);
    const toStore = options[0].value as number;
    const theirUrea = (await t.db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 AND data->>'goodsCode' = 'FL-002'`, [farm2Org])).rows[0].id;
    ok(await call(t, farm, 'POST', `${M}/movements/stockIn`, { storeId: store.id, movedOn: '2026-05-01', lines: [{ materialId: urea.id, batch: 'HO-1', quantity: 10, unitPrice: 100.1 }] }));
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM material_movements')).rows[0].n;
    const hereBefore = await balance(store.id, urea.id);
    const thereBefore = await balance(toStore, theirUrea);
    const n = await count();
    const asked = ok(await call(t, farm, 'POST', `${M}/movements/handOver`, { storeId: store.id, toStoreId: toStore, movedOn: '2026-05-02', lines: [{ materialId: urea.id, batch: 'HO-1', quantity: 4 }] }));
    expect(asked).toMatchObject({ status: 'requested', storeId: store.id, toStoreId: toStore, stockOut: null, stockIn: null, version: 1 });
    // Nothing moved: the other farm has not accepted.
    expect([await count(), await balance(store.id, urea.id), await balance(toStore, theirUrea)]).toEqual([n, hereBefore, thereBefore]);
    expect((ok(await call(t, farm2, 'GET', `${M}/handOvers/page?side=toMe&status=requested`)).rows as Body[]).map((r) => r.id)).toContain(asked.id);
    expect((ok(await call(t, farm, 'GET', `${M}/handOvers/page?side=mine`)).rows as Body[]).map((r) => r.id)).toContain(asked.id);
    expect((ok(await call(t, farm, 'GET', `${M}/handOvers/page?side=toMe`)).rows as Body[]).map((r) => r.id)).not.toContain(asked.id);
    // A farm outside the group neither sees nor settles it (as a request that does not exist).
    const outsideOrg = (await t.db.query<{ id: number }>(`INSERT INTO organisations(name, type, city) VALUES ('移交外部农场', 0, '长春市') RETURNING id`)).rows[0].id;
    const outsider = (await makeUser(t, { orgId: outsideOrg, menus: ['farmMaterialsStore'], elements: ['farmMaterialsStore:add'] })).token;
    expect((await move(outsider, `${M}/handOvers`, asked.id, 'accept')).status).toBe(40401);
    expect((ok(await call(t, outsider, 'GET', `${M}/handOvers/page?side=toMe`)).rows as Body[]).length).toBe(0);
    // The giving farm does not accept for the other one, and the receiving farm does not cancel.
    expect((await move(farm, `${M}/handOvers`, asked.id, 'accept')).status).toBe(40301);
    expect((await move(farm2, `${M}/handOvers`, asked.id, 'cancel')).status).toBe(40301);
    const accepted = ok(await move(farm2, `${M}/handOvers`, asked.id, 'accept', { version: 1 }));
    expect(accepted).toMatchObject({ status: 'accepted', version: 2 });
    expect(await balance(store.id, urea.id)).toBe(hereBefore - 4);
    expect(await balance(toStore, theirUrea)).toBe(thereBefore + 4);
    const ids = (await t.db.query<{ out_movement_id: number; in_movement_id: number }>('SELECT out_movement_id, in_movement_id FROM material_handovers h JOIN material_handover_requests r ON r.handover_id = h.id WHERE r.id = $1', [asked.id])).rows[0];
    const r = { outId: ids.out_movement_id, inId: ids.in_movement_id };
    // The goods keep their batch and their cost: 4 × 100.1; one movement on each farm's ledger.
    const inLine = (await t.db.query<{ batch: string; amount: string }>('SELECT batch, amount::text AS amount FROM material_movement_lines WHERE movement_id = $1', [r.inId])).rows[0];
    expect(inLine).toEqual({ batch: 'HO-1', amount: '400.40' });
    expect(ok(await call(t, farm2, 'GET', `${M}/movements/${r.inId}`))).toMatchObject({ direction: 'in', purpose: '接收自 禾丰生态农场' });
    expect(ok(await call(t, farm, 'GET', `${M}/movements/${r.outId}`))).toMatchObject({ direction: 'out' });
    expect(await logCount('materialHandovers.accept')).toBeGreaterThan(0);
    // Settled once only.
    expect((await move(farm2, `${M}/handOvers`, asked.id, 'accept')).status).toBe(40001);
    // Neither half is reversed alone.
    expect((await call(t, farm, 'POST', `${M}/movements/${r.outId}/reverse`, {})).data.errors).toEqual([{ field: 'id', message: '这张单据是农场间移交的一半，不能单独冲销' }]);
    expect((await call(t, farm2, 'POST', `${M}/movements/${r.inId}/reverse`, {})).status).toBe(40001);
    // Neither: a material the other farm does not have, after a line that it has; refused at acceptance, the request still waits.
    const own = ok(await call(t, farm, 'POST', `${M}/list`, { goodsCode: 'HO-ONLY-HERE', name: '本场自配营养液', category: 'fertilizer', unit: '桶' }));
    ok(await call(t, farm, 'POST', `${M}/movements/stockIn`, { storeId: store.id, movedOn: '2026-05-01', lines: [{ materialId: own.id, quantity: 3, unitPrice: 50 }] }));
    const m = await count();
    const lacking = ok(await call(t, farm, 'POST', `${M}/movements/handOver`, { storeId: store.id, toStoreId: toStore, movedOn: '2026-05-02', lines: [{ materialId: urea.id, batch: 'HO-1', quantity: 1 }, { materialId: own.id, quantity: 1 }] }));
    const refused = await move(farm2, `${M}/handOvers`, lacking.id, 'accept');
    expect(refused.status).toBe(40001);
    expect(refused.data.errors).toEqual([{ field: 'lines.1.materialId', message: '接收农场没有商品编码为「HO-ONLY-HERE」的农资，请先在对方的农资列表中建立' }]);
    expect(await count()).toBe(m);
    expect(await balance(store.id, urea.id)).toBe(hereBefore - 4);
    expect(ok(await move(farm2, `${M}/handOvers`, lacking.id, 'decline', { reason: '我场没有这种农资' }))).toMatchObject({ status: 'declined', reason: '我场没有这种农资' });
    // Over-drawn by the time it is accepted: nothing either; the giving farm cancels it.
    const over = ok(await call(t, farm, 'POST', `${M}/movements/handOver`, { storeId: store.id, toStoreId: toStore, movedOn: '2026-05-02', lines: [{ materialId: urea.id, batch: 'HO-1', quantity: 7 }] }));
    expect((await move(farm2, `${M}/handOvers`, over.id, 'accept')).data.errors[0].field).toBe('lines.0.quantity');
    expect(ok(await move(farm, `${M}/handOvers`, over.id, 'cancel'))).toMatchObject({ status: 'cancelled' });
    // To one's own store or a store outside the group: refused at the request.
    const requests = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM material_handover_requests')).rows[0].n;
    const k = await requests();
    expect((await call(t, farm, 'POST', `${M}/movements/handOver`, { storeId: store.id, toStoreId: store.id, movedOn: '2026-05-02', lines: [{ materialId: urea.id, batch: 'HO-1', quantity: 1 }] })).data.errors).toEqual([{ field: 'toStoreId', message: '移交要到本集团的另一个农场' }]);
    const nursery = (await t.db.query<{ id: number }>(`SELECT s.id FROM resource_records s JOIN organisations o ON o.id = s.farm_id WHERE s.resource = 'farmStores' AND o.type = 4 LIMIT 1`)).rows[0].id;
    expect((await call(t, farm, 'POST', `${M}/movements/handOver`, { storeId: store.id, toStoreId: nursery, movedOn: '2026-05-02', lines: [{ materialId: urea.id, batch: 'HO-1', quantity: 1 }] })).data.errors[0].field).toBe('toStoreId');
    expect([await requests(), await count()]).toEqual([k, m]);
  });

  it('acceptances of hand-overs in opposite directions between two farms at the same moment all go through (one lock per pair of farms)', async () => {
    const farm2Org = (await demoOrg(t.db, 'farm2')).orgId;
    const toStore = ((ok(await call(t, farm, 'GET', `${M}/options/groupStores`)) as unknown as Body[])[0]).value as number;
    const theirStores = ok(await call(t, farm2, 'GET', `${M}/stores/page?pageSize=5&sort=id`)).rows as Body[];
    expect(theirStores.map((s) => s.id)).toContain(toStore);
    const theirUrea = (await t.db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 AND data->>'goodsCode' = 'FL-002'`, [farm2Org])).rows[0].id;
    ok(await call(t, farm, 'POST', `${M}/movements/stockIn`, { storeId: store.id, movedOn: '2026-05-03', lines: [{ materialId: urea.id, batch: 'HO-2', quantity: 10, unitPrice: 100 }] }));
    ok(await call(t, farm2, 'POST', `${M}/movements/stockIn`, { storeId: toStore, movedOn: '2026-05-03', lines: [{ materialId: theirUrea, batch: 'HO-2', quantity: 10, unitPrice: 100 }] }));
    const here = await balance(store.id, urea.id);
    const there = await balance(toStore, theirUrea);
    const ask = async (from: string, storeId: unknown, toStoreId: unknown, materialId: unknown, n: number) =>
      ok(await call(t, from, 'POST', `${M}/movements/handOver`, { storeId, toStoreId, movedOn: '2026-05-04', lines: [{ materialId, batch: 'HO-2', quantity: n }] })).id;
    const pairs: [string, unknown][] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      pairs.push([farm2, await ask(farm, store.id, toStore, urea.id, n % 2 ? 1 : 2)]);
      pairs.push([farm, await ask(farm2, toStore, store.id, theirUrea, n % 2 ? 2 : 1)]);
    }
    const replies = await Promise.all(pairs.map(([receiver, id]) => move(receiver, `${M}/handOvers`, id, 'accept')));
    for (const r of replies) expect(r.status, r.raw.body).toBe(200);
    // 1+2+1+2+1 = 7 went there, 2+1+2+1+2 = 8 came here.
    expect(await balance(store.id, urea.id)).toBe(here - 7 + 8);
    expect(await balance(toStore, theirUrea)).toBe(there + 7 - 8);
  });

  it('a farming record draws the materials used on its task from a store, in the record’s transaction', async () => {
    const { rows } = await t.db.query<{ id: number; group_id: string }>(
      `SELECT tk.id, tk.data->>'groupId' AS group_id FROM resource_records tk JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = (tk.data->>'groupId')::bigint
        WHERE tk.resource = 'farmingTasks' AND tk.farm_id = $1 AND g.data->>'status' NOT IN ('closed', 'harvested') ORDER BY tk.id LIMIT 1`,
      [(await demoOrg(t.db, 'farm')).orgId],
    );
    const task = rows[0];
    ok(await call(t, farm, 'POST', `${M}/movements/stockIn`, { storeId: store.id, movedOn: '2026-05-01', lines: [{ materialId: dap.id, batch: 'REC-1', quantity: 6, unitPrice: 200 }] }));
    const before = await balance(store.id, dap.id);
    const records = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'farmingRecords'`)).rows[0].n;
    const n = await records();
    const body = (quantity: number) => ({
      taskId: task.id, doneOn: '2026-05-03', workerNames: '张伟、吴刚', hours: 6, storeId: store.id,
      materials: [{ name: '人工', quantity: 2, unit: '人' }, { materialId: dap.id, name: '磷酸二铵', quantity, unit: '袋', batch: 'REC-1' }],
    });
    // More than is left: neither the record nor the stock-out, the refusal on the record's line.
    const over = await call(t, farm, 'POST', '/api/farmPlantGroup/records', body(7));
    expect(over.status).toBe(40001);
    expect(over.data.errors[0].field).toBe('materials.1.quantity');
    expect(over.data.errors[0].message).toMatch(/只剩 6 袋，本单要出 7 袋$/);
    expect(await records()).toBe(n);
    const rec = ok(await call(t, farm, 'POST', '/api/farmPlantGroup/records', body(2.5)));
    expect(await balance(store.id, dap.id)).toBe(before - 2.5);
    const { rows: mv } = await t.db.query<{ task_id: string; group_id: string; reference: string }>(
      `SELECT m.task_id::text, m.group_id::text, m.reference FROM farming_record_movements f JOIN material_movements m ON m.id = f.movement_id WHERE f.record_id = $1`,
      [rec.id],
    );
    expect(mv).toEqual([{ task_id: String(task.id), group_id: task.group_id, reference: `NS${String(rec.id).padStart(6, '0')}` }]);
    // The draw is posted: the record's materials no longer change, nor is it deleted; other fields do.
    const changed = await call(t, farm, 'PUT', `/api/farmPlantGroup/records/${rec.id}`, { ...body(3), version: rec.version });
    expect(changed.status).toBe(40001);
    expect(changed.data.errors[0].field).toBe('materials');
    ok(await call(t, farm, 'PUT', `/api/farmPlantGroup/records/${rec.id}`, { ...body(2.5), hours: 7, version: rec.version }));
    expect((await call(t, farm, 'DELETE', `/api/farmPlantGroup/records/${rec.id}`)).status).toBe(40001);
    // The way out: reverse the stock-out; the record's materials change again and the save draws anew.
    const { rows: link } = await t.db.query<{ movement_id: string }>('SELECT movement_id::text FROM farming_record_movements WHERE record_id = $1', [rec.id]);
    ok(await call(t, farm, 'POST', `${M}/movements/${link[0].movement_id}/reverse`, { note: '用量录错' }));
    expect(await balance(store.id, dap.id)).toBe(before);
    const current = ok(await call(t, farm, 'GET', `/api/farmPlantGroup/records/${rec.id}`));
    ok(await call(t, farm, 'PUT', `/api/farmPlantGroup/records/${rec.id}`, { ...body(3), version: current.version }));
    expect(await balance(store.id, dap.id)).toBe(before - 3);
    // Materials named without a store: told to choose one.
    const noStore = await call(t, farm, 'POST', '/api/farmPlantGroup/records', { ...body(1), storeId: undefined });
    expect(noStore.data.errors).toEqual([{ field: 'storeId', message: '从仓库领用需先选仓库' }]);
  });

  it('the manufacturer’s side: its products, dealers and the farms that buy from it, its own only', async () => {
    const products = ok(await call(t, factory, 'GET', '/api/fertilizerFactory/products/page?pageSize=50')).rows as Body[];
    expect(products.length).toBe(8);
    expect(products.find((p) => p.name === '丰沃 大颗粒尿素')).toMatchObject({ price: 106, productType: 'nitrogen', onSale: true });
    expect((ok(await call(t, factory, 'GET', '/api/fertilizerFactory/agents/page?pageSize=50')).rows as Body[]).length).toBe(5);
    expect((await call(t, farm, 'GET', '/api/fertilizerFactory/products/page')).status).toBe(40301);
    const customers = ok(await call(t, factory, 'GET', '/api/fertilizerFactory/customers/page')).rows as Body[];
    expect(customers.map((c) => c.farmName).sort()).toEqual(['嫩江源合作农场', '禾丰生态农场']);
    // The total is the sum of the farm's non-draft, non-refused orders to this manufacturer, exact.
    const farmOrg = (await demoOrg(t.db, 'farm')).orgId;
    const { rows } = await t.db.query<{ total: string }>(
      `SELECT sum(l.amount)::text AS total FROM purchase_orders o JOIN purchase_order_lines l ON l.order_id = o.id
        WHERE o.farm_id = $1 AND o.seller_org_id = $2 AND o.status <> 'draft' AND o.refuse_reason IS NULL`,
      [farmOrg, factoryOrg],
    );
    expect(customers.find((c) => c.farmName === '禾丰生态农场')!.totalAmount).toBe(rows[0].total);
    expect((await call(t, farm, 'GET', '/api/fertilizerFactory/customers/page')).status).toBe(40301);
  });

  it('products and dealers: the manufacturer writes its own, audited; another manufacturer sees none of them', async () => {
    const base = '/api/fertilizerFactory/products';
    const made = ok(await call(t, factory, 'POST', base, { name: '丰沃 硅钙镁肥', productType: 'other', unit: '袋', price: 52.35, onSale: true }));
    expect(made.farmId).toBe(factoryOrg);
    const bad = await call(t, factory, 'POST', base, { name: '价格三位小数', productType: 'other', unit: '袋', price: 1.005 });
    expect(bad.status).toBe(40001);
    expect(bad.data.errors[0].field).toBe('price');
    const updated = ok(await call(t, factory, 'PUT', `${base}/${made.id}`, { ...made, price: 49.9, version: made.version }));
    expect(updated.price).toBe(49.9);
    const other = await t.db.query<{ id: number }>(`INSERT INTO organisations(name, type, city) VALUES ('测试另一厂家', 1, '潍坊市') RETURNING id`);
    const rival = await makeUser(t, { orgId: other.rows[0].id, menus: ['fertilizerFactory', 'fertilizerProduct', 'fertilizerAgent', 'fertilizerLists'], elements: ['fertilizerProduct:add', 'fertilizerProduct:edit', 'fertilizerProduct:delete', 'fertilizerLists:accept'] });
    const token = `Bearer ${rival.token}`;
    expect(((ok(await call(t, token, 'GET', `${base}/page`)).rows as Body[]).length)).toBe(0);
    expect((await call(t, token, 'GET', `${base}/${made.id}`)).status).toBe(40401);
    expect((await call(t, token, 'DELETE', `${base}/${made.id}`)).status).toBe(40401);
    // Nor its orders.
    expect(((ok(await call(t, token, 'GET', `${F}/page`)).rows as Body[]).length)).toBe(0);
    const anOrder = (ok(await call(t, factory, 'GET', `${F}/page?status=submitted`)).rows as Body[])[0];
    expect((await move(token, F, anOrder.id, 'accept')).status).toBe(40401);
    ok(await call(t, factory, 'DELETE', `${base}/${made.id}`));
    expect(await logCount('fertilizerProducts.create')).toBeGreaterThan(0);
    expect((await call(t, factory, 'POST', '/api/fertilizerFactory/agents', { name: '测试经销商', level: 'county', region: '五常市' })).status).toBe(200);
  });

  it('requirements: what the open plans still need against the stock of the material of the same name', async () => {
    const page = async (q = '') => ok(await call(t, farm, 'GET', `${M}/requirements/0/page?pageSize=100${q}`)).rows as Body[];
    const rows = await page();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => Number(r.needed) > 0)).toBe(true);
    // The seeded tomato season names a pesticide in 克 that the catalogue keeps in 袋 of 100 克: converted.
    const imidacloprid = rows.find((r) => r.material === '吡虫啉 10% 可湿性粉剂')!;
    expect(imidacloprid).toMatchObject({ unit: '克', stockUnit: '袋', shortfall: null });
    expect(imidacloprid.neededInStockUnit).toBe(Number((Number(imidacloprid.needed) / 100).toFixed(3)));
    expect(imidacloprid.state).toBe(Number(imidacloprid.stock) >= Number(imidacloprid.neededInStockUnit) ? 'enough' : 'short');
    // One more plan item of that open group, with a material the catalogue does not have yet.
    const { rows: plan } = await t.db.query<{ id: number; farm_id: number; area: string }>(
      `SELECT pl.id, pl.farm_id, g.data->>'areaMu' AS area FROM resource_records pl JOIN resource_records g ON g.resource = 'plantGroups' AND g.id::text = pl.data->>'groupId'
        WHERE pl.resource = 'plantPlans' AND g.data->>'name' = $1 LIMIT 1`,
      [String(rows[0].groups).split('、')[0]],
    );
    await t.db.query(`INSERT INTO resource_records(resource, farm_id, data) VALUES ('planItems', $1, $2)`, [
      plan[0].farm_id,
      JSON.stringify({ planId: plan[0].id, orderNumber: 99, itemType: 'farmWork', name: '冲施生根剂', startOn: '2099-01-01', endOn: '2099-01-02', materials: [{ name: '海藻酸生根剂', amountPerMu: 1.5, unit: '公斤' }] }),
    ]);
    const need = (await page()).find((r) => r.material === '海藻酸生根剂')!;
    expect(need).toMatchObject({ state: 'notInCatalogue', unit: '公斤', needed: Number((1.5 * Number(plan[0].area)).toFixed(3)), stock: null });
    // Put it in the catalogue in the plan's unit: short by the need, then enough once stocked.
    const m = ok(await call(t, farm, 'POST', `${M}/list`, { goodsCode: 'REQ-1', name: need.material, category: 'fertilizer', unit: need.unit }));
    const short = (await page()).find((r) => r.material === need.material && r.unit === need.unit)!;
    expect(short).toMatchObject({ state: 'short', stock: 0, shortfall: need.needed, materialId: m.id });
    expect((await page('&state=short')).some((r) => r.material === need.material)).toBe(true);
    ok(await call(t, farm, 'POST', `${M}/movements/stockIn`, { storeId: store.id, movedOn: '2026-05-01', lines: [{ materialId: m.id, quantity: need.needed, unitPrice: 1 }] }));
    expect((await page()).find((r) => r.material === need.material && r.unit === need.unit)).toMatchObject({ state: 'enough', shortfall: null });
    // Units: a catalogue in 吨 takes a need in 公斤 by the family's scale; one in 桶 with no content
    // cannot be converted («单位不同»), and is once it says what a 桶 holds (20 升 ← 1,500 毫升 a mu).
    const area = Number(plan[0].area);
    await t.db.query(`INSERT INTO resource_records(resource, farm_id, data) VALUES ('planItems', $1, $2)`, [
      plan[0].farm_id,
      JSON.stringify({ planId: plan[0].id, orderNumber: 100, itemType: 'farmWork', name: '叶面喷施', startOn: '2099-02-01', endOn: '2099-02-02', materials: [{ name: '氨基酸叶面肥', amountPerMu: 1500, unit: '毫升' }, { name: '生物有机肥', amountPerMu: 200, unit: '公斤' }] }),
    ]);
    const bucketFields = { goodsCode: 'REQ-2', name: '氨基酸叶面肥', category: 'fertilizer', unit: '桶' };
    const bucket = ok(await call(t, farm, 'POST', `${M}/list`, bucketFields));
    const edit = (patch: Body) => ({ ...bucketFields, version: bucket.version, ...patch });
    ok(await call(t, farm, 'POST', `${M}/list`, { goodsCode: 'REQ-3', name: '生物有机肥', category: 'fertilizer', unit: '吨' }));
    const row = async (name: string) => (await page()).find((r) => r.material === name)!;
    expect(await row('生物有机肥')).toMatchObject({ state: 'short', neededInStockUnit: Number(((200 * area) / 1000).toFixed(3)), stock: 0 });
    expect(await row('氨基酸叶面肥')).toMatchObject({ state: 'unitDiffers', neededInStockUnit: null, shortfall: null });
    // Content given by halves is refused with a sentence on the missing field, and changes nothing.
    const half = await call(t, farm, 'PUT', `${M}/list/${bucket.id}`, edit({ contentPerUnit: 20 }), 'en');
    expect(half.status).toBe(40001);
    expect(half.data.errors).toEqual([{ field: 'contentUnit', message: 'With a content per unit, give its unit too (e.g. kg, g, ml)' }]);
    const same = await call(t, farm, 'PUT', `${M}/list/${bucket.id}`, edit({ contentPerUnit: 20, contentUnit: '桶' }));
    expect(same.data.errors).toEqual([{ field: 'contentUnit', message: '含量单位不能与库存单位「桶」相同' }]);
    expect((await row('氨基酸叶面肥')).state).toBe('unitDiffers');
    ok(await call(t, farm, 'PUT', `${M}/list/${bucket.id}`, edit({ contentPerUnit: 20, contentUnit: '升' })));
    expect(await row('氨基酸叶面肥')).toMatchObject({ state: 'short', neededInStockUnit: Number(((1.5 * area) / 20).toFixed(3)), shortfall: Number(((1.5 * area) / 20).toFixed(3)) });
    // Another farm's plans are not in the list; the manufacturer has no such list.
    expect((await call(t, factory, 'GET', `${M}/requirements/0/page`)).status).toBe(40301);
  });

  it('every balance equals the sum of the movements after the flows', async () => {
    const mismatch = await t.db.query(
      `SELECT b.store_id FROM material_balances b
         LEFT JOIN (SELECT m.store_id, l.material_id, l.batch, sum(CASE WHEN m.direction = 'in' THEN l.quantity ELSE -l.quantity END) AS q
                      FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id GROUP BY 1, 2, 3) s
           ON s.store_id = b.store_id AND s.material_id = b.material_id AND s.batch = b.batch
        WHERE b.quantity <> coalesce(s.q, 0)`,
    );
    expect(mismatch.rows).toEqual([]);
  });
});
