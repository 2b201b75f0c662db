/**
 * Shared materials between the farms of a group (docs/materials.md, "Shared materials"): a
 * farm offers a material of its stock (store, material, batch, quantity, unit price, valid
 * until) to the other farms of its bloc; another farm of the bloc requests a quantity into
 * one of its stores; the offering farm hands it over — a hand-over of the ledger
 * (`MaterialsLedger.handOver`: a stock-out here, a stock-in there, both or neither, in the
 * request's transaction) — or refuses; the requester may cancel while it waits.
 *
 * The state machine is declared once in SHARE_TRANSITIONS: every move checks the element
 * code first (40301), then locks the offer and the request of the caller's view (40401
 * outside it), the side (the offering or the requesting farm), the state, the version, and
 * writes one operation-log row `shareMaterials.<transition>` in the same transaction.
 *
 * Scope: a farm sees its own offers, the open offers of the other farms of its bloc and the
 * offers it requested; never another bloc's. The platform administrator reads everything
 * but, having no farm, takes no side.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { ScopeMode } from '../auth/region-scope.ts';
import { audit } from '../audit/log.ts';
import { ApiError, business, forbidden, notFound, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { invalidInput } from '../resources/validation.ts';
import { compareDecimal, decimalPlaces, numberText, subtractDecimal } from './decimal.ts';
import type { MaterialsLedger } from './ledger.ts';
import { movementNumber } from './numbers.ts';
import './share-messages.ts';
import './messages.ts';

export const SHARE_MENU = 'shareMaterialIndex';

export type RequestState = 'requested' | 'handedOver' | 'refused' | 'cancelled';
export type ShareSide = 'offerer' | 'requester';

export interface ShareTransition {
  from: RequestState[];
  to: RequestState;
  side: ShareSide;
  element: string;
  reason?: { required: boolean };
}

/** The declared moves of a request: nothing else writes its status. */
export const SHARE_TRANSITIONS: Readonly<Record<string, ShareTransition>> = {
  handOver: { from: ['requested'], to: 'handedOver', side: 'offerer', element: 'shareMaterialIndex:handOver' },
  refuse: { from: ['requested'], to: 'refused', side: 'offerer', element: 'shareMaterialIndex:refuse', reason: { required: true } },
  cancel: { from: ['requested'], to: 'cancelled', side: 'requester', element: 'shareMaterialIndex:cancel' },
};
/** The element codes of the offer's own writes. */
export const OFFER_ELEMENTS = { create: 'shareMaterialIndex:add', edit: 'shareMaterialIndex:edit', withdraw: 'shareMaterialIndex:delete', request: 'shareMaterialIndex:request' } as const;

export interface OfferInput {
  storeId: number;
  materialId: number;
  batch?: string;
  quantity: number;
  unitPrice: number;
  validUntil: string;
  note?: string;
  version?: number;
}
export interface RequestInput {
  offerId: number;
  toStoreId: number;
  quantity: number;
  note?: string;
}

export const offerNumber = (id: number) => `GX${String(id).padStart(6, '0')}`;
export const requestNumber = (id: number) => `SQ${String(id).padStart(6, '0')}`;
const today = () => new Date().toISOString().slice(0, 10);

function refuse(errors: FieldError[], lang: Lang): never {
  throw invalidInput(errors, lang);
}

/** The caller's farm (an organisation of type 0 or 4 with stores), or null. */
export function ownFarm(user: SessionUser): number | null {
  return user.platformAdmin || user.orgId == null ? null : user.orgId;
}

/**
 * The WHERE of the offers the caller sees (`so` is share_offers): its own, the open ones of
 * the other farms of its bloc, and those it requested. Never another bloc's.
 */
export function offerScope(user: SessionUser, p: Params, mode: ScopeMode = 'write'): string {
  if (user.platformAdmin || (mode === 'read' && user.readsPlatform)) return 'TRUE';
  const farm = ownFarm(user);
  if (farm == null) return 'FALSE';
  const mine = `so.farm_id = ${p.add(farm)}`;
  if (user.blocId == null) return mine;
  const inBloc = `so.farm_id IN (SELECT o.id FROM organisations o WHERE o.bloc_id = ${p.add(user.blocId)})`;
  const requested = `EXISTS (SELECT 1 FROM share_requests r0 WHERE r0.offer_id = so.id AND r0.farm_id = ${p.add(farm)})`;
  return `(${mine} OR (${inBloc} AND (so.status = 'open' OR ${requested})))`;
}

