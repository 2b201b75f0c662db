/**
 * The planting rules (./rules.ts) on every generic write of the engine: handed to the
 * resource engine in server/modules.ts, they run inside the write's transaction after the
 * engine's authority, scope and version checks, so a refusal changes nothing.
 *
 * Referenced records are read whatever their farm and compared with the farm of the record
 * being written: a reference to another farm's record is left to the engine's own reference
 * check (it runs after these hooks and answers "not found" on the field), so nothing here
 * tells a caller about another farm's data.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { CreateContext, CreatedContext, DeleteContext, ResourceExtension, TransitionContext, UpdateContext } from '../resources/extensions.ts';
import { audit } from '../audit/log.ts';
import { diffRecords } from '../resources/diff.ts';
import { invalidInput } from '../resources/validation.ts';
import './messages.ts';
import { farmRecordTarget, referable, refuseUnreferable } from '../resources/references.ts';
import {
  checkItemDates,
  checkAssignees,
  checkGroupDates,
  checkRecordOnOwnTask,
  checkTaskDates,
  checkTaskFromOwnPlan,
  checkTemplateKind,
  checkPredecessor,
  pushSuccessors,
  refuseIfClosed,
  type Group,
  type LinkedItem,
  type PlanType,
  type Problem,
} from './rules.ts';

interface Row<T> {
  id: number;
  farmId: number | null;
  data: T;
}

type Data = Record<string, unknown>;
type GroupData = Group & { fieldIds?: number[] };

function refuse(problems: Problem[], lang: Lang): void {
  if (problems.length === 0) return;
  const errors: FieldError[] = problems.map((p) => ({ field: p.field, message: t(lang, p.key, p.params) }));
  throw invalidInput(errors, lang);
}

async function load<T = Data>(tx: Queryable, resource: string, id: unknown, lock: '' | 'FOR SHARE' = ''): Promise<Row<T> | null> {
  if (typeof id !== 'number') return null;
  const { rows } = await tx.query<{ id: number; farm_id: number | null; data: T }>(
    `SELECT id, farm_id, data FROM resource_records WHERE resource = $1 AND id = $2 ${lock}`,
    [resource, id],
  );
  const r = rows[0];
  return r ? { id: Number(r.id), farmId: r.farm_id === null ? null : Number(r.farm_id), data: r.data } : null;
}

/** A referenced record of the written record's farm, or null (missing or another farm's: the engine refuses it). */
async function loadOfFarm<T = Data>(tx: Queryable, resource: string, id: unknown, farmId: number | null, lock: '' | 'FOR SHARE' = ''): Promise<Row<T> | null> {
  const row = await load<T>(tx, resource, id, lock);
  return row && row.farmId === farmId ? row : null;
}

/**
 * The group a record hangs on, through its plan or task when it names no group. The group's
 * row is share-locked until the write commits, so a concurrent close (which locks it for
 * update) waits for the write or the write for the close: never both.
 */
async function groupOf(tx: Queryable, resource: string, data: Data, farmId: number | null): Promise<Row<GroupData> | null> {
  const group = (id: unknown) => loadOfFarm<GroupData>(tx, 'plantGroups', id, farmId, 'FOR SHARE');
  switch (resource) {
    case 'plantGroups':
      return null;
    case 'plantPlans':
    case 'farmingTasks':
      return group(data.groupId);
    case 'planItems':
    case 'growthObservations': {
      const plan = await loadOfFarm<Data>(tx, 'plantPlans', data.planId, farmId);
      return plan ? group(plan.data.groupId) : null;
    }
    case 'farmingRecords': {
      const task = await loadOfFarm<Data>(tx, 'farmingTasks', data.taskId, farmId);
      return task ? group(task.data.groupId) : null;
    }
    default:
      return null;
  }
}

/** The field a closed group's refusal is shown on, per resource (where the group is named or reached). */
const CLOSED_FIELD: Record<string, string> = {
  plantGroups: 'status',
  plantPlans: 'groupId',
  farmingTasks: 'groupId',
  planItems: 'planId',
  growthObservations: 'planId',
  farmingRecords: 'taskId',
};

