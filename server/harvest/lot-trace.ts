/**
 * One step back, one step forward for a harvest lot (docs/harvest-sales-trace.md, "The lot
 * report"): the electronic sortable list a regulator asks for first (US FSMA 204: one row
 * per critical tracking event with its key data elements; GS1's traceability standard).
 *
 * - back: every input applied to the lot's planting group in its growing window (the same
 *   window as the safety check), each with its material lot and where that lot came from
 *   (the stock-in, its supplier or manufacturer, the purchase order), from the stock ledger;
 * - the lot: its harvest (the traceability lot code is the batch number, its source the farm);
 * - forward: every sale of it (customer, contact, date, quantity, order), cancelled ones
 *   marked, and what is still on hand.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmScope } from '../materials/ledger.ts';
import { groupTrace } from '../materials/traces.ts';
import { salesOrderNumber } from './numbers.ts';

export type Step = 'back' | 'lot' | 'forward';
export type TrackingEvent = 'receiving' | 'inputApplied' | 'harvesting' | 'shipping' | 'onHand';

/** One critical tracking event with its key data elements. */
export interface TraceEventRow {
  id: string;
  step: Step;
  event: TrackingEvent;
  date: string;
  /** The lot the event is about: the material's lot (back) or the harvest batch number. */
  traceabilityLotCode: string;
  product: string;
  quantity: number;
  unit: string;
  /** Where it happened: the farm and plot, or the store the input was drawn from. */
  location: string;
  /** Who the goods came from (back: supplier or manufacturer) or went to (forward: customer). */
  counterparty: string | null;
  contact: string | null;
  referenceType: 'stockIn' | 'stockOut' | 'batch' | 'salesOrder' | null;
  reference: string | null;
  /** Back: the stock-in that received the material lot, and the purchase order behind it. */
  sourceReference: string | null;
  status: string | null;
}

export const TRACE_SORT_FIELDS = ['date', 'step', 'event', 'traceabilityLotCode', 'product', 'quantity', 'counterparty', 'reference'] as const;

interface LotRow {
  id: string; farm_id: number; farm_name: string; city: string | null; batch_no: string; group_id: string; planted_on: string | null; harvested_on: string;
  quantity: string; sold: string; unit: string; grade: string; crop: string | null; plot: string | null; recalled_on: string | null;
}

