/**
 * HTTP of the purchase orders (docs/materials.md, "Purchase orders"): the farm's side under
 * /api/farmMaterials/purchase (menu farmMaterialsBuy), the manufacturer's under
 * /api/fertilizerFactory/orders (menu fertilizerLists), and the hand-over between the farms
 * of a group. Every write is one transaction; the rules are in orders.ts and handover.ts.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { typedRoutes, type TypedApp } from '../http/typed-routes.ts';
import { forbidden, notFound, ok } from '../http/envelope.ts';
import { can } from '../../runtime/access/can.ts';
import { requireCan } from '../http/guard.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { t } from '../i18n/catalog.ts';
import './order-messages.ts';
import { okObject, okPage, okArray } from '../admin/schemas.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { MaterialsLedger } from './ledger.ts';
import { BUYER_MENU, ORDER_TRANSITIONS, PurchaseOrders, SELLER_MENU, sideScope, type OrderInput, type Side } from './orders.ts';
import { Params } from '../db/params.ts';
import { likePattern } from '../resources/sql.ts';
import { pageOf } from '../resources/page.ts';
import { orderPage, orderWithLines } from './order-reads.ts';
import { requirementPage } from './requirements.ts';

const tags = ['materials'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const date = { type: 'string', format: 'date', maxLength: 10 } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength, pattern: '^[^<>]*$' }) as const;
const paging = {
  pageIndex: { type: 'integer', minimum: 1, maximum: 100000 },
  pageSize: { type: 'integer', minimum: 1, maximum: 500 },
} as const;
const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id } } as const;

const orderBody = {
  type: 'object',
  additionalProperties: true,
  required: ['storeId', 'orderedOn', 'lines'],
  // The optional fields take null: a form posts back the order it loaded.
  properties: {
    sellerOrgId: { ...id, type: ['integer', 'null'] },
    supplierId: { ...id, type: ['integer', 'null'] },
    storeId: id,
    orderedOn: date,
    expectedOn: { ...date, type: ['string', 'null'] },
    contact: { ...text(64), type: ['string', 'null'] },
    note: { ...text(500), type: ['string', 'null'] },
    version: { type: 'integer', minimum: 1 },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: true,
        required: ['materialId', 'quantity', 'unitPrice'],
        properties: {
          materialId: id,
          quantity: { type: 'number', exclusiveMinimum: 0, maximum: 100000000 },
          unitPrice: { type: 'number', minimum: 0, maximum: 10000000 },
        },
      },
    },
  },
} as const;

const transitionBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    version: { type: 'integer', minimum: 1 },
    reason: text(500),
    shipmentId: id,
    shippedOn: date,
    waybill: text(64),
    note: text(500),
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['lineId', 'quantity'],
        properties: {
          lineId: id,
          quantity: { type: 'number', exclusiveMinimum: 0, maximum: 100000000 },
          batch: text(32),
          producedOn: date,
          expiresOn: date,
        },
      },
    },
  },
} as const;

const query = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...paging,
    status: { type: 'string', enum: ['', 'draft', 'submitted', 'accepted', 'refused', 'shipped', 'received', 'closed'] },
    keyword: { type: 'string', maxLength: 64 },
    orderedOnFrom: date,
    orderedOnTo: date,
  },
} as const;

/** The body's known fields only: a form posts the order it loaded (number, names, lines with their shipped…), which are read-only. */
function orderInput(body: Record<string, unknown>): OrderInput & { version?: number } {
  const pick = <T>(k: string) => (body[k] === null || body[k] === undefined || body[k] === '' ? undefined : (body[k] as T));
  return {
    sellerOrgId: pick<number>('sellerOrgId'),
    supplierId: pick<number>('supplierId'),
    storeId: body.storeId as number,
    orderedOn: body.orderedOn as string,
    expectedOn: pick<string>('expectedOn'),
    contact: pick<string>('contact'),
    note: pick<string>('note'),
    version: pick<number>('version'),
    lines: (body.lines as Record<string, unknown>[]).map((l) => ({ materialId: l.materialId as number, quantity: l.quantity as number, unitPrice: l.unitPrice as number })),
  };
}

