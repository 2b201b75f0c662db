/**
 * Purchase orders across organisations (docs/materials.md, "Purchase orders"): a farm's order
 * (header and lines, exact decimals) to a manufacturer organisation or to one of the farm's
 * own suppliers; the manufacturer accepts or refuses and ships (partial shipments: a
 * shipment line never exceeds what is ordered and not yet shipped); the farm receives each
 * shipment, which posts its stock-in through the ledger in the same transaction.
 *
 * Why a module and not the resource engine: the order belongs to the farm but is read and
 * moved by another organisation (the manufacturer), whose scope the engine does not know,
 * and receiving writes the ledger. The transitions are declared below, once; every move
 * checks the declared source states, the side, the element code, locks the order and is
 * audited (`purchaseOrders.<transition>`).
 *
 * Sides: the buyer is the farm (menu farmMaterialsBuy, its own orders); the seller is the
 * manufacturer (menu fertilizerLists, orders addressed to its organisation, never drafts).
 * An order to a supplier of the farm's own list has no seller on the platform: the farm
 * records the supplier's answer and shipments itself, with farmMaterialsBuy:edit.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { audit } from '../audit/log.ts';
import { forbidden, notFound, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { invalidInput } from '../resources/validation.ts';
import { compareDecimal, decimalPlaces, numberText, subtractDecimal } from './decimal.ts';
import { farmScope, MaterialsLedger } from './ledger.ts';
import type { ScopeMode } from '../auth/region-scope.ts';
import { movementNumber } from './numbers.ts';
import './order-messages.ts';
import './messages.ts';

export const BUYER_MENU = 'farmMaterialsBuy';
export const SELLER_MENU = 'fertilizerLists';

export type OrderState = 'draft' | 'submitted' | 'accepted' | 'refused' | 'shipped' | 'received' | 'closed';
export type Side = 'buyer' | 'seller';

export interface OrderTransition {
  from: OrderState[];
  /** `receive` ends in `received` once everything ordered was shipped and received, else stays `shipped`. */
  to: OrderState;
  side: Side;
  /** The element code; for an order to an off-platform supplier the seller's steps need `farmMaterialsBuy:edit`. */
  element: string;
  reason?: { required: boolean };
}

/** The declared transitions: nothing moves an order otherwise. */
export const ORDER_TRANSITIONS: Readonly<Record<string, OrderTransition>> = {
  submit: { from: ['draft'], to: 'submitted', side: 'buyer', element: 'farmMaterialsBuy:submit' },
  accept: { from: ['submitted'], to: 'accepted', side: 'seller', element: 'fertilizerLists:accept' },
  refuse: { from: ['submitted'], to: 'refused', side: 'seller', element: 'fertilizerLists:refuse', reason: { required: true } },
  ship: { from: ['accepted', 'shipped'], to: 'shipped', side: 'seller', element: 'fertilizerLists:ship' },
  receive: { from: ['shipped'], to: 'received', side: 'buyer', element: 'farmMaterialsBuy:receive' },
  close: { from: ['received', 'refused', 'shipped'], to: 'closed', side: 'buyer', element: 'farmMaterialsBuy:close' },
};
const SUPPLIER_SELLER_ELEMENT = 'farmMaterialsBuy:edit';

export interface OrderLineInput {
  materialId: number;
  quantity: number;
  unitPrice: number;
}
export interface OrderInput {
  sellerOrgId?: number;
  supplierId?: number;
  storeId: number;
  orderedOn: string;
  expectedOn?: string;
  contact?: string;
  note?: string;
  lines: OrderLineInput[];
}
export interface ShipInput {
  version?: number;
  shippedOn?: string;
  waybill?: string;
  note?: string;
  /** Absent: everything not yet shipped. */
  lines?: { lineId: number; quantity: number; batch?: string; producedOn?: string; expiresOn?: string }[];
}