/** A closed group refuses every change to what hangs on it: before and after the write, the group must be open. */
async function refuseClosedGroup(tx: Queryable, resource: string, records: Data[], farmId: number | null, lang: Lang): Promise<void> {
  for (const data of records) {
    const group = await groupOf(tx, resource, data, farmId);
    if (group) refuse(refuseIfClosed(group.data, CLOSED_FIELD[resource]), lang);
  }
}

/** Closed groups refuse writes on `resource`'s records: create, update (the stored and the new record), delete and transitions. */
function closedGroupGuard(resource: string): ResourceExtension {
  return {
    resource,
    hooks: {
      beforeCreate: async (ctx: CreateContext) => refuseClosedGroup(ctx.tx, resource, [ctx.data], ctx.farmId, ctx.lang),
      beforeUpdate: async (ctx: UpdateContext) => refuseClosedGroup(ctx.tx, resource, [ctx.current, ctx.data], ctx.farmId, ctx.lang),
      beforeDelete: async (ctx: DeleteContext) => {
        for (const id of ctx.ids) await refuseClosedGroup(ctx.tx, resource, [ctx.current.get(id) ?? {}], ctx.farmIds.get(id) ?? null, ctx.lang);
      },
      beforeTransition: async (ctx: TransitionContext) => refuseClosedGroup(ctx.tx, resource, [ctx.current], ctx.farmId, ctx.lang),
    },
  };
}

// ——— plantGroups ————————————————————————————————————————————————————————————————

/** A closed group itself: no edit, no deletion (its season is the record the comparison and trace keep). */
function refuseClosedItself(current: Data, lang: Lang): void {
  refuse(refuseIfClosed(current as Pick<Group, 'status'>, 'status'), lang);
}

/** Every plot of the group is one of its farm's plots. */
async function checkPlots(tx: Queryable, data: Data, farmId: number | null, lang: Lang): Promise<void> {
  const ids = Array.isArray(data.fieldIds) ? (data.fieldIds as number[]) : [];
  if (ids.length === 0) return;
  // The engine's reference rule (resources/references.ts) for a list of ids: the group's farm's plots only.
  const found = await referable(tx, farmRecordTarget('farmFields'), { farmId, blocId: null }, ids.map(Number));
  const strangers = ids.filter((id) => !found.has(Number(id)));
  if (strangers.length) refuse([{ field: 'fieldIds', key: 'planting.plotNotOfFarm', params: { ids: strangers.join(', ') } }], lang);
}

const groups: ResourceExtension = {
  resource: 'plantGroups',
  hooks: {
    beforeCreate: async (ctx) => checkPlots(ctx.tx, ctx.data, ctx.farmId, ctx.lang),
    beforeUpdate: async (ctx) => {
      refuseClosedItself(ctx.current, ctx.lang);
      await checkPlots(ctx.tx, ctx.data, ctx.farmId, ctx.lang);
    },
    beforeDelete: async (ctx) => {
      for (const current of ctx.current.values()) refuseClosedItself(current, ctx.lang);
    },
  },
};

// ——— plantPlans ————————————————————————————————————————————————————————————————

/** A plan's start date inside its group's season and not before planting; its template of its kind. */
async function checkPlan(tx: Queryable, data: Data, farmId: number | null, lang: Lang): Promise<void> {
  const group = await loadOfFarm<GroupData>(tx, 'plantGroups', data.groupId, farmId);
  const template = await loadOfFarm<{ kind: PlanType }>(tx, 'planTemplates', data.templateId, farmId);
  const problems: Problem[] = [];
  if (group && typeof data.startOn === 'string') problems.push(...checkGroupDates([{ startOn: data.startOn, endOn: data.startOn }], group.data, 'startOn'));
  if (template && typeof data.planType === 'string') problems.push(...checkTemplateKind(template.data, data.planType as PlanType));
  refuse(problems, lang);
}

/**
 * The rejection reason is written only by the center's reject (review.ts), as the engine
 * keeps the fields of declared transitions: sent back unchanged it is kept, a different
 * value is refused on the field.
 */
function keepRejectReason(data: Data, stored: Data, lang: Lang): void {
  const kept = stored.rejectReason;
  if (data.rejectReason !== undefined && data.rejectReason !== (kept ?? null)) {
    refuse([{ field: 'rejectReason', key: 'planting.reasonOwned', params: {} }], lang);
  }
  if (typeof kept === 'string') data.rejectReason = kept;
  else delete data.rejectReason;
  // The review history is the center's too: kept as stored whatever the farm sends.
  if (Array.isArray(stored.reviewHistory)) data.reviewHistory = stored.reviewHistory;
  else delete data.reviewHistory;
}

