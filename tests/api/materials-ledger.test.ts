/**
 * The stock ledger's invariants (server/materials, docs/materials.md) on every engine:
 * stock is the sum of confirmed movements and never below zero, also with 50 draws of the
 * last units at once; a confirmed movement is never edited nor deleted; a reversal names
 * the movement it reverses, once only; another farm's store, material or movement behaves
 * as missing; bad input on every write changes nothing; the catalogue's rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, fingerprint, type Body, type Reply } from './resource-fixtures.ts';

const M = '/api/farmMaterials';

describe.each(engines())('materials ledger on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let factory: string;
  let store: Body;
  let otherStore: Body;
  let farm2Store: Body;
  let farm2Material: Body;
  let seq = 0;

  /** The resource records, the operation log and every ledger table. */
  const everything = async () => {
    const ledger = await t.db.query(
      `SELECT (SELECT count(*)::int FROM material_movements) AS movements, (SELECT count(*)::int FROM material_movement_lines) AS lines,
              (SELECT md5(coalesce(string_agg(store_id || ':' || material_id || ':' || batch || ':' || quantity || ':' || value, ',' ORDER BY store_id, material_id, batch), '')) FROM material_balances) AS balances`,
    );
    return `${await fingerprint(t.db)} ${JSON.stringify(ledger.rows[0])}`;
  };
  const unchanged = async (write: () => Promise<Reply>, status: number, fields?: string[]) => {
    const before = await everything();
    const r = await write();
    expect(r.status, r.raw.body).toBe(status);
    if (fields) expect(r.data.errors.map((e: Body) => e.field), r.raw.body).toEqual(fields);
    expect(await everything()).toBe(before);
    return r;
  };
  const rows = async (token: string, url: string): Promise<Body[]> => {
    const r = await call(t, token, 'GET', url);
    expect(r.status, r.raw.body).toBe(200);
    return r.data.rows;
  };
  /** A new material of farm's catalogue. */
  const material = async (extra: Body = {}) => {
    seq += 1;
    const r = await call(t, farm, 'POST', `${M}/list`, { goodsCode: `T-${seq}`, name: `测试肥 ${seq}`, category: 'fertilizer', unit: '袋', safetyStock: 5, ...extra });
    expect(r.status, r.raw.body).toBe(200);
    return r.data as Body;
  };
  const stockIn = (token: string, body: Body, lang = 'zh') => call(t, token, 'POST', `${M}/movements/stockIn`, body, lang);
  const stockOut = (token: string, body: Body, lang = 'zh') => call(t, token, 'POST', `${M}/movements/stockOut`, body, lang);
  const balance = async (storeId: unknown, materialId: unknown) =>
    (await t.db.query<{ quantity: string; value: string }>(`SELECT trim_scale(sum(quantity))::text AS quantity, sum(value)::text AS value FROM material_balances WHERE store_id = $1 AND material_id = $2`, [storeId, materialId])).rows[0];

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    factory = `Bearer ${await t.login('factory')}`;
    [store, otherStore] = await rows(farm, `${M}/stores/page?pageSize=5&sort=id`);
    farm2Store = (await rows(farm2, `${M}/stores/page?pageSize=1`))[0];
    farm2Material = (await rows(farm2, `${M}/list/page?pageSize=1`))[0];
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seed: two stores per farm, stock equal to the sum of the movements, highlights', async () => {
    expect(store).toBeDefined();
    expect(otherStore).toBeDefined();
    for (const who of ['farm', 'farm2', 'nursery']) {
      const token = `Bearer ${await t.login(who)}`;
      expect((await rows(token, `${M}/stores/page`)).length).toBe(2);
      expect((await rows(token, `${M}/movements/page?pageSize=50`)).length).toBeGreaterThan(10);
    }
    const mismatch = await t.db.query(
      `SELECT b.* FROM material_balances b FULL JOIN (
         SELECT m.store_id, l.material_id, l.batch, sum(CASE WHEN m.direction = 'in' THEN l.quantity ELSE -l.quantity END) AS q
           FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id GROUP BY 1, 2, 3) s
         ON s.store_id = b.store_id AND s.material_id = b.material_id AND s.batch = b.batch
        WHERE b.quantity IS DISTINCT FROM s.q`,
    );
    expect(mismatch.rows).toEqual([]);
    const low = await rows(farm, `${M}/stock/page?state=low&pageSize=50`);
    expect(low.length).toBeGreaterThan(0);
    expect(low.every((r) => r.safety === 'low' && Number(r.quantity) < Number(r.safetyStock))).toBe(true);
    const near = await rows(farm, `${M}/stock/page?state=nearExpiry&pageSize=50`);
    expect(near.map((r) => r.expiry)).toContain('near');
    // The seed's reversal names its stock-in, and that stock-in offers no second one.
    const movements = await rows(farm, `${M}/movements/page?pageSize=100`);
    const reversal = movements.find((m) => m.reversesId);
    expect(reversal).toBeDefined();
    expect(movements.find((m) => m.id === reversal!.reversesId)).toMatchObject({ reversible: false, reversedById: reversal!.id });
  });

  it('a stock-in and a stock-out keep exact quantities and values; the ledger shows the running balance', async () => {
    const m = await material();
    const r = await stockIn(farm, { storeId: store.id, movedOn: '2026-03-01', lines: [{ materialId: m.id, batch: 'A1', quantity: 3, unitPrice: 0.1 }, { materialId: m.id, batch: 'A1', quantity: 0.7, unitPrice: 0.2, expiresOn: '2027-03-01', producedOn: '2026-02-01' }] });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data).toMatchObject({ direction: 'in', totalAmount: '0.44', lines: [{ quantity: 3, amount: '0.30' }, { quantity: 0.7, amount: '0.14' }] });
    expect(await balance(store.id, m.id)).toEqual({ quantity: '3.7', value: '0.44' });
    const out = await stockOut(farm, { storeId: store.id, movedOn: '2026-03-02', lines: [{ materialId: m.id, batch: 'A1', quantity: 3.7 }] });
    expect(out.status, out.raw.body).toBe(200);
    // Drawn to zero, the batch is worth exactly zero: the last units take what was left of the value.
    expect(out.data.lines[0]).toMatchObject({ quantity: 3.7, amount: '0.44' });
    expect(await balance(store.id, m.id)).toEqual({ quantity: '0', value: '0.00' });
    const ledger = await rows(farm, `${M}/ledger/page?storeId=${store.id}&goodsCode=${m.goodsCode}`);
    expect(ledger.map((l) => [l.inQuantity, l.outQuantity, l.balance])).toEqual([[null, 3.7, 0], [0.7, null, 3.7], [3, null, 3]]);
    const page2 = await call(t, farm, 'GET', `${M}/ledger/page?storeId=${store.id}&materialId=${m.id}&pageSize=1&pageIndex=2`);
    expect(page2.data).toMatchObject({ total: 3, rows: [{ balance: 3.7 }] });
    // The audit names the movement and its lines.
    const log = await t.db.query<{ action: string }>(`SELECT action FROM operation_log WHERE resource = 'materialMovements' AND record_id = $1`, [String(out.data.id)]);
    expect(log.rows.map((l) => l.action)).toEqual(['materialMovements.stockOut']);
  });

  it('an over-draw is refused on its line, in the caller’s language, with how much is left; nothing changes', async () => {
    const m = await material();
    expect((await stockIn(farm, { storeId: store.id, movedOn: '2026-03-01', lines: [{ materialId: m.id, quantity: 12, unitPrice: 100 }] })).status).toBe(200);
    const body = { storeId: store.id, movedOn: '2026-03-05', lines: [{ materialId: m.id, quantity: 5 }, { materialId: m.id, quantity: 8 }] };
    const zh = await unchanged(() => stockOut(farm, body), 40001, ['lines.1.quantity']);
    expect(zh.data.errors[0].message).toContain('只剩 7 袋');
    const en = await unchanged(() => stockOut(farm, body, 'en'), 40001, ['lines.1.quantity']);
    expect(en.data.errors[0].message).toContain('only 7 袋');
    const es = await unchanged(() => stockOut(farm, { ...body, lines: [{ materialId: m.id, quantity: 13 }] }, 'es'), 40001, ['lines.0.quantity']);
    expect(es.data.errors[0].message).toContain('solo quedan 12');
    // A batch that was never stocked has nothing left.
    const none = await unchanged(() => stockOut(farm, { ...body, lines: [{ materialId: m.id, batch: 'X', quantity: 1 }] }), 40001, ['lines.0.quantity']);
    expect(none.data.errors[0].message).toContain('只剩 0');
    // The other store holds none of it.
    await unchanged(() => stockOut(farm, { ...body, storeId: otherStore.id, lines: [{ materialId: m.id, quantity: 1 }] }), 40001, ['lines.0.quantity']);
    expect(await balance(store.id, m.id)).toEqual({ quantity: '12', value: '1200.00' });
  });

  it('50 concurrent draws of the last 20 units: exactly 20 succeed, the others are told how much is left', async () => {
    const m = await material({ unit: '瓶' });
    expect((await stockIn(farm, { storeId: store.id, movedOn: '2026-04-01', lines: [{ materialId: m.id, batch: 'B', quantity: 20, unitPrice: 18 }] })).status).toBe(200);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => stockOut(farm, { storeId: store.id, movedOn: '2026-04-02', lines: [{ materialId: m.id, batch: 'B', quantity: 1 }] })),
    );
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status !== 200);
    expect(ok.length).toBe(20);
    expect(refused.length).toBe(30);
    for (const r of refused) {
      expect(r.status, r.raw.body).toBe(40001);
      expect(r.data.errors).toEqual([{ field: 'lines.0.quantity', message: expect.stringContaining('只剩 0 瓶') }]);
    }
    expect(await balance(store.id, m.id)).toEqual({ quantity: '0', value: '0.00' });
    const outs = await t.db.query<{ n: number; amount: string }>(
      `SELECT count(*)::int AS n, sum(l.amount)::text AS amount FROM material_movement_lines l JOIN material_movements mv ON mv.id = l.movement_id WHERE l.material_id = $1 AND mv.direction = 'out'`,
      [m.id],
    );
    expect(outs.rows[0]).toEqual({ n: 20, amount: '360.00' });
  });

  it('concurrent draws of several materials in opposite line orders never deadlock and never go below zero', async () => {
    const a = await material();
    const b = await material();
    expect((await stockIn(farm, { storeId: store.id, movedOn: '2026-04-01', lines: [{ materialId: a.id, quantity: 10, unitPrice: 1 }, { materialId: b.id, quantity: 10, unitPrice: 1 }] })).status).toBe(200);
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        stockOut(farm, { storeId: store.id, movedOn: '2026-04-02', lines: i % 2 ? [{ materialId: a.id, quantity: 1 }, { materialId: b.id, quantity: 1 }] : [{ materialId: b.id, quantity: 1 }, { materialId: a.id, quantity: 1 }] }),
      ),
    );
    expect(replies.filter((r) => r.status === 200).length).toBe(10);
    expect(replies.every((r) => r.status === 200 || r.status === 40001)).toBe(true);
    expect(await balance(store.id, a.id)).toEqual({ quantity: '0', value: '0.00' });
    expect(await balance(store.id, b.id)).toEqual({ quantity: '0', value: '0.00' });
  });

  it('a confirmed movement is never edited nor deleted; the refusal says to post a reversal', async () => {
    const [movement] = await rows(farm, `${M}/movements/page?pageSize=1`);
    const put = await unchanged(() => call(t, farm, 'PUT', `${M}/movements/${movement.id}`, {}), 40001, ['id']);
    expect(put.data.errors[0].message).toContain('冲销');
    const del = await unchanged(() => call(t, farm, 'DELETE', `${M}/movements/${movement.id}`, undefined, 'en'), 40001, ['id']);
    expect(del.data.errors[0].message).toMatch(/never edited or deleted.*reversal/);
  });

  it('a reversal names the movement it reverses, once only, and is not reversed itself', async () => {
    const m = await material();
    const inn = await stockIn(farm, { storeId: store.id, movedOn: '2026-05-01', lines: [{ materialId: m.id, quantity: 10, unitPrice: 2.5 }] });
    const out = await stockOut(farm, { storeId: store.id, movedOn: '2026-05-02', lines: [{ materialId: m.id, quantity: 4 }] });
    expect(out.status).toBe(200);
    // Reversing the stock-in would take 10 of the 6 left: refused like any over-draw.
    const tooMuch = await unchanged(() => call(t, farm, 'POST', `${M}/movements/${inn.data.id}/reverse`, {}), 40001, ['lines.0.quantity']);
    expect(tooMuch.data.errors[0].message).toContain('只剩 6');
    // Reversing the stock-out puts the 4 back at the cost they left with.
    const replies = await Promise.all(Array.from({ length: 5 }, () => call(t, farm, 'POST', `${M}/movements/${out.data.id}/reverse`, { note: '领错了' })));
    const done = replies.filter((r) => r.status === 200);
    expect(done.length).toBe(1);
    expect(replies.filter((r) => r.status === 40001).every((r) => r.data.errors[0].field === 'id')).toBe(true);
    expect(done[0].data).toMatchObject({ direction: 'in', reversesId: out.data.id, reversible: false, lines: [{ quantity: 4, amount: '10.00' }] });
    expect(await balance(store.id, m.id)).toEqual({ quantity: '10', value: '25.00' });
    const again = await unchanged(() => call(t, farm, 'POST', `${M}/movements/${out.data.id}/reverse`, {}), 40001, ['id']);
    expect(again.data.errors[0].message).toContain(done[0].data.number);
    await unchanged(() => call(t, farm, 'POST', `${M}/movements/${done[0].data.id}/reverse`, {}), 40001, ['id']);
    expect((await call(t, farm, 'GET', `${M}/movements/${out.data.id}`)).data).toMatchObject({ reversedById: done[0].data.id, reversible: false });
    // Now the stock-in can be reversed: all 10 leave, the store is back to nothing.
    expect((await call(t, farm, 'POST', `${M}/movements/${inn.data.id}/reverse`, {})).status).toBe(200);
    expect(await balance(store.id, m.id)).toEqual({ quantity: '0', value: '0.00' });
  });

  it('another farm’s store, material or movement behaves as missing', async () => {
    const m = await material();
    await unchanged(() => stockIn(farm, { storeId: farm2Store.id, movedOn: '2026-03-01', lines: [{ materialId: m.id, quantity: 1, unitPrice: 1 }] }), 40001, ['storeId']);
    await unchanged(() => stockIn(farm, { storeId: store.id, movedOn: '2026-03-01', lines: [{ materialId: farm2Material.id, quantity: 1, unitPrice: 1 }] }), 40001, ['lines.0.materialId']);
    await unchanged(() => stockOut(farm, { storeId: store.id, movedOn: '2026-03-01', lines: [{ materialId: farm2Material.id, quantity: 1 }] }), 40001, ['lines.0.materialId']);
    const farm2Movement = (await rows(farm2, `${M}/movements/page?pageSize=1`))[0];
    expect((await call(t, farm, 'GET', `${M}/movements/${farm2Movement.id}`)).status).toBe(40401);
    await unchanged(() => call(t, farm, 'POST', `${M}/movements/${farm2Movement.id}/reverse`, {}), 40401);
    await unchanged(() => call(t, farm, 'PUT', `${M}/movements/${farm2Movement.id}`, {}), 40401);
    expect((await call(t, farm, 'GET', `${M}/ledger/page?storeId=${farm2Store.id}&materialId=${farm2Material.id}`)).status).toBe(40401);
    expect((await call(t, farm, 'GET', `${M}/ledger/page?storeId=${store.id}&materialId=${farm2Material.id}`)).status).toBe(40401);
    const mine = await rows(farm, `${M}/stock/page?pageSize=500`);
    expect(mine.every((r) => r.farmId === store.farmId)).toBe(true);
    // A supplier, group or task of another farm is refused on its field.
    const farm2Supplier = (await rows(farm2, `${M}/supplier/page?pageSize=1`))[0];
    await unchanged(() => stockIn(farm, { storeId: store.id, movedOn: '2026-03-01', supplierId: farm2Supplier.id, lines: [{ materialId: m.id, quantity: 1, unitPrice: 1 }] }), 40001, ['supplierId']);
    const farm2Group = (await rows(farm2, '/api/farmPlantGroup/groups/page?pageSize=1'))[0];
    await unchanged(() => stockOut(farm, { storeId: store.id, movedOn: '2026-03-01', groupId: farm2Group.id, lines: [{ materialId: m.id, quantity: 1 }] }), 40001, ['groupId', 'lines.0.quantity'].slice(0, 1));
  });

  it('bad input on every write changes nothing', async () => {
    const m = await material();
    const good = { storeId: store.id, movedOn: '2026-03-01', lines: [{ materialId: m.id, quantity: 1, unitPrice: 1 }] };
    const line = (extra: Body) => ({ ...good, lines: [{ ...good.lines[0], ...extra }] });
    await unchanged(() => stockIn(farm, { ...good, lines: [] }), 40001, ['lines']);
    await unchanged(() => stockIn(farm, line({ quantity: 0 })), 40001, ['lines.0.quantity']);
    await unchanged(() => stockIn(farm, line({ quantity: -3 })), 40001, ['lines.0.quantity']);
    await unchanged(() => stockIn(farm, line({ quantity: 1.0005 })), 40001, ['lines.0.quantity']);
    await unchanged(() => stockIn(farm, line({ unitPrice: 0.12345 })), 40001, ['lines.0.unitPrice']);
    await unchanged(() => stockIn(farm, line({ unitPrice: -1 })), 40001, ['lines.0.unitPrice']);
    await unchanged(() => stockIn(farm, line({ producedOn: '2026-05-01', expiresOn: '2026-04-01' })), 40001, ['lines.0.expiresOn']);
    await unchanged(() => stockIn(farm, line({ materialId: 999999999 })), 40001, ['lines.0.materialId']);
    await unchanged(() => stockIn(farm, { ...good, movedOn: '2026-13-01' }), 40001, ['movedOn']);
    await unchanged(() => stockIn(farm, { ...good, storeId: 999999999 }), 40001, ['storeId']);
    await unchanged(() => stockIn(farm, { ...good, surprise: 1 }), 40001);
    await unchanged(() => stockOut(farm, line({ unitPrice: undefined, quantity: 'lots' })), 40001, ['lines.0.quantity']);
    // A stock-out's price is the batch's cost: a typed one is refused.
    await unchanged(() => stockOut(farm, good), 40001);
    await unchanged(() => call(t, farm, 'POST', `${M}/movements/1/reverse`, { note: '<script>' }), 40001, ['note']);
    // A caller without the store codes: 40301, nothing changed.
    await unchanged(() => stockIn(factory, good), 40301);
    await unchanged(() => stockOut(factory, good), 40301);
    expect((await call(t, factory, 'GET', `${M}/stock/page`)).status).toBe(40301);
  });

  it('the catalogue: a goods code names one material of a farm; a used material or store is not deleted', async () => {
    const m = await material();
    const taken = await unchanged(() => call(t, farm, 'POST', `${M}/list`, { goodsCode: m.goodsCode, name: '另一个', category: 'seed', unit: '袋' }), 40001, ['goodsCode']);
    expect(taken.data.errors[0].message).toContain(String(m.goodsCode));
    // Another farm may use the same code.
    expect((await call(t, farm2, 'POST', `${M}/list`, { goodsCode: m.goodsCode, name: '同码', category: 'seed', unit: '袋' })).status).toBe(200);
    await unchanged(() => call(t, farm, 'POST', `${M}/list`, { goodsCode: 'SI-1', name: '尿素', category: 'fertilizer', unit: '袋', safetyIntervalDays: 7 }), 40001, ['safetyIntervalDays']);
    expect((await stockIn(farm, { storeId: store.id, movedOn: '2026-03-01', lines: [{ materialId: m.id, quantity: 1, unitPrice: 1 }] })).status).toBe(200);
    await unchanged(() => call(t, farm, 'DELETE', `${M}/list/${m.id}`), 40001, ['id']);
    await unchanged(() => call(t, farm, 'DELETE', `${M}/stores/${store.id}`), 40001, ['id']);
    const unused = await material();
    expect((await call(t, farm, 'DELETE', `${M}/list/${unused.id}`)).status).toBe(200);
  });
  it('a write needs a store menu together with its own element code', async () => {
    const role = await t.db.query<{ id: number }>(
      `INSERT INTO roles(code, name, menus, elements) VALUES ('ledgerMixed', '{"zh":"混合","en":"mixed","es":"mixto"}', '{farmStorehouseIndex}', '{farmMaterialsStore:add,farmMaterialsStore:edit}') RETURNING id`,
    );
    const user = (await t.db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'farm2'`)).rows[0].id;
    await t.db.query('DELETE FROM user_roles WHERE user_id = $1', [user]);
    await t.db.query('INSERT INTO user_roles(user_id, role_id) VALUES ($1, $2)', [user, role.rows[0].id]);
    const mixed = `Bearer ${await t.login('farm2')}`;
    expect((await call(t, mixed, 'GET', `${M}/stock/page`)).status).toBe(200);
    const movement = (await rows(mixed, `${M}/movements/page?pageSize=1&direction=out`))[0];
    await unchanged(() => stockIn(mixed, { storeId: farm2Store.id, movedOn: '2026-03-01', lines: [{ materialId: farm2Material.id, quantity: 1, unitPrice: 1 }] }), 40301);
    await unchanged(() => call(t, mixed, 'POST', `${M}/movements/${movement.id}/reverse`, {}), 40301);
  });
});
