/**
 * The planting business rules as pure functions (no database, no Fastify), so that they are
 * tested alone and wired wherever a write happens: by the plan generator and the task
 * publisher of this module, and as the engine's hooks on every generic write
 * (./extensions.ts; docs/planting.md, "Rules"). The state machines are data: the `states`
 * and `transitions` of the resource documents, and the center's review in ./review.ts.
 *
 * A rule answers problems, never throws: `{field, key, params}` where `key` is a message of
 * ./messages.ts; the caller turns them into the localised 40001.
 */
import { addDays } from './dates.ts';

export type PlanType = 'growthCycle' | 'keyNodes' | 'seasonWork' | 'pattern';
export type GroupStatus = 'planned' | 'growing' | 'harvested' | 'closed';
export type TaskStatus = 'published' | 'inProgress' | 'done';
export type ReviewStatus = 'draft' | 'submitted' | 'approved' | 'rejected';

/** planTypeId of the route /farmPlantGroup/makePlantPlan/:id/:planTypeId (common data model). */
export const PLAN_TYPE_IDS: Record<number, PlanType> = { 1: 'growthCycle', 2: 'keyNodes', 3: 'seasonWork', 4: 'pattern' };

export interface Material {
  name: string;
  amountPerMu: number;
  unit: string;
}

export interface Template {
  name: string;
  kind: PlanType;
  cropId: number;
  stages?: { name: string; startDay: number; days: number }[];
  keyNodes?: { name: string; day: number }[];
  workItems?: { orderNumber: number; name: string; workTypeId: number; startDay: number; days: number; materials?: Material[] }[];
}

export interface PlanItemDraft {
  orderNumber: number;
  itemType: 'stage' | 'keyNode' | 'work';
  name: string;
  workTypeId?: number;
  startOn: string;
  endOn: string;
  materials?: Material[];
}

export interface Group {
  plantedOn: string;
  seasonStart?: string;
  seasonEnd?: string;
  status?: GroupStatus;
}

export interface Problem {
  field: string;
  key: string;
  params: Record<string, string | number>;
}

/**
 * Every item of a plan made from `template` starting on `startOn` (day 0). A span of `days`
 * days starting on day `startDay` ends on day `startDay + days - 1`; a key node is one day.
 * Items are numbered 1..n: stages, then key nodes, then work items in their template order.
 */
export function planItemsFromTemplate(template: Template, startOn: string): PlanItemDraft[] {
  const items: Omit<PlanItemDraft, 'orderNumber'>[] = [];
  for (const s of template.stages ?? []) {
    items.push({ itemType: 'stage', name: s.name, startOn: addDays(startOn, s.startDay), endOn: addDays(startOn, s.startDay + s.days - 1) });
  }
  for (const k of template.keyNodes ?? []) {
    const on = addDays(startOn, k.day);
    items.push({ itemType: 'keyNode', name: k.name, startOn: on, endOn: on });
  }
  const work = [...(template.workItems ?? [])].sort((a, b) => a.orderNumber - b.orderNumber);
  for (const w of work) {
    items.push({
      itemType: 'work',
      name: w.name,
      workTypeId: w.workTypeId,
      startOn: addDays(startOn, w.startDay),
      endOn: addDays(startOn, w.startDay + w.days - 1),
      ...(w.materials?.length ? { materials: w.materials } : {}),
    });
  }
  return items.map((item, i) => ({ orderNumber: i + 1, ...item }));
}

/** The template's kind must be the plan type asked for (a key-node template makes no growth-cycle plan). */
export function checkTemplateKind(template: Pick<Template, 'kind'>, planType: PlanType, field = 'templateId'): Problem[] {
  return template.kind === planType ? [] : [{ field, key: 'planting.templateKind', params: { kind: template.kind, planType } }];
}

/**
 * Dates inside the group's season and not before its planting date. `field` is where the
 * refusal goes: the plan's start date for a generated plan, the item's own field otherwise.
 * One problem per kind of breach (the earliest offending date), so the sentence stays short.
 */
