import type { Queryable } from '../db/database.ts';

/**
 * Part of the materials seed (docs/materials.md, "Trace of a group's materials"): for each
 * farm that received goods from the factory, a stock-out to its first planting group of
 * about half of the first received batch, a few days after the receipt (never after today),
 * so the trace of that group leads back to the manufacturer and its purchase order. Runs
 * before the seed computes the balances from the lines.
 */
export async function seedTraceDraws(db: Queryable, today: string): Promise<void> {
  const { rows } = await db.query<{ farm_id: number; store_id: number; moved_on: string; material_id: number; batch: string; quantity: string; unit_price: string; group_id: number; user_id: number | null }>(
    `SELECT DISTINCT ON (mi.farm_id) mi.farm_id, mi.store_id, to_char(least(mi.moved_on + 3, $1::date), 'YYYY-MM-DD') AS moved_on,
            li.material_id, li.batch, li.quantity::text, li.unit_price::text, g.id AS group_id, mi.created_by AS user_id
       FROM purchase_shipments sh
       JOIN purchase_orders po ON po.id = sh.order_id AND po.seller_org_id IS NOT NULL
       JOIN material_movements mi ON mi.id = sh.received_movement_id
       JOIN material_movement_lines li ON li.movement_id = mi.id
       JOIN LATERAL (SELECT id FROM resource_records WHERE resource = 'plantGroups' AND farm_id = mi.farm_id ORDER BY id LIMIT 1) g ON TRUE
      WHERE li.quantity >= 2
      ORDER BY mi.farm_id, mi.moved_on, mi.id, li.line_no`,
    [today],
  );
  for (const r of rows) {
    const quantity = Math.floor(Number(r.quantity) / 2);
    const { rows: out } = await db.query<{ id: number }>(
      `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, purpose, group_id, created_by, created_at)
       VALUES ($1, 'out', $2, $3, '追肥（厂家直供）', $4, $5, $3::date + time '08:30') RETURNING id`,
      [r.farm_id, r.store_id, r.moved_on, r.group_id, r.user_id],
    );
    await db.query(
      `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount)
       VALUES ($1, 1, $2, $3, $4, $5, round($4::numeric * $5::numeric, 2))`,
      [out[0].id, r.material_id, r.batch, quantity, r.unit_price],
    );
  }
}
