/**
 * The stock ledger: stock-in, stock-out and reversal, each one database transaction.
 *
 * Invariants (docs/materials.md):
 * - stock of a (store, material, batch) is the sum of its confirmed movements, kept in
 *   `material_balances` by the same transaction that writes the movement;
 * - no balance goes below zero, also under concurrency: a draw locks the balance rows it
 *   touches in one stable order (material, batch), checks them, then takes each line with a
 *   conditional update (`quantity >= wanted`); CHECK (quantity >= 0) is the last guard;
 * - a movement is never updated or deleted (this module has no such statement); a mistake
 *   is corrected by a reversing movement naming the one it reverses, once only.
 * Every store, material, supplier, group and task must be of the store's farm, and the store
 * of the caller's scope: anything else answers as missing.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmOwnerScope, type ScopeMode } from '../auth/region-scope.ts';
import { audit } from '../audit/log.ts';
import { notFound, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { invalidInput } from '../resources/validation.ts';
import { farmRecordTarget, referable } from '../resources/references.ts';
import { movementNumber } from './numbers.ts';
import { addDecimal, compareDecimal, decimalPlaces, numberText, subtractDecimal } from './decimal.ts';
import './messages.ts';
import './order-messages.ts';

export interface LineInput {
  materialId: number;
  batch?: string;
  quantity: number;
  unitPrice?: number;
  producedOn?: string;
  expiresOn?: string;
}

export interface MovementInput {
  storeId: number;
  movedOn: string;
  supplierId?: number;
  purpose?: string;
  reference?: string;
  groupId?: number;
  taskId?: number;
  note?: string;
  lines: LineInput[];
}

export type Direction = 'in' | 'out';

interface HandOverTarget {
  id: number;
  farm_id: number;
  name: string;
  farm_name: string;
  from_name: string;
  same_bloc: boolean;
}

export interface Owned {
  id: number;
  farmId: number;
  data: Record<string, unknown>;
}

/** A line as stored: decimals travel as strings so that nothing is rounded on the way. */
interface StoredLine {
  lineNo: number;
  materialId: number;
  batch: string;
  quantity: string;
  unitPrice: string | null;
  /** Set for the lines of a reversal of a stock-out: they come back at the cost they left with. */
  amount?: string;
  producedOn: string | null;
  expiresOn: string | null;
  /**
   * A stock-out line that named no batch: drawn first-expired-first-out over the material's
   * batches in the store (docs/materials.md, "Which batch a draw takes"). Lines read back
   * from stored movements (a reversal) never set it: they take exactly their batch.
   */
  anyBatch?: boolean;
}

interface Header {
  farmId: number;
  direction: Direction;
  storeId: number;
  movedOn: string;
  supplierId: number | null;
  purpose: string | null;
  reference: string | null;
  groupId: number | null;
  taskId: number | null;
  note: string | null;
  reversesId: number | null;
}

const QUANTITY_DECIMALS = 3;
const PRICE_DECIMALS = 4;

function refuse(errors: FieldError[], lang: Lang): never {
  throw invalidInput(errors, lang);
}

/**
 * Scope of the caller over farm-owned rows, as the resource engine's farm scope: the strict
 * write scope unless a read path asks for 'read' (a center's region, auth/region-scope.ts).
 */
export function farmScope(user: SessionUser, p: Params, column: string, mode: ScopeMode = 'write'): string {
  return farmOwnerScope(user, p, column, mode);
}

export class MaterialsLedger {
  /** A resource record of the caller's scope, or null. */
  async storeInScope(db: Queryable, user: SessionUser, storeId: number, lock = ''): Promise<Owned | null> {
    const p = new Params();
    const { rows } = await db.query<{ id: number; farm_id: number; data: Record<string, unknown> }>(
      `SELECT id, farm_id, data FROM resource_records WHERE resource = 'farmStores' AND id = ${p.add(storeId)} AND ${farmScope(user, p, 'farm_id')} ${lock}`,
      p.values,
    );
    return rows[0] ? { id: Number(rows[0].id), farmId: Number(rows[0].farm_id), data: rows[0].data } : null;
  }

