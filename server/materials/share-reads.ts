/**
 * What the shared-materials screens read: the offers the caller sees (share.ts offerScope)
 * with what is left, what waits and the stock behind the caller's own offers; one offer with
 * its requests (all of them for the offering farm, its own for a requester); the requests
 * of the caller's farm, both sides. Rows carry `_can` and `_transitions` for the caller.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { likePattern } from '../resources/sql.ts';
import { pageOf, type Page } from '../resources/page.ts';
import { movementNumber } from './numbers.ts';
import { OFFER_ELEMENTS, offerNumber, offerScope, ownFarm, requestHint, requestNumber } from './share.ts';


const OFFER_SELECT = `
  so.id, so.farm_id, so.store_id, so.material_id, so.batch, so.quantity::text AS quantity, so.unit_price::text AS unit_price,
  to_char(so.valid_until, 'YYYY-MM-DD') AS valid_until, so.note, so.status, so.version, so.created_at,
  f.name AS farm_name, st.data->>'name' AS store_name, m.data->>'name' AS material_name, m.data->>'goodsCode' AS goods_code,
  m.data->>'unit' AS unit, m.data->>'specification' AS specification, m.data->>'category' AS category,
  (SELECT coalesce(sum(quantity), 0)::text FROM share_requests WHERE offer_id = so.id AND status = 'handedOver') AS handed,
  (SELECT coalesce(sum(quantity), 0)::text FROM share_requests WHERE offer_id = so.id AND status = 'requested') AS pending,
  (SELECT coalesce(sum(quantity), 0)::text FROM material_balances b WHERE b.store_id = so.store_id AND b.material_id = so.material_id AND b.batch = so.batch) AS stock`;
const OFFER_FROM = `
  share_offers so
  JOIN organisations f ON f.id = so.farm_id
  LEFT JOIN resource_records st ON st.resource = 'farmStores' AND st.id = so.store_id
  LEFT JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = so.material_id`;

export function offerState(r: { status: string; valid_until: string; handed: string; quantity: string; pending: string }, today: string): string {
  if (r.status === 'withdrawn') return 'withdrawn';
  if (Number(r.handed) >= Number(r.quantity)) return 'exhausted';
  if (r.valid_until < today) return 'expired';
  if (Number(r.pending) > 0) return 'requested';
  return 'open';
}

function shapeOffer(user: SessionUser, r: Record<string, unknown>, today: string): Record<string, unknown> {
  const state = offerState(r as never, today);
  const mine = Number(r.farm_id) === ownFarm(user);
  const left = Number(r.quantity) - Number(r.handed);
  const farm = ownFarm(user);
  return {
    id: Number(r.id),
    number: offerNumber(Number(r.id)),
    farmId: Number(r.farm_id),
    farmName: r.farm_name,
    mine,
    storeId: Number(r.store_id),
    storeName: r.store_name,
    materialId: Number(r.material_id),
    materialName: r.material_name,
    goodsCode: r.goods_code,
    specification: r.specification,
    category: r.category,
    unit: r.unit,
    batch: r.batch,
    quantity: Number(r.quantity),
    handedOver: Number(r.handed),
    requested: Number(r.pending),
    left: Math.round(left * 1000) / 1000,
    // The stock behind the offer: the offering farm's own business.
    stock: mine || user.platformAdmin ? Number(r.stock) : null,
    unitPrice: r.unit_price,
    validUntil: r.valid_until,
    note: r.note,
    status: state,
    version: r.version,
    // `_can` as the server would decide it for this caller: the side, the state, the element code.
    _can: {
      edit: mine && state === 'open' && user.elements.has(OFFER_ELEMENTS.edit),
      delete: mine && state === 'open' && user.elements.has(OFFER_ELEMENTS.withdraw),
      request: farm != null && !mine && (state === 'open' || state === 'requested') && user.elements.has(OFFER_ELEMENTS.request),
    },
  };
}

export interface OfferQuery {
  status?: string;
  keyword?: string;
  mine?: boolean;
  pageIndex: number;
  pageSize: number;
}

export async function offerPage(db: Queryable, user: SessionUser, q: OfferQuery, today: string): Promise<Page<Record<string, unknown>>> {
  const p = new Params();
  const where = [offerScope(user, p, 'read')];
  if (q.mine) where.push(ownFarm(user) == null ? 'FALSE' : `so.farm_id = ${p.add(ownFarm(user))}`);
  if (q.keyword) {
    const k = p.add(likePattern(q.keyword.toLowerCase()));
    where.push(`(lower(m.data->>'name') LIKE ${k} ESCAPE '\\' OR lower(f.name) LIKE ${k} ESCAPE '\\')`);
  }
  const { rows } = await db.query<Record<string, unknown>>(`SELECT ${OFFER_SELECT} FROM ${OFFER_FROM} WHERE ${where.join(' AND ')} ORDER BY so.created_at DESC, so.id DESC`, p.values);
  // The state is derived (expiry, what was handed over): filtered after shaping; a group's market is small.
  const all = rows.map((r) => shapeOffer(user, r, today)).filter((r) => !q.status || r.status === q.status);
  const start = (q.pageIndex - 1) * q.pageSize;
  return pageOf(all.slice(start, start + q.pageSize), all.length, q.pageIndex, q.pageSize);
}

const REQUEST_SELECT = `
  r.id, r.offer_id, r.farm_id, r.to_store_id, r.quantity::text AS quantity, r.note, r.status, r.reason, r.version, r.handover_id,
  to_char(r.created_at, 'YYYY-MM-DD HH24:MI') AS requested_at, to_char(r.decided_at, 'YYYY-MM-DD HH24:MI') AS decided_at,
  rf.name AS farm_name, ts.data->>'name' AS to_store_name, so.farm_id AS offer_farm_id, of.name AS offer_farm_name,
  m.data->>'name' AS material_name, m.data->>'unit' AS unit, so.batch, so.unit_price::text AS unit_price,
  round(r.quantity * so.unit_price, 2)::text AS amount, h.out_movement_id, h.in_movement_id`;
const REQUEST_FROM = `
  share_requests r
  JOIN share_offers so ON so.id = r.offer_id
  JOIN organisations rf ON rf.id = r.farm_id
  JOIN organisations of ON of.id = so.farm_id
  LEFT JOIN resource_records ts ON ts.resource = 'farmStores' AND ts.id = r.to_store_id
  LEFT JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = so.material_id
  LEFT JOIN material_handovers h ON h.id = r.handover_id`;

function shapeRequest(user: SessionUser, r: Record<string, unknown>): Record<string, unknown> {
  const farm = ownFarm(user);
  const row = { status: String(r.status), farmId: Number(r.farm_id), offerFarmId: Number(r.offer_farm_id) };
  const transitions = requestHint(user, row);
  return {
    id: Number(r.id),
    number: requestNumber(Number(r.id)),
    offerId: Number(r.offer_id),
    offerNumber: offerNumber(Number(r.offer_id)),
    side: farm === row.offerFarmId ? 'offerer' : farm === row.farmId ? 'requester' : 'none',
    farmId: row.farmId,
    farmName: r.farm_name,
    offerFarmName: r.offer_farm_name,
    toStoreId: Number(r.to_store_id),
    toStoreName: r.to_store_name,
    materialName: r.material_name,
    unit: r.unit,
    batch: r.batch,
    quantity: Number(r.quantity),
    unitPrice: r.unit_price,
    amount: r.amount,
    note: r.note,
    status: r.status,
    reason: r.reason,
    requestedAt: r.requested_at,
    decidedAt: r.decided_at,
    stockOutNumber: r.out_movement_id == null ? null : movementNumber('out', Number(r.out_movement_id)),
    stockInNumber: r.in_movement_id == null ? null : movementNumber('in', Number(r.in_movement_id)),
    version: r.version,
    _transitions: transitions,
    _can: { handOver: transitions.includes('handOver'), refuse: transitions.includes('refuse'), cancel: transitions.includes('cancel') },
  };
}

/** The requests of the caller's farm (`side` mine: it asked; toMe: asked of its offers), or every request for the administrator. */
export async function requestPage(db: Queryable, user: SessionUser, q: { side?: string; status?: string; offerId?: number; pageIndex: number; pageSize: number }) {
  const p = new Params();
  const farm = ownFarm(user);
  const where: string[] = [];
  if (!user.platformAdmin && !user.readsPlatform) {
    if (farm == null) where.push('FALSE');
    else if (q.side === 'mine') where.push(`r.farm_id = ${p.add(farm)}`);
    else if (q.side === 'toMe') where.push(`so.farm_id = ${p.add(farm)}`);
    else where.push(`(r.farm_id = ${p.add(farm)} OR so.farm_id = ${p.add(farm)})`);
  }
  if (q.status) where.push(`r.status = ${p.add(q.status)}`);
  if (q.offerId) where.push(`r.offer_id = ${p.add(q.offerId)}`);
  const cond = where.length ? where.join(' AND ') : 'TRUE';
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${REQUEST_FROM} WHERE ${cond}`, p.values)).rows[0].n;
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${REQUEST_SELECT} FROM ${REQUEST_FROM} WHERE ${cond}
      ORDER BY (r.status = 'requested') DESC, r.created_at DESC, r.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
    p.values,
  );
  return pageOf(
    rows.map((r) => shapeRequest(user, r)),
    total,
    q.pageIndex,
    q.pageSize,
  );
}

/** One offer of the caller's view with its requests (the offering farm: all; a requester: its own), or null. */
export async function offerWithRequests(db: Queryable, user: SessionUser, id: number, today: string): Promise<Record<string, unknown> | null> {
  const p = new Params();
  const { rows } = await db.query<Record<string, unknown>>(`SELECT ${OFFER_SELECT} FROM ${OFFER_FROM} WHERE so.id = ${p.add(id)} AND ${offerScope(user, p)}`, p.values);
  if (!rows[0]) return null;
  const offer = shapeOffer(user, rows[0], today);
  const requests = await requestPage(db, user, { offerId: id, pageIndex: 1, pageSize: 500 });
  return { ...offer, requests: requests.rows };
}

/** Options of the offer form: the caller's farm's materials with stock, «name · code（unit）· stock». */
export async function stockedMaterials(db: Queryable, user: SessionUser) {
  const farm = ownFarm(user);
  if (farm == null) return [];
  const { rows } = await db.query<{ id: number; name: string; code: string; unit: string; stock: string }>(
    `SELECT m.id, m.data->>'name' AS name, m.data->>'goodsCode' AS code, m.data->>'unit' AS unit, sum(b.quantity)::text AS stock
       FROM material_balances b JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = b.material_id
      WHERE b.farm_id = $1 AND b.quantity > 0 GROUP BY m.id, m.data ORDER BY m.data->>'name'`,
    [farm],
  );
  return rows.map((r) => ({ value: Number(r.id), label: `${r.name} · ${r.code}（${Number(r.stock)} ${r.unit}）` }));
}

/** Options: the caller's farm's stores. */
export async function ownStores(db: Queryable, user: SessionUser) {
  const farm = ownFarm(user);
  if (farm == null) return [];
  const { rows } = await db.query<{ id: number; name: string }>(`SELECT id, data->>'name' AS name FROM resource_records WHERE resource = 'farmStores' AND farm_id = $1 ORDER BY id`, [farm]);
  return rows.map((r) => ({ value: Number(r.id), label: r.name }));
}


/** Options: the caller's farm's catalogue, «name · code（unit）». */
export async function ownMaterials(db: Queryable, user: SessionUser) {
  const farm = ownFarm(user);
  if (farm == null) return [];
  const { rows } = await db.query<{ id: number; data: Record<string, string> }>(
    `SELECT id, data FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 ORDER BY data->>'name', id LIMIT 1000`,
    [farm],
  );
  return rows.map((r) => ({ value: Number(r.id), label: `${r.data.name} · ${r.data.goodsCode ?? ''}（${r.data.unit ?? ''}）` }));
}