/** The report of a batch of the caller's read scope, or null (another farm's answers as missing). */
export async function lotTrace(db: Queryable, user: SessionUser, harvestId: number, today: string): Promise<{ batchNo: string; rows: TraceEventRow[] } | null> {
  const p = new Params();
  const { rows } = await db.query<LotRow>(
    `SELECT h.id, h.farm_id, o.name AS farm_name, o.city, h.batch_no, h.group_id, g.data->>'plantedOn' AS planted_on, h.harvested_on::text,
            trim_scale(h.quantity)::text AS quantity, trim_scale(h.sold)::text AS sold, h.unit, h.grade, h.recalled_at::date::text AS recalled_on,
            (SELECT c.data->>'name' FROM resource_records c WHERE c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint) AS crop,
            (SELECT f.data->>'name' FROM resource_records f WHERE f.resource = 'farmFields' AND f.id = (g.data->>'fieldId')::bigint) AS plot
       FROM harvests h JOIN organisations o ON o.id = h.farm_id LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
      WHERE h.id = ${p.add(harvestId)} AND ${farmScope(user, p, 'h.farm_id', 'read')}`,
    p.values,
  );
  const lot = rows[0];
  if (!lot) return null;
  const place = [lot.farm_name, lot.plot].filter(Boolean).join(' · ');
  const product = `${lot.crop ?? ''}`.trim() || lot.batch_no;
  const out: TraceEventRow[] = [];

  // Back: the ledger's trace of the group, kept to the lot's growing window and to what stayed applied.
  const lines = await groupTrace(db, Number(lot.group_id), lot.farm_id, 1, 5000);
  for (const l of lines.rows as Record<string, unknown>[]) {
    const on = String(l.movedOn);
    if (l.reversed || on > lot.harvested_on || (lot.planted_on && on < lot.planted_on)) continue;
    out.push({
      id: `in-${l.id}`,
      step: 'back',
      event: 'inputApplied',
      date: on,
      traceabilityLotCode: String(l.batch || '—'),
      product: String(l.material ?? ''),
      quantity: Number(l.quantity),
      unit: String(l.unit ?? ''),
      location: [lot.farm_name, l.store].filter(Boolean).join(' · '),
      counterparty: (l.source as string | null) ?? null,
      contact: null,
      referenceType: 'stockOut',
      reference: String(l.movementNumber),
      sourceReference: [l.stockInNumber, l.purchaseOrderNumber].filter(Boolean).join(' · ') || null,
      status: null,
    });
  }

  out.push({
    id: `lot-${lot.id}`,
    step: 'lot',
    event: 'harvesting',
    date: lot.harvested_on,
    traceabilityLotCode: lot.batch_no,
    product,
    quantity: Number(lot.quantity),
    unit: lot.unit,
    location: place,
    counterparty: [lot.farm_name, lot.city].filter(Boolean).join(' · '),
    contact: null,
    referenceType: 'batch',
    reference: lot.batch_no,
    sourceReference: null,
    status: lot.recalled_on ? 'recalled' : null,
  });

  const sales = await db.query<{ order_id: string; line_no: number; ordered_on: string; customer: string; customer_phone: string | null; status: string; quantity: string }>(
    `SELECT o.id AS order_id, l.line_no, o.ordered_on::text, o.customer, o.customer_phone, o.status, trim_scale(l.quantity)::text AS quantity
       FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id WHERE l.harvest_id = $1 ORDER BY o.ordered_on, o.id, l.line_no`,
    [lot.id],
  );
  for (const s of sales.rows) {
    out.push({
      id: `sale-${s.order_id}-${s.line_no}`,
      step: 'forward',
      event: 'shipping',
      date: s.ordered_on,
      traceabilityLotCode: lot.batch_no,
      product,
      quantity: Number(s.quantity),
      unit: lot.unit,
      location: place,
      counterparty: s.customer,
      contact: s.customer_phone,
      referenceType: 'salesOrder',
      reference: salesOrderNumber(Number(s.order_id)),
      sourceReference: null,
      status: s.status,
    });
  }
  const left = Number(lot.quantity) - Number(lot.sold);
  if (left > 0) {
    out.push({
      id: `hand-${lot.id}`,
      step: 'forward',
      event: 'onHand',
      date: today,
      traceabilityLotCode: lot.batch_no,
      product,
      quantity: Number((Number(lot.quantity) - Number(lot.sold)).toFixed(3)),
      unit: lot.unit,
      location: place,
      counterparty: null,
      contact: null,
      referenceType: null,
      reference: null,
      sourceReference: null,
      status: lot.recalled_on ? 'recalled' : null,
    });
  }
  return { batchNo: lot.batch_no, rows: out };
}

const STEP_ORDER: Record<Step, number> = { back: 0, lot: 1, forward: 2 };

/**
 * Rows in the order asked (`date,-quantity`: fields of TRACE_SORT_FIELDS, `-` for descending);
 * by default back, the lot, forward, each by date, so the list reads as the lot's story.
 */
export function sortTraceRows(rows: TraceEventRow[], sort: string | undefined): TraceEventRow[] {
  const keys = (sort || 'step,date').split(',').map((k) => ({ field: k.replace(/^-/, '') as (typeof TRACE_SORT_FIELDS)[number], desc: k.startsWith('-') }));
  const value = (r: TraceEventRow, f: (typeof TRACE_SORT_FIELDS)[number]) => (f === 'step' ? STEP_ORDER[r.step] : (r[f] ?? ''));
  return [...rows].sort((a, b) => {
    for (const { field, desc } of keys) {
      const x = value(a, field);
      const y = value(b, field);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'zh');
      if (c) return desc ? -c : c;
    }
    return a.id.localeCompare(b.id);
  });
}
