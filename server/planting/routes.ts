import type { FastifyPluginAsync } from 'fastify';
import { typedRoutes, type TypedApp } from '../http/typed-routes.ts';
import { Params } from '../db/params.ts';
import { notFound, ok, type FieldError } from '../http/envelope.ts';
import { requireAnyMenu, requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { readResourceDocuments } from '../resources/load.ts';
import { ident, ROW_FROM, rowSelect, rowView, scopeCondition, type RecordRow } from '../resources/sql.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { pageOf } from '../resources/page.ts';
import { okObject, okPage } from '../admin/schemas.ts';
import { today } from './dates.ts';
import { PlantingRecords } from './records.ts';
import {
  applyAdjustments,
  checkAssignees,
  checkGroupDates,
  checkTaskDates,
  checkTaskFromOwnPlan,
  checkTemplateKind,
  planItemsFromTemplate,
  refuseIfClosed,
  type Group,
  type Material,
  type PlanType,
  type Problem,
  type Template,
} from './rules.ts';
import './messages.ts';
import { PLAN_TYPE_IDS } from './plan-types.ts';
import { registerReads } from './reads.ts';
import { can } from '../../runtime/access/can.ts';
import { transitionsFrom } from '../../runtime/schema/transitions.ts';
import { registerReviewTransitions, reviewHint, reviewScope } from './review.ts';

const tags = ['planting'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const date = { type: 'string', format: 'date', maxLength: 10 } as const;
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '^[^<>]*$' }) as const;
const PLAN_TYPES = ['growthCycle', 'keyNodes', 'seasonWork', 'pattern'] as const;
/** Who reviews plans submitted by farms (the two /examineFactory entries). */
export const REVIEW_MENUS = ['plantAdmin', 'cropPlantingRule'];
export const OVERVIEW_MENUS = ['productionManagementIndex'];

type GroupData = Group & { name: string; areaMu: number };
type PlanData = { groupId: number; templateId: number; planType: PlanType; name: string; startOn: string; reviewStatus: string };
type ItemData = { planId: number; orderNumber: number; name: string; startOn: string; endOn: string; materials?: Material[] };

function refuse(problems: Problem[], lang: Lang): never {
  const errors: FieldError[] = problems.map((p) => ({ field: p.field, message: t(lang, p.key, p.params) }));
  throw invalidInput(errors, lang);
}

export const plantingRoutes: FastifyPluginAsync = async (instance) => {
  const app = typedRoutes(instance);
  const docs = await readResourceDocuments();
  const store = new PlantingRecords(new Map(docs.map((d) => [d.name, d])));
  registerGenerate(app, store);
  registerPublish(app, store);
  registerReview(app, store);
  registerReviewTransitions(app, store, tags);
  registerOverview(app, store);
  registerReads(app, store);
};