  /** Records of `resource` with these ids that a record of `farmId` may name (its own), by id. */
  async ofFarm(db: Queryable, resource: string, farmId: number, ids: number[]): Promise<Map<number, Owned>> {
    // The engine's reference rule (resources/references.ts): only the farm's own records.
    const found = await referable(db, farmRecordTarget(resource), { farmId, blocId: null }, ids);
    return new Map([...found].map(([id, r]) => [id, { id, farmId, data: r.data }]));
  }

  /** Checks the body beyond its JSON Schema: decimals, dates, and that every reference is the store's farm's. */
  private async checkInput(tx: Queryable, user: SessionUser, lang: Lang, input: MovementInput, direction: Direction, given?: Owned) {
    const errors: FieldError[] = [];
    input.lines.forEach((line, i) => {
      if (decimalPlaces(line.quantity) > QUANTITY_DECIMALS) errors.push({ field: `lines.${i}.quantity`, message: t(lang, 'materials.decimals', { digits: QUANTITY_DECIMALS }) });
      if (line.unitPrice !== undefined && decimalPlaces(line.unitPrice) > PRICE_DECIMALS) errors.push({ field: `lines.${i}.unitPrice`, message: t(lang, 'materials.decimals', { digits: PRICE_DECIMALS }) });
      if (line.producedOn && line.expiresOn && line.expiresOn < line.producedOn) errors.push({ field: `lines.${i}.expiresOn`, message: t(lang, 'materials.expiryBeforeProduction') });
    });
    const store = given ?? (await this.storeInScope(tx, user, input.storeId));
    if (!store) refuse([{ field: 'storeId', message: t(lang, 'materials.storeMissing') }, ...errors], lang);
    const materials = await this.ofFarm(tx, 'farmMaterials', store.farmId, input.lines.map((l) => l.materialId));
    input.lines.forEach((line, i) => {
      if (!materials.has(line.materialId)) errors.push({ field: `lines.${i}.materialId`, message: t(lang, 'materials.materialMissing') });
    });
    if (input.supplierId !== undefined && !(await this.ofFarm(tx, 'farmMaterialsSupplier', store.farmId, [input.supplierId])).size) {
      errors.push({ field: 'supplierId', message: t(lang, 'materials.supplierMissing') });
    }
    if (direction === 'out') {
      const group = input.groupId === undefined ? null : (await this.ofFarm(tx, 'plantGroups', store.farmId, [input.groupId])).get(input.groupId);
      if (input.groupId !== undefined && !group) errors.push({ field: 'groupId', message: t(lang, 'materials.groupMissing') });
      if (input.taskId !== undefined) {
        const task = (await this.ofFarm(tx, 'farmingTasks', store.farmId, [input.taskId])).get(input.taskId);
        if (!task) errors.push({ field: 'taskId', message: t(lang, 'materials.taskMissing') });
        else if (group && Number(task.data.groupId) !== group.id) errors.push({ field: 'taskId', message: t(lang, 'materials.taskOfOtherGroup') });
      }
    }
    if (errors.length) refuse(errors, lang);
    return { store, materials };
  }

  async stockIn(tx: Queryable, req: FastifyRequest, user: SessionUser, input: MovementInput): Promise<number> {
    const { store } = await this.checkInput(tx, user, req.lang, input, 'in');
    const lines = input.lines.map((l, i) => storedLine(l, i + 1));
    return this.postIn(tx, req, header(store.farmId, 'in', input), lines, 'stockIn');
  }

  async stockOut(tx: Queryable, req: FastifyRequest, user: SessionUser, input: MovementInput): Promise<number> {
    const { store, materials } = await this.checkInput(tx, user, req.lang, input, 'out');
    const lines = input.lines.map((l, i) => storedLine(l, i + 1));
    return this.postOut(tx, req, header(store.farmId, 'out', input), lines, 'stockOut', (i) => `lines.${i}`, store, materials);
  }

  /**
   * What a hand-over request is checked against before anything moves: the lines as a
   * stock-out of the caller's store, and a receiving store of another farm of the same bloc.
   */
  async checkHandOver(tx: Queryable, user: SessionUser, lang: Lang, input: MovementInput & { toStoreId: number }): Promise<{ store: Owned; to: HandOverTarget }> {
    const { toStoreId, ...out } = input;
    const { store } = await this.checkInput(tx, user, lang, { ...out, groupId: undefined, taskId: undefined }, 'out');
    return { store, to: await this.handOverTarget(tx, lang, store, toStoreId) };
  }

