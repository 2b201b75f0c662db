/**
 * What the order screens read, per side (the farm's own orders; the manufacturer's orders
 * received, never a draft): the page with totals, one order with its lines and shipments,
 * each row with the `_transitions` the caller may take. Money as exact decimal strings.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { likePattern } from '../resources/sql.ts';
import { pageOf, type Page } from '../resources/page.ts';
import { movementNumber } from './numbers.ts';
import { orderNumber, shipmentNumber, sideScope, transitionHint, type Side } from './orders.ts';

export interface OrderQuery {
  status?: string;
  keyword?: string;
  orderedOnFrom?: string;
  orderedOnTo?: string;
  pageIndex: number;
  pageSize: number;
}

const SELECT = `
  o.id, o.farm_id, o.seller_org_id, o.supplier_id, o.store_id, o.status, o.version, o.contact, o.note, o.refuse_reason,
  to_char(o.ordered_on, 'YYYY-MM-DD') AS ordered_on, to_char(o.expected_on, 'YYYY-MM-DD') AS expected_on, o.created_at,
  f.name AS farm_name, coalesce(so.name, sup.data->>'name') AS seller_name, st.data->>'name' AS store_name,
  (SELECT coalesce(sum(amount), 0)::text FROM purchase_order_lines WHERE order_id = o.id) AS total_amount,
  (SELECT count(*)::int FROM purchase_order_lines WHERE order_id = o.id) AS line_count,
  (SELECT string_agg(name || ' × ' || trim_scale(quantity)::text || unit, '，' ORDER BY line_no) FROM purchase_order_lines WHERE order_id = o.id) AS summary,
  (SELECT count(*)::int FROM purchase_shipments WHERE order_id = o.id AND received_movement_id IS NULL) AS pending_shipments,
  (SELECT bool_and(shipped = quantity) FROM purchase_order_lines WHERE order_id = o.id) AS all_shipped,
  u.name AS created_by_name`;
const FROM = `
  purchase_orders o
  JOIN organisations f ON f.id = o.farm_id
  LEFT JOIN organisations so ON so.id = o.seller_org_id
  LEFT JOIN resource_records sup ON sup.resource = 'farmMaterialsSupplier' AND sup.id = o.supplier_id
  LEFT JOIN resource_records st ON st.resource = 'farmStores' AND st.id = o.store_id
  LEFT JOIN users u ON u.id = o.created_by`;

type Row = Record<string, unknown> & { id: number; status: string; seller_org_id: number | null };

function shape(user: SessionUser, side: Side, r: Row): Record<string, unknown> {
  return {
    id: Number(r.id),
    number: orderNumber(Number(r.id)),
    status: r.status,
    version: r.version,
    farmId: Number(r.farm_id),
    farmName: r.farm_name,
    sellerKind: r.seller_org_id === null ? 'supplier' : 'manufacturer',
    sellerOrgId: r.seller_org_id === null ? null : Number(r.seller_org_id),
    supplierId: r.supplier_id === null ? null : Number(r.supplier_id),
    sellerName: r.seller_name,
    storeId: Number(r.store_id),
    storeName: r.store_name,
    orderedOn: r.ordered_on,
    expectedOn: r.expected_on,
    contact: r.contact,
    note: r.note,
    refuseReason: r.refuse_reason,
    totalAmount: r.total_amount,
    lineCount: r.line_count,
    summary: r.summary,
    pendingShipments: r.pending_shipments,
    allShipped: r.all_shipped === true,
    createdByName: r.created_by_name,
    createdAt: r.created_at,
    _transitions: transitionHint(user, side, r),
    _can: canHints(user, side, r),
  };
}

/**
 * Per-row hints for the screens' actions (`_can`, keyed by the element code's action):
 * a transition is offered where the state allows it and it would do something (a receipt
 * only with a shipment waiting, a shipment only with something left, closing a shipped
 * order only with nothing waiting); `edit` and `delete` only on a draft, and `edit` also
 * where the farm records an off-platform supplier's steps. The server decides regardless.
 */
function canHints(user: SessionUser, side: Side, r: Row): Record<string, boolean> {
  const hint = new Set(transitionHint(user, side, r));
  const pending = Number(r.pending_shipments) > 0;
  const supplier = r.seller_org_id === null;
  const can: Record<string, boolean> = {
    submit: hint.has('submit'),
    accept: hint.has('accept'),
    refuse: hint.has('refuse'),
    ship: hint.has('ship') && r.all_shipped !== true,
    receive: hint.has('receive') && pending,
    close: hint.has('close') && !(r.status === 'shipped' && pending),
  };
  if (side === 'buyer') {
    can.edit = r.status === 'draft' || (supplier && (can.accept || can.refuse || can.ship));
    can.delete = r.status === 'draft';
  }
  return can;
}