interface OrderRow {
  id: number;
  farm_id: number;
  seller_org_id: number | null;
  supplier_id: number | null;
  store_id: number;
  status: OrderState;
  version: number;
  ordered_on: string;
}

export const orderNumber = (id: number) => `CG${String(id).padStart(6, '0')}`;
export const shipmentNumber = (id: number) => `FH${String(id).padStart(6, '0')}`;
const today = () => new Date().toISOString().slice(0, 10);

function refuse(errors: FieldError[], lang: Lang): never {
  throw invalidInput(errors, lang);
}

/** The WHERE of the orders a side of the caller sees (`o` is purchase_orders). */
export function sideScope(user: SessionUser, side: Side, p: Params, mode: ScopeMode = 'write'): string {
  if (side === 'buyer') return farmScope(user, p, 'o.farm_id', mode);
  // A draft is the farm's own business until it is submitted.
  const own = user.platformAdmin || (mode === 'read' && user.readsPlatform) ? 'o.seller_org_id IS NOT NULL' : user.orgId != null ? `o.seller_org_id = ${p.add(user.orgId)}` : 'FALSE';
  return `${own} AND o.status <> 'draft'`;
}

/** May `user` move `order` along `name` from `side` (element code and, for supplier orders, the farm acting for the supplier)? */
function elementFor(name: string, order: { seller_org_id: number | null }): string {
  const tr = ORDER_TRANSITIONS[name];
  return tr.side === 'seller' && order.seller_org_id === null ? SUPPLIER_SELLER_ELEMENT : tr.element;
}

/** The transitions the order's state allows to the caller on this side (the `_transitions` hint). */
export function transitionHint(user: SessionUser, side: Side, order: { status: string; seller_org_id: number | null }): string[] {
  return Object.entries(ORDER_TRANSITIONS)
    .filter(([name, tr]) => {
      const actingSide: Side = tr.side === 'seller' && order.seller_org_id === null ? 'buyer' : tr.side;
      return actingSide === side && tr.from.includes(order.status as OrderState) && user.elements.has(elementFor(name, order));
    })
    .map(([name]) => name);
}

export class PurchaseOrders {
  constructor(private readonly ledger: MaterialsLedger) {}

  /** The order of the caller's side, locked, or 40401. */
  async lockOrder(tx: Queryable, user: SessionUser, side: Side, id: number): Promise<OrderRow> {
    const p = new Params();
    const { rows } = await tx.query<OrderRow>(
      `SELECT o.id, o.farm_id, o.seller_org_id, o.supplier_id, o.store_id, o.status, o.version, to_char(o.ordered_on, 'YYYY-MM-DD') AS ordered_on
         FROM purchase_orders o WHERE o.id = ${p.add(id)} AND ${sideScope(user, side, p)} FOR UPDATE`,
      p.values,
    );
    if (!rows[0]) throw notFound();
    return { ...rows[0], id: Number(rows[0].id), farm_id: Number(rows[0].farm_id), store_id: Number(rows[0].store_id) };
  }

