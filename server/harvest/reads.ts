/**
 * Reads of harvest, sales, accounting and traceability, in the caller's farm scope. Money
 * and quantities leave the database as text (numeric::text), never through floats.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmScope } from '../materials/ledger.ts';
import { movementNumber } from '../materials/numbers.ts';
import { salesOrderNumber } from './numbers.ts';
import { type Application, applicationsBefore, insideIntervals } from './safety.ts';
import { type Release, releaseNote, releaseStates } from './release.ts';
import type { Lang } from '../i18n/lang.ts';
import { t } from '../i18n/catalog.ts';

export interface Paging {
  pageIndex: number;
  pageSize: number;
}

const offset = (p: Paging) => (p.pageIndex - 1) * p.pageSize;
const page = <T>(rows: T[], total: number, p: Paging) => ({ rows, total, pageIndex: p.pageIndex, pageSize: p.pageSize });
/** Quantities as numbers (at most three decimals: JSON carries them exactly as written). */
const qty = (v: string | null) => (v === null ? null : Number(v));

const CROP_OF_GROUP = `(SELECT c.data->>'name' FROM resource_records c WHERE c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint)`;
const PLOT_OF_GROUP = `(SELECT f.data->>'name' FROM resource_records f WHERE f.resource = 'farmFields' AND f.id = (g.data->>'fieldId')::bigint)`;

export interface SafetyFlag {
  movementId: number;
  movementNumber: string;
  material: string;
  appliedOn: string;
  intervalDays: number;
  safeFrom: string;
}

/**
 * For each batch, the pesticide applications (server/harvest/safety.ts) whose safety interval
 * the harvest date falls inside: applied on or before the harvest, and the harvest before
 * applied + interval days.
 */
export async function safetyFlags(db: Queryable, harvestIds: number[]): Promise<Map<number, SafetyFlag[]>> {
  const out = new Map<number, SafetyFlag[]>();
  if (!harvestIds.length) return out;
  const { rows } = await db.query<{ id: string; group_id: string; farm_id: number; harvested_on: string }>(
    'SELECT id, group_id, farm_id, harvested_on::text FROM harvests WHERE id = ANY($1::bigint[])',
    [harvestIds],
  );
  const applied = await applicationsBefore(db, rows.map((r) => ({ key: Number(r.id), groupId: Number(r.group_id), farmId: Number(r.farm_id), harvestedOn: r.harvested_on })));
  for (const [id, list] of applied) {
    const inside = insideIntervals(list);
    if (inside.length) out.set(id, inside.map(toFlag));
  }
  return out;
}

export const toFlag = (a: Application): SafetyFlag => ({ movementId: a.movementId, movementNumber: a.movementNumber, material: a.material, appliedOn: a.appliedOn, intervalDays: a.intervalDays ?? 0, safeFrom: a.safeFrom ?? '' });

export interface HarvestQuery extends Paging {
  keyword?: string;
  groupId?: number;
  grade?: string;
  from?: string;
  to?: string;
  /** true: only batches with something left to sell. */
  available?: boolean;
}

interface HarvestRow {
  id: string; farm_id: number; farm_name: string; batch_no: string; group_id: string; group_name: string | null; crop: string | null; plot: string | null;
  harvested_on: string; quantity: string; unit: string; grade: string; sold: string; left_qty: string; note: string | null; trace_code: string | null; created_at: string;
  safety_override_reason: string | null; recalled_on: string | null; recall_reason: string | null; recall_id: number | null;
}

