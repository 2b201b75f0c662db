/**
 * What the materials screens read from the ledger: stock per store and material (value,
 * below safety stock, near expiry), movements with their lines, and the ledger of one
 * material in one store with its running balance. Everything in the caller's farm scope.
 * Money comes back as exact decimal strings ("1650.00"); quantities as numbers (at most
 * three decimals, which a JSON number carries exactly as written).
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { likePattern } from '../resources/sql.ts';
import { pageOf, type Page } from '../resources/page.ts';
import { farmScope } from './ledger.ts';
import type { ScopeMode } from '../auth/region-scope.ts';
import { movementNumber } from './numbers.ts';

/** Days before expiry from which a batch counts as near expiry. */
export const NEAR_EXPIRY_DAYS = 30;

export interface StockQuery {
  storeId?: number;
  materialId?: number;
  category?: string;
  keyword?: string;
  state?: 'low' | 'nearExpiry';
  pageIndex: number;
  pageSize: number;
}

const num = (v: string | number | null) => (v === null ? null : Number(v));

export async function stockPage(db: Queryable, user: SessionUser, q: StockQuery, today: string): Promise<Page<Record<string, unknown>>> {
  const p = new Params();
  const where = [farmScope(user, p, 'b.farm_id', 'read')];
  if (q.storeId) where.push(`b.store_id = ${p.add(q.storeId)}`);
  if (q.materialId) where.push(`b.material_id = ${p.add(q.materialId)}`);
  if (q.category) where.push(`m.data->>'category' = ${p.add(q.category)}`);
  if (q.keyword) {
    const k = p.add(likePattern(q.keyword.toLowerCase()));
    where.push(`(lower(m.data->>'name') LIKE ${k} ESCAPE '\\' OR lower(m.data->>'goodsCode') LIKE ${k} ESCAPE '\\')`);
  }
  const todayP = p.add(today);
  const grouped = `
    SELECT b.farm_id, b.store_id, b.material_id, sum(b.quantity) AS quantity, sum(b.value) AS value,
           count(*) FILTER (WHERE b.quantity > 0)::int AS batches,
           min(b.expires_on) FILTER (WHERE b.quantity > 0) AS expires_on,
           max(b.updated_at) AS updated_at
      FROM material_balances b JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = b.material_id
     WHERE ${where.join(' AND ')}
     GROUP BY b.farm_id, b.store_id, b.material_id`;
  const states = `
    SELECT g.*, s.data->>'name' AS store_name, m.data AS material,
           (m.data->>'safetyStock') IS NOT NULL AND g.quantity < (m.data->>'safetyStock')::numeric AS low,
           CASE WHEN g.expires_on IS NULL THEN 'none'
                WHEN g.expires_on < ${todayP}::date THEN 'expired'
                WHEN g.expires_on <= ${todayP}::date + ${NEAR_EXPIRY_DAYS} THEN 'near'
                ELSE 'ok' END AS expiry
      FROM (${grouped}) g
      JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = g.material_id
      LEFT JOIN resource_records s ON s.resource = 'farmStores' AND s.id = g.store_id`;
  const filter = q.state === 'low' ? 'WHERE x.low' : q.state === 'nearExpiry' ? `WHERE x.expiry IN ('near', 'expired')` : '';
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${states}) x ${filter}`, p.values)).rows[0].n;
  const { rows } = await db.query<{
    farm_id: number; store_id: number; material_id: number; quantity: string; value: string; batches: number;
    expires_on: string | null; store_name: string | null; material: Record<string, unknown>; low: boolean; expiry: string;
  }>(
    `SELECT x.farm_id, x.store_id, x.material_id, trim_scale(x.quantity)::text AS quantity, x.value::text AS value, x.batches,
            to_char(x.expires_on, 'YYYY-MM-DD') AS expires_on, x.store_name, x.material, x.low, x.expiry
       FROM (${states}) x ${filter}
      ORDER BY x.store_name, x.material->>'name', x.material_id
      LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
    p.values,
  );
  return pageOf(
    rows.map((r) => ({
      id: `${r.store_id}-${r.material_id}`,
      farmId: Number(r.farm_id),
      storeId: Number(r.store_id),
      storeName: r.store_name,
      materialId: Number(r.material_id),
      goodsCode: r.material.goodsCode ?? null,
      name: r.material.name,
      category: r.material.category,
      specification: r.material.specification ?? null,
      unit: r.material.unit,
      quantity: num(r.quantity),
      value: r.value,
      batches: r.batches,
      safetyStock: r.material.safetyStock ?? null,
      nearestExpiry: r.expires_on,
      safety: r.low ? 'low' : 'ok',
      expiry: r.expiry,
    })),
    total,
    q.pageIndex,
    q.pageSize,
  );
}

export interface MovementQuery {
  direction?: 'in' | 'out';
  storeId?: number;
  movedOnFrom?: string;
  movedOnTo?: string;
  pageIndex: number;
  pageSize: number;
}

