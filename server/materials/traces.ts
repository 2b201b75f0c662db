/**
 * Reads across the ledger for the planting side (docs/materials.md, "Trace of a group's
 * materials" and "Inputs applied"):
 *
 * - `groupTrace`: every stock-out line to one planting group (the movement names the group,
 *   or one of its tasks; a farming record's stock-out names both) traced back to the
 *   stock-in that brought its batch into that store: the supplier, the purchase order and
 *   the manufacturer that sold it, with dates and quantities.
 * - `inputsPage`: what was applied per planting group and material over a period, per mu
 *   of the group's area, against the limits of the production standard of the group's crop.
 *
 * Reversed stock-outs are left out of the inputs (the goods went back to the store) and
 * shown as reversed in the trace; the reversals themselves are not lines of a group.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { pageOf, type Page } from '../resources/page.ts';
import { farmScope } from './ledger.ts';
import { unitFactorSql } from './units.ts';
import { movementNumber } from './numbers.ts';
import { orderNumber, shipmentNumber } from './orders.ts';

type Row = Record<string, string | number | null>;
const num = (v: string | number | null) => (v === null ? null : Number(v));

/** The planting group of the caller's farm scope, or null (another farm's reads as missing). */
export async function groupInScope(db: Queryable, user: SessionUser, groupId: number): Promise<{ id: number; farmId: number; name: string } | null> {
  const p = new Params();
  const { rows } = await db.query<{ id: number; farm_id: number; name: string }>(
    `SELECT id, farm_id, data->>'name' AS name FROM resource_records WHERE resource = 'plantGroups' AND id = ${p.add(groupId)} AND ${farmScope(user, p, 'farm_id')}`,
    p.values,
  );
  return rows[0] ? { id: Number(rows[0].id), farmId: Number(rows[0].farm_id), name: rows[0].name } : null;
}

/**
 * The stock-out lines of one group, newest first, each with the stock-in of its batch: the
 * stock-in of the same farm, store, material and batch (not a reversal, not reversed) dated
 * on or before the stock-out, the latest such one (a batch received twice takes the last
 * receipt before the draw); without one dated before, the first after.
 */