  /** The receiving store of a hand-over from `store`: another farm's of the same bloc, else 40001 on toStoreId. */
  private async handOverTarget(tx: Queryable, lang: Lang, store: Owned, toStoreId: number): Promise<HandOverTarget> {
    const { rows: target } = await tx.query<HandOverTarget>(
      `SELECT s.id, s.farm_id, s.data->>'name' AS name, tf.name AS farm_name, ff.name AS from_name,
              (tf.bloc_id IS NOT NULL AND tf.bloc_id = ff.bloc_id) AS same_bloc
         FROM resource_records s JOIN organisations tf ON tf.id = s.farm_id JOIN organisations ff ON ff.id = $2
        WHERE s.resource = 'farmStores' AND s.id = $1`,
      [toStoreId, store.farmId],
    );
    const to = target[0];
    if (!to || !to.same_bloc) refuse([{ field: 'toStoreId', message: t(lang, 'handover.toStoreMissing') }], lang);
    if (Number(to.farm_id) === store.farmId) refuse([{ field: 'toStoreId', message: t(lang, 'handover.sameFarm') }], lang);
    return to;
  }

  /** The giving store of an accepted hand-over request, whoever accepts it (locked). */
  async storeById(tx: Queryable, storeId: number): Promise<Owned | null> {
    const { rows } = await tx.query<{ id: number; farm_id: number; data: Record<string, unknown> }>(
      `SELECT id, farm_id, data FROM resource_records WHERE resource = 'farmStores' AND id = $1 FOR SHARE`,
      [storeId],
    );
    return rows[0] ? { id: Number(rows[0].id), farmId: Number(rows[0].farm_id), data: rows[0].data } : null;
  }