export async function harvestPage(db: Queryable, user: SessionUser, q: HarvestQuery, lang: Lang = 'zh') {
  const p = new Params();
  const where = [farmScope(user, p, 'h.farm_id', 'read')];
  if (q.groupId) where.push(`h.group_id = ${p.add(q.groupId)}`);
  if (q.grade) where.push(`h.grade = ${p.add(q.grade)}`);
  if (q.from) where.push(`h.harvested_on >= ${p.add(q.from)}`);
  if (q.to) where.push(`h.harvested_on <= ${p.add(q.to)}`);
  if (q.available) where.push('h.sold < h.quantity');
  if (q.keyword) where.push(`(h.batch_no ILIKE ${p.add(`%${q.keyword}%`)} OR g.data->>'name' ILIKE ${p.add(`%${q.keyword}%`)})`);
  const from = `harvests h LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id WHERE ${where.join(' AND ')}`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, p.values)).rows[0].n;
  const { rows } = await db.query<HarvestRow>(
    `SELECT h.id, h.farm_id, (SELECT name FROM organisations WHERE id = h.farm_id) AS farm_name, h.batch_no, h.group_id, g.data->>'name' AS group_name,
            ${CROP_OF_GROUP} AS crop, ${PLOT_OF_GROUP} AS plot, h.harvested_on::text, trim_scale(h.quantity)::text AS quantity, h.unit, h.grade,
            trim_scale(h.sold)::text AS sold, trim_scale(h.quantity - h.sold)::text AS left_qty, h.note,
            (SELECT code FROM trace_codes c WHERE c.harvest_id = h.id) AS trace_code, h.created_at,
            h.safety_override_reason, h.recalled_at::date::text AS recalled_on, h.recall_reason,
            (SELECT min(rb.recall_id) FROM recall_batches rb WHERE rb.harvest_id = h.id AND rb.marked) AS recall_id
       FROM ${from} ORDER BY h.harvested_on DESC, h.id DESC LIMIT ${q.pageSize} OFFSET ${offset(q)}`,
    p.values,
  );
  const releases = await releaseStates(db, rows.map((r) => Number(r.id)));
  return page(rows.map((r) => harvestView(r, releases.get(Number(r.id)), lang)), total, q);
}

function harvestView(r: HarvestRow, release: Release | undefined, lang: Lang) {
  const flags = release?.flags ?? [];
  return {
    id: Number(r.id),
    farmId: Number(r.farm_id),
    farmName: r.farm_name,
    batchNo: r.batch_no,
    groupId: Number(r.group_id),
    groupName: r.group_name,
    crop: r.crop,
    plot: r.plot,
    harvestedOn: r.harvested_on,
    quantity: qty(r.quantity),
    unit: r.unit,
    grade: r.grade,
    sold: qty(r.sold),
    left: qty(r.left_qty),
    note: r.note,
    traceCode: r.trace_code,
    safety: flags.length ? 'inInterval' : 'ok',
    safetyFlags: flags,
    safetyNote: flags.map((f) => `${f.material} ${f.appliedOn}（${f.movementNumber}）→ ${f.safeFrom}`).join('；'),
    safetyOverrideReason: r.safety_override_reason,
    recalled: r.recalled_on !== null,
    recalledOn: r.recalled_on,
    recallReason: r.recall_reason,
    recallId: r.recall_id === null ? null : Number(r.recall_id),
    release: release?.state ?? 'notFlagged',
    releaseNote: release ? releaseNote(lang, r.batch_no, release) : '',
    releaseTestOn: release?.test?.testedOn ?? null,
  };
}

export async function harvestById(db: Queryable, user: SessionUser, id: number, lang: Lang = 'zh') {
  const p = new Params();
  const { rows } = await db.query<HarvestRow>(
    `SELECT h.id, h.farm_id, (SELECT name FROM organisations WHERE id = h.farm_id) AS farm_name, h.batch_no, h.group_id, g.data->>'name' AS group_name,
            ${CROP_OF_GROUP} AS crop, ${PLOT_OF_GROUP} AS plot, h.harvested_on::text, trim_scale(h.quantity)::text AS quantity, h.unit, h.grade,
            trim_scale(h.sold)::text AS sold, trim_scale(h.quantity - h.sold)::text AS left_qty, h.note,
            (SELECT code FROM trace_codes c WHERE c.harvest_id = h.id) AS trace_code, h.created_at,
            h.safety_override_reason, h.recalled_at::date::text AS recalled_on, h.recall_reason,
            (SELECT min(rb.recall_id) FROM recall_batches rb WHERE rb.harvest_id = h.id AND rb.marked) AS recall_id
       FROM harvests h LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
      WHERE h.id = ${p.add(id)} AND ${farmScope(user, p, 'h.farm_id', 'read')}`,
    p.values,
  );
  if (!rows[0]) return null;
  const releases = await releaseStates(db, [id]);
  return harvestView(rows[0], releases.get(id), lang);
}