const plans: ResourceExtension = {
  resource: 'plantPlans',
  hooks: {
    beforeCreate: async (ctx) => {
      keepRejectReason(ctx.data, {}, ctx.lang);
      await checkPlan(ctx.tx, ctx.data, ctx.farmId, ctx.lang);
    },
    beforeUpdate: async (ctx) => {
      keepRejectReason(ctx.data, ctx.current, ctx.lang);
      await checkPlan(ctx.tx, ctx.data, ctx.farmId, ctx.lang);
    },
  },
};

// ——— planItems ————————————————————————————————————————————————————————————————

async function checkItem(tx: Queryable, data: Data, farmId: number | null, lang: Lang): Promise<void> {
  const group = await groupOf(tx, 'planItems', data, farmId);
  if (!group || typeof data.startOn !== 'string' || typeof data.endOn !== 'string') return;
  refuse(checkItemDates({ startOn: data.startOn, endOn: data.endOn }, group.data), lang);
}

type StoredItem = LinkedItem & { version: number; data: Data };

function linked(id: number, d: Data, version = 0): StoredItem {
  return {
    id,
    version,
    data: d,
    name: String(d.name ?? ''),
    itemType: String(d.itemType ?? ''),
    planId: Number(d.planId),
    startOn: String(d.startOn ?? ''),
    endOn: String(d.endOn ?? ''),
    ...(typeof d.after === 'number' ? { after: d.after } : {}),
    ...(typeof d.lagDays === 'number' ? { lagDays: d.lagDays } : {}),
  };
}

/** The items of one plan of the farm, locked for update when they may be moved. */
async function itemsOfPlan(tx: Queryable, planId: unknown, farmId: number | null, forUpdate: boolean): Promise<StoredItem[]> {
  if (typeof planId !== 'number') return [];
  const { rows } = await tx.query<{ id: number; version: number; data: Data }>(
    `SELECT id, version, data FROM resource_records
      WHERE resource = 'planItems' AND farm_id IS NOT DISTINCT FROM $1 AND (data->>'planId')::numeric = $2
      ORDER BY id ${forUpdate ? 'FOR UPDATE' : ''}`,
    [farmId, planId],
  );
  return rows.map((r) => linked(Number(r.id), r.data, Number(r.version)));
}

/**
 * A finish-to-start dependency (`after`, `lagDays`): the predecessor a work item of the same
 * plan, no loop, and the item starting no earlier than the predecessor's end + 1 + lag. A lag
 * without a predecessor means nothing and is not kept; a predecessor without a lag has lag 0.
 */
async function checkDependency(tx: Queryable, doc: ResourceDocument, data: Data, id: number | undefined, farmId: number | null, lang: Lang): Promise<void> {
  if (data.after === undefined || data.after === null) {
    delete data.after;
    delete data.lagDays;
    return;
  }
  if (data.lagDays === undefined) data.lagDays = 0;
  // The engine's reference rule, by hand (a farm's record may not declare a reference to its own
  // resource): another farm's item answers as a missing one, and the row is share-locked.
  await refuseUnreferable(tx, { farmId, blocId: null }, [{ field: 'after', target: { ...farmRecordTarget('planItems'), title: doc.title }, ids: [Number(data.after)] }], lang);
  const predecessor = await loadOfFarm<Data>(tx, 'planItems', data.after, farmId);
  const plan = predecessor && id !== undefined ? await itemsOfPlan(tx, data.planId, farmId, false) : [];
  refuse(checkPredecessor({ ...linked(id ?? 0, data), id }, predecessor ? linked(predecessor.id, predecessor.data) : null, plan), lang);
}

/** A work item that others follow stays a work item (their dependency would name a stage or a key node). */
async function keepPredecessorWork(tx: Queryable, id: number, data: Data, current: Data, lang: Lang): Promise<void> {
  if (current.itemType !== 'work' || data.itemType === 'work') return;
  const { rows } = await tx.query(`SELECT 1 FROM resource_records WHERE resource = 'planItems' AND (data->>'after')::numeric = $1 LIMIT 1`, [id]);
  if (rows.length) refuse([{ field: 'itemType', key: 'planting.hasSuccessors', params: { name: String(current.name ?? '') } }], lang);
}