export async function groupTrace(db: Queryable, groupId: number, farmId: number, pageIndex: number, pageSize: number): Promise<Page<Record<string, unknown>>> {
  const p = new Params();
  const g = p.add(groupId);
  const f = p.add(farmId);
  const outs = `
    SELECT o.id AS out_id, o.moved_on AS out_on, o.store_id, o.task_id, o.reference AS out_reference, o.purpose AS out_purpose,
           l.id AS line_id, l.line_no, l.material_id, l.batch, l.quantity, l.amount,
           EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = o.id) AS reversed
      FROM material_movements o
      JOIN material_movement_lines l ON l.movement_id = o.id
     WHERE o.farm_id = ${f} AND o.direction = 'out' AND o.reverses_id IS NULL
       AND (o.group_id = ${g} OR o.task_id IN (SELECT t.id FROM resource_records t WHERE t.resource = 'farmingTasks' AND t.farm_id = ${f} AND t.data->>'groupId' = ${g}::text))`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${outs}) x`, p.values)).rows[0].n;
  const { rows } = await db.query<Row>(
    `SELECT x.*, to_char(x.out_on, 'YYYY-MM-DD') AS out_date,
            m.data->>'name' AS material, m.data->>'goodsCode' AS goods_code, m.data->>'unit' AS unit, m.data->>'manufacturer' AS catalogue_manufacturer,
            st.data->>'name' AS store, t.data->>'title' AS task,
            i.in_id, to_char(i.in_on, 'YYYY-MM-DD') AS in_date, i.in_quantity, i.unit_price, to_char(i.produced_on, 'YYYY-MM-DD') AS produced_on, to_char(i.expires_on, 'YYYY-MM-DD') AS expires_on,
            i.in_purpose, su.data->>'name' AS supplier, sh.id AS shipment_id, po.id AS order_id, so.name AS seller, ps.data->>'name' AS order_supplier,
            ho.from_farm_id, hf.name AS handed_over_from
       FROM (${outs}) x
       LEFT JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = x.material_id
       LEFT JOIN resource_records st ON st.resource = 'farmStores' AND st.id = x.store_id
       LEFT JOIN resource_records t ON t.resource = 'farmingTasks' AND t.id = x.task_id
       LEFT JOIN LATERAL (
         SELECT mi.id AS in_id, mi.moved_on AS in_on, mi.supplier_id, mi.purpose AS in_purpose, li.quantity AS in_quantity, li.unit_price, li.produced_on, li.expires_on
           FROM material_movements mi JOIN material_movement_lines li ON li.movement_id = mi.id
          WHERE mi.farm_id = ${f} AND mi.direction = 'in' AND mi.reverses_id IS NULL AND mi.store_id = x.store_id
            AND li.material_id = x.material_id AND li.batch = x.batch
            AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = mi.id)
          ORDER BY (mi.moved_on <= x.out_on) DESC, CASE WHEN mi.moved_on <= x.out_on THEN mi.moved_on END DESC, mi.moved_on, mi.id DESC, li.line_no
          LIMIT 1) i ON TRUE
       LEFT JOIN resource_records su ON su.resource = 'farmMaterialsSupplier' AND su.id = i.supplier_id
       LEFT JOIN purchase_shipments sh ON sh.received_movement_id = i.in_id
       LEFT JOIN purchase_orders po ON po.id = sh.order_id
       LEFT JOIN organisations so ON so.id = po.seller_org_id
       LEFT JOIN resource_records ps ON ps.resource = 'farmMaterialsSupplier' AND ps.id = po.supplier_id
       LEFT JOIN material_handovers ho ON ho.in_movement_id = i.in_id
       LEFT JOIN organisations hf ON hf.id = ho.from_farm_id
      ORDER BY x.out_on DESC, x.out_id DESC, x.line_no
      LIMIT ${p.add(pageSize)} OFFSET ${p.add((pageIndex - 1) * pageSize)}`,
    p.values,
  );
  return pageOf(
    rows.map((r) => ({
      id: Number(r.line_id),
      movementId: Number(r.out_id),
      movementNumber: movementNumber('out', Number(r.out_id)),
      movedOn: r.out_date,
      store: r.store,
      task: r.task,
      purpose: r.out_purpose,
      reference: r.out_reference,
      materialId: Number(r.material_id),
      material: r.material,
      goodsCode: r.goods_code,
      unit: r.unit,
      batch: r.batch,
      quantity: Number(r.quantity),
      amount: r.amount,
      reversed: (r.reversed as unknown) === true,
      stockInId: num(r.in_id),
      stockInNumber: r.in_id === null ? null : movementNumber('in', Number(r.in_id)),
      stockInOn: r.in_date,
      stockInQuantity: num(r.in_quantity),
      unitPrice: r.unit_price === null ? null : String(r.unit_price),
      producedOn: r.produced_on,
      expiresOn: r.expires_on,
      // Who the batch came from: the manufacturer of a purchase order, the supplier (of the
      // order or of the stock-in), or the farm of the group that handed it over.
      source: r.seller ?? r.order_supplier ?? r.supplier ?? r.handed_over_from ?? null,
      sourceKind: r.seller ? 'manufacturer' : r.order_supplier || r.supplier ? 'supplier' : r.handed_over_from ? 'handOver' : r.in_id === null ? 'unknown' : 'other',
      purchaseOrderId: num(r.order_id),
      purchaseOrderNumber: r.order_id === null ? null : orderNumber(Number(r.order_id)),
      shipmentNumber: r.shipment_id === null ? null : shipmentNumber(Number(r.shipment_id)),
      manufacturer: r.seller ?? r.catalogue_manufacturer ?? null,
    })),
    total,
    pageIndex,
    pageSize,
  );
}

export interface InputsQuery {
  groupId?: number;
  plotId?: number;
  from?: string;
  to?: string;
  over?: boolean;
  pageIndex: number;
  pageSize: number;
}

/**
 * Inputs applied per planting group and material: the stock-out lines to the group (or its
 * tasks) dated within the period, not reversed, summed; per mu of the group's area; against
 * the smallest limit any production standard of the group's crop sets for a material of that
 * name (`limits` of productionStandards), in a unit the catalogue's converts to (units.ts: the
 * same unit, the same family, or through what one package holds); the limit is shown in the
 * catalogue's unit. `over` when quantity × (limit units per catalogue unit) > limit × area,
 * compared on exact decimals by the database.
 */
export async function inputsPage(db: Queryable, user: SessionUser, q: InputsQuery): Promise<Page<Record<string, unknown>>> {
  const p = new Params();
  const where = [farmScope(user, p, 'o.farm_id', 'read'), `o.direction = 'out'`, 'o.reverses_id IS NULL', 'NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = o.id)'];
  if (q.from) where.push(`o.moved_on >= ${p.add(q.from)}::date`);
  if (q.to) where.push(`o.moved_on <= ${p.add(q.to)}::date`);
  const groupWhere = [`g.resource = 'plantGroups'`];
  if (q.groupId) groupWhere.push(`g.id = ${p.add(q.groupId)}`);
  if (q.plotId) {
    const plot = p.add(q.plotId);
    groupWhere.push(`(g.data->>'fieldId' = ${plot}::text OR (jsonb_typeof(g.data->'fieldIds') = 'array' AND g.data->'fieldIds' @> to_jsonb(${plot}::int)))`);
  }
  const sums = `
    SELECT g.id AS group_id, g.farm_id, g.data->>'name' AS group_name, g.data->>'cropId' AS crop_id, g.data->>'fieldId' AS field_id,
           nullif((g.data->>'areaMu')::numeric, 0) AS area, l.material_id,
           sum(l.quantity) AS quantity, count(DISTINCT o.id)::int AS times, min(o.moved_on) AS first_on, max(o.moved_on) AS last_on
      FROM material_movements o
      JOIN material_movement_lines l ON l.movement_id = o.id
      LEFT JOIN resource_records t ON t.resource = 'farmingTasks' AND t.id = o.task_id
      JOIN resource_records g ON g.farm_id = o.farm_id AND g.id = coalesce(o.group_id, (t.data->>'groupId')::bigint)
     WHERE ${where.join(' AND ')} AND ${groupWhere.join(' AND ')}
     GROUP BY g.id, g.farm_id, g.data, l.material_id`;
  const rowsSql = `
    SELECT s.*, m.data->>'name' AS material, m.data->>'goodsCode' AS goods_code, m.data->>'unit' AS unit, m.data->>'category' AS category,
           c.data->>'name' AS crop, f.data->>'name' AS plot, round(lim.limit_as_set / lim.factor, 3) AS max_per_mu, lim.standard, lim.standard_code,
           CASE WHEN s.area IS NOT NULL THEN round(s.quantity / s.area, 3) END AS per_mu,
           (lim.limit_as_set IS NOT NULL AND s.area IS NOT NULL AND s.quantity * lim.factor > lim.limit_as_set * s.area) AS over
      FROM (${sums}) s
      JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = s.material_id
      LEFT JOIN resource_records c ON c.resource = 'crops' AND c.id::text = s.crop_id
      LEFT JOIN resource_records f ON f.id::text = s.field_id AND f.resource IN ('farmFields', 'greenhouses')
      LEFT JOIN LATERAL (
        SELECT (x->>'maxPerMu')::numeric AS limit_as_set, k.factor, st.data->>'name' AS standard, st.data->>'code' AS standard_code
          FROM resource_records st CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(st.data->'limits') = 'array' THEN st.data->'limits' ELSE '[]'::jsonb END) x
          -- Limit units per catalogue unit (NULL: the limit's unit cannot be compared).
          CROSS JOIN LATERAL (SELECT ${unitFactorSql(`m.data->>'unit'`, `x->>'unit'`, `(m.data->>'contentPerUnit')::numeric`, `m.data->>'contentUnit'`)} AS factor) k
         WHERE st.resource = 'productionStandards' AND st.data->>'cropId' = s.crop_id
           AND lower(x->>'material') = lower(m.data->>'name') AND jsonb_typeof(x->'maxPerMu') = 'number' AND k.factor > 0
         ORDER BY (x->>'maxPerMu')::numeric / k.factor, st.id LIMIT 1) lim ON TRUE`;
  const filter = q.over === undefined ? '' : `WHERE x.over = ${q.over ? 'TRUE' : 'FALSE'}`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${rowsSql}) x ${filter}`, p.values)).rows[0].n;
  const { rows } = await db.query<Row & { over: boolean }>(
    `SELECT x.group_id, x.group_name, x.crop, x.plot, trim_scale(x.area)::text AS area, x.material_id, x.material, x.goods_code, x.unit, x.category,
            trim_scale(x.quantity)::text AS quantity, trim_scale(x.per_mu)::text AS per_mu, trim_scale(x.max_per_mu)::text AS max_per_mu,
            x.standard, x.standard_code, x.over, x.times, to_char(x.first_on, 'YYYY-MM-DD') AS first_on, to_char(x.last_on, 'YYYY-MM-DD') AS last_on
       FROM (${rowsSql}) x ${filter}
      ORDER BY x.group_name, x.group_id, x.material, x.material_id
      LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
    p.values,
  );
  return pageOf(
    rows.map((r) => ({
      id: `${r.group_id}-${r.material_id}`,
      groupId: Number(r.group_id),
      group: r.group_name,
      crop: r.crop,
      plot: r.plot,
      areaMu: num(r.area),
      materialId: Number(r.material_id),
      material: r.material,
      goodsCode: r.goods_code,
      category: r.category,
      unit: r.unit,
      quantity: Number(r.quantity),
      perMu: num(r.per_mu),
      maxPerMu: num(r.max_per_mu),
      standard: r.standard ? `${r.standard}（${r.standard_code}）` : null,
      over: r.over === true,
      times: r.times,
      firstOn: r.first_on,
      lastOn: r.last_on,
    })),
    total,
    q.pageIndex,
    q.pageSize,
  );
}