export async function orderPage(db: Queryable, user: SessionUser, side: Side, q: OrderQuery): Promise<Page<Record<string, unknown>>> {
  const p = new Params();
  const where = [sideScope(user, side, p, 'read')];
  if (q.status) where.push(`o.status = ${p.add(q.status)}`);
  if (q.orderedOnFrom) where.push(`o.ordered_on >= ${p.add(q.orderedOnFrom)}::date`);
  if (q.orderedOnTo) where.push(`o.ordered_on <= ${p.add(q.orderedOnTo)}::date`);
  if (q.keyword) {
    const k = p.add(likePattern(q.keyword.toLowerCase()));
    where.push(`(lower(f.name) LIKE ${k} ESCAPE '\\' OR lower(coalesce(so.name, sup.data->>'name', '')) LIKE ${k} ESCAPE '\\'
                 OR EXISTS (SELECT 1 FROM purchase_order_lines l WHERE l.order_id = o.id AND lower(l.name) LIKE ${k} ESCAPE '\\'))`);
  }
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${FROM} WHERE ${where.join(' AND ')}`, p.values)).rows[0].n;
  const { rows } = await db.query<Row>(
    `SELECT ${SELECT} FROM ${FROM} WHERE ${where.join(' AND ')} ORDER BY o.ordered_on DESC, o.id DESC
      LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
    p.values,
  );
  return pageOf(
    rows.map((r) => shape(user, side, r)),
    total,
    q.pageIndex,
    q.pageSize,
  );
}

export async function orderWithLines(db: Queryable, user: SessionUser, side: Side, id: number): Promise<Record<string, unknown> | null> {
  const p = new Params();
  const { rows } = await db.query<Row>(`SELECT ${SELECT} FROM ${FROM} WHERE o.id = ${p.add(id)} AND ${sideScope(user, side, p, 'read')}`, p.values);
  if (!rows[0]) return null;
  const lines = await db.query<Record<string, string>>(
    `SELECT id, line_no, material_id, name, specification, unit, trim_scale(quantity)::text AS quantity, trim_scale(unit_price)::text AS unit_price,
            amount::text AS amount, trim_scale(shipped)::text AS shipped, trim_scale(received)::text AS received, trim_scale(quantity - shipped)::text AS remaining
       FROM purchase_order_lines WHERE order_id = $1 ORDER BY line_no`,
    [id],
  );
  const shipments = await db.query<Record<string, string | number | null>>(
    `SELECT s.id, to_char(s.shipped_on, 'YYYY-MM-DD') AS shipped_on, s.waybill, s.note, s.received_movement_id, to_char(s.received_on, 'YYYY-MM-DD') AS received_on,
            (SELECT string_agg(ol.name || ' × ' || trim_scale(sl.quantity)::text || ol.unit || CASE WHEN sl.batch <> '' THEN '（' || sl.batch || '）' ELSE '' END, '，' ORDER BY sl.id)
               FROM purchase_shipment_lines sl JOIN purchase_order_lines ol ON ol.id = sl.order_line_id WHERE sl.shipment_id = s.id) AS summary
       FROM purchase_shipments s WHERE s.order_id = $1 ORDER BY s.id`,
    [id],
  );
  const shapedLines = lines.rows.map((l) => ({
      id: Number(l.id),
      lineNo: Number(l.line_no),
      materialId: Number(l.material_id),
      name: l.name,
      specification: l.specification,
      unit: l.unit,
      quantity: Number(l.quantity),
      unitPrice: Number(l.unit_price),
      amount: l.amount,
      shipped: Number(l.shipped),
      received: Number(l.received),
      remaining: Number(l.remaining),
    }));
  return {
    ...shape(user, side, rows[0]),
    lines: shapedLines,
    // The same lines for reading in the farm's form (its editable line items carry only material, quantity and price).
    progress: shapedLines,
    shipments: shipments.rows.map((s) => ({
      id: Number(s.id),
      number: shipmentNumber(Number(s.id)),
      shippedOn: s.shipped_on,
      waybill: s.waybill,
      note: s.note,
      summary: s.summary,
      status: s.received_movement_id === null ? 'shipped' : 'received',
      receivedOn: s.received_on,
      movementNumber: s.received_movement_id === null ? null : movementNumber('in', Number(s.received_movement_id)),
    })),
  };
}