/**
 * A work item whose end moved later pushes its successors (transitively) as far forward as
 * their dependencies need, in the write's transaction: each moved successor's version rises
 * and the operation log keeps the change (`planItems.update`). A successor pushed past the
 * season's end refuses the whole write on the moved item's `endOn`.
 */
async function moveSuccessors(ctx: UpdateContext): Promise<void> {
  const { tx, data, current } = ctx;
  if (data.itemType !== 'work' || typeof data.endOn !== 'string') return;
  if (typeof current.endOn === 'string' && data.endOn <= current.endOn && current.planId === data.planId) return;
  const plan = await itemsOfPlan(tx, data.planId, ctx.farmId, true);
  if (!plan.some((i) => i.after !== undefined)) return;
  const group = await groupOf(tx, 'planItems', data, ctx.farmId);
  const { moves, problems } = pushSuccessors(plan, { id: ctx.id, endOn: data.endOn }, group?.data ?? {});
  refuse(problems, ctx.lang);
  const byId = new Map(plan.map((i) => [i.id, i]));
  for (const m of moves) {
    const item = byId.get(m.id)!;
    const next = { ...item.data, startOn: m.startOn, endOn: m.endOn };
    const { rows } = await tx.query<{ version: number }>(
      `UPDATE resource_records SET data = $1, version = version + 1, updated_by = $2, updated_at = now() WHERE id = $3 RETURNING version`,
      [JSON.stringify(next), ctx.user.id, m.id],
    );
    const version = Number(rows[0].version);
    await audit(tx, ctx.req, {
      action: 'planItems.update',
      resource: 'planItems',
      recordId: m.id,
      changes: { farmId: ctx.farmId, version: { from: version - 1, to: version }, fields: diffRecords(item.data, next) },
    });
  }
}

/**
 * A deleted item's successors lose their dependency (they keep their dates): `after` and
 * `lagDays` are removed, the version rises and the operation log keeps the change.
 */
async function releaseSuccessors(ctx: DeleteContext): Promise<void> {
  if (!ctx.ids.length) return;
  const p = new Params();
  const { rows } = await ctx.tx.query<{ id: number; farm_id: number | null; data: Data }>(
    `SELECT id, farm_id, data FROM resource_records WHERE resource = 'planItems' AND (data->>'after')::numeric = ANY(${p.add(ctx.ids)}::numeric[]) ORDER BY id FOR UPDATE`,
    p.values,
  );
  for (const r of rows) {
    const { after: _after, lagDays: _lag, ...next } = r.data;
    const { rows: v } = await ctx.tx.query<{ version: number }>(
      `UPDATE resource_records SET data = $1, version = version + 1, updated_by = $2, updated_at = now() WHERE id = $3 RETURNING version`,
      [JSON.stringify(next), ctx.user.id, r.id],
    );
    const version = Number(v[0].version);
    await audit(ctx.tx, ctx.req, {
      action: 'planItems.update',
      resource: 'planItems',
      recordId: Number(r.id),
      changes: { farmId: r.farm_id === null ? null : Number(r.farm_id), version: { from: version - 1, to: version }, fields: diffRecords(r.data, next) },
    });
  }
}

