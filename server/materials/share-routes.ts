/**
 * HTTP of the shared-materials market (/api/shareMaterial, menu shareMaterialIndex; rules in
 * share.ts) and of the supply offers (/api/farmMaterials/supply, menu farmMaterialsSupply):
 * the manufacturers' products on sale, and «order from one», a draft purchase order to that
 * manufacturer with its line filled (orders.ts). Every write is one transaction.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { typedRoutes, type TypedApp } from '../http/typed-routes.ts';
import { business, forbidden, notFound, ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { t } from '../i18n/catalog.ts';
import { okArray, okObject, okPage } from '../admin/schemas.ts';
import { Params } from '../db/params.ts';
import { likePattern } from '../resources/sql.ts';
import { pageOf } from '../resources/page.ts';
import { MaterialsLedger } from './ledger.ts';
import { orderNumber, PurchaseOrders } from './orders.ts';
import { orderWithLines } from './order-reads.ts';
import { SHARE_MENU, SHARE_TRANSITIONS, ShareMarket, ownFarm, type OfferInput } from './share.ts';
import { offerPage, offerWithRequests, ownMaterials, ownStores, requestPage, stockedMaterials } from './share-reads.ts';
import './share-messages.ts';

const tags = ['materials'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const date = { type: 'string', format: 'date', maxLength: 10 } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength, pattern: '^[^<>]*$' }) as const;
const nullable = <T extends { type: string }>(s: T) => ({ ...s, type: [s.type, 'null'] });
const paging = {
  pageIndex: { type: 'integer', minimum: 1, maximum: 100000 },
  pageSize: { type: 'integer', minimum: 1, maximum: 500 },
} as const;
const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id } } as const;
const quantity = { type: 'number', exclusiveMinimum: 0, maximum: 100000000 } as const;
const today = () => new Date().toISOString().slice(0, 10);

// A form posts back the offer it loaded: the read-only fields are ignored, nulls accepted.
const offerBody = {
  type: 'object',
  additionalProperties: true,
  required: ['storeId', 'materialId', 'quantity', 'unitPrice', 'validUntil'],
  properties: {
    storeId: id,
    materialId: id,
    batch: nullable(text(32)),
    quantity,
    unitPrice: { type: 'number', minimum: 0, maximum: 10000000 },
    validUntil: date,
    note: nullable(text(500)),
    version: { type: 'integer', minimum: 1 },
  },
} as const;

function offerInput(body: Record<string, unknown>): OfferInput {
  const pick = <T>(k: string) => (body[k] === null || body[k] === undefined || body[k] === '' ? undefined : (body[k] as T));
  return {
    storeId: body.storeId as number,
    materialId: body.materialId as number,
    batch: pick<string>('batch'),
    quantity: body.quantity as number,
    unitPrice: body.unitPrice as number,
    validUntil: body.validUntil as string,
    note: pick<string>('note'),
    version: pick<number>('version'),
  };
}

function registerShare(app: TypedApp, market: ShareMarket) {
  const menu = SHARE_MENU;
  const need = `Needs the menu code ${menu}`;
  const read = (req: FastifyRequest) => {
    const me = requireCan(req, menu);
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    return me;
  };
  const load = async (req: FastifyRequest, offerId: number) => {
    const offer = await offerWithRequests(app.db, requireCan(req, menu), offerId, today());
    if (!offer) throw notFound();
    return ok(offer);
  };
  app.get(
    '/shareMaterial/offers/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The offers the caller’s farm sees: its own, the open ones of the other farms of its group, and those it requested (never another group’s); with left, requested, state (open, requested, exhausted, expired, withdrawn) and _can',
        description: `${need}.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...paging, status: { type: 'string', enum: ['', 'open', 'requested', 'exhausted', 'expired', 'withdrawn'] }, keyword: { type: 'string', maxLength: 64 }, mine: { type: 'boolean' } },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = read(req);
      const q = req.query;
      return ok(await offerPage(app.db, me, { status: q.status || undefined, keyword: q.keyword || undefined, mine: q.mine, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }, today()));
    },
  );
  app.get(
    '/shareMaterial/offers/:id',
    { validatorCompiler: resourceValidatorCompiler, attachValidation: true, schema: { tags, summary: 'One offer with its requests (the offering farm: all; a requester: its own)', description: `${need}. Outside the caller’s view: 40401.`, params: idParams, response: okObject() } },
    async (req) => {
      read(req);
      return load(req, req.params.id);
    },
  );
  app.post(
    '/shareMaterial/offers',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'Offer a material of the caller’s stock to the other farms of its group: store, material, batch (none: the batch that holds enough, earliest expiry first), quantity (at most the stock), unit price, valid until', description: `${need} and shareMaterialIndex:add.`, body: offerBody, response: okObject() },
    },
    async (req) => {
      const me = read(req);
      const offerId = await app.db.transaction((tx) => market.createOffer(tx, req, me, offerInput(req.body as Record<string, unknown>)));
      return load(req, offerId);
    },
  );
  app.put(
    '/shareMaterial/offers/:id',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'Change an open offer of the caller’s farm without waiting requests (never below what was handed over)', description: `${need} and shareMaterialIndex:edit.`, params: idParams, body: offerBody, response: okObject() },
    },
    async (req) => {
      const me = read(req);
      await app.db.transaction((tx) => market.updateOffer(tx, req, me, req.params.id, offerInput(req.body as Record<string, unknown>)));
      return load(req, req.params.id);
    },
  );
  app.post(
    '/shareMaterial/offers/:id/withdraw',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Withdraw an open offer of the caller’s farm without waiting requests',
        description: `${need} and shareMaterialIndex:delete.`,
        params: idParams,
        body: { type: 'object', additionalProperties: false, properties: { version: { type: 'integer', minimum: 1 } } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = read(req);
      await app.db.transaction((tx) => market.withdrawOffer(tx, req, me, req.params.id, (req.body as { version?: number } | undefined)?.version));
      return load(req, req.params.id);
    },
  );
  const requestBody = { toStoreId: id, quantity, note: nullable(text(500)) };
  const postRequest = async (req: FastifyRequest, offerId: number) => {
    const me = read(req);
    const body = req.body as { toStoreId: number; quantity: number; note?: string | null };
    await app.db.transaction((tx) => market.request(tx, req, me, { offerId, toStoreId: body.toStoreId, quantity: body.quantity, note: body.note ?? undefined }));
    return load(req, offerId);
  };
  const requestSummary = 'Request a quantity of an open offer of another farm of the caller’s group, into one of the caller’s stores (at most what is left of the offer)';
  app.post(
    '/shareMaterial/requests',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: requestSummary,
        description: `${need} and shareMaterialIndex:request.`,
        body: { type: 'object', additionalProperties: true, required: ['offerId', 'toStoreId', 'quantity'], properties: { offerId: id, ...requestBody } },
        response: okObject(),
      },
    },
    async (req) => postRequest(req, (req.body as { offerId: number }).offerId),
  );
  app.post(
    '/shareMaterial/offers/:id/requests',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: `${requestSummary}; the offer in the path (the request form)`,
        description: `${need} and shareMaterialIndex:request.`,
        params: idParams,
        body: { type: 'object', additionalProperties: true, required: ['toStoreId', 'quantity'], properties: requestBody },
        response: okObject(),
      },
    },
    async (req) => postRequest(req, req.params.id),
  );
  app.get(
    '/shareMaterial/requests/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The requests of the caller’s farm: those it made (side mine), those made of its offers (side toMe), or both; with _transitions',
        description: `${need}.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...paging, side: { type: 'string', enum: ['', 'mine', 'toMe'] }, status: { type: 'string', enum: ['', 'requested', 'handedOver', 'refused', 'cancelled'] } },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = read(req);
      const q = req.query;
      return ok(await requestPage(app.db, me, { side: q.side || undefined, status: q.status || undefined, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
    },
  );
  const names = Object.keys(SHARE_TRANSITIONS);
  app.post(
    '/shareMaterial/requests/:id/transitions/:name',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: `Move a request along a declared transition: ${names.join(', ')}. handOver posts the ledger’s hand-over (a stock-out at the offering farm, a stock-in at the requester’s store, both or neither)`,
        description: `${need} and the transition’s element code (${names.map((n) => `${n}: ${SHARE_TRANSITIONS[n].element}, ${SHARE_TRANSITIONS[n].side}`).join('; ')}). From another state, or by the other side: 40001. refuse needs a reason.`,
        params: { type: 'object', additionalProperties: false, required: ['id', 'name'], properties: { id, name: { type: 'string', enum: names } } },
        body: { type: 'object', additionalProperties: false, properties: { version: { type: 'integer', minimum: 1 }, reason: text(500), movedOn: date } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = read(req);
      const offerId = await app.db.transaction((tx) => market.move(tx, req, me, req.params.name, req.params.id, (req.body as Record<string, never>) ?? {}));
      return load(req, offerId);
    },
  );
  for (const [path, summary, list] of [
    ['/shareMaterial/options/materials', 'Materials of the caller’s farm with stock, as options: “name · code (stock unit)”', stockedMaterials],
    ['/shareMaterial/options/stores', 'Stores of the caller’s farm, as options', ownStores],
  ] as const) {
    app.get(path, { schema: { tags, summary, description: `${need}.`, response: okArray() } }, async (req) => ok(await list(app.db, requireCan(req, menu))));
  }
}

const SUPPLY_MENU = 'farmMaterialsSupply';

/** The manufacturers' products on sale (resource fertilizerProducts), and a draft order from one. */
function registerSupply(app: TypedApp, orders: PurchaseOrders) {
  app.get(
    '/farmMaterials/supply/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Supply offers: the products on sale of the manufacturers on the platform, with price, package and unit',
        description: `Needs the menu code ${SUPPLY_MENU}.`,
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, keyword: { type: 'string', maxLength: 64 }, productType: { type: 'string', maxLength: 32 } } },
        response: okPage(),
      },
    },
    async (req) => {
      requireCan(req, SUPPLY_MENU);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      const p = new Params();
      const where = [`r.resource = 'fertilizerProducts'`, `coalesce((r.data->>'onSale')::boolean, false)`, 'o.type = 1'];
      if (q.keyword) {
        const k = p.add(likePattern(q.keyword.toLowerCase()));
        where.push(`(lower(r.data->>'name') LIKE ${k} ESCAPE '\\' OR lower(o.name) LIKE ${k} ESCAPE '\\')`);
      }
      if (q.productType) where.push(`r.data->>'productType' = ${p.add(q.productType)}`);
      const from = `resource_records r JOIN organisations o ON o.id = r.farm_id WHERE ${where.join(' AND ')}`;
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, p.values)).rows[0].n;
      const pageIndex = q.pageIndex ?? 1;
      const pageSize = q.pageSize ?? 20;
      const { rows } = await app.db.query<{ id: number; data: Record<string, unknown>; org_id: number; org_name: string; city: string | null; phone: string | null }>(
        `SELECT r.id, r.data, o.id AS org_id, o.name AS org_name, o.city, o.phone FROM ${from} ORDER BY o.name, r.data->>'name', r.id LIMIT ${p.add(pageSize)} OFFSET ${p.add((pageIndex - 1) * pageSize)}`,
        p.values,
      );
      const data = rows.map((r) => ({
        id: Number(r.id),
        manufacturerId: Number(r.org_id),
        manufacturerName: r.org_name,
        city: r.city,
        phone: r.phone,
        name: r.data.name,
        productType: r.data.productType,
        nutrients: r.data.nutrients ?? null,
        specification: r.data.specification ?? null,
        unit: r.data.unit ?? null,
        registrationNo: r.data.registrationNo ?? null,
        price: r.data.price == null ? null : Number(r.data.price).toFixed(2),
        description: r.data.description ?? null,
      }));
      return ok(pageOf(data, total, pageIndex, pageSize));
    },
  );
  app.post(
    '/farmMaterials/supply/:id/order',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        params: idParams,
        summary: '«Order from one» (id: the product): a draft purchase order to the product’s manufacturer with one line (the farm’s catalogue material — by default the one of the product’s name — the quantity, the product’s price), received into storeId; the farm submits it as any order',
        description: `Needs the menu code ${SUPPLY_MENU} and ${SUPPLY_MENU}:add. The manufacturer sees nothing until the order is submitted.`,
        body: {
          type: 'object',
          additionalProperties: true,
          required: ['storeId', 'quantity'],
          properties: { storeId: id, materialId: nullable(id), quantity, expectedOn: nullable(date), note: nullable(text(500)) },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, SUPPLY_MENU);
      if (!me.elements.has(`${SUPPLY_MENU}:add`)) throw forbidden();
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const lang = req.lang;
      const body = req.body as { storeId: number; materialId?: number | null; quantity: number; expectedOn?: string | null; note?: string | null };
      const orderId = await app.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ org_id: number; data: Record<string, unknown> }>(
          `SELECT r.farm_id AS org_id, r.data FROM resource_records r JOIN organisations o ON o.id = r.farm_id
            WHERE r.resource = 'fertilizerProducts' AND r.id = $1 AND o.type = 1 AND coalesce((r.data->>'onSale')::boolean, false)`,
          [req.params.id],
        );
        const product = rows[0];
        if (!product) throw invalidInput([{ field: 'id', message: t(lang, 'supply.productMissing') }], lang);
        if (product.data.price == null) throw business('supply.noPrice');
        let materialId = body.materialId ?? undefined;
        if (materialId === undefined) {
          const farm = ownFarm(me);
          const { rows: same } = await tx.query<{ id: number }>(
            `SELECT id FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 AND data->>'name' = $2 ORDER BY id LIMIT 1`,
            [farm ?? 0, String(product.data.name ?? '')],
          );
          if (!same[0]) throw invalidInput([{ field: 'materialId', message: t(lang, 'supply.noCatalogueMaterial', { name: String(product.data.name ?? '') }) }], lang);
          materialId = Number(same[0].id);
        }
        return orders.create(tx, req, me, {
          sellerOrgId: Number(product.org_id),
          storeId: body.storeId,
          orderedOn: today(),
          expectedOn: body.expectedOn ?? undefined,
          note: body.note ?? undefined,
          lines: [{ materialId, quantity: body.quantity, unitPrice: Number(product.data.price) }],
        });
      });
      const order = await orderWithLines(app.db, me, 'buyer', orderId);
      return ok(order ?? { id: orderId, number: orderNumber(orderId) });
    },
  );
}

function registerSupplyOptions(app: TypedApp) {
  for (const [path, summary, list] of [
    ['/farmMaterials/supply/options/stores', 'Stores of the caller’s farm, as options of the «order from one» form', ownStores],
    ['/farmMaterials/supply/options/materials', 'The caller’s farm’s catalogue, as options of the «order from one» form: “name · code (unit)”', ownMaterials],
  ] as const) {
    app.get(path, { schema: { tags, summary, description: `Needs the menu code ${SUPPLY_MENU}.`, response: okArray() } }, async (req) => ok(await list(app.db, requireCan(req, SUPPLY_MENU))));
  }
}

export const materialsShareRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);
  const ledger = new MaterialsLedger();
  registerShare(app, new ShareMarket(ledger));
  registerSupply(app, new PurchaseOrders(ledger));
  registerSupplyOptions(app);
};
