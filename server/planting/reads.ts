/**
 * Read calls the planting screens need beyond the engine's pages: options of the plan and
 * publish forms, a task's plan item against its records, a group's trace in time order,
 * and the planting rules submitted for review. Every farm read keeps the caller's scope:
 * another farm's id answers 40401 like a missing one.
 */
import type { TypedApp } from '../http/typed-routes.ts';
import { Params } from '../db/params.ts';
import { notFound, ok } from '../http/envelope.ts';
import { requireAnyMenu, requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import { ident, ROW_FROM, rowSelect, rowView, scopeCondition, type RecordRow } from '../resources/sql.ts';
import { refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { pageOf } from '../resources/page.ts';
import { okObject, okPage } from '../admin/schemas.ts';
import { compareItemWithRecords, type DoneRecord, type PlannedItem } from './comparison.ts';
import { today } from './dates.ts';
import type { PlantingRecords } from './records.ts';
import { PLAN_TYPE_IDS } from './plan-types.ts';

const tags = ['planting'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id } } as const;
export const RULE_REVIEW_MENUS = ['cropPlantingRule', 'plantAdmin'];

type Row = { id: number; data: Record<string, unknown> };
type Paging = { pageIndex?: number; pageSize?: number };
const pagingQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { pageIndex: { type: 'integer', minimum: 1, maximum: 100000 }, pageSize: { type: 'integer', minimum: 1, maximum: 500 } },
} as const;

/** One page of rows computed in full (a plan's items, a season's events: hundreds at most). */
function pageOfAll<T>(all: T[], q: Paging) {
  const pageIndex = q.pageIndex ?? 1;
  const pageSize = q.pageSize ?? 500;
  return pageOf(all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), all.length, pageIndex, pageSize);
}