export function checkGroupDates(dates: { startOn: string; endOn: string }[], group: Group, field = 'startOn'): Problem[] {
  if (dates.length === 0) return [];
  const first = dates.reduce((m, d) => (d.startOn < m ? d.startOn : m), dates[0].startOn);
  const last = dates.reduce((m, d) => (d.endOn > m ? d.endOn : m), dates[0].endOn);
  const problems: Problem[] = [];
  if (first < group.plantedOn) problems.push({ field, key: 'planting.beforePlanting', params: { date: first, plantedOn: group.plantedOn } });
  if (group.seasonStart && first < group.seasonStart) {
    problems.push({ field, key: 'planting.beforeSeason', params: { date: first, seasonStart: group.seasonStart } });
  }
  if (group.seasonEnd && last > group.seasonEnd) problems.push({ field, key: 'planting.afterSeason', params: { date: last, seasonEnd: group.seasonEnd } });
  return problems;
}

/**
 * One item's dates against its group, as a later edit of the item is checked: the start not
 * before planting nor the season, the end not after the season. `fields` name where each
 * refusal goes (the item's own fields, or an adjustment's of a generated plan).
 */
export function checkItemDates(item: { startOn: string; endOn: string }, group: Group, fields = { startOn: 'startOn', endOn: 'endOn' }): Problem[] {
  // One item moves on its own: the advice is to move it, not the whole plan's start date.
  const start = checkGroupDates([{ startOn: item.startOn, endOn: item.startOn }], group, fields.startOn)
    .filter((p) => p.key !== 'planting.afterSeason')
    .map((p) => (p.key === 'planting.beforePlanting' ? { ...p, key: 'planting.itemBeforePlanting' } : p));
  const end = checkGroupDates([{ startOn: item.endOn, endOn: item.endOn }], group, fields.endOn).filter((p) => p.key === 'planting.afterSeason');
  return [...start, ...end];
}

/** New dates for one item of a plan being generated (moved on the preview's timeline before saving). */
export interface Adjustment {
  orderNumber: number;
  startOn: string;
  endOn: string;
}

/**
 * The generated items with the adjustments applied, and the problems of the adjustments,
 * each on its own entry (`adjustments/<i>/<field>`): an item number the plan does not have,
 * an item that is not a work item (stages and key nodes follow the template), an end before
 * the start, dates outside the season or before planting (the rules of a later edit, above).
 * A later adjustment of the same item wins.
 */
export function applyAdjustments(items: readonly PlanItemDraft[], adjustments: readonly Adjustment[], group: Group): { items: PlanItemDraft[]; problems: Problem[] } {
  const byNumber = new Map(items.map((i) => [i.orderNumber, i]));
  const problems: Problem[] = [];
  const dates = new Map<number, { startOn: string; endOn: string }>();
  adjustments.forEach((a, i) => {
    const at = (field: string) => `adjustments/${i}/${field}`;
    const item = byNumber.get(a.orderNumber);
    if (!item) problems.push({ field: at('orderNumber'), key: 'planting.itemMissing', params: { orderNumber: a.orderNumber } });
    else if (item.itemType !== 'work') problems.push({ field: at('orderNumber'), key: 'planting.adjustNotWork', params: { name: item.name } });
    else if (a.endOn < a.startOn) problems.push({ field: at('endOn'), key: 'planting.endBeforeStart', params: { name: item.name, endOn: a.endOn, startOn: a.startOn } });
    else {
      const wrong = checkItemDates(a, group, { startOn: at('startOn'), endOn: at('endOn') });
      if (wrong.length) problems.push(...wrong);
      else dates.set(a.orderNumber, { startOn: a.startOn, endOn: a.endOn });
    }
  });
  return { items: items.map((i) => (dates.has(i.orderNumber) ? { ...i, ...dates.get(i.orderNumber) } : i)), problems };
}

