/**
 * Recalls (issue 25 item 4; docs/harvest-sales-trace.md, "Recall"). A recall names one batch,
 * or a material lot and so every batch the lot reached (server/harvest/material-lot.ts). In one
 * transaction it
 *
 * - marks the batches it reached that were not recalled yet (their public page then says so
 *   in the visitor's language, their sales are refused: server/harvest/sales.ts);
 * - lists, per batch, every customer of a confirmed sale with contact and quantity sold: the
 *   recall's contacts, each to be reconciled (returned + destroyed never more than sold);
 * - writes a notice to the farm's users and to the users of a customer that is an
 *   organisation of the platform (the notices of server/legacy/notices), and the operation log.
 *
 * After the transaction, each customer with a phone gets a text through the server's SMS
 * sender (`app.sms.notify`, kind `recall`); delivered or not is recorded per contact.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { audit } from '../audit/log.ts';
import { notFound, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { invalidInput } from '../resources/validation.ts';
import { compareDecimal, numberText } from '../materials/decimal.ts';
import { farmScope } from '../materials/ledger.ts';
import type { SmsSender } from '../sms/sender.ts';
import { batchesReached, materialOfScope } from './material-lot.ts';
import { salesOrderNumber } from './numbers.ts';
import './messages.ts';

export type RecallInput = { kind: 'batch'; harvestId: number; reason: string } | { kind: 'materialLot'; materialId: number; lot: string; reason: string };

export const recallNumber = (id: number) => `RC${String(id).padStart(6, '0')}`;

const refuse = (errors: FieldError[], lang: Lang): never => {
  throw invalidInput(errors, lang);
};

/** A text ready to send, once the transaction has committed. */
export interface PendingText {
  contactId: number;
  phone: string;
  text: string;
}