function requireBuyer(req: FastifyRequest, action?: string): SessionUser {
  const me = requireCan(req, BUYER_MENU);
  if (action && !can(me, BUYER_MENU, action)) throw forbidden();
  return me;
}

/** The farms that ordered from the caller's manufacturer (drafts do not count), with their order figures. */
function registerCustomers(app: TypedApp) {
  app.get(
    '/fertilizerFactory/customers/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The farms that ordered from the caller’s manufacturer: orders, open orders, total amount (refused orders left out), last order date',
        description: 'Needs the menu code allFertilizerUser.',
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, keyword: { type: 'string', maxLength: 64 } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, 'allFertilizerUser');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const p = new Params();
      const where = [sideScope(me, 'seller', p, 'read')];
      if (req.query.keyword) where.push(`lower(f.name) LIKE ${p.add(likePattern(req.query.keyword.toLowerCase()))} ESCAPE '\\'`);
      const grouped = `
        SELECT f.id, f.name, f.city, f.contact, f.phone, count(*)::int AS orders,
               count(*) FILTER (WHERE o.status IN ('submitted', 'accepted', 'shipped'))::int AS open_orders,
               coalesce(sum((SELECT sum(amount) FROM purchase_order_lines l WHERE l.order_id = o.id)) FILTER (WHERE o.refuse_reason IS NULL), 0)::text AS total,
               to_char(max(o.ordered_on), 'YYYY-MM-DD') AS last_on
          FROM purchase_orders o JOIN organisations f ON f.id = o.farm_id
         WHERE ${where.join(' AND ')} GROUP BY f.id, f.name, f.city, f.contact, f.phone`;
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${grouped}) g`, p.values)).rows[0].n;
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 20;
      const { rows } = await app.db.query<Record<string, string | number | null>>(
        `SELECT * FROM (${grouped}) g ORDER BY g.last_on DESC NULLS LAST, g.id LIMIT ${p.add(pageSize)} OFFSET ${p.add((pageIndex - 1) * pageSize)}`,
        p.values,
      );
      return ok(
        pageOf(
          rows.map((r) => ({ id: Number(r.id), farmName: r.name, city: r.city, contact: r.contact, phone: r.phone, orders: r.orders, openOrders: r.open_orders, totalAmount: r.total, lastOrderedOn: r.last_on })),
          total,
          pageIndex,
          pageSize,
        ),
      );
    },
  );
}

/** What the plans still need against stock (requirements.ts), for one open planting group or all (groupId 0). */
function registerRequirements(app: TypedApp) {
  const menus = [BUYER_MENU, 'farmMaterialsStore', 'farmStorehouseIndex'];
  app.get(
    '/farmMaterials/requirements/:groupId/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Materials the plans of the open planting groups still need (amount per mu × area), against the stock of the catalogue material of the same name: short, enough, unitDiffers, notInCatalogue',
        description: `Needs one of the menu codes ${menus.join(', ')}. groupId 0: every open group of the caller’s farm.`,
        params: { type: 'object', additionalProperties: false, required: ['groupId'], properties: { groupId: { type: 'integer', minimum: 0, maximum: 2147483647 } } },
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, state: { type: 'string', enum: ['', 'short', 'enough', 'unitDiffers', 'notInCatalogue'] } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      return ok(
        await requirementPage(app.db, me, {
          groupId: req.params.groupId,
          today: new Date().toISOString().slice(0, 10),
          state: req.query.state || undefined,
          pageIndex: req.query.pageIndex ?? 1,
          pageSize: req.query.pageSize ?? 20,
        }),
      );
    },
  );
}

export const materialsOrderRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);
  const orders = new PurchaseOrders(new MaterialsLedger());
  registerSide(app, orders, 'buyer');
  registerSide(app, orders, 'seller');
  registerBuyerWrites(app, orders);
  registerShipmentForm(app, orders);
  registerCustomers(app);
  registerRequirements(app);
};

function registerSide(app: TypedApp, orders: PurchaseOrders, side: Side) {
  const base = side === 'buyer' ? '/farmMaterials/purchase' : '/fertilizerFactory/orders';
  const menu = side === 'buyer' ? BUYER_MENU : SELLER_MENU;
  const who = side === 'buyer' ? 'the caller’s farm' : 'the caller’s manufacturer (never a draft)';
  // The seller's steps of an order to an off-platform supplier are taken on the buyer's side.
  const names = side === 'buyer' ? Object.keys(ORDER_TRANSITIONS) : Object.keys(ORDER_TRANSITIONS).filter((n) => ORDER_TRANSITIONS[n].side === 'seller');

  app.get(
    `${base}/page`,
    { validatorCompiler: resourceValidatorCompiler, attachValidation: true, schema: { tags, summary: `Purchase orders of ${who}, newest first, with totals and the transitions the caller may take`, description: `Needs the menu code ${menu}.`, querystring: query, response: okPage() } },
    async (req) => {
      const me = requireCan(req, menu);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      return ok(await orderPage(app.db, me, side, { status: q.status || undefined, keyword: q.keyword || undefined, orderedOnFrom: q.orderedOnFrom, orderedOnTo: q.orderedOnTo, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
    },
  );

  app.get(
    `${base}/:id`,
    { validatorCompiler: resourceValidatorCompiler, attachValidation: true, schema: { tags, summary: `One purchase order of ${who} with its lines and shipments`, description: `Needs the menu code ${menu}. Any other order answers 40401.`, params: idParams, response: okObject() } },
    async (req) => {
      const me = requireCan(req, menu);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const order = await orderWithLines(app.db, me, side, req.params.id);
      if (!order) throw notFound();
      return ok(order);
    },
  );

  app.post(
    `${base}/:id/transitions/:name`,
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: `Move a purchase order of ${who} along a declared transition: ${names.join(', ')}`,
        description: `Needs the menu code ${menu} and the transition’s element code (${names.map((n) => `${n}: ${side === ORDER_TRANSITIONS[n].side ? ORDER_TRANSITIONS[n].element : 'farmMaterialsBuy:edit (an order to a supplier)'}`).join('; ')}). From a state the transition does not leave: 40001. ship takes lines (each at most what is left to ship; none = everything left); receive takes shipmentId (none = every pending shipment) and posts the stock-in; refuse needs a reason.`,
        params: { type: 'object', additionalProperties: false, required: ['id', 'name'], properties: { id, name: { type: 'string', enum: names } } },
        body: transitionBody,
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, menu);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const orderId = await app.db.transaction((tx) => orders.move(tx, req, me, side, req.params.name, req.params.id, req.body ?? {}));
      return ok(await orderWithLines(app.db, me, side, orderId));
    },
  );
}

/**
 * The manufacturer's shipment form: the order it loaded, with the quantities to ship now
 * typed per line (`shipNow`, and the batch and dates of those goods). Lines left empty are
 * not shipped; each quantity at most what is left (the `ship` transition's rule).
 */
function registerShipmentForm(app: TypedApp, orders: PurchaseOrders) {
  const optional = (schema: object) => ({ ...schema, type: [(schema as { type: string }).type, 'null'] });
  app.put(
    '/fertilizerFactory/orders/:id/shipment',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Ship part of an order from the order as loaded, with per line the quantity to ship now (shipNow), its batch and dates: the ship transition',
        description: `Needs the menu code ${SELLER_MENU} and fertilizerLists:ship. Lines without shipNow are not shipped; none at all is 40001.`,
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: true,
          required: ['lines'],
          properties: {
            version: { type: 'integer', minimum: 1 },
            waybill: optional(text(64)),
            shippedOn: optional(date),
            lines: {
              type: 'array',
              minItems: 1,
              maxItems: 100,
              items: {
                type: 'object',
                additionalProperties: true,
                properties: {
                  id,
                  shipNow: optional({ type: 'number', minimum: 0, maximum: 100000000 }),
                  shipBatch: optional(text(32)),
                  shipProducedOn: optional(date),
                  shipExpiresOn: optional(date),
                },
              },
            },
          },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, SELLER_MENU);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body as { version?: number; waybill?: string | null; shippedOn?: string | null; lines: Record<string, unknown>[] };
      // A line names its order line by id; without one (a form that keeps only its shown
      // columns), by position among the order's lines.
      const p = new Params();
      const { rows: own } = await app.db.query<{ id: number }>(
        `SELECT l.id FROM purchase_order_lines l JOIN purchase_orders o ON o.id = l.order_id WHERE o.id = ${p.add(req.params.id)} AND ${sideScope(me, 'seller', p)} ORDER BY l.line_no`,
        p.values,
      );
      const lines = body.lines
        .map((l, i): Record<string, unknown> & { id: number } => ({ ...l, id: typeof l.id === 'number' ? l.id : own[i] ? Number(own[i].id) : 0 }))
        .filter((l) => typeof l.shipNow === 'number' && l.shipNow > 0)
        .map((l) => ({
          lineId: l.id,
          quantity: l.shipNow as number,
          ...(l.shipBatch ? { batch: l.shipBatch as string } : {}),
          ...(l.shipProducedOn ? { producedOn: l.shipProducedOn as string } : {}),
          ...(l.shipExpiresOn ? { expiresOn: l.shipExpiresOn as string } : {}),
        }));
      if (!lines.length) throw invalidInput([{ field: 'lines', message: t(req.lang, 'orders.shipNowNeeded') }], req.lang);
      const orderId = await app.db.transaction((tx) =>
        orders.move(tx, req, me, 'seller', 'ship', req.params.id, {
          version: body.version,
          ...(body.waybill ? { waybill: body.waybill } : {}),
          ...(body.shippedOn ? { shippedOn: body.shippedOn } : {}),
          lines,
        }),
      );
      return ok(await orderWithLines(app.db, me, 'seller', orderId));
    },
  );
}

function registerBuyerWrites(app: TypedApp, orders: PurchaseOrders) {
  app.post(
    '/farmMaterials/purchase',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'Create a draft purchase order of the caller’s farm to a manufacturer (sellerOrgId) or one of its suppliers (supplierId), with lines', description: 'Needs farmMaterialsBuy:add.', body: orderBody, response: okObject() },
    },
    async (req) => {
      const me = requireBuyer(req, 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const orderId = await app.db.transaction((tx) => orders.create(tx, req, me, orderInput(req.body as Record<string, unknown>)));
      return ok(await orderWithLines(app.db, me, 'buyer', orderId));
    },
  );
  app.put(
    '/farmMaterials/purchase/:id',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'Replace a draft order’s header and lines (a submitted order no longer changes)', description: 'Needs farmMaterialsBuy:edit.', params: idParams, body: orderBody, response: okObject() },
    },
    async (req) => {
      const me = requireBuyer(req, 'edit');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const orderId = await app.db.transaction((tx) => orders.update(tx, req, me, req.params.id, orderInput(req.body as Record<string, unknown>)));
      return ok(await orderWithLines(app.db, me, 'buyer', orderId));
    },
  );
  app.delete(
    '/farmMaterials/purchase/:id',
    { validatorCompiler: resourceValidatorCompiler, attachValidation: true, schema: { tags, summary: 'Delete a draft order', description: 'Needs farmMaterialsBuy:delete; a submitted order is 40001.', params: idParams, response: okObject() } },
    async (req) => {
      const me = requireBuyer(req, 'delete');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      await app.db.transaction((tx) => orders.remove(tx, req, me, req.params.id));
      return ok({ id: req.params.id });
    },
  );
  app.get(
    '/farmMaterials/purchase/options/sellers',
    { schema: { tags, summary: 'Manufacturers a farm may order from, as options', description: `Needs the menu code ${BUYER_MENU}.`, response: okArray() } },
    async (req) => {
      requireBuyer(req);
      const { rows } = await app.db.query<{ id: number; name: string }>('SELECT id, name FROM organisations WHERE type = 1 ORDER BY name, id LIMIT 500');
      return ok(rows.map((r) => ({ value: Number(r.id), label: r.name })));
    },
  );
}