  private async checkInput(tx: Queryable, user: SessionUser, lang: Lang, input: OrderInput) {
    const errors: FieldError[] = [];
    if ((input.sellerOrgId === undefined) === (input.supplierId === undefined)) errors.push({ field: 'sellerOrgId', message: t(lang, 'orders.sellerOne') });
    input.lines.forEach((line, i) => {
      if (decimalPlaces(line.quantity) > 3) errors.push({ field: `lines.${i}.quantity`, message: t(lang, 'materials.decimals', { digits: 3 }) });
      if (decimalPlaces(line.unitPrice) > 4) errors.push({ field: `lines.${i}.unitPrice`, message: t(lang, 'materials.decimals', { digits: 4 }) });
    });
    if (input.expectedOn && input.expectedOn < input.orderedOn) errors.push({ field: 'expectedOn', message: t(lang, 'orders.expectedBeforeOrdered') });
    const store = await this.ledger.storeInScope(tx, user, input.storeId);
    if (!store) refuse([{ field: 'storeId', message: t(lang, 'materials.storeMissing') }, ...errors], lang);
    const materials = await this.ledger.ofFarm(tx, 'farmMaterials', store.farmId, input.lines.map((l) => l.materialId));
    input.lines.forEach((line, i) => {
      if (!materials.has(line.materialId)) errors.push({ field: `lines.${i}.materialId`, message: t(lang, 'materials.materialMissing') });
    });
    if (input.supplierId !== undefined && !(await this.ledger.ofFarm(tx, 'farmMaterialsSupplier', store.farmId, [input.supplierId])).size) {
      errors.push({ field: 'supplierId', message: t(lang, 'materials.supplierMissing') });
    }
    if (input.sellerOrgId !== undefined) {
      const { rows } = await tx.query('SELECT 1 FROM organisations WHERE id = $1 AND type = 1', [input.sellerOrgId]);
      if (!rows.length) errors.push({ field: 'sellerOrgId', message: t(lang, 'orders.sellerMissing') });
    }
    if (errors.length) refuse(errors, lang);
    return { store, materials };
  }

  private async writeLines(tx: Queryable, orderId: number, input: OrderInput, materials: Map<number, { data: Record<string, unknown> }>) {
    const lines = input.lines.map((l, i) => {
      const m = materials.get(l.materialId)!.data;
      return {
        lineNo: i + 1,
        materialId: l.materialId,
        name: String(m.name ?? ''),
        specification: m.specification == null ? null : String(m.specification),
        unit: String(m.unit ?? ''),
        quantity: numberText(l.quantity),
        unitPrice: numberText(l.unitPrice),
      };
    });
    // Amount = quantity × unit price rounded to the fen, computed by the database (exact).
    await tx.query(
      `INSERT INTO purchase_order_lines(order_id, line_no, material_id, name, specification, unit, quantity, unit_price, amount)
       SELECT $1, (l->>'lineNo')::int, (l->>'materialId')::bigint, l->>'name', l->>'specification', l->>'unit',
              (l->>'quantity')::numeric, (l->>'unitPrice')::numeric, round((l->>'quantity')::numeric * (l->>'unitPrice')::numeric, 2)
         FROM jsonb_array_elements($2::jsonb) AS l`,
      [orderId, JSON.stringify(lines)],
    );
  }

  async create(tx: Queryable, req: FastifyRequest, user: SessionUser, input: OrderInput): Promise<number> {
    const { store, materials } = await this.checkInput(tx, user, req.lang, input);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO purchase_orders(farm_id, seller_org_id, supplier_id, store_id, ordered_on, expected_on, contact, note, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [store.farmId, input.sellerOrgId ?? null, input.supplierId ?? null, store.id, input.orderedOn, input.expectedOn ?? null, input.contact ?? null, input.note ?? null, user.id],
    );
    const id = Number(rows[0].id);
    await this.writeLines(tx, id, input, materials);
    await this.audit(tx, req, id, 'create', { farmId: store.farmId, ...input });
    return id;
  }

  /** Replaces a draft's header and lines (only a draft changes). */
  async update(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number, input: OrderInput & { version?: number }): Promise<number> {
    const order = await this.lockOrder(tx, user, 'buyer', id);
    if (order.status !== 'draft') refuse([{ field: 'id', message: t(req.lang, 'orders.notDraft') }], req.lang);
    if (input.version !== undefined && input.version !== order.version) refuse([{ field: 'version', message: t(req.lang, 'orders.stale') }], req.lang);
    const { store, materials } = await this.checkInput(tx, user, req.lang, input);
    if (store.farmId !== order.farm_id) refuse([{ field: 'storeId', message: t(req.lang, 'materials.storeMissing') }], req.lang);
    await tx.query(
      `UPDATE purchase_orders SET seller_org_id = $2, supplier_id = $3, store_id = $4, ordered_on = $5, expected_on = $6, contact = $7, note = $8,
              version = version + 1, updated_at = now() WHERE id = $1`,
      [id, input.sellerOrgId ?? null, input.supplierId ?? null, store.id, input.orderedOn, input.expectedOn ?? null, input.contact ?? null, input.note ?? null],
    );
    await tx.query('DELETE FROM purchase_order_lines WHERE order_id = $1', [id]);
    await this.writeLines(tx, id, input, materials);
    await this.audit(tx, req, id, 'update', { ...input });
    return id;
  }

