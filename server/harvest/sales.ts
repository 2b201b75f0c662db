/**
 * The writes of harvest and sales, each one database transaction (docs/harvest-sales-trace.md).
 *
 * Invariants:
 * - a batch is never sold beyond what was harvested: an order locks the batch rows it draws
 *   from in one stable order (batch id), checks every line against what is left (lines of the
 *   same batch add up), then takes each with a conditional update (`sold + wanted <=
 *   quantity`); the table's CHECK (sold <= quantity) is the last guard;
 * - a confirmed order is not edited; it is cancelled, which gives its quantities back and
 *   posts the reversal of its income in the same transaction;
 * - every sale posts its income (one entry per crop, so profit by crop adds up) in the same
 *   transaction as the order;
 * - everything named by a write is of the caller's scope and of one farm; anything else is
 *   answered as missing.
 */
import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { audit } from '../audit/log.ts';
import { forbidden, notFound, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { invalidInput } from '../resources/validation.ts';
import { compareDecimal, decimalPlaces, numberText, subtractDecimal } from '../materials/decimal.ts';
import { farmScope } from '../materials/ledger.ts';
import { farmRecordTarget, referable } from '../resources/references.ts';
import { batchNumber, EXPENSE_CATEGORIES, INCOME_CATEGORIES, salesOrderNumber } from './numbers.ts';
import './messages.ts';
import { applicationsBefore, insideIntervals } from './safety.ts';
import { RELEASE_ELEMENT, releaseNote, releaseOf, releaseStates } from './release.ts';

export interface HarvestInput {
  groupId: number;
  harvestedOn: string;
  quantity: number;
  unit: string;
  grade: string;
  note?: string;
  /** Harvesting inside a safety interval anyway: why (needs farmHarvestIndex:safetyOverride). */
  safetyOverrideReason?: string;
}

export const SAFETY_OVERRIDE_ELEMENT = 'farmHarvestIndex:safetyOverride';

export interface SaleLineInput {
  harvestId: number;
  productId?: number;
  quantity: number;
  unitPrice: number;
}

export interface SaleInput {
  customer: string;
  customerPhone?: string;
  orderedOn: string;
  note?: string;
  lines: SaleLineInput[];
}

export interface EntryInput {
  entryOn: string;
  direction: 'income' | 'expense';
  category: string;
  amount: number;
  crop?: string;
  note?: string;
}

const refuse = (errors: FieldError[], lang: Lang): never => {
  throw invalidInput(errors, lang);
};

/** A planting group of the caller's scope with its crop's name, or null. */
export async function groupInScope(db: Queryable, user: SessionUser, groupId: number) {
  const p = new Params();
  const { rows } = await db.query<{ id: number; farm_id: number; name: string; crop: string | null }>(
    `SELECT g.id, g.farm_id, g.data->>'name' AS name, c.data->>'name' AS crop
       FROM resource_records g LEFT JOIN resource_records c ON c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint
      WHERE g.resource = 'plantGroups' AND g.id = ${p.add(groupId)} AND ${farmScope(user, p, 'g.farm_id')}`,
    p.values,
  );
  return rows[0] ? { id: Number(rows[0].id), farmId: Number(rows[0].farm_id), name: rows[0].name, crop: rows[0].crop } : null;
}

export async function createHarvest(tx: Queryable, req: FastifyRequest, user: SessionUser, input: HarvestInput): Promise<number> {
  const lang = req.lang;
  const errors: FieldError[] = [];
  if (decimalPlaces(input.quantity) > 3) errors.push({ field: 'quantity', message: t(lang, 'harvest.decimals', { digits: 3 }) });
  const group = await groupInScope(tx, user, input.groupId);
  if (!group) errors.unshift({ field: 'groupId', message: t(lang, 'harvest.groupMissing') });
  if (errors.length || !group) return refuse(errors, lang);
  // Safety intervals are checked before anything is written: inside one, the harvest is refused
  // naming the input and the first safe day, unless an override holder says why.
  const applied = (await applicationsBefore(tx, [{ key: 0, groupId: group.id, farmId: group.farmId, harvestedOn: input.harvestedOn }])).get(0) ?? [];
  const inside = insideIntervals(applied);
  const reason = input.safetyOverrideReason?.trim() || null;
  if (inside.length && !reason) {
    return refuse(
      inside.map((a) => ({ field: 'harvestedOn', message: t(lang, 'harvest.insideInterval', { material: a.material, appliedOn: a.appliedOn, days: a.intervalDays ?? 0, safeFrom: a.safeFrom ?? '', number: a.movementNumber }) })),
      lang,
    );
  }
  if (reason && !inside.length) refuse([{ field: 'safetyOverrideReason', message: t(lang, 'harvest.overrideNotNeeded') }], lang);
  if (inside.length && !user.elements.has(SAFETY_OVERRIDE_ELEMENT)) throw forbidden();
  const id = Number((await tx.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('harvests', 'id')) AS id`)).rows[0].id);
  const batchNo = batchNumber(input.harvestedOn, id);
  await tx.query(
    `INSERT INTO harvests(id, farm_id, batch_no, group_id, harvested_on, quantity, unit, grade, note, created_by, safety_override_reason, safety_override_by)
     VALUES ($1, $2, $3, $4, $5, $6::numeric, $7, $8, $9, $10, $11, $12)`,
    [id, group.farmId, batchNo, group.id, input.harvestedOn, numberText(input.quantity), input.unit, input.grade, input.note ?? null, user.id, inside.length ? reason : null, inside.length ? user.id : null],
  );
  await audit(tx, req, { action: 'harvests.create', resource: 'harvests', recordId: id, changes: { batchNo, farmId: group.farmId, groupId: group.id, harvestedOn: input.harvestedOn, quantity: numberText(input.quantity), unit: input.unit, grade: input.grade } });
  if (inside.length) {
    await audit(tx, req, {
      action: 'harvests.safetyOverride',
      resource: 'harvests',
      recordId: id,
      changes: { batchNo, reason, intervals: inside.map((a) => ({ movement: a.movementNumber, material: a.material, appliedOn: a.appliedOn, safeFrom: a.safeFrom })) },
    });
  }
  return id;
}

/** Deletes a batch of the caller's scope that has neither sales nor a trace code. */
export async function deleteHarvest(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number): Promise<void> {
  const p = new Params();
  const { rows } = await tx.query<{ batch_no: string; used: boolean }>(
    `SELECT h.batch_no, (EXISTS (SELECT 1 FROM sales_order_lines l WHERE l.harvest_id = h.id) OR EXISTS (SELECT 1 FROM trace_codes c WHERE c.harvest_id = h.id)) AS used
       FROM harvests h WHERE h.id = ${p.add(id)} AND ${farmScope(user, p, 'h.farm_id')} FOR UPDATE`,
    p.values,
  );
  if (!rows[0]) throw notFound();
  if (rows[0].used) refuse([{ field: 'id', message: t(req.lang, 'harvest.batchInUse', { batch: rows[0].batch_no }) }], req.lang);
  await tx.query('DELETE FROM harvests WHERE id = $1', [id]);
  await audit(tx, req, { action: 'harvests.delete', resource: 'harvests', recordId: id, changes: { batchNo: rows[0].batch_no } });
}

interface LockedBatch {
  id: number;
  farm_id: number;
  batch_no: string;
  quantity: string;
  sold: string;
  unit: string;
  crop: string | null;
  recalled: boolean;
}

/** Locks the batches in id order (the stable order that keeps concurrent orders from deadlocking). */
async function lockBatches(tx: Queryable, user: SessionUser, ids: number[]): Promise<Map<number, LockedBatch>> {
  const p = new Params();
  const { rows } = await tx.query<LockedBatch>(
    `SELECT h.id, h.farm_id, h.batch_no, h.quantity::text, h.sold::text, h.unit, h.recalled_at IS NOT NULL AS recalled,
            (SELECT c.data->>'name' FROM resource_records g JOIN resource_records c ON c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint
              WHERE g.resource = 'plantGroups' AND g.id = h.group_id) AS crop
       FROM harvests h WHERE h.id = ANY(${p.add([...new Set(ids)].sort((a, b) => a - b))}::bigint[]) AND ${farmScope(user, p, 'h.farm_id')}
      ORDER BY h.id FOR UPDATE OF h`,
    p.values,
  );
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), farm_id: Number(r.farm_id) }]));
}

export async function createSale(tx: Queryable, req: FastifyRequest, user: SessionUser, input: SaleInput): Promise<number> {
  const lang = req.lang;
  const errors: FieldError[] = [];
  input.lines.forEach((line, i) => {
    if (decimalPlaces(line.quantity) > 3) errors.push({ field: `lines.${i}.quantity`, message: t(lang, 'harvest.decimals', { digits: 3 }) });
    if (decimalPlaces(line.unitPrice) > 2) errors.push({ field: `lines.${i}.unitPrice`, message: t(lang, 'harvest.decimals', { digits: 2 }) });
  });
  if (errors.length) refuse(errors, lang);
  const batches = await lockBatches(tx, user, input.lines.map((l) => l.harvestId));
  const farmId = batches.get(input.lines[0].harvestId)?.farm_id ?? null;
  input.lines.forEach((line, i) => {
    const b = batches.get(line.harvestId);
    if (!b) errors.push({ field: `lines.${i}.harvestId`, message: t(lang, 'harvest.batchMissing') });
    else if (b.farm_id !== farmId) errors.push({ field: `lines.${i}.harvestId`, message: t(lang, 'harvest.otherFarmBatch') });
    else if (b.recalled) errors.push({ field: `lines.${i}.harvestId`, message: t(lang, 'harvest.recalledNotSold', { batch: b.batch_no }) });
  });
  const productIds = input.lines.flatMap((l) => (l.productId === undefined ? [] : [l.productId]));
  if (productIds.length && farmId !== null) {
    const found = await referable(tx, farmRecordTarget('farmProducts'), { farmId, blocId: null }, productIds);
    input.lines.forEach((line, i) => {
      if (line.productId !== undefined && !found.has(line.productId)) errors.push({ field: `lines.${i}.productId`, message: t(lang, 'harvest.productMissing') });
    });
  }
  if (errors.length || farmId === null) return refuse(errors, lang);
  // The release gate: a batch harvested inside a safety interval is not sold until released.
  const releases = await releaseStates(tx, [...batches.keys()]);
  input.lines.forEach((line, i) => {
    const r = releases.get(line.harvestId);
    if (r?.state === 'held') errors.push({ field: `lines.${i}.harvestId`, message: releaseNote(lang, batches.get(line.harvestId)!.batch_no, r) });
  });
  if (errors.length) refuse(errors, lang);
  // Lines of the same batch add up: each line is checked against what the lines before it left.
  const left = new Map([...batches.values()].map((b) => [b.id, subtractDecimal(b.quantity, b.sold)]));
  input.lines.forEach((line, i) => {
    const b = batches.get(line.harvestId)!;
    const remaining = left.get(b.id)!;
    if (compareDecimal(line.quantity, remaining) > 0) {
      errors.push({ field: `lines.${i}.quantity`, message: t(lang, 'harvest.oversold', { batch: b.batch_no, left: trim(remaining), wanted: numberText(line.quantity), unit: b.unit }) });
    } else left.set(b.id, subtractDecimal(remaining, line.quantity));
  });
  if (errors.length) refuse(errors, lang);

  const { rows: orderRows } = await tx.query<{ id: string }>(
    `INSERT INTO sales_orders(farm_id, customer, customer_phone, ordered_on, total, note, created_by) VALUES ($1, $2, $3, $4, 0, $5, $6) RETURNING id`,
    [farmId, input.customer, input.customerPhone ?? null, input.orderedOn, input.note ?? null, user.id],
  );
  const orderId = Number(orderRows[0].id);
  for (const [i, line] of input.lines.entries()) {
    const q = numberText(line.quantity);
    const taken = await tx.query(`UPDATE harvests SET sold = sold + $2::numeric WHERE id = $1 AND sold + $2::numeric <= quantity`, [line.harvestId, q]);
    // Unreachable while the rows are locked and checked above; kept as the rule's guard.
    if (taken.rowCount !== 1) refuse([{ field: `lines.${i}.quantity`, message: t(lang, 'harvest.oversold', { batch: batches.get(line.harvestId)!.batch_no, left: '0', wanted: q, unit: batches.get(line.harvestId)!.unit }) }], lang);
    await tx.query(
      `INSERT INTO sales_order_lines(order_id, line_no, harvest_id, product_id, quantity, unit_price, amount)
       VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, round($5::numeric * $6::numeric, 2))`,
      [orderId, i + 1, line.harvestId, line.productId ?? null, q, numberText(line.unitPrice)],
    );
  }
  await tx.query(`UPDATE sales_orders SET total = (SELECT sum(amount) FROM sales_order_lines WHERE order_id = $1) WHERE id = $1`, [orderId]);
  const number = salesOrderNumber(orderId);
  // The income, one entry per crop of the order's batches, so that profit by crop adds up.
  await tx.query(
    `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, source_id, note, created_by)
     SELECT $2, $3, 'income', 'sales', sum(l.amount), x.crop, 'sale', $1, $4, $5
       FROM sales_order_lines l JOIN harvests h ON h.id = l.harvest_id
       LEFT JOIN LATERAL (SELECT c.data->>'name' AS crop FROM resource_records g JOIN resource_records c ON c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint
                           WHERE g.resource = 'plantGroups' AND g.id = h.group_id) x ON TRUE
      WHERE l.order_id = $1 GROUP BY x.crop HAVING sum(l.amount) > 0`,
    [orderId, farmId, input.orderedOn, t('zh', 'harvest.saleNote', { number, customer: input.customer }), user.id],
  );
  await audit(tx, req, {
    action: 'salesOrders.create',
    resource: 'salesOrders',
    recordId: orderId,
    changes: { number, farmId, customer: input.customer, orderedOn: input.orderedOn, lines: input.lines.map((l) => ({ harvestId: l.harvestId, quantity: numberText(l.quantity), unitPrice: numberText(l.unitPrice) })) },
  });
  return orderId;
}

/** Cancels a confirmed order: its quantities go back to the batches and its income is reversed. */
export async function cancelSale(tx: Queryable, req: FastifyRequest, user: SessionUser, orderId: number): Promise<void> {
  const p = new Params();
  const { rows } = await tx.query<{ id: string; status: string; farm_id: number }>(
    `SELECT id, status, farm_id FROM sales_orders o WHERE o.id = ${p.add(orderId)} AND ${farmScope(user, p, 'o.farm_id')} FOR UPDATE`,
    p.values,
  );
  if (!rows[0]) throw notFound();
  if (rows[0].status !== 'confirmed') refuse([{ field: 'id', message: t(req.lang, 'harvest.notConfirmed') }], req.lang);
  const lines = await tx.query<{ harvest_id: string; quantity: string }>(`SELECT harvest_id, quantity::text FROM sales_order_lines WHERE order_id = $1 ORDER BY harvest_id, line_no`, [orderId]);
  await lockBatches(tx, { ...user, platformAdmin: true } as SessionUser, lines.rows.map((l) => Number(l.harvest_id)));
  for (const l of lines.rows) await tx.query(`UPDATE harvests SET sold = sold - $2::numeric WHERE id = $1`, [l.harvest_id, l.quantity]);
  await tx.query(`UPDATE sales_orders SET status = 'cancelled', cancelled_at = now() WHERE id = $1`, [orderId]);
  await tx.query(
    `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, source_id, note, created_by)
     SELECT farm_id, current_date, direction, category, -amount, crop, 'sale', source_id, $2, $3 FROM account_entries
      WHERE source = 'sale' AND source_id = $1 AND amount > 0`,
    [orderId, t('zh', 'harvest.saleCancelNote', { number: salesOrderNumber(orderId) }), user.id],
  );
  await audit(tx, req, { action: 'salesOrders.cancel', resource: 'salesOrders', recordId: orderId, changes: { number: salesOrderNumber(orderId) } });
}

/** The farm a write by hand belongs to: the caller's own farm (administrators name one). */
export async function entryFarm(db: Queryable, user: SessionUser, farmId: number | undefined, lang: Lang): Promise<number> {
  if (user.orgId != null && !user.platformAdmin) return user.orgId;
  if (farmId !== undefined) {
    const p = new Params();
    const { rows } = await db.query(`SELECT id FROM organisations o WHERE o.id = ${p.add(farmId)} AND o.type = 0 AND ${farmScope(user, p, 'o.id')}`, p.values);
    if (rows[0]) return farmId;
  }
  return refuse([{ field: 'farmId', message: t(lang, 'common.notFound') }], lang);
}

export async function createEntry(tx: Queryable, req: FastifyRequest, user: SessionUser, input: EntryInput & { farmId?: number }): Promise<number> {
  const lang = req.lang;
  const errors: FieldError[] = [];
  const allowed: readonly string[] = input.direction === 'income' ? INCOME_CATEGORIES : EXPENSE_CATEGORIES;
  if (!allowed.includes(input.category)) errors.push({ field: 'category', message: t(lang, 'harvest.categoryOfOtherDirection') });
  if (decimalPlaces(input.amount) > 2) errors.push({ field: 'amount', message: t(lang, 'harvest.decimals', { digits: 2 }) });
  if (errors.length) refuse(errors, lang);
  const farmId = await entryFarm(tx, user, input.farmId, lang);
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, note, created_by) VALUES ($1, $2, $3, $4, $5::numeric, $6, 'manual', $7, $8) RETURNING id`,
    [farmId, input.entryOn, input.direction, input.category, numberText(input.amount), input.crop ?? null, input.note ?? null, user.id],
  );
  const id = Number(rows[0].id);
  await audit(tx, req, { action: 'accountEntries.create', resource: 'accountEntries', recordId: id, changes: { farmId, ...input, amount: numberText(input.amount) } });
  return id;
}