function registerGenerate(app: TypedApp, store: PlantingRecords) {
  const plans = store.doc('plantPlans');
  const adjustment = {
    type: 'object',
    additionalProperties: false,
    required: ['orderNumber', 'startOn', 'endOn'],
    properties: { orderNumber: { type: 'integer', minimum: 1, maximum: 10000 }, startOn: date, endOn: date },
  } as const;
  app.post(
    '/farmPlantGroup/plans/generate',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Make a planting group’s plan from one of its farm’s plan templates and a start date (every date computed), with optional adjustments (new dates of work items by order number, checked as a later edit of the item); preview answers the plan, its items, the group’s season and planting date without storing; planType (or planTypeId 1-4) checks the template’s kind',
        description: 'Needs the element code that creates plantPlans (farmPlantGroupList:add or an alias’s). A group or template outside the caller’s farm answers 40401.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['groupId', 'templateId', 'startOn'],
          properties: {
            groupId: id,
            templateId: id,
            startOn: date,
            name: text(64),
            planType: { type: 'string', enum: PLAN_TYPES },
            planTypeId: { type: 'integer', minimum: 1, maximum: 4 },
            preview: { type: 'boolean' },
            adjustments: { type: 'array', maxItems: 1000, items: adjustment },
          },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, plans, 'create');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      // planTypeId is the number of the makePlantPlan route; planType its name.
      const body = { ...req.body, planType: req.body.planType ?? (req.body.planTypeId ? PLAN_TYPE_IDS[req.body.planTypeId] : undefined) };
      const group = await store.find<GroupData>(app.db, me, 'plantGroups', body.groupId);
      if (!group) throw notFound();
      const template = await store.find<Template>(app.db, me, 'planTemplates', body.templateId);
      // A template of another farm (even one the caller could see) is not this group's.
      if (!template || template.farmId !== group.farmId) throw notFound();
      // Work items moved on the preview's timeline keep the user's dates, checked as a later edit of the item would be.
      const adjustments = body.adjustments ?? [];
      const { items, problems: adjustmentProblems } = applyAdjustments(planItemsFromTemplate(template.data, body.startOn), adjustments, group.data);
      const asked = new Set(adjustments.map((a) => a.orderNumber));
      const problems = [
        ...refuseIfClosed(group.data),
        ...(body.planType ? checkTemplateKind(template.data, body.planType) : []),
        ...(items.length ? [] : [{ field: 'templateId', key: 'planting.templateEmpty', params: {} }]),
        // The template's dates answer for the start date; an item asked to move answers for itself.
        ...checkGroupDates(items.filter((i) => !asked.has(i.orderNumber)), group.data, 'startOn'),
        ...adjustmentProblems,
      ];
      if (problems.length) refuse(problems, req.lang);
      const plan: PlanData = {
        groupId: group.id,
        templateId: template.id,
        planType: template.data.kind,
        name: body.name ?? `${template.data.name} · ${body.startOn}`,
        startOn: body.startOn,
        reviewStatus: 'draft',
      };
      // The group's season comes with a preview, so that a timeline draws the plan against it.
      if (body.preview) return ok({ plan, items, season: { start: group.data.seasonStart ?? null, end: group.data.seasonEnd ?? null }, plantedOn: group.data.plantedOn });
      return ok(
        await app.db.transaction(async (tx) => {
          // Lock the group so that a concurrent close cannot slip between the check and the write.
          const locked = await store.find<GroupData>(tx, me, 'plantGroups', group.id, 'FOR UPDATE OF r');
          if (!locked) throw notFound();
          const closed = refuseIfClosed(locked.data);
          if (closed.length) refuse(closed, req.lang);
          const owner = { farmId: group.farmId, blocId: group.blocId };
          const planId = await store.insert(tx, req, me, 'plantPlans', owner, plan);
          await store.insertMany(tx, req, me, 'planItems', owner, items.map((item) => ({ planId, ...item })));
          // id and groupId at the top: the form that made the plan opens it (afterSubmit over the reply).
          return { id: planId, groupId: group.id, plan: await store.view(tx, 'plantPlans', planId), items: items.map((i) => ({ planId, ...i })) };
        }),
      );
    },
  );
}