export interface SaleQuery extends Paging {
  status?: string;
  keyword?: string;
  from?: string;
  to?: string;
  /** Orders dated before this day only (the archive of old sales). */
  before?: string;
}

export async function salePage(db: Queryable, user: SessionUser, q: SaleQuery) {
  const p = new Params();
  const where = [farmScope(user, p, 'o.farm_id', 'read')];
  if (q.status) where.push(`o.status = ${p.add(q.status)}`);
  if (q.from) where.push(`o.ordered_on >= ${p.add(q.from)}`);
  if (q.to) where.push(`o.ordered_on <= ${p.add(q.to)}`);
  if (q.before) where.push(`o.ordered_on < ${p.add(q.before)}`);
  if (q.keyword) where.push(`o.customer ILIKE ${p.add(`%${q.keyword}%`)}`);
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sales_orders o WHERE ${where.join(' AND ')}`, p.values)).rows[0].n;
  const { rows } = await db.query<Record<string, string>>(
    `SELECT o.id, o.farm_id, (SELECT name FROM organisations WHERE id = o.farm_id) AS farm_name, o.customer, o.customer_phone, o.ordered_on::text, o.status, o.total::text, o.note,
            (SELECT string_agg(h.batch_no, '、' ORDER BY l.line_no) FROM sales_order_lines l JOIN harvests h ON h.id = l.harvest_id WHERE l.order_id = o.id) AS batches,
            (SELECT count(*)::int FROM sales_order_lines l WHERE l.order_id = o.id) AS line_count
       FROM sales_orders o WHERE ${where.join(' AND ')} ORDER BY o.ordered_on DESC, o.id DESC LIMIT ${q.pageSize} OFFSET ${offset(q)}`,
    p.values,
  );
  return page(rows.map(saleView), total, q);
}

function saleView(r: Record<string, string>) {
  return {
    id: Number(r.id),
    number: salesOrderNumber(Number(r.id)),
    farmId: Number(r.farm_id),
    farmName: r.farm_name,
    customer: r.customer,
    customerPhone: r.customer_phone,
    orderedOn: r.ordered_on,
    status: r.status,
    total: r.total,
    note: r.note,
    batches: r.batches,
    lineCount: Number(r.line_count),
  };
}

export async function saleWithLines(db: Queryable, user: SessionUser, id: number) {
  const p = new Params();
  const { rows } = await db.query<Record<string, string>>(
    `SELECT o.id, o.farm_id, (SELECT name FROM organisations WHERE id = o.farm_id) AS farm_name, o.customer, o.customer_phone, o.ordered_on::text, o.status, o.total::text, o.note, NULL AS batches, 0 AS line_count
       FROM sales_orders o WHERE o.id = ${p.add(id)} AND ${farmScope(user, p, 'o.farm_id', 'read')}`,
    p.values,
  );
  if (!rows[0]) return null;
  const lines = await db.query<Record<string, string>>(
    `SELECT l.line_no, l.harvest_id, h.batch_no, l.product_id, pr.data->>'name' AS product, trim_scale(l.quantity)::text AS quantity, h.unit, l.unit_price::text, l.amount::text
       FROM sales_order_lines l JOIN harvests h ON h.id = l.harvest_id LEFT JOIN resource_records pr ON pr.resource = 'farmProducts' AND pr.id = l.product_id
      WHERE l.order_id = $1 ORDER BY l.line_no`,
    [id],
  );
  return {
    ...saleView(rows[0]),
    lineCount: lines.rows.length,
    lines: lines.rows.map((l) => ({
      lineNo: Number(l.line_no), harvestId: Number(l.harvest_id), batchNo: l.batch_no, productId: l.product_id === null ? null : Number(l.product_id), product: l.product,
      quantity: qty(l.quantity), unit: l.unit, unitPrice: l.unit_price, amount: l.amount,
    })),
  };
}

/**
 * Every income and expense of the farms in scope: the entries (by hand and from sales) and
 * the purchases, which are the materials ledger's stock-ins that were not reversed (a
 * reversal is a correction, not a purchase), at their lines' amounts.
 */
function entriesSql(user: SessionUser, p: Params): string {
  return `SELECT 'E' || e.id AS key, e.id AS entry_id, e.farm_id, e.entry_on, e.direction, e.category, e.amount, e.crop, e.source, e.source_id, e.note
            FROM account_entries e WHERE ${farmScope(user, p, 'e.farm_id', 'read')}
          UNION ALL
          SELECT 'P' || m.id, NULL, m.farm_id, m.moved_on, 'expense', 'materials', t.amount, NULL, 'purchase', m.id, coalesce(m.purpose, m.reference)
            FROM material_movements m JOIN LATERAL (SELECT sum(l.amount) AS amount FROM material_movement_lines l WHERE l.movement_id = m.id) t ON TRUE
           WHERE m.direction = 'in' AND m.reverses_id IS NULL AND t.amount > 0
             AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = m.id) AND ${farmScope(user, p, 'm.farm_id', 'read')}`;
}

export interface PeriodQuery {
  from?: string;
  to?: string;
}

function period(q: PeriodQuery, p: Params): string {
  const where = ['TRUE'];
  if (q.from) where.push(`x.entry_on >= ${p.add(q.from)}::date`);
  if (q.to) where.push(`x.entry_on <= ${p.add(q.to)}::date`);
  return where.join(' AND ');
}

export interface EntryQuery extends Paging, PeriodQuery {
  direction?: string;
  category?: string;
  source?: string;
}

export async function entryPage(db: Queryable, user: SessionUser, q: EntryQuery) {
  const p = new Params();
  const base = entriesSql(user, p);
  const where = [period(q, p)];
  if (q.direction) where.push(`x.direction = ${p.add(q.direction)}`);
  if (q.category) where.push(`x.category = ${p.add(q.category)}`);
  if (q.source) where.push(`x.source = ${p.add(q.source)}`);
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${base}) x WHERE ${where.join(' AND ')}`, p.values)).rows[0].n;
  const { rows } = await db.query<Record<string, string | null>>(
    `SELECT x.key, x.entry_id, x.farm_id, (SELECT name FROM organisations WHERE id = x.farm_id) AS farm_name, x.entry_on::text, x.direction, x.category, x.amount::text, x.crop, x.source, x.source_id, x.note
       FROM (${base}) x WHERE ${where.join(' AND ')} ORDER BY x.entry_on DESC, x.key DESC LIMIT ${q.pageSize} OFFSET ${offset(q)}`,
    p.values,
  );
  return page(
    rows.map((r) => ({
      id: r.key,
      entryId: r.entry_id === null ? null : Number(r.entry_id),
      farmId: Number(r.farm_id),
      farmName: r.farm_name,
      entryOn: r.entry_on,
      direction: r.direction,
      category: r.category,
      amount: r.amount,
      crop: r.crop,
      source: r.source,
      reference: r.source === 'sale' ? salesOrderNumber(Number(r.source_id)) : r.source === 'purchase' ? movementNumber('in', Number(r.source_id)) : null,
      note: r.note,
      manual: r.source === 'manual',
    })),
    total,
    q,
  );
}

