/**
 * Which batch a draw takes (docs/materials.md): a stock-out line that names no batch is
 * drawn first-expired-first-out over the material's batches in the store — the earliest
 * expiry first, batches without an expiry (and the unbatched stock) last — split into one
 * stored line per batch, each at its batch's cost and dates; named batches are served first;
 * a draw beyond the whole stock is refused on the line with what is left in all; a reversal
 * puts back exactly the batches drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';

const M = '/api/farmMaterials';

describe.each(engines())('first expired, first out on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let store: Body;
  let seq = 0;

  const rows = async (url: string): Promise<Body[]> => {
    const r = await call(t, farm, 'GET', url);
    expect(r.status, r.raw.body).toBe(200);
    return r.data.rows;
  };
  /** A material with three batches in the store: LATE (expires 2027-09), EARLY (2027-02), none (no expiry), 10 each. */
  const threeBatches = async () => {
    seq += 1;
    const m = (await call(t, farm, 'POST', `${M}/list`, { goodsCode: `FEFO-${seq}`, name: `先到期先出 ${seq}`, category: 'pesticide', unit: '瓶', safetyStock: 1 })).data as Body;
    const r = await call(t, farm, 'POST', `${M}/movements/stockIn`, {
      storeId: store.id,
      movedOn: '2026-05-01',
      lines: [
        { materialId: m.id, batch: 'LATE', quantity: 10, unitPrice: 30, producedOn: '2025-09-01', expiresOn: '2027-09-01' },
        { materialId: m.id, batch: 'EARLY', quantity: 10, unitPrice: 20, producedOn: '2025-02-01', expiresOn: '2027-02-01' },
        { materialId: m.id, quantity: 10, unitPrice: 10 },
      ],
    });
    expect(r.status, r.raw.body).toBe(200);
    return m;
  };
  const linesOf = async (movementId: unknown) =>
    ((await call(t, farm, 'GET', `${M}/movements/${movementId}`)).data.lines as Body[]).map((l) => ({ batch: l.batch ?? '', quantity: Number(l.quantity), amount: String(l.amount) }));
  const left = async (materialId: unknown) =>
    Object.fromEntries(
      (await t.db.query<{ batch: string; quantity: string }>(`SELECT batch, trim_scale(quantity)::text AS quantity FROM material_balances WHERE store_id = $1 AND material_id = $2 ORDER BY batch`, [store.id, materialId])).rows.map((r) => [r.batch, Number(r.quantity)]),
    );

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    [store] = await rows(`${M}/stores/page?pageSize=1&sort=id`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes the earliest expiry first, then the next, each batch at its own cost', async () => {
    const m = await threeBatches();
    const out = await call(t, farm, 'POST', `${M}/movements/stockOut`, { storeId: store.id, movedOn: '2026-05-02', lines: [{ materialId: m.id, quantity: 14 }] });
    expect(out.status, out.raw.body).toBe(200);
    expect(await linesOf(out.data.id)).toEqual([
      { batch: 'EARLY', quantity: 10, amount: '200.00' },
      { batch: 'LATE', quantity: 4, amount: '120.00' },
    ]);
    expect(await left(m.id)).toEqual({ '': 10, EARLY: 0, LATE: 6 });
  });

  it('serves a named batch first, and a line without one takes what is left, the unbatched stock last', async () => {
    const m = await threeBatches();
    const out = await call(t, farm, 'POST', `${M}/movements/stockOut`, {
      storeId: store.id,
      movedOn: '2026-05-02',
      lines: [{ materialId: m.id, quantity: 15 }, { materialId: m.id, batch: 'EARLY', quantity: 8 }],
    });
    expect(out.status, out.raw.body).toBe(200);
    // Line 1 (no batch) after line 2 took 8 of EARLY: EARLY's last 2, LATE's 10, 3 unbatched.
    expect(await linesOf(out.data.id)).toEqual([
      { batch: 'EARLY', quantity: 2, amount: '40.00' },
      { batch: 'LATE', quantity: 10, amount: '300.00' },
      { batch: '', quantity: 3, amount: '30.00' },
      { batch: 'EARLY', quantity: 8, amount: '160.00' },
    ]);
    expect(await left(m.id)).toEqual({ '': 7, EARLY: 0, LATE: 0 });
  });

  it('refuses more than the whole stock on the line, saying what is left in all, and changes nothing', async () => {
    const m = await threeBatches();
    const out = await call(t, farm, 'POST', `${M}/movements/stockOut`, { storeId: store.id, movedOn: '2026-05-02', lines: [{ materialId: m.id, quantity: 31 }] }, 'en');
    expect(out.status).toBe(40001);
    expect(out.data.errors.map((e: Body) => e.field)).toEqual(['lines.0.quantity']);
    expect(out.data.errors[0].message).toContain('30');
    expect(await left(m.id)).toEqual({ '': 10, EARLY: 10, LATE: 10 });
  });

  it('a reversal puts back exactly the batches the draw took', async () => {
    const m = await threeBatches();
    const out = await call(t, farm, 'POST', `${M}/movements/stockOut`, { storeId: store.id, movedOn: '2026-05-02', lines: [{ materialId: m.id, quantity: 25 }] });
    expect(out.status, out.raw.body).toBe(200);
    expect(await left(m.id)).toEqual({ '': 5, EARLY: 0, LATE: 0 });
    const back = await call(t, farm, 'POST', `${M}/movements/${out.data.id}/reverse`, { note: '领多了' });
    expect(back.status, back.raw.body).toBe(200);
    expect(await left(m.id)).toEqual({ '': 10, EARLY: 10, LATE: 10 });
  });
});