function registerPublish(app: TypedApp, store: PlantingRecords) {
  const tasks = store.doc('farmingTasks');
  const material = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'amount', 'unit'],
    properties: { name: text(64), amount: { type: 'number', minimum: 0, maximum: 1000000 }, unit: text(16) },
  } as const;
  app.post(
    '/farmPlantGroup/tasks/publish',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Publish an item of a group’s own plan as a farming task: assignees of the farm, dates inside the season (default the item’s), materials (default the item’s amounts per mu × the group’s area)',
        description: 'Needs the element code that creates farmingTasks. The item is named by planItemId or by its orderNumber in the plan (the publistFarmingTask route). Group, plan or item outside the caller’s farm answers 40401.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['groupId', 'planId', 'assigneeIds'],
          properties: {
            groupId: id,
            planId: id,
            planItemId: id,
            orderNumber: { type: 'integer', minimum: 1, maximum: 10000 },
            assigneeIds: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: id },
            startOn: date,
            dueOn: date,
            title: text(64),
            materials: { type: 'array', maxItems: 30, items: material },
            note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' },
          },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, tasks, 'create');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const b = req.body;
      return ok(
        await app.db.transaction(async (tx) => {
          const group = await store.find<GroupData>(tx, me, 'plantGroups', b.groupId, 'FOR UPDATE OF r');
          const plan = await store.find<PlanData>(tx, me, 'plantPlans', b.planId);
          // A plan of another farm (even one a provider may also write for) is not this group's: as missing.
          if (!group || !plan || plan.farmId !== group.farmId) throw notFound();
          const itemId = b.planItemId ?? (b.orderNumber ? await store.itemIdByNumber(tx, me, plan.id, b.orderNumber) : null);
          if (itemId === null) refuse([{ field: b.orderNumber ? 'orderNumber' : 'planItemId', key: b.orderNumber ? 'planting.itemMissing' : 'planting.itemRequired', params: { orderNumber: b.orderNumber ?? '' } }], req.lang);
          const item = await store.find<ItemData>(tx, me, 'planItems', itemId);
          if (!item) throw notFound();
          const startOn = b.startOn ?? item.data.startOn;
          const dueOn = b.dueOn ?? item.data.endOn;
          const users = await tx.query<{ id: number }>('SELECT id FROM users WHERE org_id = $1', [group.farmId]);
          const problems = [
            ...refuseIfClosed(group.data),
            ...checkTaskFromOwnPlan({ groupId: group.id, planId: b.planId }, { id: plan.id, groupId: plan.data.groupId }, item.data),
            ...checkAssignees(b.assigneeIds, new Set(users.rows.map((u) => Number(u.id)))),
            ...checkTaskDates({ startOn, dueOn }, group.data),
          ];
          const existing = await tx.query(`SELECT 1 FROM resource_records WHERE resource = 'farmingTasks' AND farm_id = $1 AND (data->>'planItemId')::numeric = $2`, [group.farmId, item.id]);
          if (existing.rows.length) problems.push({ field: 'planItemId', key: 'planting.taskExists', params: {} });
          if (problems.length) refuse(problems, req.lang);
          const area = Number(group.data.areaMu) || 0;
          const materials = b.materials ?? (item.data.materials ?? []).map((m) => ({ name: m.name, amount: Math.round(m.amountPerMu * area * 100) / 100, unit: m.unit }));
          const data = {
            groupId: group.id,
            planId: plan.id,
            planItemId: item.id,
            orderNumber: item.data.orderNumber,
            title: b.title ?? item.data.name,
            assigneeIds: b.assigneeIds,
            startOn,
            dueOn,
            ...(materials.length ? { materials } : {}),
            status: 'published',
            ...(b.note ? { note: b.note } : {}),
          };
          const taskId = await store.insert(tx, req, me, 'farmingTasks', { farmId: group.farmId, blocId: group.blocId }, data);
          return store.view(tx, 'farmingTasks', taskId);
        }),
      );
    },
  );
}