const items: ResourceExtension = {
  resource: 'planItems',
  hooks: {
    beforeCreate: async (ctx) => {
      delete ctx.data.taskStatus;
      await checkItem(ctx.tx, ctx.data, ctx.farmId, ctx.lang);
      await checkDependency(ctx.tx, ctx.doc, ctx.data, undefined, ctx.farmId, ctx.lang);
    },
    beforeUpdate: async (ctx) => {
      delete ctx.data.taskStatus;
      await checkItem(ctx.tx, ctx.data, ctx.farmId, ctx.lang);
      await keepPredecessorWork(ctx.tx, ctx.id, ctx.data, ctx.current, ctx.lang);
      await checkDependency(ctx.tx, ctx.doc, ctx.data, ctx.id, ctx.farmId, ctx.lang);
    },
    afterUpdate: async (ctx) => moveSuccessors(ctx),
    afterDelete: async (ctx) => releaseSuccessors(ctx),
    // Which items have a task, and its state: the plan shows it, and offers «发布任务» only
    // for an item without one (the publish route refuses a second task anyway).
    augmentRows: async ({ db, rows }) => {
      const ids = rows.map((r) => Number(r.id)).filter((id) => Number.isFinite(id));
      if (!ids.length) return;
      const p = new Params();
      const { rows: found } = await db.query<{ item: string; status: string }>(
        `SELECT DISTINCT ON ((data->>'planItemId')::numeric) data->>'planItemId' AS item, data->>'status' AS status
           FROM resource_records WHERE resource = 'farmingTasks' AND (data->>'planItemId')::numeric = ANY(${p.add(ids)}::numeric[])
          ORDER BY (data->>'planItemId')::numeric, id DESC`,
        p.values,
      );
      const status = new Map(found.map((f) => [Number(f.item), f.status]));
      for (const row of rows) {
        const s = status.get(Number(row.id));
        if (s) row.taskStatus = s;
        else delete row.taskStatus;
      }
    },
  },
};

// ——— farmingTasks ————————————————————————————————————————————————————————————————

async function farmUserIds(tx: Queryable, farmId: number | null): Promise<Set<number>> {
  const { rows } = await tx.query<{ id: number }>('SELECT id FROM users WHERE org_id = $1', [farmId]);
  return new Set(rows.map((u) => Number(u.id)));
}

/** A task only from an item of its group's own plan, assigned to people of the farm, dated inside the group's season. */
async function checkTask(tx: Queryable, data: Data, farmId: number | null, lang: Lang): Promise<void> {
  const group = await loadOfFarm<GroupData>(tx, 'plantGroups', data.groupId, farmId);
  const plan = await loadOfFarm<{ groupId: number }>(tx, 'plantPlans', data.planId, farmId);
  const item = await loadOfFarm<{ planId: number }>(tx, 'planItems', data.planItemId, farmId);
  const problems: Problem[] = [];
  if (group && plan && item) {
    problems.push(...checkTaskFromOwnPlan({ groupId: group.id, planId: Number(data.planId) }, { id: plan.id, groupId: plan.data.groupId }, item.data));
  }
  if (Array.isArray(data.assigneeIds)) problems.push(...checkAssignees(data.assigneeIds as number[], await farmUserIds(tx, farmId)));
  if (group && typeof data.startOn === 'string' && typeof data.dueOn === 'string') {
    problems.push(...checkTaskDates({ startOn: data.startOn, dueOn: data.dueOn }, group.data));
  }
  refuse(problems, lang);
}

const tasks: ResourceExtension = {
  resource: 'farmingTasks',
  hooks: {
    beforeCreate: async (ctx) => checkTask(ctx.tx, ctx.data, ctx.farmId, ctx.lang),
    beforeUpdate: async (ctx) => checkTask(ctx.tx, ctx.data, ctx.farmId, ctx.lang),
  },
};

// ——— farmingRecords ————————————————————————————————————————————————————————————————

/** A record only on a task of the caller's farm: the record's farm and the task's are one. */
async function checkRecordTask(tx: Queryable, data: Data, farmId: number | null, lang: Lang): Promise<void> {
  const task = await load(tx, 'farmingTasks', data.taskId);
  // A missing task is the engine's reference refusal; one of another farm is told here, without its details.
  if (task) refuse(checkRecordOnOwnTask(task.farmId, farmId), lang);
}

const records: ResourceExtension = {
  resource: 'farmingRecords',
  hooks: {
    beforeCreate: async (ctx) => checkRecordTask(ctx.tx, ctx.data, ctx.farmId, ctx.lang),
    beforeUpdate: async (ctx) => checkRecordTask(ctx.tx, ctx.data, ctx.farmId, ctx.lang),
    afterCreate: async (ctx) => closeTaskByRecord(ctx),
  },
};

type TaskMaterial = { name: string; amount: number; unit: string };
type UsedMaterial = { name: string; quantity: number; unit: string };

/**
 * What is still short of the task's planned materials once its records are counted: the
 * planned amount per name and unit less what the records used (docs/planting.md, "Work
 * closes itself"). Empty: nothing planned is missing.
 */
