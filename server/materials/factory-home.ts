/**
 * The manufacturer's blocks of the home page (/farmMain/index as `factory`): the orders it
 * has to act on, what it shipped this year and its customers. A manufacturer holds the
 * home page's menu code like a farm does, and without these blocks it would open on a
 * farm's figures, all zero (docs/materials.md, "The manufacturer's home").
 *
 * Amounts are the order lines' exact decimals, summed in the database and sent as text
 * (and as a number for the charts); refused orders count nowhere.
 */
import type { FastifyPluginAsync } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { okArray, okObject } from '../admin/schemas.ts';
import { Params } from '../db/params.ts';
import { sideScope } from './orders.ts';

const tags = ['home'];
/** The home page's menu code and the manufacturer's order list: both, or the blocks are not the caller's. */
const HOME = 'farmMainIndex';
const ORDERS = 'fertilizerLists';

export const factoryHomeRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);

  app.get(
    '/fertilizerFactory/home/overview',
    { schema: { tags, summary: 'Manufacturer home figures: orders to accept, to ship, shipments on the way, customers, products on sale, amount shipped this year', description: 'Needs the menu codes farmMainIndex and fertilizerLists.', response: okObject() } },
    async (req) => {
      requireCan(req, HOME);
      const me = requireCan(req, ORDERS);
      const p = new Params();
      const orders = sideScope(me, 'seller', p);
      const year = p.add(`${new Date().toISOString().slice(0, 4)}-01-01`);
      const products = me.platformAdmin ? 'TRUE' : me.orgId != null ? `r.farm_id = ${p.add(me.orgId)}` : 'FALSE';
      const { rows } = await app.db.query<Record<string, string | number>>(
        `SELECT
           (SELECT count(*)::int FROM purchase_orders o WHERE ${orders} AND o.status = 'submitted') AS to_accept,
           (SELECT count(*)::int FROM purchase_orders o WHERE ${orders} AND o.status IN ('accepted', 'shipped')
               AND EXISTS (SELECT 1 FROM purchase_order_lines l WHERE l.order_id = o.id AND l.shipped < l.quantity)) AS to_ship,
           (SELECT count(*)::int FROM purchase_shipments s JOIN purchase_orders o ON o.id = s.order_id WHERE ${orders} AND s.received_movement_id IS NULL) AS on_the_way,
           (SELECT count(DISTINCT o.farm_id)::int FROM purchase_orders o WHERE ${orders}) AS customers,
           (SELECT count(*)::int FROM resource_records r WHERE r.resource = 'fertilizerProducts' AND coalesce((r.data->>'onSale')::boolean, false) AND ${products}) AS on_sale,
           (SELECT coalesce(sum(round(l.shipped * l.unit_price, 2)), 0)::numeric(16,2)::text FROM purchase_order_lines l JOIN purchase_orders o ON o.id = l.order_id
             WHERE ${orders} AND o.refuse_reason IS NULL AND o.ordered_on >= ${year}::date) AS shipped_amount`,
        p.values,
      );
      const r = rows[0];
      return ok({
        toAccept: r.to_accept,
        toShip: r.to_ship,
        onTheWay: r.on_the_way,
        customers: r.customers,
        productsOnSale: r.on_sale,
        shippedAmount: r.shipped_amount,
        shippedAmountValue: Number(r.shipped_amount),
      });
    },
  );

  app.get(
    '/fertilizerFactory/home/monthly',
    { schema: { tags, summary: 'Manufacturer home chart: amount ordered and shipped per month of this year (refused orders left out)', description: 'Needs the menu codes farmMainIndex and fertilizerLists.', response: okArray() } },
    async (req) => {
      requireCan(req, HOME);
      const me = requireCan(req, ORDERS);
      const p = new Params();
      const orders = sideScope(me, 'seller', p);
      const year = new Date().toISOString().slice(0, 4);
      const from = p.add(`${year}-01-01`);
      const { rows } = await app.db.query<{ month: string; ordered: string; shipped: string }>(
        `SELECT to_char(o.ordered_on, 'YYYY-MM') AS month,
                sum(l.amount)::numeric(16,2)::text AS ordered,
                sum(round(l.shipped * l.unit_price, 2))::numeric(16,2)::text AS shipped
           FROM purchase_orders o JOIN purchase_order_lines l ON l.order_id = o.id
          WHERE ${orders} AND o.refuse_reason IS NULL AND o.ordered_on >= ${from}::date
          GROUP BY 1 ORDER BY 1`,
        p.values,
      );
      const byMonth = new Map(rows.map((r) => [r.month, r]));
      const thisMonth = Number(new Date().toISOString().slice(5, 7));
      // Every month up to this one, so that a quiet month shows as zero rather than missing.
      return ok(
        Array.from({ length: thisMonth }, (_, i) => {
          const month = `${year}-${String(i + 1).padStart(2, '0')}`;
          const r = byMonth.get(month);
          return { month, ordered: Number(r?.ordered ?? 0), shipped: Number(r?.shipped ?? 0) };
        }),
      );
    },
  );
};