function registerReview(app: TypedApp, store: PlantingRecords) {
  const plans = store.doc('plantPlans');
  const items = store.doc('planItems');
  const docs = new Map(['plantPlans', 'planItems', 'plantGroups', 'planTemplates', 'farmWorkTypes', 'crops', 'cropSubtype', 'farmFields'].map((n) => [n, store.doc(n)]));
  const select = rowSelect(plans, docs);
  const query = {
    type: 'object',
    additionalProperties: false,
    properties: {
      pageIndex: { type: 'integer', minimum: 1, maximum: 100000 },
      pageSize: { type: 'integer', minimum: 1, maximum: 500 },
      reviewStatus: { type: 'string', enum: ['', 'submitted', 'approved', 'rejected'] },
      name: { type: 'string', maxLength: 64 },
    },
  } as const;
  // A regional center reviews what the farms of its region submit; drafts stay private to
  // their farm (review.ts, reviewScope).
  app.get(
    '/examineFactory/plans/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'Planting plans submitted by farms for review (not drafts), newest start first', description: `Needs one of the menu codes ${REVIEW_MENUS.join(', ')}.`, querystring: query, response: okPage() },
    },
    async (req) => {
      const me = requireAnyMenu(req, REVIEW_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = { ...req.query, pageIndex: req.query.pageIndex ?? 1, pageSize: req.query.pageSize ?? 20 };
      const p = new Params();
      const where = [`r.resource = ${ident(plans.name)}`, `r.data->>'reviewStatus' <> 'draft'`, reviewScope(me, p, 'r.farm_id')];
      if (q.reviewStatus) where.push(`r.data->>'reviewStatus' = ${p.add(q.reviewStatus)}`);
      if (q.name) where.push(`position(${p.add(q.name.toLowerCase())} in lower(r.data->>'name')) > 0`);
      const cond = where.join(' AND ');
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records r WHERE ${cond}`, p.values)).rows[0].n;
      const { rows } = await app.db.query<RecordRow>(
        `SELECT ${select} FROM ${ROW_FROM} WHERE ${cond} ORDER BY r.data->>'startOn' DESC, r.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
        p.values,
      );
      // The review actions the rows offer (approve, reject) are the reviewer's transitions (review.ts).
      const hinted = rows.map((r) => ({ ...rowView(r), _transitions: reviewHint(me, r.data.reviewStatus) }));
      return ok(pageOf(hinted, total, q.pageIndex, q.pageSize));
    },
  );
  app.get(
    '/examineFactory/plans/:id',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'One submitted plan with its items, for review',
        description: `Needs one of the menu codes ${REVIEW_MENUS.join(', ')}. A draft or a missing plan answers 40401.`,
        params: { type: 'object', additionalProperties: false, required: ['id'], properties: { id } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, REVIEW_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const p = new Params();
      const { rows } = await app.db.query<RecordRow>(
        `SELECT ${select} FROM ${ROW_FROM} WHERE r.resource = ${ident(plans.name)} AND r.id = ${p.add(req.params.id)} AND r.data->>'reviewStatus' <> 'draft' AND ${reviewScope(me, p, 'r.farm_id')}`,
        p.values,
      );
      if (!rows[0]) throw notFound();
      const itemRows = await app.db.query<RecordRow>(
        `SELECT ${rowSelect(items, docs)} FROM ${ROW_FROM} WHERE r.resource = ${ident(items.name)} AND (r.data->>'planId')::numeric = $1 ORDER BY (r.data->>'orderNumber')::numeric, r.id`,
        [req.params.id],
      );
      return ok({ ...rowView(rows[0]), _transitions: reviewHint(me, rows[0].data.reviewStatus), items: itemRows.rows.map(rowView) });
    },
  );
  app.get(
    '/examineFactory/plans/:id/items',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The items of one submitted plan as a page (every item, in order), for the review screen',
        description: `Needs one of the menu codes ${REVIEW_MENUS.join(', ')}. A draft or a missing plan answers 40401.`,
        params: { type: 'object', additionalProperties: false, required: ['id'], properties: { id } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, REVIEW_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const p = new Params();
      const submitted = await app.db.query(
        `SELECT 1 FROM resource_records r WHERE r.resource = ${ident(plans.name)} AND r.id = ${p.add(req.params.id)} AND r.data->>'reviewStatus' <> 'draft' AND ${reviewScope(me, p, 'r.farm_id')}`,
        p.values,
      );
      if (!submitted.rows.length) throw notFound();
      const { rows } = await app.db.query<RecordRow>(
        `SELECT ${rowSelect(items, docs)} FROM ${ROW_FROM} WHERE r.resource = ${ident(items.name)} AND (r.data->>'planId')::numeric = $1 ORDER BY (r.data->>'orderNumber')::numeric, r.id`,
        [req.params.id],
      );
      return ok(pageOf(rows.map(rowView), rows.length, 1, Math.max(rows.length, 1)));
    },
  );
}

