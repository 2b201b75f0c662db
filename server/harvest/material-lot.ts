/**
 * The material-lot report (issue 25 item 3, second half; docs/harvest-sales-trace.md, "The
 * material-lot report"): given a lot of an input (a pesticide lot its supplier recalls),
 * where it came from, every planting group it was applied to, every batch harvested from
 * those groups in the window, every sale of those batches with its customer, and what is
 * still on hand. Rows are the lot report's (server/harvest/lot-trace.ts): one per critical
 * tracking event with its key data elements (FSMA 204; GS1).
 *
 * A batch is *reached* by an application of the lot when the application (a stock-out to
 * the batch's group or to one of its farm-work tasks, not reversed) falls in the batch's
 * growing window: on or after the group's planting day and on or before the harvest day.
 * This is the same window as the batch's own back step and the safety check, so a batch
 * lists the lot among its inputs exactly when the lot lists the batch.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmScope } from '../materials/ledger.ts';
import { movementNumber } from '../materials/numbers.ts';
import { salesOrderNumber } from './numbers.ts';
import type { TraceEventRow } from './lot-trace.ts';

export interface MaterialLot {
  farmId: number;
  farmName: string;
  materialId: number;
  material: string;
  unit: string;
  lot: string;
}

/** The material of the caller's scope (`read` or `write`), or null. */
export async function materialOfScope(db: Queryable, user: SessionUser, materialId: number, lot: string, mode: 'read' | 'write' = 'read'): Promise<MaterialLot | null> {
  const p = new Params();
  const { rows } = await db.query<{ id: string; farm_id: number; farm_name: string; name: string; unit: string | null }>(
    `SELECT m.id, m.farm_id, o.name AS farm_name, m.data->>'name' AS name, m.data->>'unit' AS unit
       FROM resource_records m JOIN organisations o ON o.id = m.farm_id
      WHERE m.resource = 'farmMaterials' AND m.id = ${p.add(materialId)} AND ${farmScope(user, p, 'm.farm_id', mode)}`,
    p.values,
  );
  const m = rows[0];
  return m ? { farmId: Number(m.farm_id), farmName: m.farm_name, materialId: Number(m.id), material: m.name, unit: m.unit ?? '', lot } : null;
}

/** The applications of the lot (stock-outs that stayed applied) with the group each went to. */
const APPLICATIONS = `
  SELECT m.id AS movement_id, m.moved_on, m.store_id, coalesce(m.group_id, (t.data->>'groupId')::bigint) AS group_id, sum(l.quantity) AS quantity
    FROM material_movements m
    JOIN material_movement_lines l ON l.movement_id = m.id
    LEFT JOIN resource_records t ON t.resource = 'farmingTasks' AND t.id = m.task_id
   WHERE m.farm_id = $1 AND m.direction = 'out' AND m.reverses_id IS NULL AND l.material_id = $2 AND l.batch = $3
     AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = m.id)
   GROUP BY m.id, m.moved_on, m.store_id, coalesce(m.group_id, (t.data->>'groupId')::bigint)`;