const MOVEMENT_SELECT = `
  m.id, m.farm_id, m.direction, m.store_id, to_char(m.moved_on, 'YYYY-MM-DD') AS moved_on, m.supplier_id, m.purpose, m.reference,
  m.group_id, m.task_id, m.note, m.reverses_id, m.created_at, u.name AS created_by_name,
  s.data->>'name' AS store_name, sp.data->>'name' AS supplier_name, g.data->>'name' AS group_name, tk.data->>'title' AS task_title,
  (SELECT r.id FROM material_movements r WHERE r.reverses_id = m.id) AS reversed_by,
  (SELECT sum(l.amount)::text FROM material_movement_lines l WHERE l.movement_id = m.id) AS total_amount,
  (SELECT count(*)::int FROM material_movement_lines l WHERE l.movement_id = m.id) AS line_count,
  (EXISTS (SELECT 1 FROM purchase_shipments ps WHERE ps.received_movement_id = m.id)
   OR EXISTS (SELECT 1 FROM material_handovers h WHERE h.out_movement_id = m.id OR h.in_movement_id = m.id)) AS tied`;
const MOVEMENT_FROM = `
  material_movements m
  LEFT JOIN users u ON u.id = m.created_by
  LEFT JOIN resource_records s ON s.resource = 'farmStores' AND s.id = m.store_id
  LEFT JOIN resource_records sp ON sp.resource = 'farmMaterialsSupplier' AND sp.id = m.supplier_id
  LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = m.group_id
  LEFT JOIN resource_records tk ON tk.resource = 'farmingTasks' AND tk.id = m.task_id`;

interface MovementRow {
  id: number; farm_id: number; direction: 'in' | 'out'; store_id: number; moved_on: string; supplier_id: number | null; purpose: string | null;
  reference: string | null; group_id: number | null; task_id: number | null; note: string | null; reverses_id: number | null; created_at: string;
  created_by_name: string | null; store_name: string | null; supplier_name: string | null; group_name: string | null; task_title: string | null;
  reversed_by: number | null; total_amount: string | null; line_count: number; tied: boolean;
}

function movementView(r: MovementRow) {
  const id = Number(r.id);
  const reversesId = r.reverses_id === null ? null : Number(r.reverses_id);
  const reversedBy = r.reversed_by === null ? null : Number(r.reversed_by);
  const other = r.direction === 'in' ? 'out' : 'in';
  return {
    id,
    number: movementNumber(r.direction, id),
    farmId: Number(r.farm_id),
    direction: r.direction,
    storeId: Number(r.store_id),
    storeName: r.store_name,
    movedOn: r.moved_on,
    ...(r.supplier_id === null ? {} : { supplierId: Number(r.supplier_id) }),
    supplierName: r.supplier_name,
    ...(r.purpose === null ? {} : { purpose: r.purpose }),
    ...(r.reference === null ? {} : { reference: r.reference }),
    ...(r.group_id === null ? {} : { groupId: Number(r.group_id) }),
    groupName: r.group_name,
    ...(r.task_id === null ? {} : { taskId: Number(r.task_id) }),
    taskTitle: r.task_title,
    ...(r.note === null ? {} : { note: r.note }),
    reversesId,
    reversesNumber: reversesId === null ? null : movementNumber(other, reversesId),
    reversedById: reversedBy,
    reversedByNumber: reversedBy === null ? null : movementNumber(other, reversedBy),
    // What the screens may offer: a movement is reversed once, a reversal never, and a
    // purchase receipt or one half of a hand-over not on its own (ledger.ts, reverse).
    reversible: reversesId === null && reversedBy === null && !r.tied,
    totalAmount: r.total_amount ?? '0.00',
    lineCount: r.line_count,
    createdByName: r.created_by_name,
    createdAt: r.created_at,
  };
}

export async function movementPage(db: Queryable, user: SessionUser, q: MovementQuery): Promise<Page<Record<string, unknown>>> {
  const p = new Params();
  const where = [farmScope(user, p, 'm.farm_id', 'read')];
  if (q.direction) where.push(`m.direction = ${p.add(q.direction)}`);
  if (q.storeId) where.push(`m.store_id = ${p.add(q.storeId)}`);
  if (q.movedOnFrom) where.push(`m.moved_on >= ${p.add(q.movedOnFrom)}::date`);
  if (q.movedOnTo) where.push(`m.moved_on <= ${p.add(q.movedOnTo)}::date`);
  const cond = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM material_movements m WHERE ${cond}`, p.values)).rows[0].n;
  const { rows } = await db.query<MovementRow>(
    `SELECT ${MOVEMENT_SELECT} FROM ${MOVEMENT_FROM} WHERE ${cond} ORDER BY m.moved_on DESC, m.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
    p.values,
  );
  return pageOf(rows.map(movementView), total, q.pageIndex, q.pageSize);
}