/** Income, expense and profit of the period (exact decimals as text). */
export async function accountSummary(db: Queryable, user: SessionUser, q: PeriodQuery) {
  const p = new Params();
  const base = entriesSql(user, p);
  const { rows } = await db.query<{ income: string; expense: string; profit: string; entries: number }>(
    `SELECT coalesce(sum(x.amount) FILTER (WHERE x.direction = 'income'), 0)::numeric(16,2)::text AS income,
            coalesce(sum(x.amount) FILTER (WHERE x.direction = 'expense'), 0)::numeric(16,2)::text AS expense,
            (coalesce(sum(x.amount) FILTER (WHERE x.direction = 'income'), 0) - coalesce(sum(x.amount) FILTER (WHERE x.direction = 'expense'), 0))::numeric(16,2)::text AS profit,
            count(*)::int AS entries
       FROM (${base}) x WHERE ${period(q, p)}`,
    p.values,
  );
  return rows[0];
}

/** Profit by month (`month` YYYY-MM) or by crop (expenses with no crop under «未分摊» / null). */
export async function accountReport(db: Queryable, user: SessionUser, q: PeriodQuery, by: 'month' | 'crop') {
  const p = new Params();
  const base = entriesSql(user, p);
  const key = by === 'month' ? `to_char(x.entry_on, 'YYYY-MM')` : 'x.crop';
  const { rows } = await db.query<{ key: string | null; income: string; expense: string; profit: string }>(
    `SELECT ${key} AS key,
            coalesce(sum(x.amount) FILTER (WHERE x.direction = 'income'), 0)::numeric(16,2)::text AS income,
            coalesce(sum(x.amount) FILTER (WHERE x.direction = 'expense'), 0)::numeric(16,2)::text AS expense,
            (coalesce(sum(x.amount) FILTER (WHERE x.direction = 'income'), 0) - coalesce(sum(x.amount) FILTER (WHERE x.direction = 'expense'), 0))::numeric(16,2)::text AS profit
       FROM (${base}) x WHERE ${period(q, p)} GROUP BY 1 ORDER BY 1 NULLS LAST`,
    p.values,
  );
  return rows.map((r) => ({ [by]: r.key, income: r.income, expense: r.expense, profit: r.profit, incomeValue: Number(r.income), expenseValue: Number(r.expense), profitValue: Number(r.profit) }));
}