export async function deleteEntry(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number): Promise<void> {
  const p = new Params();
  const { rows } = await tx.query<{ source: string }>(`SELECT source FROM account_entries e WHERE e.id = ${p.add(id)} AND ${farmScope(user, p, 'e.farm_id')} FOR UPDATE`, p.values);
  if (!rows[0]) throw notFound();
  if (rows[0].source !== 'manual') refuse([{ field: 'id', message: t(req.lang, 'harvest.entryNotManual') }], req.lang);
  await tx.query('DELETE FROM account_entries WHERE id = $1', [id]);
  await audit(tx, req, { action: 'accountEntries.delete', resource: 'accountEntries', recordId: id, changes: {} });
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Twelve characters from an alphabet without look-alikes: 32^12 codes, not guessable. */
export function newTraceCode(): string {
  let code = '';
  for (let i = 0; i < 12; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The batch's trace code, made on first request (one per batch). */
export async function traceCodeFor(tx: Queryable, req: FastifyRequest, user: SessionUser, harvestId: number): Promise<string> {
  const p = new Params();
  const { rows } = await tx.query<{ farm_id: number; code: string | null; batch_no: string }>(
    `SELECT h.farm_id, c.code, h.batch_no FROM harvests h LEFT JOIN trace_codes c ON c.harvest_id = h.id WHERE h.id = ${p.add(harvestId)} AND ${farmScope(user, p, 'h.farm_id')} FOR UPDATE OF h`,
    p.values,
  );
  if (!rows[0]) return refuse([{ field: 'harvestId', message: t(req.lang, 'harvest.batchMissing') }], req.lang);
  if (rows[0].code) return rows[0].code;
  // The release gate: no public code (and so no public page) for a held batch.
  const release = await releaseOf(tx, harvestId);
  if (release.state === 'held') refuse([{ field: 'harvestId', message: releaseNote(req.lang, rows[0].batch_no, release) }], req.lang);
  const code = newTraceCode();
  await tx.query(`INSERT INTO trace_codes(code, farm_id, harvest_id, created_by) VALUES ($1, $2, $3, $4)`, [code, rows[0].farm_id, harvestId, user.id]);
  await audit(tx, req, { action: 'traceCodes.create', resource: 'traceCodes', recordId: harvestId, changes: { code, harvestId } });
  return code;
}

export async function answerReview(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number, answer: string): Promise<void> {
  const p = new Params();
  const { rowCount } = await tx.query(
    `UPDATE trace_reviews r SET answer = ${p.add(answer)}, answered_at = now(), answered_by = ${p.add(user.id)} WHERE r.id = ${p.add(id)} AND ${farmScope(user, p, 'r.farm_id')}`,
    p.values,
  );
  if (rowCount !== 1) throw notFound();
  await audit(tx, req, { action: 'traceReviews.answer', resource: 'traceReviews', recordId: id, changes: { answer } });
}

function trim(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/\.?0+$/, '') : decimal;
}

/**
 * Clears the release gate of a held batch without a test (issue 25 item 2): a holder of
 * farmHarvestIndex:release says why; the reason and who stay on the batch, an operation-log
 * row names the intervals. A batch that is not held is refused (nothing is released for nothing).
 */
export async function releaseHarvest(tx: Queryable, req: FastifyRequest, user: SessionUser, id: number, reason: string): Promise<void> {
  if (!user.elements.has(RELEASE_ELEMENT)) throw forbidden();
  const p = new Params();
  const { rows } = await tx.query<{ batch_no: string }>(`SELECT h.batch_no FROM harvests h WHERE h.id = ${p.add(id)} AND ${farmScope(user, p, 'h.farm_id')} FOR UPDATE`, p.values);
  if (!rows[0]) throw notFound();
  const text = reason.trim();
  const release = await releaseOf(tx, id);
  if (release.state !== 'held') refuse([{ field: 'id', message: t(req.lang, 'harvest.releaseNotHeld', { batch: rows[0].batch_no }) }], req.lang);
  if (text.length < 4) refuse([{ field: 'reason', message: t(req.lang, 'harvest.releaseReason') }], req.lang);
  await tx.query('UPDATE harvests SET release_reason = $2, released_by = $3, released_at = now() WHERE id = $1', [id, text, user.id]);
  await audit(tx, req, {
    action: 'harvests.release',
    resource: 'harvests',
    recordId: id,
    changes: { batchNo: rows[0].batch_no, reason: text, intervals: release.flags.map((f) => ({ movement: f.movementNumber, material: f.material, appliedOn: f.appliedOn, safeFrom: f.safeFrom })) },
  });
}