/** A closed group refuses every change to itself and to what hangs on it (plans, items, tasks, records). */
export function refuseIfClosed(group: Pick<Group, 'status'>, field = 'groupId'): Problem[] {
  return group.status === 'closed' ? [{ field, key: 'planting.groupClosed', params: {} }] : [];
}

/**
 * A task only from an item of the group's own plan: the item belongs to the plan, and the plan
 * to the task's group. Ids are compared as numbers (records hold numbers, routes strings).
 */
export function checkTaskFromOwnPlan(
  task: { groupId: number; planId: number },
  plan: { id: number; groupId: number },
  item: { planId: number },
): Problem[] {
  if (Number(item.planId) !== Number(plan.id) || Number(task.planId) !== Number(plan.id)) {
    return [{ field: 'planItemId', key: 'planting.itemNotInPlan', params: {} }];
  }
  if (Number(plan.groupId) !== Number(task.groupId)) return [{ field: 'planId', key: 'planting.planNotOfGroup', params: {} }];
  return [];
}

/** Assignees must be people of the group's farm; `farmUserIds` are the ids of that farm's users. */
export function checkAssignees(assigneeIds: number[], farmUserIds: ReadonlySet<number>): Problem[] {
  const strangers = assigneeIds.filter((id) => !farmUserIds.has(Number(id)));
  return strangers.length ? [{ field: 'assigneeIds', key: 'planting.assigneeNotOfFarm', params: { ids: strangers.join(', ') } }] : [];
}

/** A task's start and due dates against its group (season and planting date). */
export function checkTaskDates(task: { startOn: string; dueOn: string }, group: Group): Problem[] {
  if (task.dueOn < task.startOn) return [{ field: 'dueOn', key: 'planting.dueBeforeStart', params: { dueOn: task.dueOn, startOn: task.startOn } }];
  const problems = checkGroupDates([{ startOn: task.startOn, endOn: task.startOn }], group, 'startOn');
  return problems.concat(checkGroupDates([{ startOn: task.dueOn, endOn: task.dueOn }], group, 'dueOn').filter((p) => p.key === 'planting.afterSeason'));
}

/** Overdue is derived, never stored: not done and due before today. */
export function isOverdue(task: { status: TaskStatus; dueOn: string }, todayIso: string): boolean {
  return task.status !== 'done' && task.dueOn < todayIso;
}

/** A record only on a task of the caller's farm (the record's owner farm is the caller's). */
export function checkRecordOnOwnTask(taskFarmId: number | null, recordFarmId: number | null): Problem[] {
  return taskFarmId !== null && taskFarmId === recordFarmId ? [] : [{ field: 'taskId', key: 'planting.taskNotOfFarm', params: {} }];
}

// ——— finish-to-start dependencies between work items (docs/planting.md, "Dependencies") ———