  async remove(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number): Promise<void> {
    const order = await this.lockOrder(tx, user, 'buyer', id);
    if (order.status !== 'draft') refuse([{ field: 'id', message: t(req.lang, 'orders.notDraft') }], req.lang);
    await tx.query('DELETE FROM purchase_orders WHERE id = $1', [id]);
    await this.audit(tx, req, id, 'delete', { number: orderNumber(id) });
  }

  /**
   * Moves the order along transition `name` from `side`: 40401 outside the side's scope,
   * 40301 without the element code, 40001 from a state the transition does not leave or
   * with a stale version. Returns the order's id.
   */
  async move(
    tx: Queryable,
    req: FastifyRequest,
    user: SessionUser,
    side: Side,
    name: string,
    id: number,
    body: { version?: number; reason?: string; shipmentId?: number } & ShipInput,
  ): Promise<number> {
    const lang = req.lang;
    const tr = ORDER_TRANSITIONS[name];
    if (!tr) throw notFound();
    // The element code first (40301 before anything about the order is told): a seller's
    // step taken on the buyer's side is the farm recording an off-platform supplier's.
    if (!user.elements.has(side === tr.side ? tr.element : SUPPLIER_SELLER_ELEMENT)) throw forbidden();
    const order = await this.lockOrder(tx, user, side, id);
    // The side that acts: a supplier's answer and shipments are recorded by the farm.
    const actingSide: Side = tr.side === 'seller' && order.seller_org_id === null ? 'buyer' : tr.side;
    if (actingSide !== side) throw forbidden();
    if (!tr.from.includes(order.status)) {
      refuse([{ field: 'status', message: t(lang, 'orders.wrongState', { number: orderNumber(id), state: t(lang, `orders.status.${order.status}`), action: t(lang, `orders.transition.${name}`) }) }], lang);
    }
    if (body.version !== undefined && body.version !== order.version) refuse([{ field: 'version', message: t(lang, 'orders.stale') }], lang);
    let to: OrderState = tr.to;
    const changes: Record<string, unknown> = { number: orderNumber(id), from: order.status };
    if (name === 'refuse') {
      const reason = (body.reason ?? '').trim();
      if (!reason) refuse([{ field: 'reason', message: t(lang, 'orders.reasonRequired') }], lang);
      await tx.query('UPDATE purchase_orders SET refuse_reason = $2 WHERE id = $1', [id, reason]);
      changes.reason = reason;
    }
    if (name === 'ship') changes.shipment = await this.ship(tx, user, lang, order, body);
    if (name === 'receive') {
      const received = await this.receive(tx, req, user, order, body.shipmentId);
      changes.received = received;
      to = (await this.complete(tx, id)) ? 'received' : 'shipped';
    }
    if (name === 'close' && order.status === 'shipped') {
      const { rows } = await tx.query('SELECT 1 FROM purchase_shipments WHERE order_id = $1 AND received_movement_id IS NULL', [id]);
      if (rows.length) refuse([{ field: 'status', message: t(lang, 'orders.pendingShipments') }], lang);
    }
    await tx.query('UPDATE purchase_orders SET status = $2, version = version + 1, updated_at = now() WHERE id = $1', [id, to]);
    changes.to = to;
    await this.audit(tx, req, id, name, changes);
    return id;
  }

