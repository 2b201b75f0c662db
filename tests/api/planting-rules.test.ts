/**
 * The planting rules on the engine's generic writes (server/planting/extensions.ts) and the
 * declared transitions of groups, tasks and plans, with the center's review
 * (server/planting/review.ts), on every engine: each transition allowed and refused (wrong
 * state, missing element code, another farm's record, missing reason), each hook rule
 * refusing on its field in the caller's language with nothing changed, and a closed group
 * refusing every change to itself and to what hangs on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { addDays } from '../../server/planting/dates.ts';
import { call, fingerprint, recordOf, docs, type Body, type Reply } from './resource-fixtures.ts';

const GROUPS = '/api/farmPlantGroup/groups';
const PLANS = '/api/farmPlantGroup/plans';
const ITEMS = '/api/farmPlantGroup/planItems';
const TASKS = '/api/farmPlantGroup/tasks';
const RECORDS = '/api/farmPlantGroup/records';
const OBSERVATIONS = '/api/farmPlantGroup/observations';
const TEMPLATES = '/api/agricultureKnowledge/planTemplates';
const REVIEW = '/api/examineFactory/plans';
const doc = (name: string) => docs.find((d) => d.name === name)!;

describe.each(engines())('planting rules and transitions on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let center: string;
  let tech: string;
  let open: Body;
  let closed: Body;
  let openPlan: Body;

  const rows = async (token: string, url: string): Promise<Body[]> => {
    const r = await call(t, token, 'GET', url);
    expect(r.status, r.raw.body).toBe(200);
    return r.data.rows;
  };
  const transition = (token: string, base: string, row: Body, name: string, extra: Body = {}, lang = 'zh') =>
    call(t, token, 'POST', `${base}/${row.id}/transitions/${name}`, { version: row.version, ...extra }, lang);
  /** A refused write: the status, the one field, and not a byte of the records or the log changed. */
  const refused = async (write: () => Promise<Reply>, status: number, field?: string, message?: RegExp) => {
    const before = await fingerprint(t.db);
    const r = await write();
    expect(r.status, r.raw.body).toBe(status);
    if (field) expect(r.data.errors.map((e: Body) => e.field), r.raw.body).toEqual([field]);
    if (message) expect(r.data.errors[0].message).toMatch(message);
    expect(await fingerprint(t.db)).toBe(before);
    return r;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    center = `Bearer ${await t.login('center')}`;
    tech = `Bearer ${await t.login('tech')}`;
    open = (await rows(farm, `${GROUPS}/page?status=growing&pageSize=50`)).find((g) => g.seasonStart && g.seasonEnd)!;
    closed = (await rows(farm, `${GROUPS}/page?status=closed&pageSize=1`))[0];
    openPlan = (await rows(farm, `${PLANS}/page?groupId=${open.id}&pageSize=1`))[0];
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seeds hold an open season and a closed one, each with its state’s transitions hinted', () => {
    expect(open).toMatchObject({ status: 'growing', _transitions: ['harvest'] });
    expect(closed).toMatchObject({ status: 'closed', _transitions: [] });
    expect(openPlan._transitions).toEqual([]);
  });

  describe('planting groups: planned → growing → harvested → closed', () => {
    let group: Body;

    it('a new group starts planned whatever the body says; the state is not edited', async () => {
      const field = (await rows(farm, '/api/admin/fields/page?pageSize=1'))[0];
      expect(field).toBeDefined();
      const body = { name: '规则测试组', cropId: open.cropId, areaMu: 2, plantedOn: open.plantedOn, stage: open.stage , fieldIds: [field.id] };
      const r = await call(t, farm, 'POST', GROUPS, body);
      expect(r.status, r.raw.body).toBe(200);
      group = r.data;
      expect(group).toMatchObject({ status: 'planned', _transitions: ['start'] });
      await refused(() => call(t, farm, 'PUT', `${GROUPS}/${group.id}`, { ...recordOf(doc('plantGroups'), group), status: 'growing', version: group.version }), 40001, 'status');
    });

    it('refuses a transition the state does not allow, another farm’s group and a caller without the element code', async () => {
      const wrong = await refused(() => transition(farm, GROUPS, group, 'harvest', {}, 'en'), 40001);
      expect(wrong.message).toMatch(/Planned.*Harvest/);
      await refused(() => transition(farm2, GROUPS, group, 'start'), 40401);
      await refused(() => transition(tech, GROUPS, group, 'start'), 40301);
      await refused(() => transition(farm, GROUPS, group, 'start', { version: Number(group.version) + 5 }), 40001, 'version');
    });

    it('moves along start, harvest and close, each once, the version rising', async () => {
      for (const [name, to, next] of [
        ['start', 'growing', ['harvest']],
        ['harvest', 'harvested', ['close']],
        ['close', 'closed', []],
      ] as const) {
        const r = await transition(farm, GROUPS, group, name);
        expect(r.status, r.raw.body).toBe(200);
        expect(r.data).toMatchObject({ status: to, version: Number(group.version) + 1, _transitions: next });
        group = r.data;
      }
      await refused(() => transition(farm, GROUPS, group, 'start'), 40001);
    });

    it('a closed group refuses edits and deletion, in the caller’s language', async () => {
      const body = { ...recordOf(doc('plantGroups'), group), name: '改名', version: group.version };
      await refused(() => call(t, farm, 'PUT', `${GROUPS}/${group.id}`, body, 'es'), 40001, 'status', /cerrado/);
      await refused(() => call(t, farm, 'DELETE', `${GROUPS}/${group.id}`), 40001);
    });

    it('plots of another farm are refused on fieldIds', async () => {
      const foreign = (await rows(farm2, '/api/admin/fields/page?pageSize=1'))[0];
      const body = { name: '越界组', cropId: open.cropId, areaMu: 1, plantedOn: open.plantedOn, stage: open.stage, fieldIds: [foreign.id] };
      await refused(() => call(t, farm, 'POST', GROUPS, body, 'en'), 40001, 'fieldIds', new RegExp(`plots ${foreign.id} are not plots of this farm`));
    });
  });

  describe('a closed group refuses changes to what hangs on it', () => {
    it('its plans, plan items, tasks, records and observations', async () => {
      const plan = (await rows(farm, `${PLANS}/page?groupId=${closed.id}&pageSize=1`))[0];
      expect(plan).toBeDefined();
      const item = (await rows(farm, `${ITEMS}/page?planId=${plan.id}&pageSize=1`))[0];
      const task = (await rows(farm, `${TASKS}/page?groupId=${closed.id}&pageSize=1`))[0];
      const record = (await rows(farm, `${RECORDS}/page?taskId=${task.id}&pageSize=1`))[0];
      const closedMsg = /已关闭/;
      await refused(() => call(t, farm, 'PUT', `${PLANS}/${plan.id}`, { ...recordOf(doc('plantPlans'), plan), name: 'x', version: plan.version }), 40001, 'groupId', closedMsg);
      await refused(() => call(t, farm, 'DELETE', `${PLANS}/${plan.id}`), 40001, 'groupId', closedMsg);
      await refused(() => call(t, farm, 'PUT', `${ITEMS}/${item.id}`, { ...recordOf(doc('planItems'), item), name: 'x', version: item.version }), 40001, 'planId', closedMsg);
      await refused(() => call(t, farm, 'POST', ITEMS, { ...recordOf(doc('planItems'), item), orderNumber: 999 }), 40001, 'planId', closedMsg);
      await refused(() => call(t, farm, 'PUT', `${TASKS}/${task.id}`, { ...recordOf(doc('farmingTasks'), task), note: 'x', version: task.version }), 40001, 'groupId', closedMsg);
      await refused(() => call(t, farm, 'POST', RECORDS, { taskId: task.id, doneOn: task.dueOn, workerNames: '张三', hours: 1 }), 40001, 'taskId', closedMsg);
      if (record) await refused(() => call(t, farm, 'DELETE', `${RECORDS}/${record.id}`), 40001, 'taskId', closedMsg);
      await refused(() => call(t, farm, 'POST', OBSERVATIONS, { planId: plan.id, positionType: 'field', stage: '成熟期', observedOn: plan.startOn }), 40001, 'planId', closedMsg);
    });
  });

  describe('dates, plans, tasks and records of an open group', () => {
    it('plan items: not before planting, not after the season, on their own field', async () => {
      const item = (await rows(farm, `${ITEMS}/page?planId=${openPlan.id}&pageSize=1&sort=orderNumber`))[0];
      const base = { ...recordOf(doc('planItems'), item), version: item.version };
      const early = addDays(String(open.plantedOn), -1);
      await refused(() => call(t, farm, 'PUT', `${ITEMS}/${item.id}`, { ...base, startOn: early }, 'en'), 40001, 'startOn', /before the group was planted/);
      await refused(() => call(t, farm, 'PUT', `${ITEMS}/${item.id}`, { ...base, endOn: addDays(String(open.seasonEnd), 1) }, 'en'), 40001, 'endOn', /after the season ends/);
      await refused(() => call(t, farm, 'POST', ITEMS, { ...recordOf(doc('planItems'), item), orderNumber: 900, startOn: early }), 40001, 'startOn');
      const ok = await call(t, farm, 'PUT', `${ITEMS}/${item.id}`, { ...base, name: `${item.name}·改` });
      expect(ok.status, ok.raw.body).toBe(200);
    });

    it('plans: the start inside the season, the template of the plan’s kind; the rejection reason is not edited', async () => {
      const body = { ...recordOf(doc('plantPlans'), openPlan), version: openPlan.version };
      await refused(() => call(t, farm, 'PUT', `${PLANS}/${openPlan.id}`, { ...body, startOn: addDays(String(open.plantedOn), -3) }), 40001, 'startOn');
      const kinds = ['growthCycle', 'keyNodes', 'seasonWork', 'pattern'].filter((k) => k !== openPlan.planType);
      await refused(() => call(t, farm, 'PUT', `${PLANS}/${openPlan.id}`, { ...body, planType: kinds[0] }), 40001, 'templateId');
      await refused(() => call(t, farm, 'PUT', `${PLANS}/${openPlan.id}`, { ...body, rejectReason: '自己写的' }), 40001, 'rejectReason');
      await refused(() => call(t, farm, 'PUT', `${PLANS}/${openPlan.id}`, { ...body, reviewStatus: 'approved' }), 40001, 'reviewStatus');
    });

    it('tasks: from an item of the group’s own plan, assignees of the farm, dates in the season', async () => {
      const task = (await rows(farm, `${TASKS}/page?groupId=${open.id}&pageSize=1`))[0];
      const base = { ...recordOf(doc('farmingTasks'), task), version: task.version };
      const put = (patch: Body, lang = 'zh') => call(t, farm, 'PUT', `${TASKS}/${task.id}`, { ...base, ...patch }, lang);
      const otherPlan = (await rows(farm, `${PLANS}/page?groupId=${closed.id}&pageSize=1`))[0];
      const otherItem = (await rows(farm, `${ITEMS}/page?planId=${otherPlan.id}&pageSize=1`))[0];
      await refused(() => put({ planItemId: otherItem.id }, 'en'), 40001, 'planItemId', /does not belong to the chosen plan/);
      await refused(() => put({ planId: otherPlan.id, planItemId: otherItem.id }, 'en'), 40001, 'planId', /does not belong to the planting group/);
      const stranger = (await call(t, farm2, 'GET', `${TASKS}/assigneeOptions`)).data[0].value;
      await refused(() => put({ assigneeIds: [stranger] }, 'en'), 40001, 'assigneeIds', /people of this farm/);
      await refused(() => put({ dueOn: addDays(String(open.seasonEnd), 2) }), 40001, 'dueOn');
      await refused(() => put({ startOn: addDays(String(open.plantedOn), -2) }), 40001, 'startOn');
    });

    it('records: only on a task of the caller’s farm', async () => {
      const foreign = (await rows(farm2, `${TASKS}/page?pageSize=1`))[0];
      // Another farm's task answers as a missing one (the engine's reference rule runs before the module's hooks).
      const missing = await call(t, farm, 'POST', RECORDS, { taskId: 2147483000, doneOn: foreign.dueOn, workerNames: '张三', hours: 2 }, 'en');
      await refused(() => call(t, farm, 'POST', RECORDS, { taskId: foreign.id, doneOn: foreign.dueOn, workerNames: '张三', hours: 2 }, 'en'), 40001, 'taskId', new RegExp(`^${missing.data.errors[0].message}$`));
    });

    it('templates: every work item names a farm-work type that exists', async () => {
      const body = { name: '无效工种模板', kind: 'seasonWork', cropId: open.cropId, workItems: [{ orderNumber: 1, name: '翻地', workTypeId: 2147483000, startDay: 0, days: 1 }] };
      await refused(() => call(t, farm, 'POST', TEMPLATES, body, 'en'), 40001, 'workItems.0.workTypeId', /farm-work type 2147483000 does not exist/);
    });
  });

  describe('farming tasks: published → in progress → done', () => {
    it('start then finish; refused from the wrong state, for another farm and without the element code', async () => {
      let task = (await rows(farm, `${TASKS}/page?groupId=${open.id}&status=published&pageSize=1`))[0];
      expect(task._transitions).toEqual(['start', 'finish']);
      await refused(() => transition(farm2, TASKS, task, 'start'), 40401);
      await refused(() => transition(tech, TASKS, task, 'start'), 40301);
      let r = await transition(farm, TASKS, task, 'start');
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data).toMatchObject({ status: 'inProgress', _transitions: ['finish'] });
      task = r.data;
      await refused(() => transition(farm, TASKS, task, 'start'), 40001);
      r = await transition(farm, TASKS, task, 'finish');
      expect(r.data).toMatchObject({ status: 'done', _transitions: [] });
      await refused(() => transition(farm, TASKS, r.data, 'finish'), 40001);
      await refused(() => call(t, farm, 'PUT', `${TASKS}/${task.id}`, { ...recordOf(doc('farmingTasks'), r.data), status: 'published', version: r.data.version }), 40001, 'status');
    });

    it('the dashboard’s task rows offer the same transitions', async () => {
      const due = await rows(farm, '/api/productionManagement/tasks/page?when=overdue&pageSize=50');
      for (const row of due) expect(row._transitions).toEqual(row.status === 'published' ? ['start', 'finish'] : ['finish']);
    });
  });

  describe('plans: draft → submitted by the farm; approved or rejected (with a reason) by the center', () => {
    let plan: Body;

    beforeAll(async () => {
      const template = (await rows(farm, `${TEMPLATES}/page?pageSize=50`)).find((x) => x.kind === openPlan.planType)!;
      const r = await call(t, farm, 'POST', `${PLANS}/generate`, { groupId: open.id, templateId: template.id, startOn: open.plantedOn, name: '审核流程测试' });
      expect(r.status, r.raw.body).toBe(200);
      plan = (await call(t, farm, 'GET', `${PLANS}/${r.data.id}`)).data;
    });

    it('a draft is the farm’s: the center does not see it and cannot review it', async () => {
      expect(plan).toMatchObject({ reviewStatus: 'draft', _transitions: ['submit'] });
      await refused(() => call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/approve`, { version: plan.version }), 40401);
      await refused(() => transition(farm2, PLANS, plan, 'submit'), 40401);
      await refused(() => transition(tech, PLANS, plan, 'submit'), 40301);
    });

    it('the farm submits once; the farm cannot review its own plan', async () => {
      const r = await transition(farm, PLANS, plan, 'submit');
      expect(r.status, r.raw.body).toBe(200);
      plan = r.data;
      expect(plan).toMatchObject({ reviewStatus: 'submitted', _transitions: [] });
      await refused(() => transition(farm, PLANS, plan, 'submit'), 40001);
      await refused(() => call(t, farm, 'POST', `${REVIEW}/${plan.id}/transitions/approve`, { version: plan.version }), 40301);
    });

    it('the center rejects only with a reason, the farm resubmits, the center approves', async () => {
      const listed = (await rows(center, `${REVIEW}/page?reviewStatus=submitted&pageSize=500`)).find((p) => p.id === plan.id)!;
      expect(listed._transitions).toEqual(['approve', 'reject']);
      await refused(() => call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/reject`, { version: plan.version, reason: '  ' }, 'en'), 40001, 'reason');
      await refused(() => call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/publish`, { version: plan.version }), 40401);
      let r = await call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/reject`, { version: plan.version, reason: '追肥用量偏高' });
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data).toMatchObject({ reviewStatus: 'rejected', rejectReason: '追肥用量偏高', _transitions: [] });
      plan = (await call(t, farm, 'GET', `${PLANS}/${plan.id}`)).data;
      expect(plan).toMatchObject({ reviewStatus: 'rejected', rejectReason: '追肥用量偏高', _transitions: ['submit'] });
      plan = (await transition(farm, PLANS, plan, 'submit')).data;
      expect(plan.reviewStatus).toBe('submitted');
      await refused(() => call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/approve`, { version: Number(plan.version) - 1 }), 40001, 'version');
      r = await call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/approve`, { version: plan.version });
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data).toMatchObject({ reviewStatus: 'approved', _transitions: [] });
      await refused(() => call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/reject`, { version: r.data.version, reason: '晚了' }, 'en'), 40001);
    });

    it('the review grants the center nothing of the farms’ plans through the engine', async () => {
      for (const [method, url, body] of [
        ['GET', `${PLANS}/page`, undefined],
        ['GET', `${PLANS}/${plan.id}`, undefined],
        ['PUT', `${PLANS}/${plan.id}`, { ...recordOf(doc('plantPlans'), plan), version: plan.version }],
        ['DELETE', `${PLANS}/${plan.id}`, undefined],
        ['POST', `${PLANS}/${plan.id}/transitions/submit`, { version: plan.version }],
      ] as const) {
        await refused(() => call(t, center, method, url, body), 40301);
      }
    });
  });
});
