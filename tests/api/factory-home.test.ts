/**
 * The manufacturer's home blocks (server/materials/factory-home.ts): every figure agrees with
 * the manufacturer's own order and customer lists, follows a transition, and is nobody
 * else's business (a farm holds the home page but not the order list).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body, type Reply } from './resource-fixtures.ts';

const H = '/api/fertilizerFactory/home';
const F = '/api/fertilizerFactory/orders';

describe.each(engines())('manufacturer home on $name', (engine) => {
  let t: TestApp;
  let factory: string;
  let farm: string;
  const ok = (r: Reply) => {
    expect(r.status, r.raw.body).toBe(200);
    return r.data as Body;
  };
  const orders = async () => ok(await call(t, factory, 'GET', `${F}/page?pageSize=100`)).rows as Body[];

  beforeAll(async () => {
    t = await createTestApp(engine);
    factory = `Bearer ${await t.login('factory')}`;
    farm = `Bearer ${await t.login('farm')}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the figures are those of the manufacturer’s own lists', async () => {
    const o = ok(await call(t, factory, 'GET', `${H}/overview`));
    const rows = await orders();
    expect(o.toAccept).toBe(rows.filter((r) => r.status === 'submitted').length);
    expect(o.toAccept).toBeGreaterThan(0);
    const customers = ok(await call(t, factory, 'GET', '/api/fertilizerFactory/customers/page?pageSize=50'));
    expect(o.customers).toBe(customers.total);
    expect(o.toShip).toBeGreaterThan(0);
    expect(o.productsOnSale).toBe(7); // eight seeded products, one withdrawn
    expect(o.shippedAmount).toMatch(/^\d+\.\d{2}$/);
    const { rows: exact } = await t.db.query<{ s: string }>(
      `SELECT coalesce(sum(round(l.shipped * l.unit_price, 2)), 0)::numeric(16,2)::text AS s FROM purchase_order_lines l JOIN purchase_orders o ON o.id = l.order_id
        WHERE o.seller_org_id IS NOT NULL AND o.status <> 'draft' AND o.refuse_reason IS NULL AND o.ordered_on >= date_trunc('year', now())::date`,
    );
    expect(o.shippedAmount).toBe(exact[0].s);
    const months = ok(await call(t, factory, 'GET', `${H}/monthly`)) as unknown as { month: string; shipped: number }[];
    expect(months).toHaveLength(new Date().getMonth() + 1);
    expect(months.reduce((s, m) => s + m.shipped, 0)).toBeCloseTo(Number(o.shippedAmount), 2);
  });

  it('follows a transition: an accepted order leaves «to accept» for «to ship»', async () => {
    const before = ok(await call(t, factory, 'GET', `${H}/overview`));
    const submitted = (await orders()).find((r) => r.status === 'submitted')!;
    ok(await call(t, factory, 'POST', `${F}/${submitted.id}/transitions/accept`, {}));
    const after = ok(await call(t, factory, 'GET', `${H}/overview`));
    expect(after.toAccept).toBe((before.toAccept as number) - 1);
    expect(after.toShip).toBe((before.toShip as number) + 1);
  });

  it('a farm holds the home page but not the manufacturer’s blocks', async () => {
    expect((await call(t, farm, 'GET', `${H}/overview`)).status).toBe(40301);
    expect((await call(t, farm, 'GET', `${H}/monthly`)).status).toBe(40301);
    expect((await call(t, null, 'GET', `${H}/overview`)).status).toBe(40101);
  });
});
