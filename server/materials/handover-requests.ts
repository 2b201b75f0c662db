/**
 * Hand-overs into another farm's store as requests that farm accepts (docs/materials.md,
 * "Hand-over between the farms of a group"). A farm never puts stock into another farm's
 * store by itself: the giving farm asks (`request`: the lines are checked as a stock-out of
 * its store and the receiving store as one of another farm of its bloc; nothing moves); the
 * receiving farm `accept`s (the ledger posts the stock-out there and the stock-in here in the
 * acceptance's transaction, one movement on each farm's ledger, both or neither) or
 * `decline`s; the giving farm may `cancel` while it waits.
 *
 * Scope: the giving and the receiving farm see the request (a provider or a regional center
 * as for the farms they read); anyone else gets 40401. A move needs the side's write scope.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { audit } from '../audit/log.ts';
import { business, forbidden, notFound } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import { invalidInput } from '../resources/validation.ts';
import { pageOf, type Page } from '../resources/page.ts';
import { farmScope, type MaterialsLedger, type MovementInput } from './ledger.ts';
import { movementNumber } from './numbers.ts';
import './order-messages.ts';

export type HandOverState = 'requested' | 'accepted' | 'declined' | 'cancelled';
type Side = 'giver' | 'receiver';

/** The declared moves of a request: nothing else writes its status. */
export const HANDOVER_TRANSITIONS: Readonly<Record<string, { to: HandOverState; side: Side }>> = {
  accept: { to: 'accepted', side: 'receiver' },
  decline: { to: 'declined', side: 'receiver' },
  cancel: { to: 'cancelled', side: 'giver' },
};

export type HandOverInput = MovementInput & { toStoreId: number };

interface RequestRow {
  id: number;
  from_farm_id: number;
  to_farm_id: number;
  from_store_id: number;
  to_store_id: number;
  moved_on: string;
  reference: string | null;
  note: string | null;
  lines: MovementInput['lines'];
  status: HandOverState;
  version: number;
}

export const handOverNumber = (id: number) => `YJ${String(id).padStart(6, '0')}`;

export class HandOverRequests {
  constructor(private readonly ledger: MaterialsLedger) {}

