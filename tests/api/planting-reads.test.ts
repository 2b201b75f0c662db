/**
 * The planting calls behind the screens (server/planting/reads.ts and the form-facing
 * parts of generate and publish) on every engine: one of two simultaneous edits of a plan
 * item wins, the other is told its copy is stale; bad input is refused on its field with
 * nothing changed; another farm's plan, item, task, record and group are not found; a
 * task's plan item against its records; a group's trace in time order; the rules a center reviews.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, fingerprint, type Body } from './resource-fixtures.ts';

const GENERATE = '/api/farmPlantGroup/plans/generate';
const PUBLISH = '/api/farmPlantGroup/tasks/publish';

describe.each(engines())('planting reads and form calls on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let group: Body;

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    const groups = await call(t, farm, 'GET', '/api/farmPlantGroup/groups/page?status=growing&pageSize=50');
    group = groups.data.rows.find((g: Body) => g.seasonStart && g.seasonEnd);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets one of two simultaneous edits of a plan item with the same version through; the other is told to reload', async () => {
    // An item of the season under way: a closed group's items refuse every change.
    const plan = (await call(t, farm, 'GET', `/api/farmPlantGroup/plans/page?groupId=${group.id}&pageSize=1`)).data.rows[0];
    const item = (await call(t, farm, 'GET', `/api/farmPlantGroup/planItems/page?planId=${plan.id}&pageSize=1&sort=orderNumber`)).data.rows[0];
    const body = (name: string) => ({ planId: item.planId, orderNumber: item.orderNumber, itemType: item.itemType, name, startOn: item.startOn, endOn: item.endOn, version: item.version });
    const url = `/api/farmPlantGroup/planItems/${item.id}`;
    const [a, b] = await Promise.all([call(t, farm, 'PUT', url, body('甲改')), call(t, farm, 'PUT', url, body('乙改'))]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 40001]);
    const loser = a.status === 40001 ? a : b;
    expect(loser.data.errors).toEqual([{ field: 'version', message: '该记录已被他人修改，请刷新后重试' }]);
    const winner = a.status === 200 ? '甲改' : '乙改';
    const now = await call(t, farm, 'GET', url);
    expect(now.data).toMatchObject({ name: winner, version: Number(item.version) + 1 });
  });

  it('refuses bad input of the plan and publish forms on the field, changing nothing', async () => {
    const plan = (await call(t, farm, 'GET', `/api/farmPlantGroup/plans/page?groupId=${group.id}&pageSize=1`)).data.rows[0];
    const people = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'farm'`);
    const me = Number(people.rows[0].id);
    const before = await fingerprint(t.db);
    const cases: [string, Body, string, string | null][] = [
      [GENERATE, { groupId: group.id, templateId: 1, startOn: group.plantedOn, planTypeId: 5 }, 'planTypeId', null],
      [PUBLISH, { groupId: group.id, planId: plan.id, orderNumber: 9999, assigneeIds: [me] }, 'orderNumber', 'The plan has no item number 9999'],
      [PUBLISH, { groupId: group.id, planId: plan.id, assigneeIds: [me] }, 'planItemId', 'Choose the plan item to publish'],
      [PUBLISH, { groupId: group.id, planId: plan.id, orderNumber: 0, assigneeIds: [me] }, 'orderNumber', null],
    ];
    for (const [url, body, field, message] of cases) {
      const r = await call(t, farm, 'POST', url, body, 'en');
      expect([r.status, r.data?.errors?.map((e: Body) => e.field)], JSON.stringify(body)).toEqual([40001, [field]]);
      if (message) expect(r.data.errors[0].message).toBe(message);
    }
    const options = await call(t, farm, 'GET', '/api/farmPlantGroup/plans/templateOptions?planTypeId=0');
    expect(options.status).toBe(40001);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('offers the farm’s templates of the route’s plan type, and publishes an item named by its number in the plan', async () => {
    const options = await call(t, farm, 'GET', '/api/farmPlantGroup/plans/templateOptions?planTypeId=3');
    expect(options.status, options.raw.body).toBe(200);
    expect(options.data.length).toBeGreaterThan(0);
    const templates = await call(t, farm, 'GET', '/api/agricultureKnowledge/planTemplates/page?pageSize=100');
    const kinds = new Map(templates.data.rows.map((r: Body) => [r.id, r.kind]));
    expect(options.data.every((o: Body) => kinds.get(o.value) === 'seasonWork')).toBe(true);
    const templateId = options.data[0].value;
    const wrongKind = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: group.plantedOn, planTypeId: 2, preview: true });
    expect([wrongKind.status, wrongKind.data.errors?.[0]?.field]).toEqual([40001, 'templateId']);
    const made = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: group.plantedOn, planTypeId: 3 });
    expect(made.status, made.raw.body).toBe(200);
    expect(made.data).toMatchObject({ id: made.data.plan.id, groupId: group.id });
    const people = (await call(t, farm, 'GET', '/api/farmPlantGroup/tasks/assigneeOptions')).data as Body[];
    expect(people.length).toBeGreaterThan(0);
    const task = await call(t, farm, 'POST', PUBLISH, { groupId: group.id, planId: made.data.id, orderNumber: 2, assigneeIds: [people[0].value] });
    expect(task.status, task.raw.body).toBe(200);
    expect(task.data).toMatchObject({ orderNumber: 2, planId: made.data.id, status: 'published' });
  });

  it('compares a task’s plan item with its records, and traces the group in time order', async () => {
    const tasks = (await call(t, farm, 'GET', `/api/farmPlantGroup/tasks/page?groupId=${group.id}&pageSize=100`)).data.rows as Body[];
    const timings = new Set<string>();
    for (const task of tasks) {
      const c = await call(t, farm, 'GET', `/api/farmPlantGroup/tasks/${task.id}/comparison`);
      expect(c.status, c.raw.body).toBe(200);
      expect(c.data).toMatchObject({ id: task.id, itemStartOn: expect.any(String), differences: expect.any(String) });
      timings.add(c.data.timing as string);
      if (c.data.timing === 'missing') expect(c.data.recordCount).toBe(0);
    }
    // The seeded season under way holds tasks done and tasks overdue without a record.
    expect(timings.has('missing')).toBe(true);
    expect([...timings].some((x) => x === 'onTime' || x === 'late' || x === 'early')).toBe(true);
    const trace = await call(t, farm, 'GET', `/api/farmPlantGroup/groups/${group.id}/trace`, undefined, 'en');
    expect(trace.status, trace.raw.body).toBe(200);
    const on = trace.data.rows.map((r: Body) => r.on as string);
    expect(on).toEqual([...on].sort());
    expect(new Set(trace.data.rows.map((r: Body) => r.kind))).toEqual(new Set(['task', 'record', 'input']));
    expect(trace.data.total).toBe(trace.data.rows.length);
    const second = await call(t, farm, 'GET', `/api/farmPlantGroup/groups/${group.id}/trace?pageIndex=2&pageSize=5`, undefined, 'en');
    expect([second.data.total, second.data.rows]).toEqual([trace.data.total, trace.data.rows.slice(5, 10)]);
  });

  it('tells where each work item of a plan stands today, and shows a center a submitted plan’s items but not a draft’s', async () => {
    const plans = (await call(t, farm, 'GET', `/api/farmPlantGroup/plans/page?groupId=${group.id}&reviewStatus=submitted&pageSize=1`)).data.rows as Body[];
    const progress = await call(t, farm, 'GET', `/api/farmPlantGroup/plans/${plans[0].id}/progress`);
    expect(progress.status, progress.raw.body).toBe(200);
    const states = new Set(progress.data.rows.map((r: Body) => r.state));
    expect(states.has('done') && states.has('late')).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    for (const r of progress.data.rows as Body[]) {
      if (r.state === 'late') expect([String(r.endOn) < today, r.taskStatus]).toEqual([true, expect.not.stringMatching(/^done$/)]);
      if (r.state === 'done') expect(r.taskStatus).toBe('done');
    }
    expect((await call(t, farm2, 'GET', `/api/farmPlantGroup/plans/${plans[0].id}/progress`)).status).toBe(40401);
    const center = `Bearer ${await t.login('center')}`;
    const items = await call(t, center, 'GET', `/api/examineFactory/plans/${plans[0].id}/items`);
    expect(items.status, items.raw.body).toBe(200);
    const numbers = items.data.rows.map((r: Body) => r.orderNumber as number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const draft = await t.db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'plantPlans' AND data->>'reviewStatus' = 'draft' LIMIT 1`);
    expect((await call(t, center, 'GET', `/api/examineFactory/plans/${draft.rows[0].id}/items`)).status).toBe(40401);
  });

  it('answers not found to another farm for the farm’s plan, item, task, record and group', async () => {
    const first = async (path: string) => (await call(t, farm, 'GET', `/api/farmPlantGroup/${path}/page?pageSize=1`)).data.rows[0].id;
    const ids = { plans: await first('plans'), planItems: await first('planItems'), tasks: await first('tasks'), records: await first('records') };
    for (const [path, id] of Object.entries(ids)) expect((await call(t, farm2, 'GET', `/api/farmPlantGroup/${path}/${id}`)).status, path).toBe(40401);
    expect((await call(t, farm2, 'GET', `/api/farmPlantGroup/tasks/${ids.tasks}/comparison`)).status).toBe(40401);
    expect((await call(t, farm2, 'GET', `/api/farmPlantGroup/groups/${group.id}/trace`)).status).toBe(40401);
    const before = await fingerprint(t.db);
    const item = (await call(t, farm, 'GET', `/api/farmPlantGroup/planItems/${ids.planItems}`)).data;
    expect((await call(t, farm2, 'PUT', `/api/farmPlantGroup/planItems/${ids.planItems}`, { ...item, name: '越权' })).status).toBe(40401);
    expect((await call(t, farm2, 'POST', PUBLISH, { groupId: group.id, planId: ids.plans, orderNumber: 1, assigneeIds: [1] })).status).toBe(40401);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('shows a center the planting rules submitted for review, never drafts; a farm is refused', async () => {
    const center = `Bearer ${await t.login('center')}`;
    const rules = await call(t, center, 'GET', '/api/examineFactory/rules/page?pageSize=100');
    expect(rules.status, rules.raw.body).toBe(200);
    expect(rules.data.rows.every((r: Body) => r.status === 1 || r.status === 2)).toBe(true);
    const drafts = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'plantRules' AND coalesce((data->>'status')::int, 0) <> 0`);
    expect(rules.data.total).toBe(drafts.rows[0].n);
    expect((await call(t, farm, 'GET', '/api/examineFactory/rules/page')).status).toBe(40301);
  });
});