function registerOverview(app: TypedApp, store: PlantingRecords) {
  const groups = store.doc('plantGroups');
  const tasks = store.doc('farmingTasks');
  const records = store.doc('farmingRecords');
  app.get(
    '/productionManagement/overview',
    { schema: { tags, summary: 'Production overview of the caller’s farm: groups by stage and status, tasks due today and overdue, records this week', description: `Needs the menu code ${OVERVIEW_MENUS[0]}.`, response: okObject() } },
    async (req) => {
      const me = requireAnyMenu(req, OVERVIEW_MENUS);
      const now = today();
      const weekAgo = today(-6);
      const p = new Params();
      const g = scopeCondition(groups, me, p, 'r', 'read');
      const byStage = await app.db.query<{ stage: string; n: number }>(
        `SELECT r.data->>'stage' AS stage, count(*)::int AS n FROM resource_records r WHERE r.resource = ${ident(groups.name)} AND ${g} AND coalesce(r.data->>'status', 'growing') IN ('planned', 'growing') GROUP BY 1 ORDER BY 2 DESC, 1`,
        p.values,
      );
      const p2 = new Params();
      const tc = scopeCondition(tasks, me, p2, 'r', 'read');
      const todayParam = p2.add(now);
      const counts = await app.db.query<{ due_today: number; overdue: number; open: number }>(
        `SELECT count(*) FILTER (WHERE r.data->>'dueOn' = ${todayParam} AND r.data->>'status' <> 'done')::int AS due_today,
                count(*) FILTER (WHERE r.data->>'dueOn' < ${todayParam} AND r.data->>'status' <> 'done')::int AS overdue,
                count(*) FILTER (WHERE r.data->>'status' <> 'done')::int AS open
           FROM resource_records r WHERE r.resource = ${ident(tasks.name)} AND ${tc}`,
        p2.values,
      );
      const p3 = new Params();
      const rc = scopeCondition(records, me, p3, 'r', 'read');
      const week = await app.db.query<{ n: number; hours: string | null }>(
        `SELECT count(*)::int AS n, sum((r.data->>'hours')::numeric) AS hours FROM resource_records r
          WHERE r.resource = ${ident(records.name)} AND ${rc} AND r.data->>'doneOn' BETWEEN ${p3.add(weekAgo)} AND ${p3.add(now)}`,
        p3.values,
      );
      const stageTitles = (groups.record.properties.stage as { enum: string[]; 'x-enumTitles': Record<Lang, string>[] });
      return ok({
        today: now,
        groupsByStage: byStage.rows.map((r) => {
          const i = stageTitles.enum.indexOf(r.stage);
          return { stage: i >= 0 ? stageTitles['x-enumTitles'][i][req.lang] : r.stage, count: r.n };
        }),
        tasks: { dueToday: counts.rows[0].due_today, overdue: counts.rows[0].overdue, open: counts.rows[0].open },
        records: { thisWeek: week.rows[0].n, hoursThisWeek: Number(week.rows[0].hours ?? 0) },
      });
    },
  );

  const dueQuery = {
    type: 'object',
    additionalProperties: false,
    required: ['when'],
    properties: {
      when: { type: 'string', enum: ['today', 'overdue'] },
      pageIndex: { type: 'integer', minimum: 1, maximum: 100000 },
      pageSize: { type: 'integer', minimum: 1, maximum: 500 },
    },
  } as const;
  app.get(
    '/productionManagement/tasks/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'Open farming tasks due today or overdue, with the group’s name and the days overdue (derived from the due date, never stored)', description: `Needs the menu code ${OVERVIEW_MENUS[0]}.`, querystring: dueQuery, response: okPage() },
    },
    async (req) => {
      const me = requireAnyMenu(req, OVERVIEW_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = { ...req.query, pageIndex: req.query.pageIndex ?? 1, pageSize: req.query.pageSize ?? 10 };
      const p = new Params();
      const now = p.add(today());
      const cond = `r.resource = ${ident(tasks.name)} AND ${scopeCondition(tasks, me, p, 'r', 'read')} AND r.data->>'status' <> 'done' AND r.data->>'dueOn' ${q.when === 'today' ? '=' : '<'} ${now}`;
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records r WHERE ${cond}`, p.values)).rows[0].n;
      // Its own parameter, added after the count: one placeholder compared as text above and cast
      // to a date below would be given two types, which PostgreSQL refuses.
      const nowDate = p.add(today());
      const { rows } = await app.db.query<{ id: number; version: number; data: Record<string, unknown>; group_name: string | null; days: number }>(
        `SELECT r.id, r.version, r.data, g.data->>'name' AS group_name, (${nowDate}::date - (r.data->>'dueOn')::date)::int AS days
           FROM resource_records r LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = (r.data->>'groupId')::bigint
          WHERE ${cond} ORDER BY r.data->>'dueOn', r.id LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
        p.values,
      );
      return ok(
        pageOf(
          rows.map((r) => ({
            id: Number(r.id),
            version: r.version,
            title: r.data.title,
            groupName: r.group_name,
            startOn: r.data.startOn,
            dueOn: r.data.dueOn,
            status: r.data.status,
            daysOverdue: Math.max(0, r.days),
            // The rows offer the task's transitions (start, finish) as the engine's rows do.
            _transitions: transitionsFrom(tasks, r.data.status).filter((n) => can(me, tasks, tasks.transitions![n].element)),
          })),
          total,
          q.pageIndex,
          q.pageSize,
        ),
      );
    },
  );
}