interface OfferRow {
  id: number;
  farm_id: number;
  store_id: number;
  material_id: number;
  batch: string;
  quantity: string;
  status: 'open' | 'withdrawn';
  valid_until: string;
  version: number;
  handed: string;
  pending: string;
  unit: string;
  bloc_id: number | null;
}

export class ShareMarket {
  constructor(private readonly ledger: MaterialsLedger) {}

  /** The offer of the caller's view, locked, with what was handed over and what waits; or 40401. */
  async lockOffer(tx: Queryable, user: SessionUser, id: number): Promise<OfferRow> {
    const p = new Params();
    const { rows } = await tx.query<OfferRow>(
      `SELECT so.id, so.farm_id, so.store_id, so.material_id, so.batch, so.quantity::text AS quantity, so.status,
              to_char(so.valid_until, 'YYYY-MM-DD') AS valid_until, so.version
         FROM share_offers so WHERE so.id = ${p.add(id)} AND ${offerScope(user, p)} FOR UPDATE`,
      p.values,
    );
    if (!rows[0]) throw notFound();
    const { rows: sums } = await tx.query<{ handed: string; pending: string; unit: string; bloc_id: number | null }>(
      `SELECT coalesce(sum(r.quantity) FILTER (WHERE r.status = 'handedOver'), 0)::text AS handed,
              coalesce(sum(r.quantity) FILTER (WHERE r.status = 'requested'), 0)::text AS pending,
              (SELECT coalesce(m.data->>'unit', '') FROM resource_records m WHERE m.id = $2) AS unit,
              (SELECT bloc_id FROM organisations WHERE id = $3) AS bloc_id
         FROM share_requests r WHERE r.offer_id = $1`,
      [id, rows[0].material_id, rows[0].farm_id],
    );
    return { ...rows[0], id: Number(rows[0].id), farm_id: Number(rows[0].farm_id), store_id: Number(rows[0].store_id), material_id: Number(rows[0].material_id), ...sums[0] };
  }

  /** What is in stock of (store, material, batch); without a batch, the batch to draw: enough for `wanted`, earliest expiry first. */
  private async stockOf(db: Queryable, storeId: number, materialId: number, batch: string | undefined, wanted: string) {
    const { rows } = await db.query<{ batch: string; quantity: string }>(
      `SELECT batch, quantity::text AS quantity FROM material_balances WHERE store_id = $1 AND material_id = $2 AND quantity > 0
        ORDER BY expires_on NULLS LAST, batch`,
      [storeId, materialId],
    );
    if (batch !== undefined) return rows.find((r) => r.batch === batch) ?? { batch, quantity: '0' };
    return rows.find((r) => compareDecimal(r.quantity, wanted) >= 0) ?? rows.sort((a, b) => compareDecimal(b.quantity, a.quantity))[0] ?? null;
  }