export function registerReads(app: TypedApp, store: PlantingRecords) {
  const plans = store.doc('plantPlans');
  const tasks = store.doc('farmingTasks');
  const groups = store.doc('plantGroups');

  app.get(
    '/farmPlantGroup/plans/templateOptions',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The caller’s farm plan templates of one kind, as options {value, label} (planTypeId 1 growthCycle, 2 keyNodes, 3 seasonWork, 4 pattern)',
        description: 'Needs the element code that creates plantPlans.',
        querystring: { type: 'object', additionalProperties: false, required: ['planTypeId'], properties: { planTypeId: { type: 'integer', minimum: 1, maximum: 4 } } },
      },
    },
    async (req) => {
      const me = requireCan(req, plans, 'create');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const doc = store.doc('planTemplates');
      const p = new Params();
      const { rows } = await app.db.query<Row>(
        `SELECT r.id, r.data FROM resource_records r WHERE r.resource = ${ident(doc.name)} AND ${scopeCondition(doc, me, p)} AND r.data->>'kind' = ${p.add(PLAN_TYPE_IDS[req.query.planTypeId])} ORDER BY r.data->>'name', r.id LIMIT 500`,
        p.values,
      );
      return ok(rows.map((r) => ({ value: Number(r.id), label: String(r.data.name) })));
    },
  );

  app.get(
    '/farmPlantGroup/tasks/assigneeOptions',
    { schema: { tags, summary: 'The people of the caller’s farm a task can be given to, as options {value, label}', description: 'Needs the element code that creates farmingTasks.' } },
    async (req) => {
      const me = requireCan(req, tasks, 'create');
      if (me.orgId === null) return ok([]);
      const { rows } = await app.db.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE org_id = $1 AND status = 1 ORDER BY name, id', [me.orgId]);
      return ok(rows.map((u) => ({ value: Number(u.id), label: u.name })));
    },
  );

  app.get(
    '/farmPlantGroup/tasks/:id/comparison',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'A farming task with its plan item and what its records show: on time, late, early, missing (nothing recorded after the item’s end) or pending; materials recorded beyond the plan and planned ones not used',
        description: 'Needs read access to farmingTasks. A task outside the caller’s farm answers 40401.',
        params: idParams,
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, tasks, 'read');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const task = await store.find<{ planItemId: number; title: string; startOn: string; dueOn: string; status: string }>(app.db, me, 'farmingTasks', req.params.id);
      if (!task) throw notFound();
      const item = await store.find<PlannedItem & { name: string; orderNumber: number }>(app.db, me, 'planItems', task.data.planItemId);
      if (!item) throw notFound();
      const records = store.doc('farmingRecords');
      const p = new Params();
      const { rows } = await app.db.query<{ data: DoneRecord }>(
        `SELECT r.data FROM resource_records r WHERE r.resource = ${ident(records.name)} AND ${scopeCondition(records, me, p)} AND (r.data->>'taskId')::numeric = ${p.add(task.id)} ORDER BY r.data->>'doneOn', r.id`,
        p.values,
      );
      const c = compareItemWithRecords(item.data, rows.map((r) => r.data), today());
      const lang = req.lang;
      const sentences = [t(lang, `planting.timing.${c.timing}`, { days: c.daysOff, endOn: item.data.endOn, startOn: item.data.startOn })];
      if (c.extraMaterials.length) sentences.push(t(lang, 'planting.extraMaterials', { names: c.extraMaterials.join('、') }));
      if (c.missingMaterials.length) sentences.push(t(lang, 'planting.missingMaterials', { names: c.missingMaterials.join('、') }));
      return ok({
        ...(await store.view(app.db, 'farmingTasks', task.id)),
        itemName: item.data.name,
        itemOrderNumber: item.data.orderNumber,
        itemStartOn: item.data.startOn,
        itemEndOn: item.data.endOn,
        itemMaterials: (item.data.materials ?? []).map((m) => m.name).join('、'),
        ...c,
        extraMaterials: c.extraMaterials.join('、'),
        missingMaterials: c.missingMaterials.join('、'),
        differences: sentences.join(' '),
      });
    },
  );

  app.get(
    '/farmPlantGroup/groups/:id/trace',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Trace of a planting group in time order: every task (start), record (done) and material put in',
        description: 'Needs read access to plantGroups. A group outside the caller’s farm answers 40401. Events are computed in full and paged (default every one, up to 500).',
        params: idParams,
        querystring: pagingQuery,
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, groups, 'read');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const group = await store.find(app.db, me, 'plantGroups', req.params.id);
      if (!group) throw notFound();
      const taskRows = await app.db.query<Row>(
        `SELECT r.id, r.data FROM resource_records r WHERE r.resource = ${ident(tasks.name)} AND r.farm_id IS NOT DISTINCT FROM $1 AND (r.data->>'groupId')::numeric = $2 ORDER BY r.id`,
        [group.farmId, group.id],
      );
      const taskTitles = new Map(taskRows.rows.map((r) => [Number(r.id), String(r.data.title)]));
      const recordRows = taskTitles.size
        ? await app.db.query<Row>(
            `SELECT r.id, r.data FROM resource_records r WHERE r.resource = 'farmingRecords' AND r.farm_id IS NOT DISTINCT FROM $1 AND (r.data->>'taskId')::numeric = ANY($2::numeric[]) ORDER BY r.id`,
            [group.farmId, [...taskTitles.keys()]],
          )
        : { rows: [] as Row[] };
      const lang = req.lang;
      type Event = { id: string; on: string; kind: 'task' | 'record' | 'input'; title: string; detail: string };
      const events: Event[] = [];
      for (const r of taskRows.rows) {
        const d = r.data as { title: string; startOn: string; dueOn: string; status: string };
        events.push({ id: `task-${r.id}`, on: d.startOn, kind: 'task', title: d.title, detail: t(lang, 'planting.trace.task', { startOn: d.startOn, dueOn: d.dueOn }) });
      }
      for (const r of recordRows.rows) {
        const d = r.data as { taskId: number; doneOn: string; workerNames?: string; hours?: number; materials?: { name: string; quantity: number; unit: string }[] };
        const title = taskTitles.get(Number(d.taskId)) ?? '';
        events.push({ id: `record-${r.id}`, on: d.doneOn, kind: 'record', title, detail: t(lang, 'planting.trace.record', { workers: d.workerNames ?? '—', hours: d.hours ?? 0 }) });
        (d.materials ?? []).forEach((m, i) => events.push({ id: `input-${r.id}-${i}`, on: d.doneOn, kind: 'input', title: m.name, detail: `${m.quantity} ${m.unit} · ${title}` }));
      }
      const order = { task: 0, record: 1, input: 2 };
      events.sort((a, b) => a.on.localeCompare(b.on) || order[a.kind] - order[b.kind] || a.id.localeCompare(b.id));
      return ok(pageOfAll(events, req.query));
    },
  );

  app.get(
    '/farmPlantGroup/plans/:id/progress',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Every work item of a plan with where it stands today: done (its task is done), late (its end is past and it is not done), due (under way), upcoming, with its task',
        description: 'Needs read access to plantPlans. A plan outside the caller’s farm answers 40401. Items are paged (default every one, up to 500).',
        params: idParams,
        querystring: pagingQuery,
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, plans, 'read');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const plan = await store.find(app.db, me, 'plantPlans', req.params.id);
      if (!plan) throw notFound();
      const { rows } = await app.db.query<{ id: number; data: Record<string, unknown>; task_id: number | null; task_status: string | null }>(
        `SELECT i.id, i.data, t.id AS task_id, t.data->>'status' AS task_status
           FROM resource_records i
           LEFT JOIN resource_records t ON t.resource = ${ident(tasks.name)} AND t.farm_id IS NOT DISTINCT FROM i.farm_id AND (t.data->>'planItemId')::numeric = i.id
          WHERE i.resource = 'planItems' AND i.farm_id IS NOT DISTINCT FROM $1 AND (i.data->>'planId')::numeric = $2 AND i.data->>'itemType' = 'work'
          ORDER BY (i.data->>'orderNumber')::numeric, i.id`,
        [plan.farmId, plan.id],
      );
      const now = today();
      const out = rows.map((r) => {
        const d = r.data as { orderNumber: number; name: string; startOn: string; endOn: string };
        const state = r.task_status === 'done' ? 'done' : d.endOn < now ? 'late' : d.startOn <= now ? 'due' : 'upcoming';
        return { id: Number(r.id), orderNumber: d.orderNumber, name: d.name, startOn: d.startOn, endOn: d.endOn, state, taskId: r.task_id === null ? null : Number(r.task_id), taskStatus: r.task_status };
      });
      return ok(pageOfAll(out, req.query));
    },
  );

  const rules = store.doc('plantRules');
  const ruleDocs = new Map(['plantRules', 'crops', 'cropSubtype'].map((n) => [n, store.doc(n)]));
  app.get(
    '/examineFactory/rules/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Planting rules submitted for review (awaiting review or published; drafts stay with their author), latest change first',
        description: `Needs one of the menu codes ${RULE_REVIEW_MENUS.join(', ')}.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            pageIndex: { type: 'integer', minimum: 1, maximum: 100000 },
            pageSize: { type: 'integer', minimum: 1, maximum: 500 },
            status: { type: 'integer', enum: [1, 2] },
            name: { type: 'string', maxLength: 64 },
          },
        },
        response: okPage(),
      },
    },
    async (req) => {
      requireAnyMenu(req, RULE_REVIEW_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = { ...req.query, pageIndex: req.query.pageIndex ?? 1, pageSize: req.query.pageSize ?? 20 };
      const p = new Params();
      const where = [`r.resource = ${ident(rules.name)}`, `coalesce((r.data->>'status')::int, 0) <> 0`];
      if (q.status) where.push(`(r.data->>'status')::int = ${p.add(q.status)}`);
      if (q.name) where.push(`position(${p.add(q.name.toLowerCase())} in lower(r.data->>'name')) > 0`);
      const cond = where.join(' AND ');
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records r WHERE ${cond}`, p.values)).rows[0].n;
      const { rows } = await app.db.query<RecordRow>(
        `SELECT ${rowSelect(rules, ruleDocs)} FROM ${ROW_FROM} WHERE ${cond} ORDER BY r.updated_at DESC, r.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
        p.values,
      );
      return ok(pageOf(rows.map(rowView), total, q.pageIndex, q.pageSize));
    },
  );
}