  /** Everything ordered shipped, and every shipment received. */
  private async complete(tx: Queryable, id: number): Promise<boolean> {
    const { rows } = await tx.query<{ open: number }>(
      `SELECT (SELECT count(*)::int FROM purchase_order_lines WHERE order_id = $1 AND (shipped < quantity OR received < shipped))
            + (SELECT count(*)::int FROM purchase_shipments WHERE order_id = $1 AND received_movement_id IS NULL) AS open`,
      [id],
    );
    return rows[0].open === 0;
  }

  /** Writes one shipment; each line at most what is ordered and not yet shipped (the order is locked). */
  private async ship(tx: Queryable, user: SessionUser, lang: Lang, order: OrderRow, body: ShipInput): Promise<{ id: number; number: string }> {
    const { rows: lines } = await tx.query<{ id: number; name: string; unit: string; quantity: string; shipped: string }>(
      'SELECT id, name, unit, quantity::text AS quantity, shipped::text AS shipped FROM purchase_order_lines WHERE order_id = $1 ORDER BY line_no',
      [order.id],
    );
    const byId = new Map(lines.map((l) => [Number(l.id), l]));
    const wanted =
      body.lines ??
      lines
        .filter((l) => compareDecimal(l.quantity, l.shipped) > 0)
        .map((l) => ({ lineId: Number(l.id), quantity: Number(subtractDecimal(l.quantity, l.shipped)) }) as NonNullable<ShipInput['lines']>[number]);
    if (!wanted.length) refuse([{ field: 'lines', message: t(lang, 'orders.nothingToShip') }], lang);
    const errors: FieldError[] = [];
    const taking = new Map<number, string>();
    wanted.forEach((w, i) => {
      const line = byId.get(w.lineId);
      if (!line) {
        errors.push({ field: `lines.${i}.lineId`, message: t(lang, 'orders.lineMissing') });
        return;
      }
      if (decimalPlaces(w.quantity) > 3) errors.push({ field: `lines.${i}.quantity`, message: t(lang, 'materials.decimals', { digits: 3 }) });
      const left = subtractDecimal(subtractDecimal(line.quantity, line.shipped), taking.get(w.lineId) ?? '0');
      if (compareDecimal(w.quantity, left) > 0) {
        errors.push({ field: `lines.${i}.quantity`, message: t(lang, 'orders.overShip', { name: line.name, left, unit: line.unit, wanted: numberText(w.quantity) }) });
      }
      taking.set(w.lineId, subtractDecimal(numberText(w.quantity), `-${taking.get(w.lineId) ?? '0'}`));
      if (w.producedOn && w.expiresOn && w.expiresOn < w.producedOn) errors.push({ field: `lines.${i}.expiresOn`, message: t(lang, 'materials.expiryBeforeProduction') });
    });
    if (errors.length) refuse(errors, lang);
    const { rows } = await tx.query<{ id: number }>(
      'INSERT INTO purchase_shipments(order_id, shipped_on, waybill, note, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [order.id, body.shippedOn ?? today(), body.waybill ?? null, body.note ?? null, user.id],
    );
    const shipmentId = Number(rows[0].id);
    for (const w of wanted) {
      await tx.query(
        'INSERT INTO purchase_shipment_lines(shipment_id, order_line_id, quantity, batch, produced_on, expires_on) VALUES ($1, $2, $3::numeric, $4, $5, $6)',
        [shipmentId, w.lineId, numberText(w.quantity), (w.batch ?? '').trim(), w.producedOn ?? null, w.expiresOn ?? null],
      );
      // CHECK (shipped <= quantity) is the last guard of the limit checked above.
      await tx.query('UPDATE purchase_order_lines SET shipped = shipped + $2::numeric WHERE id = $1', [w.lineId, numberText(w.quantity)]);
    }
    return { id: shipmentId, number: shipmentNumber(shipmentId) };
  }