/** One movement of the caller's scope with its lines, or null. */
export async function movementWithLines(db: Queryable, user: SessionUser, id: number, mode: ScopeMode = 'write'): Promise<Record<string, unknown> | null> {
  const p = new Params();
  const { rows } = await db.query<MovementRow>(`SELECT ${MOVEMENT_SELECT} FROM ${MOVEMENT_FROM} WHERE m.id = ${p.add(id)} AND ${farmScope(user, p, 'm.farm_id', mode)}`, p.values);
  if (!rows[0]) return null;
  const lines = await db.query<{ line_no: number; material_id: number; material: Record<string, unknown> | null; batch: string; quantity: string; unit_price: string; amount: string; produced_on: string | null; expires_on: string | null }>(
    `SELECT l.line_no, l.material_id, mt.data AS material, l.batch, trim_scale(l.quantity)::text AS quantity, trim_scale(l.unit_price)::text AS unit_price,
            l.amount::text AS amount, to_char(l.produced_on, 'YYYY-MM-DD') AS produced_on, to_char(l.expires_on, 'YYYY-MM-DD') AS expires_on
       FROM material_movement_lines l LEFT JOIN resource_records mt ON mt.resource = 'farmMaterials' AND mt.id = l.material_id
      WHERE l.movement_id = $1 ORDER BY l.line_no`,
    [id],
  );
  return {
    ...movementView(rows[0]),
    lines: lines.rows.map((l) => ({
      lineNo: l.line_no,
      materialId: Number(l.material_id),
      goodsCode: l.material?.goodsCode ?? null,
      materialName: l.material?.name ?? null,
      unit: l.material?.unit ?? null,
      ...(l.batch ? { batch: l.batch } : {}),
      quantity: Number(l.quantity),
      unitPrice: Number(l.unit_price),
      amount: l.amount,
      ...(l.produced_on ? { producedOn: l.produced_on } : {}),
      ...(l.expires_on ? { expiresOn: l.expires_on } : {}),
    })),
  };
}

/**
 * The ledger of one material in one store: every line of a confirmed movement, newest
 * first, each with the balance after it (the running sum of the lines up to it in
 * chronological order: date, then movement, then line).
 */
export async function ledgerPage(db: Queryable, storeId: number, materialId: number, pageIndex: number, pageSize: number): Promise<Page<Record<string, unknown>>> {
  const total = (await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM material_movement_lines l JOIN material_movements m ON m.id = l.movement_id WHERE m.store_id = $1 AND l.material_id = $2`,
    [storeId, materialId],
  )).rows[0].n;
  const { rows } = await db.query<{
    id: number; movement_id: number; direction: 'in' | 'out'; moved_on: string; line_no: number; batch: string; quantity: string; unit_price: string; amount: string;
    balance: string; counterpart: string | null; reverses_id: number | null; expires_on: string | null;
  }>(
    `SELECT x.* FROM (
       SELECT l.id, m.id AS movement_id, m.direction, to_char(m.moved_on, 'YYYY-MM-DD') AS moved_on, l.line_no, l.batch,
              trim_scale(l.quantity)::text AS quantity, trim_scale(l.unit_price)::text AS unit_price, l.amount::text AS amount,
              to_char(l.expires_on, 'YYYY-MM-DD') AS expires_on, m.reverses_id,
              trim_scale(sum(CASE WHEN m.direction = 'in' THEN l.quantity ELSE -l.quantity END)
                OVER (ORDER BY m.moved_on, m.id, l.line_no ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))::text AS balance,
              coalesce(sp.data->>'name', g.data->>'name', m.purpose) AS counterpart,
              m.moved_on AS on_day
         FROM material_movement_lines l JOIN material_movements m ON m.id = l.movement_id
         LEFT JOIN resource_records sp ON sp.resource = 'farmMaterialsSupplier' AND sp.id = m.supplier_id
         LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = m.group_id
        WHERE m.store_id = $1 AND l.material_id = $2) x
      ORDER BY x.on_day DESC, x.movement_id DESC, x.line_no DESC LIMIT $3 OFFSET $4`,
    [storeId, materialId, pageSize, (pageIndex - 1) * pageSize],
  );
  return pageOf(
    rows.map((r) => ({
      id: Number(r.id),
      movementId: Number(r.movement_id),
      number: movementNumber(r.direction, Number(r.movement_id)),
      direction: r.direction,
      movedOn: r.moved_on,
      batch: r.batch,
      // The ledger's rows open the lot's trace report (server/harvest/material-lot.ts).
      materialId,
      inQuantity: r.direction === 'in' ? Number(r.quantity) : null,
      outQuantity: r.direction === 'out' ? Number(r.quantity) : null,
      unitPrice: Number(r.unit_price),
      amount: r.amount,
      balance: Number(r.balance),
      counterpart: r.counterpart,
      reversal: r.reverses_id !== null,
      expiresOn: r.expires_on,
    })),
    total,
    pageIndex,
    pageSize,
  );
}