export async function traceCodePage(db: Queryable, user: SessionUser, q: Paging & { keyword?: string }) {
  const p = new Params();
  const where = [farmScope(user, p, 'c.farm_id', 'read')];
  if (q.keyword) where.push(`(c.code ILIKE ${p.add(`%${q.keyword}%`)} OR h.batch_no ILIKE ${p.add(`%${q.keyword}%`)})`);
  const from = `trace_codes c JOIN harvests h ON h.id = c.harvest_id LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id WHERE ${where.join(' AND ')}`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, p.values)).rows[0].n;
  const { rows } = await db.query<Record<string, string>>(
    `SELECT c.code, c.farm_id, (SELECT name FROM organisations WHERE id = c.farm_id) AS farm_name, c.harvest_id, h.batch_no, h.harvested_on::text, g.data->>'name' AS group_name, ${CROP_OF_GROUP} AS crop,
            c.scans, c.last_scanned_at, c.created_at, (SELECT count(*)::int FROM trace_reviews r WHERE r.code = c.code) AS reviews
       FROM ${from} ORDER BY c.created_at DESC, c.code LIMIT ${q.pageSize} OFFSET ${offset(q)}`,
    p.values,
  );
  return page(
    rows.map((r) => ({
      id: r.code, code: r.code, farmId: Number(r.farm_id), farmName: r.farm_name, harvestId: Number(r.harvest_id), batchNo: r.batch_no, harvestedOn: r.harvested_on, groupName: r.group_name, crop: r.crop,
      scans: Number(r.scans), lastScannedAt: r.last_scanned_at, createdAt: r.created_at, reviews: Number(r.reviews), url: `/t/${r.code}`, qrUrl: `/t/${r.code}/qr.svg`,
    })),
    total,
    q,
  );
}