  /**
   * Posts a hand-over to another farm of the group: a stock-out from the giving store and a
   * stock-in at the other farm's store, in this one transaction (both or neither). Only on
   * the receiving farm's consent: its acceptance of a request (handover-requests.ts) or its
   * request on the market (share.ts); `given` is the giving store when the receiving farm
   * accepts (the store is not in its scope). The goods keep their batch, dates and the cost
   * they left with; the receiving farm's material is the one with the same goods code, and
   * the stock-in's checks run after the stock-out has been posted, so a refusal there undoes
   * the stock-out too. Returns both ids.
   */
  async handOver(tx: Queryable, req: FastifyRequest, user: SessionUser, input: MovementInput & { toStoreId: number }, given?: Owned): Promise<{ outId: number; inId: number }> {
    const lang = req.lang;
    const { toStoreId, ...out } = input;
    const { store, materials } = await this.checkInput(tx, user, lang, { ...out, groupId: undefined, taskId: undefined }, 'out', given);
    const to = await this.handOverTarget(tx, lang, store, toStoreId);
    const lines = out.lines.map((l, i) => storedLine(l, i + 1));
    // Hand-overs between the same two farms, in either direction, one at a time: each locks
    // the giving farm's balance rows, then the receiving farm's, so two in opposite
    // directions would take them in opposite orders (a deadlock on PostgreSQL). One lock per
    // pair of farms, taken first, orders them.
    const pair = [store.farmId, Number(to.farm_id)].sort((a, b) => a - b);
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('materials.handOver:' || $1::text || ':' || $2::text))`, [pair[0], pair[1]]);
    const outHead: Header = { ...header(store.farmId, 'out', out), purpose: t(lang, 'handover.out', { farm: to.farm_name }) };
    const outId = await this.postOut(tx, req, outHead, lines, 'handOverOut', (i) => `lines.${i}`, store, materials);
    // The receiving farm's materials, by goods code.
    const codes = out.lines.map((l) => String(materials.get(l.materialId)?.data.goodsCode ?? ''));
    const { rows: theirs } = await tx.query<{ id: number; code: string }>(
      `SELECT id, data->>'goodsCode' AS code FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 AND data->>'goodsCode' = ANY($2::text[])`,
      [to.farm_id, codes],
    );
    const byCode = new Map(theirs.map((r) => [r.code, Number(r.id)]));
    const missing = codes.map((code, i) => ({ code, i })).filter(({ code }) => !byCode.has(code));
    if (missing.length) refuse(missing.map(({ code, i }) => ({ field: `lines.${i}.materialId`, message: t(lang, 'handover.noMaterialThere', { code }) })), lang);
    const { rows: left } = await tx.query<{ line_no: number; material_id: number; batch: string; quantity: string; unit_price: string; amount: string; produced_on: string | null; expires_on: string | null }>(
      `SELECT line_no, material_id, batch, quantity::text AS quantity, unit_price::text AS unit_price, amount::text AS amount,
              to_char(produced_on, 'YYYY-MM-DD') AS produced_on, to_char(expires_on, 'YYYY-MM-DD') AS expires_on
         FROM material_movement_lines WHERE movement_id = $1 ORDER BY line_no`,
      [outId],
    );
    const inLines: StoredLine[] = left.map((l) => ({
      lineNo: l.line_no,
      materialId: byCode.get(codes[l.line_no - 1])!,
      batch: l.batch,
      quantity: l.quantity,
      unitPrice: l.unit_price,
      amount: l.amount,
      producedOn: l.produced_on,
      expiresOn: l.expires_on,
    }));
    const inHead: Header = {
      farmId: Number(to.farm_id),
      direction: 'in',
      storeId: Number(to.id),
      movedOn: out.movedOn,
      supplierId: null,
      purpose: t(lang, 'handover.in', { farm: to.from_name }),
      reference: movementNumber('out', outId),
      groupId: null,
      taskId: null,
      note: out.note ?? null,
      reversesId: null,
    };
    const inId = await this.postIn(tx, req, inHead, inLines, 'handOverIn');
    await tx.query('INSERT INTO material_handovers(from_farm_id, to_farm_id, out_movement_id, in_movement_id, created_by) VALUES ($1, $2, $3, $4, $5)', [
      store.farmId,
      to.farm_id,
      outId,
      inId,
      user.id,
    ]);
    return { outId, inId };
  }

  /**
   * Posts the reversal of movement `id` (of the caller's scope): the same lines the other
   * way. A stock-in's reversal draws like any stock-out (refused when the stock was used);
   * a stock-out's comes back at the cost it left with.
   */
  async reverse(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number, note: string | undefined): Promise<number> {
    const lang = req.lang;
    const p = new Params();
    // The original is locked: two reversals of it at once are serialised here (and the
    // UNIQUE reverses_id refuses the second if they were not).
    const { rows } = await tx.query<{ id: number; farm_id: number; direction: Direction; store_id: number; moved_on: string; supplier_id: number | null; group_id: number | null; task_id: number | null; reverses_id: number | null }>(
      `SELECT id, farm_id, direction, store_id, to_char(moved_on, 'YYYY-MM-DD') AS moved_on, supplier_id, group_id, task_id, reverses_id
         FROM material_movements WHERE id = ${p.add(id)} AND ${farmScope(user, p, 'farm_id')} FOR UPDATE`,
      p.values,
    );
    const original = rows[0];
    if (!original) throw notFound();
    if (original.reverses_id !== null) refuse([{ field: 'id', message: t(lang, 'materials.reversalNotReversed') }], lang);
    // A receipt's stock-in is the order's, a hand-over's movements are one pair: reversing
    // one alone would leave the order received or the other farm's half standing.
    const tied = await tx.query<{ kind: string; number: string }>(
      `SELECT 'receipt' AS kind, 'FH' || lpad(id::text, 6, '0') AS number FROM purchase_shipments WHERE received_movement_id = $1
       UNION ALL SELECT 'handOver', '' FROM material_handovers WHERE out_movement_id = $1 OR in_movement_id = $1`,
      [id],
    );
    if (tied.rows[0]) {
      const key = tied.rows[0].kind === 'receipt' ? 'materials.receiptNotReversed' : 'materials.handOverNotReversed';
      refuse([{ field: 'id', message: t(lang, key, { number: tied.rows[0].number }) }], lang);
    }
    const done = await tx.query<{ id: number; direction: Direction }>('SELECT id, direction FROM material_movements WHERE reverses_id = $1', [id]);
    if (done.rows[0]) refuse([{ field: 'id', message: t(lang, 'materials.alreadyReversed', { number: movementNumber(done.rows[0].direction, Number(done.rows[0].id)) }) }], lang);
    const lines = await tx.query<{ line_no: number; material_id: number; batch: string; quantity: string; unit_price: string; amount: string; produced_on: string | null; expires_on: string | null }>(
      `SELECT line_no, material_id, batch, quantity::text AS quantity, unit_price::text AS unit_price, amount::text AS amount,
              to_char(produced_on, 'YYYY-MM-DD') AS produced_on, to_char(expires_on, 'YYYY-MM-DD') AS expires_on
         FROM material_movement_lines WHERE movement_id = $1 ORDER BY line_no`,
      [id],
    );
    const direction: Direction = original.direction === 'in' ? 'out' : 'in';
    const head: Header = {
      farmId: Number(original.farm_id),
      direction,
      storeId: Number(original.store_id),
      movedOn: today(),
      supplierId: original.supplier_id === null ? null : Number(original.supplier_id),
      purpose: t(lang, 'materials.reversalOf', { number: movementNumber(original.direction, Number(original.id)) }),
      reference: movementNumber(original.direction, Number(original.id)),
      groupId: original.group_id === null ? null : Number(original.group_id),
      taskId: original.task_id === null ? null : Number(original.task_id),
      note: note ?? null,
      reversesId: Number(original.id),
    };
    const stored: StoredLine[] = lines.rows.map((l) => ({
      lineNo: l.line_no,
      materialId: Number(l.material_id),
      batch: l.batch,
      quantity: l.quantity,
      unitPrice: l.unit_price,
      ...(direction === 'in' ? { amount: l.amount } : {}),
      producedOn: l.produced_on,
      expiresOn: l.expires_on,
    }));
    if (direction === 'in') return this.postIn(tx, req, head, stored, 'reverse');
    const store = await this.storeInScope(tx, user, head.storeId);
    if (!store) throw notFound();
    const materials = await this.ofFarm(tx, 'farmMaterials', head.farmId, stored.map((l) => l.materialId));
    return this.postOut(tx, req, head, stored, 'reverse', (i) => `lines.${i}`, store, materials);
  }

  private async insertHeader(tx: Queryable, req: FastifyRequest, h: Header): Promise<number> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, supplier_id, purpose, reference, group_id, task_id, note, reverses_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
      [h.farmId, h.direction, h.storeId, h.movedOn, h.supplierId, h.purpose, h.reference, h.groupId, h.taskId, h.note, h.reversesId, req.user?.id ?? null],
    );
    return Number(rows[0].id);
  }

  private async postIn(tx: Queryable, req: FastifyRequest, h: Header, lines: StoredLine[], action: string): Promise<number> {
    const id = await this.insertHeader(tx, req, h);
    // Amount = quantity × unit price rounded to the fen, computed by the database (exact).
    await tx.query(
      `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on)
       SELECT $1, (l->>'lineNo')::int, (l->>'materialId')::bigint, l->>'batch', (l->>'quantity')::numeric, coalesce((l->>'unitPrice')::numeric, 0),
              coalesce((l->>'amount')::numeric, round((l->>'quantity')::numeric * coalesce((l->>'unitPrice')::numeric, 0), 2)),
              (l->>'producedOn')::date, (l->>'expiresOn')::date
         FROM jsonb_array_elements($2::jsonb) AS l`,
      [id, JSON.stringify(lines)],
    );
    // One upsert per (material, batch), in one stable order: two stock-ins of the same
    // materials lock the same rows in the same order and never deadlock.
    await tx.query(
      `INSERT INTO material_balances(farm_id, store_id, material_id, batch, quantity, value, produced_on, expires_on)
       SELECT $2, $3, material_id, batch, sum(quantity), sum(amount), min(produced_on), min(expires_on)
         FROM material_movement_lines WHERE movement_id = $1 GROUP BY material_id, batch ORDER BY material_id, batch
       ON CONFLICT (store_id, material_id, batch) DO UPDATE
         SET quantity = material_balances.quantity + excluded.quantity,
             value = material_balances.value + excluded.value,
             produced_on = coalesce(excluded.produced_on, material_balances.produced_on),
             expires_on = coalesce(excluded.expires_on, material_balances.expires_on),
             updated_at = now()`,
      [id, h.farmId, h.storeId],
    );
    await this.audit(tx, req, id, h, action);
    return id;
  }

  private async postOut(
    tx: Queryable,
    req: FastifyRequest,
    h: Header,
    lines: StoredLine[],
    action: string,
    field: (index: number) => string,
    store: Owned,
    materials: Map<number, Owned>,
  ): Promise<number> {
    const lang = req.lang;
    // Lock every balance row the draw may touch, in one stable order, before reading them:
    // the named batches, and every batch of a material a line draws without naming one.
    const named = [...new Map(lines.filter((l) => !l.anyBatch).map((l) => [`${l.materialId}\u0000${l.batch}`, l])).values()].sort(byKey);
    const anyOf = [...new Set(lines.filter((l) => l.anyBatch).map((l) => l.materialId))];
    const locked = await tx.query<{ material_id: number; batch: string; quantity: string; produced_on: string | null; expires_on: string | null }>(
      `SELECT material_id, batch, quantity::text AS quantity, to_char(produced_on, 'YYYY-MM-DD') AS produced_on, to_char(expires_on, 'YYYY-MM-DD') AS expires_on
         FROM material_balances
        WHERE store_id = $1 AND ((material_id, batch) IN (SELECT * FROM unnest($2::bigint[], $3::text[])) OR material_id = ANY($4::bigint[]))
        ORDER BY material_id, batch FOR UPDATE`,
      [h.storeId, named.map((k) => k.materialId), named.map((k) => k.batch), anyOf],
    );
    const left = new Map(locked.rows.map((r) => [`${Number(r.material_id)}\u0000${r.batch}`, subtractDecimal(r.quantity, 0)]));
    // First expired, first out: the earliest expiry, then the earliest production, then the
    // batch's name; batches without an expiry (and the unbatched stock) last.
    const fefo = (materialId: number) =>
      locked.rows
        .filter((r) => Number(r.material_id) === materialId)
        .sort((a, b) => byDate(a.expires_on, b.expires_on) || byDate(a.produced_on, b.produced_on) || (a.batch < b.batch ? -1 : a.batch > b.batch ? 1 : 0));
    const errors: FieldError[] = [];
    const notEnough = (i: number, line: StoredLine, available: string) => {
      const m = materials.get(line.materialId);
      errors.push({
        field: `${field(i)}.quantity`,
        message: t(lang, 'materials.notEnough', {
          store: String(store.data.name ?? ''),
          material: String(m?.data.name ?? line.materialId),
          batch: line.batch && !line.anyBatch ? t(lang, 'materials.batchOf', { batch: line.batch }) : '',
          left: available,
          wanted: line.quantity,
          unit: String(m?.data.unit ?? ''),
        }),
      });
    };
    // The lines as drawn: a named batch as it is; a line without one split over the batches
    // it takes. Named batches are served first, so a line without one takes what they leave.
    const drawn = new Map<number, StoredLine[]>();
    lines.forEach((line, i) => {
      if (line.anyBatch) return;
      const key = `${line.materialId}\u0000${line.batch}`;
      const available = left.get(key) ?? '0';
      if (compareDecimal(line.quantity, available) > 0) {
        notEnough(i, line, available);
        left.set(key, '0');
      } else {
        left.set(key, subtractDecimal(available, line.quantity));
        drawn.set(i, [line]);
      }
    });
    lines.forEach((line, i) => {
      if (!line.anyBatch) return;
      const batches = fefo(line.materialId);
      const keyOf = (b: { material_id: number; batch: string }) => `${Number(b.material_id)}\u0000${b.batch}`;
      const total = batches.reduce((sum, b) => addDecimal(sum, left.get(keyOf(b)) ?? '0'), '0');
      if (compareDecimal(line.quantity, total) > 0) {
        notEnough(i, line, total);
        for (const b of batches) left.set(keyOf(b), '0');
        return;
      }
      let wanted = line.quantity;
      const parts: StoredLine[] = [];
      for (const b of batches) {
        if (compareDecimal(wanted, '0') <= 0) break;
        const available = left.get(keyOf(b)) ?? '0';
        if (compareDecimal(available, '0') <= 0) continue;
        const take = compareDecimal(wanted, available) > 0 ? available : wanted;
        left.set(keyOf(b), subtractDecimal(available, take));
        wanted = subtractDecimal(wanted, take);
        parts.push({ ...line, batch: b.batch, quantity: take, anyBatch: false });
      }
      drawn.set(i, parts);
    });
    if (errors.length) refuse(errors, lang);
    let lineNo = 0;
    const taken = lines.flatMap((_, i) => drawn.get(i) ?? []).map((l) => ({ ...l, lineNo: ++lineNo }));
    const id = await this.insertHeader(tx, req, h);
    // Each line: a conditional update of its (already locked) balance row, lines in the
    // same stable order. The value leaves at the batch's average cost; the last unit takes
    // what is left of the value, so a batch drawn to zero is worth exactly zero.
    const order = taken.map((l) => ({ l })).sort((a, b) => byKey(a.l, b.l) || a.l.lineNo - b.l.lineNo);
    for (const { l } of order) {
      const { rows } = await tx.query<{ amount: string; unit_price: string; produced_on: string | null; expires_on: string | null }>(
        `UPDATE material_balances b
            SET quantity = b.quantity - $4::numeric,
                value = CASE WHEN b.quantity = $4::numeric THEN 0 ELSE b.value - round(b.value * $4::numeric / b.quantity, 2) END,
                updated_at = now()
           FROM (SELECT quantity AS q0, value AS v0 FROM material_balances WHERE store_id = $1 AND material_id = $2 AND batch = $3) o
          WHERE b.store_id = $1 AND b.material_id = $2 AND b.batch = $3 AND b.quantity >= $4::numeric
          RETURNING (o.v0 - b.value)::text AS amount, round(o.v0 / o.q0, 4)::text AS unit_price,
                    to_char(b.produced_on, 'YYYY-MM-DD') AS produced_on, to_char(b.expires_on, 'YYYY-MM-DD') AS expires_on`,
        [h.storeId, l.materialId, l.batch, l.quantity],
      );
      // Unreachable while the rows are locked above; kept as the guarantee it states.
      if (!rows[0]) throw new Error(`balance of store ${h.storeId}, material ${l.materialId} changed under its lock`);
      const r = rows[0];
      await tx.query(
        `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on)
         VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, $7::numeric, $8, $9)`,
        [id, l.lineNo, l.materialId, l.batch, l.quantity, r.unit_price, r.amount, l.producedOn ?? r.produced_on, l.expiresOn ?? r.expires_on],
      );
    }
    await this.audit(tx, req, id, h, action);
    return id;
  }

  private async audit(tx: Queryable, req: FastifyRequest, id: number, h: Header, action: string) {
    const { rows } = await tx.query<{ material_id: number; batch: string; quantity: string; amount: string }>(
      'SELECT material_id, batch, quantity::text AS quantity, amount::text AS amount FROM material_movement_lines WHERE movement_id = $1 ORDER BY line_no',
      [id],
    );
    await audit(tx, req, {
      action: `materialMovements.${action}`,
      resource: 'materialMovements',
      recordId: id,
      changes: {
        number: movementNumber(h.direction, id),
        farmId: h.farmId,
        direction: h.direction,
        storeId: h.storeId,
        movedOn: h.movedOn,
        ...(h.reversesId ? { reversesId: h.reversesId } : {}),
        lines: rows.map((r) => ({ materialId: Number(r.material_id), batch: r.batch, quantity: r.quantity, amount: r.amount })),
      },
    });
  }
}

/** Dates as YYYY-MM-DD text, earliest first, none last. */
function byDate(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function byKey(a: { materialId: number; batch: string }, b: { materialId: number; batch: string }): number {
  return a.materialId - b.materialId || (a.batch < b.batch ? -1 : a.batch > b.batch ? 1 : 0);
}

function storedLine(l: LineInput, lineNo: number): StoredLine {
  return {
    lineNo,
    materialId: l.materialId,
    batch: (l.batch ?? '').trim(),
    anyBatch: !(l.batch ?? '').trim(),
    quantity: numberText(l.quantity),
    unitPrice: l.unitPrice === undefined ? null : numberText(l.unitPrice),
    producedOn: l.producedOn ?? null,
    expiresOn: l.expiresOn ?? null,
  };
}

function header(farmId: number, direction: Direction, input: MovementInput): Header {
  return {
    farmId,
    direction,
    storeId: input.storeId,
    movedOn: input.movedOn,
    supplierId: direction === 'in' ? (input.supplierId ?? null) : null,
    purpose: input.purpose ?? null,
    reference: input.reference ?? null,
    groupId: direction === 'out' ? (input.groupId ?? null) : null,
    taskId: direction === 'out' ? (input.taskId ?? null) : null,
    note: input.note ?? null,
    reversesId: null,
  };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}
