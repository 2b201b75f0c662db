/**
 * Issue 29, item 3 "Work closes itself", on every engine:
 * - recording a task's work completes the task; `finishesTask: false` keeps it in progress;
 *   without an answer a record short of the task's planned materials is partial work
 *   (in progress) until the records make up the plan;
 * - a plan's items carry the state of their task (`taskStatus`), and a second task for an
 *   item is refused;
 * - the center's decisions notify the farm's accounts (in the reader's language), an approved
 *   plan no longer carries the old rejection reason, and the decisions stay as history the
 *   farm cannot rewrite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { materialsShort } from '../../server/planting/extensions.ts';
import { call, docs, recordOf, type Body } from './resource-fixtures.ts';

const GROUPS = '/api/farmPlantGroup/groups';
const PLANS = '/api/farmPlantGroup/plans';
const ITEMS = '/api/farmPlantGroup/planItems';
const TASKS = '/api/farmPlantGroup/tasks';
const RECORDS = '/api/farmPlantGroup/records';
const TEMPLATES = '/api/agricultureKnowledge/planTemplates';
const REVIEW = '/api/examineFactory/plans';
const NOTICES = '/api/coverfield/notice/page/receiveNotice?pageSize=50';
const doc = (name: string) => docs.find((d) => d.name === name)!;

describe('partial work, from the planned materials', () => {
  it('is short while a planned material is used less than planned, by name and unit', () => {
    const planned = [
      { name: '尿素', amount: 10, unit: 'kg' },
      { name: '农药', amount: 0, unit: 'L' },
    ];
    expect(materialsShort(planned, [])).toEqual(['尿素']);
    expect(materialsShort(planned, [{ name: '尿素', quantity: 4, unit: 'kg' }])).toEqual(['尿素']);
    expect(materialsShort(planned, [{ name: '尿素', quantity: 10, unit: 'g' }])).toEqual(['尿素']);
    expect(materialsShort(planned, [{ name: '尿素', quantity: 4, unit: 'kg' }, { name: ' 尿素', quantity: 6, unit: 'kg' }])).toEqual([]);
    expect(materialsShort([], [])).toEqual([]);
  });
});

describe.each(engines())('work closes itself on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let center: string;
  let group: Body;
  let plan: Body;
  let workItems: Body[];
  let farmUser: number;

  const rows = async (token: string, url: string): Promise<Body[]> => {
    const r = await call(t, token, 'GET', url);
    expect(r.status, r.raw.body).toBe(200);
    return r.data.rows;
  };
  const task = async (id: unknown): Promise<Body> => (await call(t, farm, 'GET', `${TASKS}/${id}`)).data;
  const publish = async (item: Body, materials?: Body[]) => {
    const r = await call(t, farm, 'POST', `${TASKS}/publish`, { groupId: group.id, planId: plan.id, planItemId: item.id, assigneeIds: [farmUser], ...(materials ? { materials } : {}) });
    expect(r.status, r.raw.body).toBe(200);
    return r.data as Body;
  };
  const record = async (taskRow: Body, extra: Body = {}) => {
    const r = await call(t, farm, 'POST', RECORDS, { taskId: taskRow.id, doneOn: taskRow.startOn, workerNames: '张三', hours: 2, ...extra });
    expect(r.status, r.raw.body).toBe(200);
    return r.data as Body;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    center = `Bearer ${await t.login('center')}`;
    group = (await rows(farm, `${GROUPS}/page?status=growing&pageSize=50`)).find((g) => g.seasonStart && g.seasonEnd)!;
    const anyPlan = (await rows(farm, `${PLANS}/page?groupId=${group.id}&pageSize=1`))[0];
    const template = (await rows(farm, `${TEMPLATES}/page?pageSize=50`)).find((x) => x.kind === anyPlan.planType)!;
    const made = await call(t, farm, 'POST', `${PLANS}/generate`, { groupId: group.id, templateId: template.id, startOn: group.plantedOn, name: '作业闭环测试' });
    expect(made.status, made.raw.body).toBe(200);
    plan = (await call(t, farm, 'GET', `${PLANS}/${made.data.id}`)).data;
    workItems = (await rows(farm, `${ITEMS}/page?planId=${plan.id}&pageSize=100`)).filter((i) => i.itemType === 'work');
    expect(workItems.length).toBeGreaterThanOrEqual(3);
    farmUser = (await call(t, farm, 'GET', `${TASKS}/assigneeOptions`)).data[0].value;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a new plan’s items have no task; publishing shows the task’s state on the item, and a second task is refused', async () => {
    expect(workItems.every((i) => i.taskStatus === undefined)).toBe(true);
    const published = await publish(workItems[0]);
    expect(published.status).toBe('published');
    const item = (await call(t, farm, 'GET', `${ITEMS}/${workItems[0].id}`)).data;
    expect(item.taskStatus).toBe('published');
    const again = await call(t, farm, 'POST', `${TASKS}/publish`, { groupId: group.id, planId: plan.id, planItemId: workItems[0].id, assigneeIds: [farmUser] }, 'en');
    expect(again.status).toBe(40001);
    expect(again.data.errors[0].field).toBe('planItemId');
    // The state is read, never written: an item sent back with another state keeps the task's.
    const put = await call(t, farm, 'PUT', `${ITEMS}/${item.id}`, { ...recordOf(doc('planItems'), item), taskStatus: 'done', version: item.version });
    expect(put.status, put.raw.body).toBe(200);
    expect(put.data.taskStatus).toBe('published');
  });

  it('recording the work of a task without planned materials completes it', async () => {
    const published = await task((await rows(farm, `${TASKS}/page?planId=${plan.id}&pageSize=50`)).find((x) => x.planItemId === workItems[0].id)!.id);
    await record(published);
    expect((await task(published.id)).status).toBe('done');
    const item = (await call(t, farm, 'GET', `${ITEMS}/${workItems[0].id}`)).data;
    expect(item.taskStatus).toBe('done');
    // The task left «我的任务»'s open ones.
    const open = await rows(farm, `${TASKS}/page?planId=${plan.id}&status=published&pageSize=50`);
    expect(open.some((x) => x.id === published.id)).toBe(false);
  });

  it('the answer decides: not finished keeps the task in progress, finished closes it', async () => {
    const published = await publish(workItems[1]);
    await record(published, { finishesTask: false });
    expect((await task(published.id)).status).toBe('inProgress');
    await record(published, { finishesTask: true });
    expect((await task(published.id)).status).toBe('done');
  });

  it('without an answer, work short of the planned materials is partial until the records make up the plan', async () => {
    const published = await publish(workItems[2], [{ name: '尿素', amount: 10, unit: 'kg' }]);
    await record(published, { materials: [{ name: '尿素', quantity: 4, unit: 'kg' }] });
    expect((await task(published.id)).status).toBe('inProgress');
    await record(published, { materials: [{ name: '尿素', quantity: 6, unit: 'kg' }] });
    expect((await task(published.id)).status).toBe('done');
    const item = (await call(t, farm, 'GET', `${ITEMS}/${workItems[2].id}`)).data;
    expect(item.taskStatus).toBe('done');
  });

  it('review decisions notify the farm, in the reader’s language; an approved plan drops the old reason; the decisions stay as history', async () => {
    let r = await call(t, farm, 'POST', `${PLANS}/${plan.id}/transitions/submit`, { version: plan.version });
    expect(r.status, r.raw.body).toBe(200);
    plan = r.data;
    const empty = await call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/reject`, { version: plan.version, reason: '' }, 'en');
    expect(empty.status).toBe(40001);
    expect(empty.data.errors.map((e: Body) => e.field)).toEqual(['reason']);

    r = await call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/reject`, { version: plan.version, reason: '追肥用量偏高' });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data).toMatchObject({ reviewStatus: 'rejected', rejectReason: '追肥用量偏高' });
    const zh = (await call(t, farm, 'GET', NOTICES)).data.rows as Body[];
    expect(zh[0]).toMatchObject({ title: '种植计划被驳回', content: '作业闭环测试: 追肥用量偏高', read: false });
    const en = (await call(t, farm, 'GET', NOTICES, undefined, 'en')).data.rows as Body[];
    expect(en[0].title).toBe('Planting plan rejected');
    expect((await call(t, farm, 'GET', '/api/coverfield/notice/notReadNumber')).data).toBeGreaterThanOrEqual(1);

    plan = (await call(t, farm, 'GET', `${PLANS}/${plan.id}`)).data;
    // The farm cannot rewrite the center's history.
    const forged = await call(t, farm, 'PUT', `${PLANS}/${plan.id}`, { ...recordOf(doc('plantPlans'), plan), reviewHistory: [], version: plan.version });
    expect(forged.status, forged.raw.body).toBe(200);
    expect(forged.data.reviewHistory).toHaveLength(1);
    plan = (await call(t, farm, 'POST', `${PLANS}/${plan.id}/transitions/submit`, { version: forged.data.version })).data;
    r = await call(t, center, 'POST', `${REVIEW}/${plan.id}/transitions/approve`, { version: plan.version }, 'es');
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.reviewStatus).toBe('approved');
    expect(r.data.rejectReason).toBeUndefined();
    expect(r.data.reviewHistory).toMatchObject([
      { decision: 'rejected', reason: '追肥用量偏高' },
      { decision: 'approved', by: expect.any(String) },
    ]);
    const after = (await call(t, farm, 'GET', NOTICES, undefined, 'es')).data.rows as Body[];
    expect(after[0]).toMatchObject({ title: 'Plan de cultivo aprobado', content: '作业闭环测试' });
  });
});