/** A work item of a plan as the dependency rules see it: `after` names its predecessor's id. */
export interface LinkedItem {
  id: number;
  name: string;
  itemType: string;
  planId: number;
  startOn: string;
  endOn: string;
  after?: number;
  lagDays?: number;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The first day an item may start on after its predecessor: the day after the predecessor's end, plus the lag. */
export function earliestStart(predecessor: Pick<LinkedItem, 'endOn'>, lagDays = 0): string {
  return addDays(predecessor.endOn, 1 + lagDays);
}

/**
 * The item's predecessor, as named by `after`: a work item (both of them), of the same plan,
 * not the item itself, not one that already comes after the item (a loop), and the item
 * starting no earlier than the predecessor's end + 1 + lag. `plan` holds the plan's items as
 * stored (to follow the chain of predecessors); `predecessor` is null when `after` names no
 * record of the item's farm (the engine's reference check refuses that on `after`).
 */
export function checkPredecessor(
  item: Omit<LinkedItem, 'id'> & { id?: number },
  predecessor: Pick<LinkedItem, 'id' | 'name' | 'itemType' | 'planId' | 'endOn' | 'after'> | null,
  plan: readonly Pick<LinkedItem, 'id' | 'name' | 'after'>[],
): Problem[] {
  if (item.after === undefined || !predecessor) return [];
  if (item.itemType !== 'work') return [{ field: 'after', key: 'planting.dependencyNotWork', params: { name: item.name } }];
  if (item.id !== undefined && predecessor.id === item.id) return [{ field: 'after', key: 'planting.dependencySelf', params: {} }];
  if (Number(predecessor.planId) !== Number(item.planId)) return [{ field: 'after', key: 'planting.dependencyOtherPlan', params: { name: predecessor.name } }];
  if (predecessor.itemType !== 'work') return [{ field: 'after', key: 'planting.dependencyNotWork', params: { name: predecessor.name } }];
  if (item.id !== undefined) {
    // Each item has one predecessor at most, so a loop is the item met again up its predecessor's chain.
    const byId = new Map(plan.map((i) => [i.id, i]));
    const seen = new Set<number>();
    for (let at: number | undefined = predecessor.after; at !== undefined && !seen.has(at); at = byId.get(at)?.after) {
      if (at === item.id) return [{ field: 'after', key: 'planting.dependencyCycle', params: { name: predecessor.name } }];
      seen.add(at);
    }
  }
  const earliest = earliestStart(predecessor, item.lagDays ?? 0);
  if (item.startOn < earliest) {
    return [
      {
        field: 'startOn',
        key: 'planting.dependencyTooEarly',
        params: { name: item.name, predecessor: predecessor.name, endOn: predecessor.endOn, lagDays: item.lagDays ?? 0, earliest },
      },
    ];
  }
  return [];
}

/**
 * What moving `movedId` to its new dates does to the items after it: every successor that
 * would start before its predecessor's end + 1 + lag moves forward by the days it lacks
 * (keeping its length), then its own successors likewise, transitively. An item never moves
 * earlier. A successor pushed past the season's end is a problem on `field` (the moved
 * item's end, which pushed it), and then nothing is to be moved.
 */
export function pushSuccessors(
  items: readonly LinkedItem[],
  moved: Pick<LinkedItem, 'id' | 'endOn'>,
  group: Pick<Group, 'seasonEnd'>,
  field = 'endOn',
): { moves: { id: number; startOn: string; endOn: string }[]; problems: Problem[] } {
  const dates = new Map(items.map((i) => [i.id, { startOn: i.startOn, endOn: i.endOn }]));
  dates.set(moved.id, { startOn: dates.get(moved.id)?.startOn ?? moved.endOn, endOn: moved.endOn });
  const successors = new Map<number, LinkedItem[]>();
  for (const i of items) {
    if (i.after === undefined || i.itemType !== 'work') continue;
    successors.set(i.after, [...(successors.get(i.after) ?? []), i]);
  }
  const moves = new Map<number, { id: number; startOn: string; endOn: string }>();
  const queue = [moved.id];
  let steps = 0;
  while (queue.length && steps++ < 100_000) {
    const id = queue.shift()!;
    const end = dates.get(id)!.endOn;
    for (const s of successors.get(id) ?? []) {
      if (s.id === moved.id) continue;
      const at = dates.get(s.id)!;
      const earliest = earliestStart({ endOn: end }, s.lagDays ?? 0);
      if (at.startOn >= earliest) continue;
      const shift = daysFrom(at.startOn, earliest);
      const next = { id: s.id, startOn: earliest, endOn: addDays(at.endOn, shift) };
      if (group.seasonEnd && next.endOn > group.seasonEnd) {
        return {
          moves: [],
          problems: [{ field, key: 'planting.successorAfterSeason', params: { name: s.name, startOn: next.startOn, endOn: next.endOn, seasonEnd: group.seasonEnd } }],
        };
      }
      dates.set(s.id, next);
      moves.set(s.id, next);
      queue.push(s.id);
    }
  }
  return { moves: [...moves.values()], problems: [] };
}