export function materialsShort(planned: readonly TaskMaterial[], used: readonly UsedMaterial[]): string[] {
  const key = (name: string, unit: string) => `${name.trim()}\u0000${unit.trim()}`;
  const total = new Map<string, number>();
  for (const m of used) total.set(key(m.name, m.unit), (total.get(key(m.name, m.unit)) ?? 0) + (Number(m.quantity) || 0));
  return planned.filter((m) => Number(m.amount) > 0 && (total.get(key(m.name, m.unit)) ?? 0) + 1e-9 < Number(m.amount)).map((m) => m.name);
}

/**
 * Recording work moves its task on: `finishesTask` true closes it (done), false keeps it open
 * (in progress); absent, the task is done unless the records so far used less of a planned
 * material than the task planned (partial work: in progress, and the form asks). A done task
 * stays done. The task's version rises and the operation log keeps the change.
 */
async function closeTaskByRecord(ctx: CreatedContext): Promise<void> {
  const { tx, data } = ctx;
  const task = await loadOfFarm<Data>(tx, 'farmingTasks', data.taskId, ctx.farmId);
  if (!task || task.data.status === 'done') return;
  let finished: boolean;
  if (typeof data.finishesTask === 'boolean') finished = data.finishesTask;
  else {
    const { rows } = await tx.query<{ materials: UsedMaterial[] | null }>(
      `SELECT data->'materials' AS materials FROM resource_records WHERE resource = 'farmingRecords' AND farm_id IS NOT DISTINCT FROM $1 AND (data->>'taskId')::numeric = $2`,
      [ctx.farmId, task.id],
    );
    const planned = Array.isArray(task.data.materials) ? (task.data.materials as TaskMaterial[]) : [];
    finished = materialsShort(planned, rows.flatMap((r) => (Array.isArray(r.materials) ? r.materials : []))).length === 0;
  }
  const status = finished ? 'done' : 'inProgress';
  if (task.data.status === status) return;
  const next = { ...task.data, status };
  const { rows } = await tx.query<{ version: number }>(
    `UPDATE resource_records SET data = $1, version = version + 1, updated_by = $2, updated_at = now() WHERE id = $3 RETURNING version`,
    [JSON.stringify(next), ctx.user.id, task.id],
  );
  const version = Number(rows[0].version);
  await audit(tx, ctx.req, {
    action: `farmingTasks.${finished ? 'finish' : 'start'}`,
    resource: 'farmingTasks',
    recordId: task.id,
    changes: { farmId: task.farmId, version: { from: version - 1, to: version }, fields: diffRecords(task.data, next) },
  });
}

// ——— templates' line items ————————————————————————————————————————————————————————————————

/** Every work item of a template names a farm-work type that exists (a line item has no reference check of its own). */
async function checkWorkTypes(tx: Queryable, data: Data, lang: Lang): Promise<void> {
  const work = Array.isArray(data.workItems) ? (data.workItems as { workTypeId?: unknown }[]) : [];
  const ids = work.map((w) => w.workTypeId).filter((id): id is number => typeof id === 'number');
  if (ids.length === 0) return;
  const p = new Params();
  const { rows } = await tx.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmWorkTypes' AND id = ANY(${p.add(ids)}::bigint[])`, p.values);
  const found = new Set(rows.map((r) => Number(r.id)));
  const problems: Problem[] = [];
  work.forEach((w, i) => {
    if (typeof w.workTypeId === 'number' && !found.has(w.workTypeId)) {
      problems.push({ field: `workItems.${i}.workTypeId`, key: 'planting.workTypeMissing', params: { id: w.workTypeId } });
    }
  });
  refuse(problems, lang);
}

function workTypesExist(resource: string): ResourceExtension {
  return {
    resource,
    hooks: {
      beforeCreate: async (ctx) => checkWorkTypes(ctx.tx, ctx.data, ctx.lang),
      beforeUpdate: async (ctx) => checkWorkTypes(ctx.tx, ctx.data, ctx.lang),
    },
  };
}

/** The closed-group guards first: a closed season is told before any other problem of the write. */
export const plantingResourceExtensions: ResourceExtension[] = [
  ...['plantPlans', 'planItems', 'farmingTasks', 'farmingRecords', 'growthObservations'].map(closedGroupGuard),
  groups,
  plans,
  items,
  tasks,
  records,
  workTypesExist('planTemplates'),
  workTypesExist('systemTemplates'),
];