  private async checkOffer(tx: Queryable, user: SessionUser, lang: Lang, input: OfferInput, handed = '0') {
    const errors: FieldError[] = [];
    if (decimalPlaces(input.quantity) > 3) errors.push({ field: 'quantity', message: t(lang, 'materials.decimals', { digits: 3 }) });
    if (decimalPlaces(input.unitPrice) > 4) errors.push({ field: 'unitPrice', message: t(lang, 'materials.decimals', { digits: 4 }) });
    if (input.validUntil < today()) errors.push({ field: 'validUntil', message: t(lang, 'share.validUntilPast') });
    const farm = ownFarm(user);
    const store = farm == null ? null : await this.ledger.storeInScope(tx, user, input.storeId);
    if (!store || store.farmId !== farm) refuse([{ field: 'storeId', message: t(lang, 'materials.storeMissing') }, ...errors], lang);
    const material = (await this.ledger.ofFarm(tx, 'farmMaterials', store.farmId, [input.materialId])).get(input.materialId);
    if (!material) refuse([{ field: 'materialId', message: t(lang, 'materials.materialMissing') }, ...errors], lang);
    if (errors.length) refuse(errors, lang);
    const wanted = numberText(input.quantity);
    const unit = String(material.data.unit ?? '');
    if (compareDecimal(wanted, handed) < 0) refuse([{ field: 'quantity', message: t(lang, 'share.belowHandedOver', { done: numberText(Number(handed)), unit }) }], lang);
    // The stock must hold what is still to hand over (the ledger checks again at hand-over).
    const stillOffered = subtractDecimal(wanted, handed);
    const stock = await this.stockOf(tx, store.id, material.id, input.batch || undefined, stillOffered);
    const name = String(material.data.name ?? '');
    if (!stock) refuse([{ field: 'materialId', message: t(lang, 'share.noStock', { store: String(store.data.name ?? ''), material: name }) }], lang);
    if (compareDecimal(stillOffered, stock.quantity) > 0) {
      refuse(
        [
          {
            field: 'quantity',
            message: t(lang, 'share.notEnoughStock', {
              store: String(store.data.name ?? ''),
              material: name,
              batch: stock.batch ? t(lang, 'materials.batchOf', { batch: stock.batch }) : '',
              left: numberText(Number(stock.quantity)),
              wanted: numberText(Number(stillOffered)),
              unit,
            }),
          },
        ],
        lang,
      );
    }
    return { store, material, batch: stock.batch };
  }