export async function createRecall(tx: Queryable, req: FastifyRequest, user: SessionUser, input: RecallInput): Promise<{ id: number; texts: PendingText[] }> {
  const lang = req.lang;
  const reason = input.reason.trim();
  let farmId: number;
  let farmName: string;
  let targets: number[];
  let subject: string;
  if (input.kind === 'batch') {
    const p = new Params();
    const { rows } = await tx.query<{ batch_no: string; recalled: boolean; farm_id: number; farm_name: string }>(
      `SELECT h.batch_no, h.recalled_at IS NOT NULL AS recalled, h.farm_id, (SELECT name FROM organisations WHERE id = h.farm_id) AS farm_name
         FROM harvests h WHERE h.id = ${p.add(input.harvestId)} AND ${farmScope(user, p, 'h.farm_id')} FOR UPDATE`,
      p.values,
    );
    if (!rows[0]) throw notFound();
    if (rows[0].recalled) refuse([{ field: 'harvestId', message: t(lang, 'harvest.alreadyRecalled', { batch: rows[0].batch_no }) }], lang);
    if (reason.length < 4) refuse([{ field: 'reason', message: t(lang, 'harvest.recallReason') }], lang);
    farmId = Number(rows[0].farm_id);
    farmName = rows[0].farm_name;
    targets = [input.harvestId];
    subject = rows[0].batch_no;
  } else {
    const lot = await materialOfScope(tx, user, input.materialId, input.lot.trim(), 'write');
    if (!lot) return refuse([{ field: 'materialId', message: t(lang, 'harvest.materialMissing') }], lang);
    if (!lot.lot) refuse([{ field: 'lot', message: t(lang, 'harvest.lotMissing') }], lang);
    // One recall per lot: the advisory lock keeps two at once from both passing the check.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`recall-lot:${lot.farmId}:${lot.materialId}:${lot.lot}`]);
    const known = await tx.query<{ id: number }>(`SELECT id FROM recalls WHERE kind = 'materialLot' AND farm_id = $1 AND material_id = $2 AND lot = $3`, [lot.farmId, lot.materialId, lot.lot]);
    if (known.rows[0]) refuse([{ field: 'lot', message: t(lang, 'harvest.lotAlreadyRecalled', { material: lot.material, lot: lot.lot, number: recallNumber(known.rows[0].id) }) }], lang);
    if (reason.length < 4) refuse([{ field: 'reason', message: t(lang, 'harvest.recallReason') }], lang);
    const used = await tx.query(`SELECT 1 FROM material_movement_lines l JOIN material_movements m ON m.id = l.movement_id WHERE m.farm_id = $1 AND l.material_id = $2 AND l.batch = $3 LIMIT 1`, [lot.farmId, lot.materialId, lot.lot]);
    if (!used.rows[0]) refuse([{ field: 'lot', message: t(lang, 'harvest.lotUnknown', { material: lot.material, lot: lot.lot }) }], lang);
    farmId = lot.farmId;
    farmName = lot.farmName;
    targets = await batchesReached(tx, lot);
    subject = `${lot.material} ${lot.lot}`;
  }

  // The batches in id order (the stable order of every lock on harvests), those already recalled left as they are.
  const locked = (
    await tx.query<{ id: string; batch_no: string; recalled: boolean; unit: string }>(
      `SELECT id, batch_no, recalled_at IS NOT NULL AS recalled, unit FROM harvests WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
      [targets],
    )
  ).rows;
  const { rows: made } = await tx.query<{ id: number }>(
    `INSERT INTO recalls(farm_id, kind, harvest_id, material_id, lot, reason, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [farmId, input.kind, input.kind === 'batch' ? input.harvestId : null, input.kind === 'materialLot' ? input.materialId : null, input.kind === 'materialLot' ? input.lot.trim() : null, reason, user.id],
  );
  const id = made[0].id;
  const number = recallNumber(id);
  const batchReason = input.kind === 'batch' ? reason : `${subject}：${reason}`.slice(0, 200);
  const marked = locked.filter((b) => !b.recalled).map((b) => Number(b.id));
  if (locked.length) {
    await tx.query(`INSERT INTO recall_batches(recall_id, harvest_id, marked) SELECT $1, h, h = ANY($3::bigint[]) FROM unnest($2::bigint[]) AS h`, [id, locked.map((b) => Number(b.id)), marked]);
  }
  if (marked.length) await tx.query('UPDATE harvests SET recalled_at = now(), recall_reason = $2, recalled_by = $3 WHERE id = ANY($1::bigint[])', [marked, batchReason, user.id]);

  // The customers of the batches this recall marked: one contact per batch and customer, with what was sold to them.
  const customers = await tx.query<{ harvest_id: string; batch_no: string; customer: string; phone: string; sold: string; unit: string; orders: string[]; first_on: string; crop: string | null }>(
    `SELECT l.harvest_id, h.batch_no, o.customer, coalesce(o.customer_phone, '') AS phone, trim_scale(sum(l.quantity))::text AS sold, h.unit,
            array_agg(DISTINCT o.id::text) AS orders, min(o.ordered_on)::text AS first_on,
            (SELECT c.data->>'name' FROM resource_records g JOIN resource_records c ON c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint WHERE g.resource = 'plantGroups' AND g.id = h.group_id) AS crop
       FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id JOIN harvests h ON h.id = l.harvest_id
      WHERE l.harvest_id = ANY($1::bigint[]) AND o.status = 'confirmed'
      GROUP BY l.harvest_id, h.batch_no, h.unit, h.group_id, o.customer, coalesce(o.customer_phone, '')
      ORDER BY l.harvest_id, o.customer`,
    [marked],
  );
  const texts: PendingText[] = [];
  // The notice: to the farm's own users (who will make the calls), and to the users of any customer that is an organisation here.
  const lines = customers.rows.map((c) => `${c.batch_no} → ${c.customer}${c.phone ? `（${c.phone}）` : ''} ${c.sold} ${c.unit}`);
  const title = t('zh', 'harvest.recallNoticeTitle', { number, subject });
  const content = `${t('zh', 'harvest.recallNoticeBody', { farm: farmName, reason })}\n${lines.join('\n')}`.slice(0, 4000);
  const notice = (await tx.query<{ id: number }>(`INSERT INTO notices(title, content, kind, sender_id) VALUES ($1, $2, 'message', $3) RETURNING id`, [title, content, user.id])).rows[0].id;
  const customerNames = [...new Set(customers.rows.map((c) => c.customer))];
  const receivers = await tx.query<{ user_id: number; org_name: string }>(
    `SELECT u.id AS user_id, o.name AS org_name FROM users u JOIN organisations o ON o.id = u.org_id WHERE u.org_id = $1 OR o.name = ANY($2::text[])`,
    [farmId, customerNames],
  );
  if (receivers.rows.length) {
    await tx.query(`INSERT INTO notice_receipts(notice_id, user_id) SELECT $1, u FROM unnest($2::int[]) AS u ON CONFLICT DO NOTHING`, [notice, [...new Set(receivers.rows.map((r) => r.user_id))]]);
  }
  const customerOrgs = new Set(receivers.rows.map((r) => r.org_name));
  for (const c of customers.rows) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO recall_contacts(recall_id, harvest_id, customer, phone, sold, unit, orders, notice_id, updated_by) VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9) RETURNING id`,
      [id, c.harvest_id, c.customer, c.phone, c.sold, c.unit, c.orders.map((o) => salesOrderNumber(Number(o))).sort().join(' · '), customerOrgs.has(c.customer) ? notice : null, user.id],
    );
    if (c.phone) {
      texts.push({
        contactId: rows[0].id,
        phone: c.phone,
        text: t('zh', 'harvest.recallText', { farm: farmName, on: c.first_on, crop: c.crop ?? '', batch: c.batch_no, quantity: c.sold, unit: c.unit, reason }),
      });
    }
  }
  await audit(tx, req, {
    action: 'recalls.create',
    resource: 'recalls',
    recordId: id,
    changes: { number, kind: input.kind, subject, reason, batches: locked.map((b) => b.batch_no), marked: locked.filter((b) => !b.recalled).map((b) => b.batch_no), customers: customers.rows.length },
  });
  if (input.kind === 'batch') await audit(tx, req, { action: 'harvests.recall', resource: 'harvests', recordId: input.harvestId, changes: { batchNo: subject, reason, recall: number } });
  return { id, texts };
}

/** Sends the recall's texts (after its transaction) and records per contact whether each went. */
export async function sendRecallTexts(db: Queryable, sms: SmsSender, texts: PendingText[]): Promise<void> {
  for (const x of texts) {
    let status: 'sent' | 'failed' = 'sent';
    try {
      await sms.notify({ phone: x.phone, kind: 'recall', text: x.text });
    } catch {
      status = 'failed';
    }
    await db.query('UPDATE recall_contacts SET sms_status = $2 WHERE id = $1', [x.contactId, status]);
  }
}

export interface ProgressInput {
  contacted: boolean;
  returned: number;
  destroyed: number;
  note?: string;
}

/**
 * Records a customer's progress: contacted, and the quantities returned and destroyed so far
 * (totals, not increments). Returned + destroyed never exceeds what was sold to the customer:
 * refused with a sentence on both fields. Goods cannot come back without contact, so a
 * quantity marks the customer contacted.
 */
export async function recordProgress(tx: Queryable, req: FastifyRequest, user: SessionUser, contactId: number, input: ProgressInput): Promise<void> {
  const lang = req.lang;
  const p = new Params();
  const { rows } = await tx.query<{ id: number; recall_id: number; customer: string; sold: string; unit: string; batch_no: string; contacted: boolean }>(
    `SELECT c.id, c.recall_id, c.customer, c.sold::text, c.unit, h.batch_no, c.contacted_at IS NOT NULL AS contacted
       FROM recall_contacts c JOIN recalls r ON r.id = c.recall_id JOIN harvests h ON h.id = c.harvest_id
      WHERE c.id = ${p.add(contactId)} AND ${farmScope(user, p, 'r.farm_id')} FOR UPDATE OF c`,
    p.values,
  );
  const c = rows[0];
  if (!c) throw notFound();
  const errors: FieldError[] = [];
  for (const field of ['returned', 'destroyed'] as const) {
    if (!/^\d+(\.\d{1,3})?$/.test(numberText(input[field]))) errors.push({ field, message: t(lang, 'harvest.decimals', { digits: 3 }) });
  }
  if (errors.length) refuse(errors, lang);
  const total = (Math.round(input.returned * 1000) + Math.round(input.destroyed * 1000)) / 1000;
  if (compareDecimal(total, c.sold) > 0) {
    const message = t(lang, 'harvest.recallOverReconciled', { returned: numberText(input.returned), destroyed: numberText(input.destroyed), total: numberText(total), unit: c.unit, customer: c.customer, batch: c.batch_no, sold: trimDecimal(c.sold) });
    refuse([{ field: 'returned', message }, { field: 'destroyed', message }], lang);
  }
  const contacted = input.contacted || total > 0;
  await tx.query(
    `UPDATE recall_contacts SET contacted_at = CASE WHEN $2 THEN coalesce(contacted_at, now()) ELSE NULL END, returned = $3::numeric, destroyed = $4::numeric, note = $5, updated_by = $6, updated_at = now() WHERE id = $1`,
    [contactId, contacted, numberText(input.returned), numberText(input.destroyed), input.note ?? null, user.id],
  );
  await audit(tx, req, {
    action: 'recalls.progress',
    resource: 'recalls',
    recordId: c.recall_id,
    changes: { contact: contactId, customer: c.customer, batch: c.batch_no, contacted, returned: numberText(input.returned), destroyed: numberText(input.destroyed), sold: trimDecimal(c.sold) },
  });
}

function trimDecimal(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/\.?0+$/, '') : decimal;
}

// ---------------------------------------------------------------------------------- reads

const qty = (v: string) => Number(v);

export async function recallPage(db: Queryable, user: SessionUser, q: { pageIndex: number; pageSize: number; kind?: string; keyword?: string }) {
  const p = new Params();
  const where = [farmScope(user, p, 'r.farm_id', 'read')];
  if (q.kind) where.push(`r.kind = ${p.add(q.kind)}`);
  if (q.keyword) where.push(`(r.reason ILIKE ${p.add(`%${q.keyword}%`)} OR r.lot ILIKE ${p.add(`%${q.keyword}%`)} OR EXISTS (SELECT 1 FROM recall_batches b JOIN harvests h ON h.id = b.harvest_id WHERE b.recall_id = r.id AND h.batch_no ILIKE ${p.add(`%${q.keyword}%`)}))`);
  const from = `recalls r WHERE ${where.join(' AND ')}`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, p.values)).rows[0].n;
  const { rows } = await db.query<Record<string, string | number | null>>(
    `SELECT r.id, r.kind, r.reason, r.lot, r.created_at::date::text AS created_on, r.farm_id, (SELECT name FROM organisations WHERE id = r.farm_id) AS farm_name,
            (SELECT data->>'name' FROM resource_records WHERE resource = 'farmMaterials' AND id = r.material_id) AS material,
            (SELECT batch_no FROM harvests WHERE id = r.harvest_id) AS batch_no,
            (SELECT u.name FROM users u WHERE u.id = r.created_by) AS created_by,
            (SELECT string_agg(h.batch_no, ' · ' ORDER BY h.id) FROM recall_batches b JOIN harvests h ON h.id = b.harvest_id WHERE b.recall_id = r.id) AS batches,
            (SELECT count(*)::int FROM recall_contacts c WHERE c.recall_id = r.id) AS customers,
            (SELECT count(*)::int FROM recall_contacts c WHERE c.recall_id = r.id AND c.contacted_at IS NOT NULL) AS contacted,
            (SELECT count(*)::int FROM recall_contacts c WHERE c.recall_id = r.id AND c.returned + c.destroyed = c.sold) AS reconciled
       FROM ${from} ORDER BY r.created_at DESC, r.id DESC LIMIT ${q.pageSize} OFFSET ${(q.pageIndex - 1) * q.pageSize}`,
    p.values,
  );
  return { rows: rows.map(recallView), total, pageIndex: q.pageIndex, pageSize: q.pageSize };
}

function recallView(r: Record<string, string | number | null>) {
  const customers = Number(r.customers);
  const reconciled = Number(r.reconciled);
  return {
    id: Number(r.id),
    number: recallNumber(Number(r.id)),
    kind: r.kind,
    subject: r.kind === 'batch' ? r.batch_no : `${r.material ?? ''} ${r.lot ?? ''}`.trim(),
    reason: r.reason,
    createdOn: r.created_on,
    createdBy: r.created_by,
    farmName: r.farm_name,
    batches: r.batches ?? '',
    customers,
    contacted: Number(r.contacted),
    reconciled,
    progress: `${reconciled} / ${customers}`,
    state: customers === reconciled ? 'closed' : 'open',
  };
}

export async function recallById(db: Queryable, user: SessionUser, id: number) {
  const p = new Params();
  const { rows } = await db.query<{ id: number }>(`SELECT r.id FROM recalls r WHERE r.id = ${p.add(id)} AND ${farmScope(user, p, 'r.farm_id', 'read')}`, p.values);
  if (!rows[0]) return null;
  const one = await db.query<Record<string, string | number | null>>(
    `SELECT r.id, r.kind, r.reason, r.lot, r.created_at::date::text AS created_on, r.farm_id, (SELECT name FROM organisations WHERE id = r.farm_id) AS farm_name,
            (SELECT data->>'name' FROM resource_records WHERE resource = 'farmMaterials' AND id = r.material_id) AS material,
            (SELECT batch_no FROM harvests WHERE id = r.harvest_id) AS batch_no,
            (SELECT u.name FROM users u WHERE u.id = r.created_by) AS created_by,
            (SELECT string_agg(h.batch_no, ' · ' ORDER BY h.id) FROM recall_batches b JOIN harvests h ON h.id = b.harvest_id WHERE b.recall_id = r.id) AS batches,
            (SELECT count(*)::int FROM recall_contacts c WHERE c.recall_id = r.id) AS customers,
            (SELECT count(*)::int FROM recall_contacts c WHERE c.recall_id = r.id AND c.contacted_at IS NOT NULL) AS contacted,
            (SELECT count(*)::int FROM recall_contacts c WHERE c.recall_id = r.id AND c.returned + c.destroyed = c.sold) AS reconciled
       FROM recalls r WHERE r.id = $1`,
    [id],
  );
  return recallView(one.rows[0]);
}

interface ContactRow {
  id: number; recall_id: number; harvest_id: string; batch_no: string; customer: string; phone: string; sold: string; unit: string; orders: string;
  notice_id: number | null; sms_status: string; contacted_on: string | null; returned: string; destroyed: string; outstanding: string; note: string | null; updated_at: string;
}

function contactView(c: ContactRow) {
  const outstanding = qty(c.outstanding);
  return {
    id: c.id,
    recallId: c.recall_id,
    recallNumber: recallNumber(c.recall_id),
    harvestId: Number(c.harvest_id),
    batchNo: c.batch_no,
    customer: c.customer,
    phone: c.phone,
    orders: c.orders,
    sold: qty(c.sold),
    unit: c.unit,
    notice: c.notice_id !== null,
    sms: c.sms_status,
    contacted: c.contacted_on !== null,
    contactedOn: c.contacted_on,
    returned: qty(c.returned),
    destroyed: qty(c.destroyed),
    outstanding,
    state: outstanding === 0 ? 'reconciled' : c.contacted_on ? 'contacted' : 'toContact',
    note: c.note,
  };
}

const CONTACT_SELECT = `SELECT c.id, c.recall_id, c.harvest_id, h.batch_no, c.customer, c.phone, trim_scale(c.sold)::text AS sold, c.unit, c.orders, c.notice_id, c.sms_status,
       c.contacted_at::date::text AS contacted_on, trim_scale(c.returned)::text AS returned, trim_scale(c.destroyed)::text AS destroyed,
       trim_scale(c.sold - c.returned - c.destroyed)::text AS outstanding, c.note, c.updated_at
  FROM recall_contacts c JOIN recalls r ON r.id = c.recall_id JOIN harvests h ON h.id = c.harvest_id`;

export async function recallContacts(db: Queryable, user: SessionUser, recallId: number, q: { pageIndex: number; pageSize: number }) {
  const p = new Params();
  const where = `c.recall_id = ${p.add(recallId)} AND ${farmScope(user, p, 'r.farm_id', 'read')}`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM recall_contacts c JOIN recalls r ON r.id = c.recall_id WHERE ${where}`, p.values)).rows[0].n;
  const { rows } = await db.query<ContactRow>(`${CONTACT_SELECT} WHERE ${where} ORDER BY h.batch_no, c.customer, c.id LIMIT ${q.pageSize} OFFSET ${(q.pageIndex - 1) * q.pageSize}`, p.values);
  return { rows: rows.map(contactView), total, pageIndex: q.pageIndex, pageSize: q.pageSize };
}

export async function recallContact(db: Queryable, user: SessionUser, contactId: number) {
  const p = new Params();
  const { rows } = await db.query<ContactRow>(`${CONTACT_SELECT} WHERE c.id = ${p.add(contactId)} AND ${farmScope(user, p, 'r.farm_id', 'read')}`, p.values);
  return rows[0] ? contactView(rows[0]) : null;
}
