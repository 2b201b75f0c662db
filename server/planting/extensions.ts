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
import type { CreateContext, DeleteContext, ResourceExtension, TransitionContext, UpdateContext } from '../resources/extensions.ts';
import { invalidInput } from '../resources/validation.ts';
import './messages.ts';
import { farmRecordTarget, referable } from '../resources/references.ts';
import {
  checkItemDates,
  checkAssignees,
  checkGroupDates,
  checkRecordOnOwnTask,
  checkTaskDates,
  checkTaskFromOwnPlan,
  checkTemplateKind,
  refuseIfClosed,
  type Group,
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

const items: ResourceExtension = {
  resource: 'planItems',
  hooks: {
    beforeCreate: async (ctx) => checkItem(ctx.tx, ctx.data, ctx.farmId, ctx.lang),
    beforeUpdate: async (ctx) => checkItem(ctx.tx, ctx.data, ctx.farmId, ctx.lang),
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
  },
};

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