  /**
   * Receives one shipment (or every pending one) into the order's store: one stock-in per
   * shipment through the ledger, in this transaction. The shipment row is locked and its
   * stock-in recorded once (UNIQUE): of two receipts at once one wins, the other is told.
   */
  private async receive(tx: Queryable, req: FastifyRequest, user: SessionUser, order: OrderRow, shipmentId: number | undefined) {
    const lang = req.lang;
    const { rows: shipments } = await tx.query<{ id: number; received_movement_id: number | null }>(
      `SELECT id, received_movement_id FROM purchase_shipments WHERE order_id = $1 ${shipmentId === undefined ? 'AND received_movement_id IS NULL' : 'AND id = $2'} ORDER BY id FOR UPDATE`,
      shipmentId === undefined ? [order.id] : [order.id, shipmentId],
    );
    if (shipmentId !== undefined && !shipments[0]) refuse([{ field: 'shipmentId', message: t(lang, 'orders.shipmentMissing') }], lang);
    if (!shipments.length) refuse([{ field: 'shipmentId', message: t(lang, 'orders.nothingToReceive') }], lang);
    const done = shipments.find((s) => s.received_movement_id !== null);
    if (done) {
      refuse(
        [{ field: 'shipmentId', message: t(lang, 'orders.alreadyReceived', { number: shipmentNumber(Number(done.id)), movement: movementNumber('in', Number(done.received_movement_id)) }) }],
        lang,
      );
    }
    const received: { shipment: string; movement: string }[] = [];
    for (const s of shipments) {
      const { rows: lines } = await tx.query<{ order_line_id: number; material_id: number; quantity: string; unit_price: string; batch: string; produced_on: string | null; expires_on: string | null }>(
        `SELECT sl.order_line_id, ol.material_id, sl.quantity::text AS quantity, ol.unit_price::text AS unit_price, sl.batch,
                to_char(sl.produced_on, 'YYYY-MM-DD') AS produced_on, to_char(sl.expires_on, 'YYYY-MM-DD') AS expires_on
           FROM purchase_shipment_lines sl JOIN purchase_order_lines ol ON ol.id = sl.order_line_id WHERE sl.shipment_id = $1 ORDER BY sl.id`,
        [s.id],
      );
      const movementId = await this.ledger.stockIn(tx, req, user, {
        storeId: order.store_id,
        movedOn: today(),
        ...(order.supplier_id !== null ? { supplierId: Number(order.supplier_id) } : {}),
        purpose: t(lang, 'orders.purpose', { number: orderNumber(order.id) }),
        reference: shipmentNumber(Number(s.id)),
        lines: lines.map((l) => ({
          materialId: Number(l.material_id),
          batch: l.batch,
          quantity: Number(l.quantity),
          unitPrice: Number(l.unit_price),
          ...(l.produced_on ? { producedOn: l.produced_on } : {}),
          ...(l.expires_on ? { expiresOn: l.expires_on } : {}),
        })),
      });
      await tx.query('UPDATE purchase_shipments SET received_movement_id = $2, received_on = $3 WHERE id = $1', [s.id, movementId, today()]);
      await tx.query(
        `UPDATE purchase_order_lines ol SET received = ol.received + x.q FROM (SELECT order_line_id, sum(quantity) AS q FROM purchase_shipment_lines WHERE shipment_id = $1 GROUP BY order_line_id) x
          WHERE ol.id = x.order_line_id`,
        [s.id],
      );
      received.push({ shipment: shipmentNumber(Number(s.id)), movement: movementNumber('in', movementId) });
    }
    return received;
  }

  private async audit(tx: Queryable, req: FastifyRequest, id: number, action: string, changes: Record<string, unknown>) {
    await audit(tx, req, { action: `purchaseOrders.${action}`, resource: 'purchaseOrders', recordId: id, changes: { number: orderNumber(id), ...changes } });
  }
}