  /** Records the giving farm's request; nothing moves. Returns its id. */
  async request(tx: Queryable, req: FastifyRequest, user: SessionUser, input: HandOverInput): Promise<number> {
    const { store, to } = await this.ledger.checkHandOver(tx, user, req.lang, input);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO material_handover_requests(from_farm_id, to_farm_id, from_store_id, to_store_id, moved_on, reference, note, lines, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9) RETURNING id`,
      [store.farmId, to.farm_id, store.id, to.id, input.movedOn, input.reference ?? null, input.note ?? null, JSON.stringify(input.lines), user.id],
    );
    const id = Number(rows[0].id);
    await audit(tx, req, {
      action: 'materialHandovers.request',
      resource: 'materialHandovers',
      recordId: id,
      changes: { number: handOverNumber(id), farmId: store.farmId, toFarmId: Number(to.farm_id), storeId: store.id, toStoreId: Number(to.id), lines: input.lines },
    });
    return id;
  }

  /** Moves request `id` along `name` (HANDOVER_TRANSITIONS); accept posts both movements. */
  async move(tx: Queryable, req: FastifyRequest, user: SessionUser, name: string, id: number, body: { version?: number; reason?: string; movedOn?: string }): Promise<number> {
    const lang = req.lang;
    const tr = HANDOVER_TRANSITIONS[name];
    if (!tr) throw notFound();
    const p = new Params();
    const { rows } = await tx.query<RequestRow>(
      `SELECT id, from_farm_id, to_farm_id, from_store_id, to_store_id, to_char(moved_on, 'YYYY-MM-DD') AS moved_on, reference, note, lines, status, version
         FROM material_handover_requests h
        WHERE id = ${p.add(id)} AND (${farmScope(user, p, 'h.from_farm_id', 'read')} OR ${farmScope(user, p, 'h.to_farm_id', 'read')}) FOR UPDATE`,
      p.values,
    );
    const row = rows[0];
    if (!row) throw notFound();
    // Seen is not enough: the move needs the write scope of its side's farm.
    const sideFarm = tr.side === 'receiver' ? row.to_farm_id : row.from_farm_id;
    const q = new Params();
    const { rows: writable } = await tx.query(`SELECT 1 FROM organisations o WHERE o.id = ${q.add(sideFarm)} AND ${farmScope(user, q, 'o.id')}`, q.values);
    if (!writable[0]) throw forbidden();
    if (row.status !== 'requested') throw business('handover.notWaiting', { number: handOverNumber(id) });
    if (body.version !== undefined && body.version !== row.version) throw invalidInput([{ field: 'version', message: t(lang, 'handover.stale', { number: handOverNumber(id) }) }], lang);
    const changes: Record<string, unknown> = { number: handOverNumber(id), farmId: sideFarm, fromFarmId: Number(row.from_farm_id), toFarmId: Number(row.to_farm_id), status: { from: row.status, to: tr.to } };
    let handoverId: number | null = null;
    if (name === 'accept') {
      const given = await this.ledger.storeById(tx, Number(row.from_store_id));
      if (!given) throw invalidInput([{ field: 'storeId', message: t(lang, 'materials.storeMissing') }], lang);
      const moved = await this.ledger.handOver(
        tx,
        req,
        user,
        {
          storeId: Number(row.from_store_id),
          toStoreId: Number(row.to_store_id),
          movedOn: body.movedOn ?? row.moved_on,
          reference: row.reference ?? handOverNumber(id),
          note: row.note ?? undefined,
          lines: row.lines,
        },
        given,
      );
      const { rows: h } = await tx.query<{ id: number }>('SELECT id FROM material_handovers WHERE out_movement_id = $1', [moved.outId]);
      handoverId = Number(h[0].id);
      changes.stockOut = movementNumber('out', moved.outId);
      changes.stockIn = movementNumber('in', moved.inId);
    }
    const reason = body.reason?.trim() || null;
    if (reason) changes.reason = reason;
    await tx.query(
      `UPDATE material_handover_requests SET status = $2, reason = coalesce($3, reason), handover_id = $4, version = version + 1, decided_by = $5, decided_at = now() WHERE id = $1`,
      [id, tr.to, reason, handoverId, user.id],
    );
    await audit(tx, req, { action: `materialHandovers.${name}`, resource: 'materialHandovers', recordId: id, changes });
    return id;
  }

  /** The requests the caller's farms give (`mine`) or receive (`toMe`), newest first. */
  async page(db: Queryable, user: SessionUser, q: { side: 'mine' | 'toMe'; status?: HandOverState; pageIndex: number; pageSize: number; only?: number }): Promise<Page<Record<string, unknown>>> {
    const p = new Params();
    const where = [farmScope(user, p, q.side === 'mine' ? 'h.from_farm_id' : 'h.to_farm_id', 'read')];
    if (q.status) where.push(`h.status = ${p.add(q.status)}`);
    if (q.only !== undefined) where.push(`h.id = ${p.add(q.only)}`);
    const cond = where.join(' AND ');
    const { rows: count } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM material_handover_requests h WHERE ${cond}`, p.values);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT h.id, h.from_farm_id, ff.name AS from_farm, h.to_farm_id, tf.name AS to_farm, h.from_store_id, fs.data->>'name' AS from_store,
              h.to_store_id, ts.data->>'name' AS to_store, to_char(h.moved_on, 'YYYY-MM-DD') AS moved_on, h.reference, h.note, h.lines,
              h.status, h.reason, h.version, mh.out_movement_id, mh.in_movement_id, h.created_at
         FROM material_handover_requests h
         JOIN organisations ff ON ff.id = h.from_farm_id JOIN organisations tf ON tf.id = h.to_farm_id
         LEFT JOIN resource_records fs ON fs.resource = 'farmStores' AND fs.id = h.from_store_id
         LEFT JOIN resource_records ts ON ts.resource = 'farmStores' AND ts.id = h.to_store_id
         LEFT JOIN material_handovers mh ON mh.id = h.handover_id
        WHERE ${cond} ORDER BY h.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
      p.values,
    );
    return pageOf(rows.map(view), count[0].n, q.pageIndex, q.pageSize);
  }
}

function view(r: Record<string, unknown>): Record<string, unknown> {
  const id = Number(r.id);
  return {
    id,
    number: handOverNumber(id),
    fromFarmId: Number(r.from_farm_id),
    fromFarm: r.from_farm,
    toFarmId: Number(r.to_farm_id),
    toFarm: r.to_farm,
    storeId: Number(r.from_store_id),
    store: r.from_store,
    toStoreId: Number(r.to_store_id),
    toStore: r.to_store,
    movedOn: r.moved_on,
    reference: r.reference,
    note: r.note,
    lines: r.lines,
    status: r.status,
    reason: r.reason,
    version: r.version,
    stockOut: r.out_movement_id == null ? null : movementNumber('out', Number(r.out_movement_id)),
    stockIn: r.in_movement_id == null ? null : movementNumber('in', Number(r.in_movement_id)),
    createdAt: new Date(String(r.created_at)).toISOString(),
  };
}
