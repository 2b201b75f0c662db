/**
 * Plan items (resource `planItems`, docs/planting.md) as the timeline draws them, and the
 * body that saves a rescheduled item. Pure, so the mapping is tested without a server; the
 * adapter (index.tsx) does the fetching.
 */
import { dayOf, isoOf, type IsoDate } from './dates.ts';
import type { ItemId } from './edits.ts';
import type { TimelineKeyNode, TimelineStage, TimelineTask } from './PlantingTimeline.tsx';
import type { Season } from './scale.ts';
import type { TaskStatus } from './texts.ts';

/** A row of GET /api/farmPlantGroup/planItems/page: the record and the engine's meta fields. */
export interface PlanItemRow {
  id: number;
  version: number;
  planId: number;
  orderNumber: number;
  itemType: 'stage' | 'keyNode' | 'work';
  name: string;
  workTypeId?: number;
  startOn: IsoDate;
  endOn: IsoDate;
  materials?: { name: string; amountPerMu: number; unit: string }[];
  /** The work item this one follows (finish-to-start), by id, and the days between (docs/planting.md, "Dependencies"). */
  after?: number;
  lagDays?: number;
  /** The published task's status, when the server joins it in (absent: not published). */
  taskStatus?: string;
  /** The engine's per-record hints: `update: false` means this caller may not change it. */
  _can?: Record<string, boolean>;
  [meta: string]: unknown;
}

/** The resource the timeline reads and reschedules; the console's data provider knows its URLs. */
export const PLAN_ITEMS = 'planItems';
/** Days shown before the first and after the last item, so a bar at the edge can still be grabbed. */
export const SEASON_MARGIN_DAYS = 14;

const PUBLISHED: Record<string, TaskStatus> = { published: 'published', inProgress: 'inProgress', done: 'done' };

/** A work item's status: its task's, or overdue when its end is past and it is not done. */
export function statusOf(row: Pick<PlanItemRow, 'endOn' | 'taskStatus'>, today: number): TaskStatus {
  const status = PUBLISHED[row.taskStatus ?? ''] ?? 'planned';
  return status !== 'done' && dayOf(row.endOn) < today ? 'overdue' : status;
}

export interface TimelineData {
  stages: TimelineStage[];
  keyNodes: TimelineKeyNode[];
  tasks: TimelineTask[];
  season: Season;
}

/**
 * Stages, key nodes and work items in plan order. The season is the one given (the planting
 * group's), else the items' own span with a margin on each side, else a month from today.
 */
export function timelineOf(rows: readonly PlanItemRow[], today: number, season?: Partial<Season>): TimelineData {
  const ordered = [...rows].sort((a, b) => a.orderNumber - b.orderNumber || a.id - b.id);
  const stages: TimelineStage[] = [];
  const keyNodes: TimelineKeyNode[] = [];
  const tasks: TimelineTask[] = [];
  for (const r of ordered) {
    if (r.itemType === 'stage') stages.push({ id: r.id, name: r.name, startOn: r.startOn, endOn: r.endOn });
    else if (r.itemType === 'keyNode') keyNodes.push({ id: r.id, name: r.name, on: r.startOn });
    else {
      tasks.push({
        id: r.id,
        name: r.name,
        startOn: r.startOn,
        endOn: r.endOn,
        status: statusOf(r, today),
        locked: r._can?.update === false,
        ...(typeof r.after === 'number' ? { after: r.after, lagDays: typeof r.lagDays === 'number' ? r.lagDays : 0 } : {}),
      });
    }
  }
  let first = today;
  let last = today + 30;
  if (ordered.length) {
    first = Math.min(...ordered.map((r) => dayOf(r.startOn))) - SEASON_MARGIN_DAYS;
    last = Math.max(...ordered.map((r) => dayOf(r.endOn))) + SEASON_MARGIN_DAYS;
  }
  return { stages, keyNodes, tasks, season: { start: season?.start ?? isoOf(first), end: season?.end ?? isoOf(last) } };
}

/**
 * A plan not yet stored, as the generator's preview answers it (POST
 * /api/farmPlantGroup/plans/generate with `preview: true`): `{plan, items, season?}`, the
 * items without ids. Each item is keyed by its order number and drawn as planned (nothing
 * is published yet, and a date already past is no task overdue); work items are locked
 * unless `movable` (the host keeps adjustments). Null when `data` is not such a reply.
 */
export function previewOf(data: unknown, today: number, movable = false): TimelineData | null {
  if (!data || typeof data !== 'object' || !Array.isArray((data as { items?: unknown }).items)) return null;
  const reply = data as { items: unknown[]; season?: { start?: unknown; end?: unknown } };
  const rows: PlanItemRow[] = [];
  for (const raw of reply.items) {
    const i = raw as Partial<PlanItemRow>;
    if (typeof i?.orderNumber !== 'number' || typeof i.startOn !== 'string' || typeof i.endOn !== 'string' || typeof i.name !== 'string') return null;
    if (i.itemType !== 'stage' && i.itemType !== 'keyNode' && i.itemType !== 'work') return null;
    rows.push({ id: i.orderNumber, version: 0, planId: 0, orderNumber: i.orderNumber, itemType: i.itemType, name: i.name, startOn: i.startOn, endOn: i.endOn });
  }
  const season = { start: isoOrUndefined(reply.season?.start), end: isoOrUndefined(reply.season?.end) };
  const drawn = timelineOf(rows, today, season);
  return { ...drawn, tasks: drawn.tasks.map((t) => ({ ...t, status: 'planned', locked: !movable })) };
}

/** An adjustment of the generator (`{orderNumber, startOn, endOn}`) for one work item moved on the preview. */
export interface PlanAdjustment {
  orderNumber: number;
  startOn: IsoDate;
  endOn: IsoDate;
}

/** The adjustments with one item's new dates, replacing an earlier move of the same item. */
export function withAdjustment(current: unknown, orderNumber: number, startOn: IsoDate, endOn: IsoDate): PlanAdjustment[] {
  const list = Array.isArray(current) ? (current as PlanAdjustment[]).filter((a) => a && a.orderNumber !== orderNumber) : [];
  return [...list, { orderNumber, startOn, endOn }].sort((a, b) => a.orderNumber - b.orderNumber);
}

function isoOrUndefined(value: unknown): IsoDate | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/** Whether any item follows `id` (a move of it may move them, so the plan is read again after it). */
export function hasSuccessors(rows: readonly Pick<PlanItemRow, 'after'>[], id: ItemId): boolean {
  return rows.some((r) => r.after !== undefined && r.after === id);
}

/** The engine's update replaces the whole record and checks the version it was read at. */
export function rescheduleBody(row: PlanItemRow, startOn: IsoDate, endOn: IsoDate): PlanItemRow {
  return { ...row, startOn, endOn };
}