export async function reviewPage(db: Queryable, user: SessionUser, q: Paging & { kind?: string; answered?: string; keyword?: string }) {
  const p = new Params();
  const where = [farmScope(user, p, 'r.farm_id', 'read')];
  if (q.kind) where.push(`r.kind = ${p.add(q.kind)}`);
  if (q.answered === 'yes') where.push('r.answer IS NOT NULL');
  if (q.answered === 'no') where.push('r.answer IS NULL');
  if (q.keyword) where.push(`r.content ILIKE ${p.add(`%${q.keyword}%`)}`);
  const from = `trace_reviews r JOIN trace_codes c ON c.code = r.code JOIN harvests h ON h.id = c.harvest_id WHERE ${where.join(' AND ')}`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, p.values)).rows[0].n;
  // A center reads its region's reviews but answers only its own organisation's (the answer is a write).
  const { rows } = await db.query<Record<string, string | boolean | null>>(
    `SELECT r.id, r.code, r.farm_id, (SELECT name FROM organisations WHERE id = r.farm_id) AS farm_name, h.batch_no, r.kind, r.rating, r.content, r.nickname, r.answer, r.answered_at, r.created_at,
            ${farmScope(user, p, 'r.farm_id')} AS writable
       FROM ${from} ORDER BY (r.answer IS NULL) DESC, r.created_at DESC, r.id DESC LIMIT ${q.pageSize} OFFSET ${offset(q)}`,
    p.values,
  );
  return page(
    rows.map((r) => ({
      id: Number(r.id), code: r.code, farmId: Number(r.farm_id), farmName: r.farm_name, batchNo: r.batch_no, kind: r.kind, rating: r.rating === null ? null : Number(r.rating),
      content: r.content, nickname: r.nickname, answer: r.answer, answeredAt: r.answered_at, createdAt: r.created_at, state: r.answer === null ? 'open' : 'answered',
      _can: { edit: r.writable === true },
    })),
    total,
    q,
  );
}

/** Batches with something left to sell, as options «batch · crop · left unit». */
export async function batchOptions(db: Queryable, user: SessionUser, lang: Lang = 'zh') {
  const p = new Params();
  const { rows } = await db.query<Record<string, string>>(
    `SELECT h.id, h.batch_no, ${CROP_OF_GROUP} AS crop, trim_scale(h.quantity - h.sold)::text AS left_qty, h.unit
       FROM harvests h LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
      WHERE h.sold < h.quantity AND ${farmScope(user, p, 'h.farm_id')} ORDER BY h.harvested_on DESC, h.id DESC LIMIT 500`,
    p.values,
  );
  // A held batch stays in the list (its test is recorded against it) and says why it cannot be sold yet.
  const releases = await releaseStates(db, rows.map((r) => Number(r.id)));
  return rows.map((r) => {
    const held = releases.get(Number(r.id))?.state === 'held';
    return { value: Number(r.id), label: `${r.batch_no} · ${r.crop ?? ''} · ${r.left_qty} ${r.unit}${held ? ` · ${t(lang, 'harvest.heldOption')}` : ''}` };
  });
}

/** Planting groups of the scope as options (closed ones too: harvests are recorded after the season). */
export async function groupOptions(db: Queryable, user: SessionUser) {
  const p = new Params();
  const { rows } = await db.query<Record<string, string>>(
    `SELECT g.id, g.data->>'name' AS name, ${CROP_OF_GROUP} AS crop FROM resource_records g WHERE g.resource = 'plantGroups' AND ${farmScope(user, p, 'g.farm_id')}
      ORDER BY g.data->>'plantedOn' DESC NULLS LAST, g.id DESC LIMIT 500`,
    p.values,
  );
  return rows.map((r) => ({ value: Number(r.id), label: r.crop ? `${r.name} · ${r.crop}` : r.name }));
}