  async createOffer(tx: Queryable, req: FastifyRequest, user: SessionUser, input: OfferInput): Promise<number> {
    if (!user.elements.has(OFFER_ELEMENTS.create)) throw forbidden();
    const { store, material, batch } = await this.checkOffer(tx, user, req.lang, input);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO share_offers(farm_id, store_id, material_id, batch, quantity, unit_price, valid_until, note, created_by)
       VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, $7, $8, $9) RETURNING id`,
      [store.farmId, store.id, material.id, batch, numberText(input.quantity), numberText(input.unitPrice), input.validUntil, input.note ?? null, user.id],
    );
    const id = Number(rows[0].id);
    await this.audit(tx, req, 'offer', id, 'create', { number: offerNumber(id), storeId: store.id, materialId: material.id, batch, quantity: input.quantity, unitPrice: input.unitPrice, validUntil: input.validUntil });
    return id;
  }

  /** The offering farm's own offer, open, without waiting requests. */
  private async ownOpenOffer(tx: Queryable, user: SessionUser, lang: Lang, id: number, action: string, version?: number) {
    const offer = await this.lockOffer(tx, user, id);
    if (offer.farm_id !== ownFarm(user)) throw business('share.wrongSide', { side: t(lang, 'share.side.offerer'), action: t(lang, `share.transition.${action}`) });
    if (offer.status !== 'open') {
      throw business('share.wrongState', { number: offerNumber(id), state: t(lang, `share.offerState.${offer.status}`), action: t(lang, `share.transition.${action}`) });
    }
    if (version !== undefined && version !== offer.version) refuse([{ field: 'version', message: t(lang, 'share.stale', { number: offerNumber(id) }) }], lang);
    if (compareDecimal(offer.pending, 0) > 0) throw business('share.pendingRequests', { number: offerNumber(id) });
    return offer;
  }

  async updateOffer(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number, input: OfferInput): Promise<number> {
    if (!user.elements.has(OFFER_ELEMENTS.edit)) throw forbidden();
    const offer = await this.ownOpenOffer(tx, user, req.lang, id, 'edit', input.version);
    const { store, material, batch } = await this.checkOffer(tx, user, req.lang, input, offer.handed);
    await tx.query(
      `UPDATE share_offers SET store_id = $2, material_id = $3, batch = $4, quantity = $5::numeric, unit_price = $6::numeric, valid_until = $7, note = $8,
              version = version + 1, updated_at = now() WHERE id = $1`,
      [id, store.id, material.id, batch, numberText(input.quantity), numberText(input.unitPrice), input.validUntil, input.note ?? null],
    );
    await this.audit(tx, req, 'offer', id, 'update', { number: offerNumber(id), storeId: store.id, materialId: material.id, batch, quantity: input.quantity, unitPrice: input.unitPrice, validUntil: input.validUntil });
    return id;
  }

  async withdrawOffer(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number, version?: number): Promise<number> {
    if (!user.elements.has(OFFER_ELEMENTS.withdraw)) throw forbidden();
    await this.ownOpenOffer(tx, user, req.lang, id, 'withdraw', version);
    await tx.query(`UPDATE share_offers SET status = 'withdrawn', version = version + 1, updated_at = now() WHERE id = $1`, [id]);
    await this.audit(tx, req, 'offer', id, 'withdraw', { number: offerNumber(id), status: { from: 'open', to: 'withdrawn' } });
    return id;
  }

  /** A farm of the offer's bloc asks for a quantity of it, into one of its stores. */
  async request(tx: Queryable, req: FastifyRequest, user: SessionUser, input: RequestInput): Promise<number> {
    const lang = req.lang;
    if (!user.elements.has(OFFER_ELEMENTS.request)) throw forbidden();
    const farm = ownFarm(user);
    if (farm == null) throw business('share.noFarm');
    const errors: FieldError[] = [];
    if (decimalPlaces(input.quantity) > 3) errors.push({ field: 'quantity', message: t(lang, 'materials.decimals', { digits: 3 }) });
    const store = await this.ledger.storeInScope(tx, user, input.toStoreId);
    if (!store || store.farmId !== farm) errors.push({ field: 'toStoreId', message: t(lang, 'share.toStoreMissing') });
    if (errors.length) refuse(errors, lang);
    const offer = await this.lockOffer(tx, user, input.offerId).catch((e: unknown) => {
      if (e instanceof ApiError && e.key === 'common.notFound') refuse([{ field: 'offerId', message: t(lang, 'common.notFound') }], lang);
      throw e;
    });
    if (offer.farm_id === farm) refuse([{ field: 'offerId', message: t(lang, 'share.ownOffer') }], lang);
    const state = offer.status === 'open' && offer.valid_until < today() ? 'expired' : offer.status;
    if (state === 'expired') refuse([{ field: 'offerId', message: t(lang, 'share.expired', { number: offerNumber(offer.id), date: offer.valid_until }) }], lang);
    if (state !== 'open') throw business('share.wrongState', { number: offerNumber(offer.id), state: t(lang, `share.offerState.${state}`), action: t(lang, 'share.transition.request') });
    const left = subtractDecimal(offer.quantity, offer.handed);
    const wanted = numberText(input.quantity);
    if (compareDecimal(wanted, left) > 0) {
      refuse([{ field: 'quantity', message: t(lang, 'share.overRequest', { number: offerNumber(offer.id), left: numberText(Number(left)), wanted, unit: offer.unit }) }], lang);
    }
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO share_requests(offer_id, farm_id, to_store_id, quantity, note, created_by) VALUES ($1, $2, $3, $4::numeric, $5, $6) RETURNING id`,
      [offer.id, farm, input.toStoreId, wanted, input.note ?? null, user.id],
    );
    const id = Number(rows[0].id);
    await this.audit(tx, req, 'request', id, 'request', { number: requestNumber(id), offer: offerNumber(offer.id), toStoreId: input.toStoreId, quantity: input.quantity });
    return id;
  }

  /**
   * Moves request `id` along `name`. handOver posts the ledger's hand-over in this
   * transaction: the stock-out from the offer's store and batch, the stock-in at the
   * request's store; an over-draw is refused on `quantity` with what is left, nothing moved.
   */
  async move(tx: Queryable, req: FastifyRequest, user: SessionUser, name: string, id: number, body: { version?: number; reason?: string; movedOn?: string }): Promise<number> {
    const lang = req.lang;
    const tr = SHARE_TRANSITIONS[name];
    if (!tr) throw notFound();
    if (!user.elements.has(tr.element)) throw forbidden();
    const farm = ownFarm(user);
    // The request of the caller's view: its own, or one of its offers'.
    const p = new Params();
    const view = user.platformAdmin ? 'TRUE' : farm == null ? 'FALSE' : `(r.farm_id = ${p.add(farm)} OR so.farm_id = ${p.add(farm)})`;
    const { rows: found } = await tx.query<{ offer_id: number }>(
      `SELECT r.offer_id FROM share_requests r JOIN share_offers so ON so.id = r.offer_id WHERE r.id = ${p.add(id)} AND ${view}`,
      p.values,
    );
    if (!found[0]) throw notFound();
    // Offer first, then the request: every writer locks in this order.
    const offer = await this.lockOffer(tx, { ...user, platformAdmin: true }, Number(found[0].offer_id));
    const { rows } = await tx.query<{ id: number; farm_id: number; to_store_id: number; quantity: string; status: RequestState; version: number }>(
      'SELECT id, farm_id, to_store_id, quantity::text AS quantity, status, version FROM share_requests WHERE id = $1 FOR UPDATE',
      [id],
    );
    const request = rows[0];
    const action = t(lang, `share.transition.${name}`);
    const actor = tr.side === 'offerer' ? offer.farm_id : Number(request.farm_id);
    if (farm == null || actor !== farm) throw business('share.wrongSide', { side: t(lang, `share.side.${tr.side}`), action });
    if (!tr.from.includes(request.status)) throw business('share.wrongState', { number: requestNumber(id), state: t(lang, `share.requestState.${request.status}`), action });
    if (body.version !== undefined && body.version !== request.version) refuse([{ field: 'version', message: t(lang, 'share.stale', { number: requestNumber(id) }) }], lang);
    const reason = body.reason?.trim();
    if (tr.reason?.required && !reason) refuse([{ field: 'reason', message: t(lang, 'share.reasonRequired') }], lang);
    let handoverId: number | null = null;
    const changes: Record<string, unknown> = { number: requestNumber(id), offer: offerNumber(offer.id), status: { from: request.status, to: tr.to } };
    if (name === 'handOver') {
      const left = subtractDecimal(offer.quantity, offer.handed);
      if (compareDecimal(request.quantity, left) > 0) {
        refuse([{ field: 'quantity', message: t(lang, 'share.overRequest', { number: offerNumber(offer.id), left: numberText(Number(left)), wanted: numberText(Number(request.quantity)), unit: offer.unit }) }], lang);
      }
      const moved = await this.ledger
        .handOver(tx, req, user, {
          storeId: offer.store_id,
          toStoreId: Number(request.to_store_id),
          movedOn: body.movedOn ?? today(),
          reference: offerNumber(offer.id),
          note: t(lang, 'share.handOverNote', { number: requestNumber(id) }),
          lines: [{ materialId: offer.material_id, batch: offer.batch, quantity: Number(request.quantity) }],
        })
        .catch((e: unknown) => {
          // The ledger's refusal names its line (lines.0.quantity): here it is the request's quantity.
          if (e instanceof ApiError && Array.isArray(e.details)) {
            throw new ApiError(e.status, e.key, e.params, e.httpStatus, e.details.map((d) => ({ ...d, field: d.field.replace(/^lines\.0\./, '') })));
          }
          throw e;
        });
      const { rows: h } = await tx.query<{ id: number }>('SELECT id FROM material_handovers WHERE out_movement_id = $1', [moved.outId]);
      handoverId = Number(h[0].id);
      changes.stockOut = movementNumber('out', moved.outId);
      changes.stockIn = movementNumber('in', moved.inId);
    }
    if (reason) changes.reason = reason;
    await tx.query(
      `UPDATE share_requests SET status = $2, reason = coalesce($3, reason), handover_id = coalesce($4, handover_id), version = version + 1, decided_at = now() WHERE id = $1`,
      [id, tr.to, reason ?? null, handoverId],
    );
    await this.audit(tx, req, 'request', id, name, changes);
    return Number(offer.id);
  }

  private async audit(tx: Queryable, req: FastifyRequest, kind: 'offer' | 'request', id: number, action: string, changes: Record<string, unknown>) {
    await audit(tx, req, { action: `shareMaterials.${action}`, resource: kind === 'offer' ? 'shareOffers' : 'shareRequests', recordId: id, changes });
  }
}

/** The transitions the caller may take on a request (the `_transitions` hint): its state, its side, its element code. */
export function requestHint(user: SessionUser, row: { status: string; farmId: number; offerFarmId: number }): string[] {
  const farm = ownFarm(user);
  if (farm == null) return [];
  return Object.entries(SHARE_TRANSITIONS)
    .filter(([, tr]) => tr.from.includes(row.status as RequestState) && user.elements.has(tr.element) && (tr.side === 'offerer' ? row.offerFarmId : row.farmId) === farm)
    .map(([name]) => name);
}