/** The batches the lot reached (ids, oldest harvest first). */
export async function batchesReached(db: Queryable, lot: MaterialLot): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH a AS (${APPLICATIONS})
     SELECT h.id FROM harvests h LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
      WHERE h.farm_id = $1 AND EXISTS (SELECT 1 FROM a WHERE a.group_id = h.group_id AND a.moved_on <= h.harvested_on
                                        AND (g.data->>'plantedOn' IS NULL OR a.moved_on >= (g.data->>'plantedOn')::date))
      ORDER BY h.harvested_on, h.id`,
    [lot.farmId, lot.materialId, lot.lot],
  );
  return rows.map((r) => Number(r.id));
}

/** The report's rows: receiving (back), the applications (the lot), the batches, their sales and what is on hand (forward). */
export async function materialLotTrace(db: Queryable, lot: MaterialLot, today: string): Promise<TraceEventRow[]> {
  const args = [lot.farmId, lot.materialId, lot.lot];
  const [received, applied, batches] = await Promise.all([
    db.query<{ id: string; line_no: number; moved_on: string; quantity: string; store: string | null; source: string | null }>(
      `SELECT m.id, l.line_no, m.moved_on::text, trim_scale(l.quantity)::text AS quantity, st.data->>'name' AS store,
              coalesce(so.name, ps.data->>'name', su.data->>'name', hf.name) AS source
         FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id
         LEFT JOIN resource_records st ON st.resource = 'farmStores' AND st.id = m.store_id
         LEFT JOIN resource_records su ON su.resource = 'farmMaterialsSupplier' AND su.id = m.supplier_id
         LEFT JOIN purchase_shipments sh ON sh.received_movement_id = m.id
         LEFT JOIN purchase_orders po ON po.id = sh.order_id
         LEFT JOIN organisations so ON so.id = po.seller_org_id
         LEFT JOIN resource_records ps ON ps.resource = 'farmMaterialsSupplier' AND ps.id = po.supplier_id
         LEFT JOIN material_handovers ho ON ho.in_movement_id = m.id
         LEFT JOIN organisations hf ON hf.id = ho.from_farm_id
        WHERE m.farm_id = $1 AND m.direction = 'in' AND m.reverses_id IS NULL AND l.material_id = $2 AND l.batch = $3
          AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = m.id)
        ORDER BY m.moved_on, m.id, l.line_no`,
      args,
    ),
    db.query<{ movement_id: string; moved_on: string; quantity: string; store: string | null; group_name: string | null; plot: string | null }>(
      `WITH a AS (${APPLICATIONS})
       SELECT a.movement_id, a.moved_on::text, trim_scale(a.quantity)::text AS quantity, st.data->>'name' AS store, g.data->>'name' AS group_name,
              (SELECT f.data->>'name' FROM resource_records f WHERE f.resource = 'farmFields' AND f.id = (g.data->>'fieldId')::bigint) AS plot
         FROM a LEFT JOIN resource_records st ON st.resource = 'farmStores' AND st.id = a.store_id
         LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = a.group_id
        ORDER BY a.moved_on, a.movement_id`,
      args,
    ),
    batchesReached(db, lot),
  ]);
  const rows: TraceEventRow[] = [];
  for (const r of received.rows) {
    rows.push({
      id: `rcv-${r.id}-${r.line_no}`, step: 'back', event: 'receiving', date: r.moved_on, traceabilityLotCode: lot.lot, product: lot.material, quantity: Number(r.quantity), unit: lot.unit,
      location: [lot.farmName, r.store].filter(Boolean).join(' · '), counterparty: r.source, contact: null, referenceType: 'stockIn', reference: movementNumber('in', Number(r.id)), sourceReference: null, status: null,
    });
  }
  for (const a of applied.rows) {
    rows.push({
      id: `in-${a.movement_id}`, step: 'lot', event: 'inputApplied', date: a.moved_on, traceabilityLotCode: lot.lot, product: lot.material, quantity: Number(a.quantity), unit: lot.unit,
      location: [lot.farmName, a.plot, a.group_name].filter(Boolean).join(' · '), counterparty: null, contact: null, referenceType: 'stockOut', reference: movementNumber('out', Number(a.movement_id)), sourceReference: a.store, status: null,
    });
  }
  if (batches.length) {
    const [harvests, sales] = await Promise.all([
      db.query<{ id: string; batch_no: string; harvested_on: string; quantity: string; left_qty: string; unit: string; crop: string | null; plot: string | null; recalled: boolean }>(
        `SELECT h.id, h.batch_no, h.harvested_on::text, trim_scale(h.quantity)::text AS quantity, trim_scale(h.quantity - h.sold)::text AS left_qty, h.unit, h.recalled_at IS NOT NULL AS recalled,
                (SELECT c.data->>'name' FROM resource_records c WHERE c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint) AS crop,
                (SELECT f.data->>'name' FROM resource_records f WHERE f.resource = 'farmFields' AND f.id = (g.data->>'fieldId')::bigint) AS plot
           FROM harvests h LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
          WHERE h.id = ANY($1::bigint[]) ORDER BY h.harvested_on, h.id`,
        [batches],
      ),
      db.query<{ harvest_id: string; order_id: string; line_no: number; ordered_on: string; customer: string; customer_phone: string | null; status: string; quantity: string }>(
        `SELECT l.harvest_id, o.id AS order_id, l.line_no, o.ordered_on::text, o.customer, o.customer_phone, o.status, trim_scale(l.quantity)::text AS quantity
           FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id WHERE l.harvest_id = ANY($1::bigint[]) ORDER BY o.ordered_on, o.id, l.line_no`,
        [batches],
      ),
    ]);
    const byId = new Map(harvests.rows.map((h) => [h.id, h]));
    for (const h of harvests.rows) {
      const place = [lot.farmName, h.plot].filter(Boolean).join(' · ');
      rows.push({
        id: `lot-${h.id}`, step: 'forward', event: 'harvesting', date: h.harvested_on, traceabilityLotCode: h.batch_no, product: h.crop ?? h.batch_no, quantity: Number(h.quantity), unit: h.unit,
        location: place, counterparty: lot.farmName, contact: null, referenceType: 'batch', reference: h.batch_no, sourceReference: lot.lot, status: h.recalled ? 'recalled' : null,
      });
      if (Number(h.left_qty) > 0) {
        rows.push({
          id: `hand-${h.id}`, step: 'forward', event: 'onHand', date: today, traceabilityLotCode: h.batch_no, product: h.crop ?? h.batch_no, quantity: Number(h.left_qty), unit: h.unit,
          location: place, counterparty: null, contact: null, referenceType: null, reference: null, sourceReference: null, status: h.recalled ? 'recalled' : null,
        });
      }
    }
    for (const s of sales.rows) {
      const h = byId.get(s.harvest_id)!;
      rows.push({
        id: `sale-${s.order_id}-${s.line_no}`, step: 'forward', event: 'shipping', date: s.ordered_on, traceabilityLotCode: h.batch_no, product: h.crop ?? h.batch_no, quantity: Number(s.quantity), unit: h.unit,
        location: [lot.farmName, h.plot].filter(Boolean).join(' · '), counterparty: s.customer, contact: s.customer_phone, referenceType: 'salesOrder', reference: salesOrderNumber(Number(s.order_id)), sourceReference: null, status: s.status,
      });
    }
  }
  return rows;
}
