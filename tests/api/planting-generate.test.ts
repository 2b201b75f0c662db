/**
 * The plan generator and task publishing (server/planting/routes.ts) on every engine: plans
 * from each template kind with every date computed exactly, previews that store nothing,
 * season and planting-date refusals on the right field in three languages, other farms'
 * groups and templates as not found, bad input refused with nothing changed; and the seeded
 * seasons as the farm, the dashboard and the regional center see them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { addDays } from '../../server/planting/dates.ts';
import { call, fingerprint, type Body } from './resource-fixtures.ts';

const TEMPLATES = '/api/agricultureKnowledge/planTemplates';
const GENERATE = '/api/farmPlantGroup/plans/generate';
const PUBLISH = '/api/farmPlantGroup/tasks/publish';

describe.each(engines())('planting plans on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let group: Body;
  let cropId: number;
  let workTypeId: number;

  const template = async (token: string, body: Body) => {
    const r = await call(t, token, 'POST', TEMPLATES, body);
    expect(r.status, r.raw.body).toBe(200);
    return r.data.id as number;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    const groups = await call(t, farm, 'GET', '/api/farmPlantGroup/groups/page?status=growing&sort=-plantedOn&pageSize=50');
    group = groups.data.rows.find((g: Body) => g.seasonStart && g.seasonEnd);
    cropId = group.cropId as number;
    workTypeId = (await call(t, farm, 'GET', '/api/kms/farmWorkTypes/page?pageSize=1')).data.rows[0].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seeded group under way has a season around its planting date', () => {
    expect(group).toMatchObject({ status: 'growing' });
    expect(String(group.seasonStart) <= String(group.plantedOn)).toBe(true);
  });

  it('makes a plan from each template kind with every date computed from the start date', async () => {
    const start = addDays(String(group.plantedOn), 2);
    const cases: [string, Body, Body[]][] = [
      ['growthCycle', { stages: [{ name: '苗期', startDay: 0, days: 10 }, { name: '开花期', startDay: 10, days: 5 }] }, [
        { orderNumber: 1, itemType: 'stage', name: '苗期', startOn: start, endOn: addDays(start, 9) },
        { orderNumber: 2, itemType: 'stage', name: '开花期', startOn: addDays(start, 10), endOn: addDays(start, 14) },
      ]],
      ['keyNodes', { keyNodes: [{ name: '定植', day: 0 }, { name: '首次采收', day: 30 }] }, [
        { orderNumber: 1, itemType: 'keyNode', name: '定植', startOn: start, endOn: start },
        { orderNumber: 2, itemType: 'keyNode', name: '首次采收', startOn: addDays(start, 30), endOn: addDays(start, 30) },
      ]],
      ['seasonWork', { workItems: [
        { orderNumber: 2, name: '追肥', workTypeId, startDay: 20, days: 2, materials: [{ name: '尿素', amountPerMu: 4, unit: '公斤' }] },
        { orderNumber: 1, name: '中耕', workTypeId, startDay: 3, days: 1 },
      ] }, [
        { orderNumber: 1, itemType: 'work', name: '中耕', workTypeId, startOn: addDays(start, 3), endOn: addDays(start, 3) },
        { orderNumber: 2, itemType: 'work', name: '追肥', workTypeId, startOn: addDays(start, 20), endOn: addDays(start, 21), materials: [{ name: '尿素', amountPerMu: 4, unit: '公斤' }] },
      ]],
      ['pattern', { stages: [{ name: '结果期', startDay: 0, days: 40 }], keyNodes: [{ name: '拉秧', day: 39 }], workItems: [{ orderNumber: 1, name: '采收', workTypeId, startDay: 5, days: 30 }] }, [
        { orderNumber: 1, itemType: 'stage', name: '结果期', startOn: start, endOn: addDays(start, 39) },
        { orderNumber: 2, itemType: 'keyNode', name: '拉秧', startOn: addDays(start, 39), endOn: addDays(start, 39) },
        { orderNumber: 3, itemType: 'work', name: '采收', workTypeId, startOn: addDays(start, 5), endOn: addDays(start, 34) },
      ]],
    ];
    for (const [kind, parts, expected] of cases) {
      const templateId = await template(farm, { name: `测试${kind}`, kind, cropId, ...parts });
      const r = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: start, planType: kind });
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data.plan).toMatchObject({ groupId: group.id, templateId, planType: kind, startOn: start, reviewStatus: 'draft', farmId: group.farmId });
      expect(r.data.items).toEqual(expected.map((e) => ({ planId: r.data.plan.id, ...e })));
      const stored = await call(t, farm, 'GET', `/api/farmPlantGroup/planItems/page?planId=${r.data.plan.id}&sort=orderNumber`);
      expect(stored.data.rows.map((row: Body) => [row.orderNumber, row.startOn, row.endOn])).toEqual(expected.map((e) => [e.orderNumber, e.startOn, e.endOn]));
      const log = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log WHERE action IN ('plantPlans.create', 'planItems.create') AND record_id = $1`, [String(r.data.plan.id)]);
      expect(log.rows[0].n).toBeGreaterThanOrEqual(1);
      // Each item has its own audit row (written in one statement for the whole plan), naming its fields.
      const ids = stored.data.rows.map((row: Body) => String(row.id));
      const itemLog = await t.db.query<{ record_id: string; changes: { fields: Record<string, unknown> } | string; username: string }>(
        `SELECT record_id, changes, username FROM operation_log WHERE action = 'planItems.create' AND record_id = ANY($1::text[])`,
        [ids],
      );
      expect(itemLog.rows.map((l) => l.record_id).sort()).toEqual([...ids].sort());
      for (const l of itemLog.rows) {
        const changes = typeof l.changes === 'string' ? JSON.parse(l.changes) : l.changes;
        expect(Object.keys(changes.fields)).toContain('startOn');
        expect(l.username).toBe('farm');
      }
    }
  });

  it('a preview answers the items and stores nothing', async () => {
    const templateId = await template(farm, { name: '预览模板', kind: 'keyNodes', cropId, keyNodes: [{ name: '定植', day: 0 }] });
    const before = await fingerprint(t.db);
    const r = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: group.plantedOn, preview: true });
    expect(r.status).toBe(200);
    expect(r.data.items).toEqual([{ orderNumber: 1, itemType: 'keyNode', name: '定植', startOn: group.plantedOn, endOn: group.plantedOn }]);
    expect(r.data.plan.id).toBeUndefined();
    // The group's season and planting date come along, for a timeline to draw the plan against.
    expect(r.data.season).toEqual({ start: group.seasonStart ?? null, end: group.seasonEnd ?? null });
    expect(r.data.plantedOn).toBe(group.plantedOn);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('refuses dates before planting or outside the season on the start date, in the user’s language, and stores nothing', async () => {
    const templateId = await template(farm, { name: '长周期模板', kind: 'growthCycle', cropId, stages: [{ name: '全生育期', startDay: 0, days: 400 }] });
    const before = await fingerprint(t.db);
    const early = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: addDays(String(group.plantedOn), -1) }, 'en');
    expect([early.http, early.status]).toEqual([400, 40001]);
    expect(early.data.errors[0]).toEqual({ field: 'startOn', message: `The plan date ${addDays(String(group.plantedOn), -1)} is before the group was planted (${group.plantedOn}); choose a later start date` });
    const late = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: group.plantedOn }, 'zh');
    expect(late.data.errors).toEqual([{ field: 'startOn', message: expect.stringContaining(`晚于种植季结束日期 ${group.seasonEnd}`) }]);
    const es = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: group.plantedOn }, 'es');
    expect(es.data.errors[0].message).toContain('posterior al fin de la temporada');
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('keeps the dates of work items moved on the preview (adjustments), in the preview and in the stored plan', async () => {
    const start = addDays(String(group.plantedOn), 1);
    const templateId = await template(farm, {
      name: '调整模板',
      kind: 'pattern',
      cropId,
      stages: [{ name: '苗期', startDay: 0, days: 20 }],
      workItems: [
        { orderNumber: 1, name: '中耕', workTypeId, startDay: 3, days: 2 },
        { orderNumber: 2, name: '追肥', workTypeId, startDay: 10, days: 1 },
      ],
    });
    // Item 2 is 中耕 (after the stage); it moves two days later and grows by one day.
    const adjustments = [{ orderNumber: 2, startOn: addDays(start, 5), endOn: addDays(start, 7) }];
    const preview = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: start, preview: true, adjustments });
    expect(preview.status, preview.raw.body).toBe(200);
    expect(preview.data.items.map((i: Body) => [i.orderNumber, i.name, i.startOn, i.endOn])).toEqual([
      [1, '苗期', start, addDays(start, 19)],
      [2, '中耕', addDays(start, 5), addDays(start, 7)],
      [3, '追肥', addDays(start, 10), addDays(start, 10)],
    ]);
    const saved = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: start, adjustments });
    expect(saved.status, saved.raw.body).toBe(200);
    const stored = await call(t, farm, 'GET', `/api/farmPlantGroup/planItems/page?planId=${saved.data.id}&sort=orderNumber`);
    expect(stored.data.rows.map((row: Body) => [row.orderNumber, row.startOn, row.endOn])).toEqual(preview.data.items.map((i: Body) => [i.orderNumber, i.startOn, i.endOn]));
  });

  it('refuses an adjustment on its own entry, with the rules of a later edit, and stores nothing', async () => {
    const start = String(group.plantedOn);
    const templateId = await template(farm, {
      name: '调整拒绝模板',
      kind: 'pattern',
      cropId,
      stages: [{ name: '苗期', startDay: 0, days: 5 }],
      workItems: [{ orderNumber: 1, name: '中耕', workTypeId, startDay: 2, days: 1 }],
    });
    const before = await fingerprint(t.db);
    const refused = async (adjustment: Body, lang: 'zh' | 'en' = 'en') => {
      const r = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: start, adjustments: [{ orderNumber: 2, startOn: addDays(start, 2), endOn: addDays(start, 2) }, adjustment] }, lang);
      expect([r.http, r.status], r.raw.body).toEqual([400, 40001]);
      return r.data.errors;
    };
    expect(await refused({ orderNumber: 2, startOn: addDays(start, -1), endOn: addDays(start, 1) })).toEqual([
      { field: 'adjustments/1/startOn', message: `The plan date ${addDays(start, -1)} is before the group was planted (${start}); move this item to the planting date or later` },
    ]);
    expect(await refused({ orderNumber: 2, startOn: start, endOn: addDays(String(group.seasonEnd), 1) })).toEqual([
      { field: 'adjustments/1/endOn', message: expect.stringContaining(`after the season ends (${group.seasonEnd})`) },
    ]);
    expect(await refused({ orderNumber: 2, startOn: addDays(start, 3), endOn: addDays(start, 2) })).toEqual([
      { field: 'adjustments/1/endOn', message: `The end of “中耕” (${addDays(start, 2)}) is before its start (${addDays(start, 3)})` },
    ]);
    expect(await refused({ orderNumber: 1, startOn: addDays(start, 1), endOn: addDays(start, 3) })).toEqual([
      { field: 'adjustments/1/orderNumber', message: '“苗期” is not a work item: stages and key nodes follow the template; only work items can be moved' },
    ]);
    expect(await refused({ orderNumber: 9, startOn: start, endOn: start }, 'zh')).toEqual([{ field: 'adjustments/1/orderNumber', message: '该计划没有序号为 9 的条目' }]);
    // A preview refuses alike (the timeline shows the sentence beside the moved bar).
    const preview = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: start, preview: true, adjustments: [{ orderNumber: 2, startOn: start, endOn: addDays(String(group.seasonEnd), 3) }] }, 'en');
    expect(preview.data.errors).toEqual([{ field: 'adjustments/0/endOn', message: expect.stringContaining('after the season ends') }]);
    const malformed = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: start, adjustments: [{ orderNumber: 2, startOn: 'soon' }] }, 'en');
    expect(malformed.status).toBe(40001);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('refuses a template of another kind than the plan type asked for, on the template', async () => {
    const templateId = await template(farm, { name: '节点模板', kind: 'keyNodes', cropId, keyNodes: [{ name: '定植', day: 0 }] });
    const r = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: group.plantedOn, planType: 'growthCycle' });
    expect(r.status).toBe(40001);
    expect(r.data.errors[0].field).toBe('templateId');
  });

  it('another farm’s group or template is not found, and nothing changes', async () => {
    const mine = await template(farm, { name: '本场模板', kind: 'keyNodes', cropId, keyNodes: [{ name: '定植', day: 0 }] });
    const theirs = await template(farm2, { name: '他场模板', kind: 'keyNodes', cropId, keyNodes: [{ name: '定植', day: 0 }] });
    const before = await fingerprint(t.db);
    const foreignGroup = await call(t, farm2, 'POST', GENERATE, { groupId: group.id, templateId: theirs, startOn: group.plantedOn });
    expect([foreignGroup.http, foreignGroup.status]).toEqual([404, 40401]);
    const foreignTemplate = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId: theirs, startOn: group.plantedOn });
    expect(foreignTemplate.status).toBe(40401);
    const missing = await call(t, farm, 'POST', GENERATE, { groupId: 2147483000, templateId: mine, startOn: group.plantedOn });
    expect(missing.status).toBe(40401);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('bad input is 40001 on the field and changes nothing; no code is 40301', async () => {
    const center = `Bearer ${await t.login('center')}`;
    const before = await fingerprint(t.db);
    const cases: [Body, string][] = [
      [{ groupId: group.id, templateId: 1 }, 'startOn'],
      [{ groupId: group.id, templateId: 1, startOn: '2026-02-30' }, 'startOn'],
      [{ groupId: 'x', templateId: 1, startOn: '2026-01-01' }, 'groupId'],
      [{ groupId: group.id, templateId: 1, startOn: '2026-01-01', bogus: 1 }, 'bogus'],
      [{ groupId: group.id, templateId: 1, startOn: '2026-01-01', name: '<b>' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const r = await call(t, farm, 'POST', GENERATE, body);
      expect([r.status, r.data?.errors?.map((e: Body) => e.field)], JSON.stringify(body)).toEqual([40001, expect.arrayContaining([field])]);
    }
    expect((await call(t, center, 'POST', GENERATE, { groupId: group.id, templateId: 1, startOn: '2026-01-01' })).status).toBe(40301);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('publishes an item of the group’s own plan to people of the farm, and refuses strangers and other plans’ items', async () => {
    const templateId = await template(farm, { name: '发布测试', kind: 'seasonWork', cropId, workItems: [{ orderNumber: 1, name: '整枝', workTypeId, startDay: 1, days: 2, materials: [{ name: '绑蔓夹', amountPerMu: 100, unit: '个' }] }] });
    const made = await call(t, farm, 'POST', GENERATE, { groupId: group.id, templateId, startOn: group.plantedOn });
    const plan = made.data.plan;
    const items = await call(t, farm, 'GET', `/api/farmPlantGroup/planItems/page?planId=${plan.id}`);
    const item = items.data.rows[0];
    const people = await t.db.query<{ id: number; username: string }>(`SELECT id, username FROM users WHERE username IN ('farm', 'farm2')`);
    const me = people.rows.find((p) => p.username === 'farm')!.id;
    const stranger = people.rows.find((p) => p.username === 'farm2')!.id;
    const before = await fingerprint(t.db);
    const bad = await call(t, farm, 'POST', PUBLISH, { groupId: group.id, planId: plan.id, planItemId: item.id, assigneeIds: [stranger] });
    expect(bad.data.errors).toEqual([{ field: 'assigneeIds', message: '执行人必须是本农场的人员' }]);
    const otherPlanItem = (await call(t, farm, 'GET', `/api/farmPlantGroup/planItems/page?pageSize=1&sort=id`)).data.rows[0];
    const wrong = await call(t, farm, 'POST', PUBLISH, { groupId: group.id, planId: plan.id, planItemId: otherPlanItem.id, assigneeIds: [me] });
    expect(wrong.data.errors[0].field).toBe('planItemId');
    const outside = await call(t, farm, 'POST', PUBLISH, { groupId: group.id, planId: plan.id, planItemId: item.id, assigneeIds: [me], dueOn: addDays(String(group.seasonEnd), 1) }, 'en');
    expect(outside.data.errors[0]).toMatchObject({ field: 'startOn' === outside.data.errors[0].field ? 'startOn' : 'dueOn' });
    expect(await fingerprint(t.db)).toBe(before);
    const ok = await call(t, farm, 'POST', PUBLISH, { groupId: group.id, planId: plan.id, planItemId: item.id, assigneeIds: [me] });
    expect(ok.status, ok.raw.body).toBe(200);
    expect(ok.data).toMatchObject({ title: '整枝', status: 'published', startOn: item.startOn, dueOn: item.endOn, orderNumber: 1, assigneeIds: [me] });
    expect(ok.data.materials).toEqual([{ name: '绑蔓夹', amount: Math.round(100 * Number(group.areaMu) * 100) / 100, unit: '个' }]);
    const again = await call(t, farm, 'POST', PUBLISH, { groupId: group.id, planId: plan.id, planItemId: item.id, assigneeIds: [me] });
    expect(again.data.errors[0].field).toBe('planItemId');
    expect((await call(t, farm2, 'POST', PUBLISH, { groupId: group.id, planId: plan.id, planItemId: item.id, assigneeIds: [stranger] })).status).toBe(40401);
  });

  it('the seeded seasons: tasks due today and overdue on the dashboard, submitted plans for the center, none of the drafts', async () => {
    const overview = await call(t, farm, 'GET', '/api/productionManagement/overview');
    expect(overview.status).toBe(200);
    expect(overview.data.tasks.overdue).toBeGreaterThanOrEqual(1);
    expect(overview.data.groupsByStage.length).toBeGreaterThan(0);
    const overdue = await call(t, farm, 'GET', '/api/productionManagement/tasks/page?when=overdue');
    expect(overdue.status, overdue.raw.body).toBe(200);
    expect(overdue.data.rows.every((r: Body) => (r.daysOverdue as number) > 0 && r.status !== 'done')).toBe(true);
    const records = await call(t, farm, 'GET', '/api/farmPlantGroup/records/page?pageSize=1');
    expect(records.data.total).toBeGreaterThan(5);
    const center = `Bearer ${await t.login('center')}`;
    const review = await call(t, center, 'GET', '/api/examineFactory/plans/page?pageSize=50');
    expect(review.status).toBe(200);
    expect(review.data.rows.length).toBeGreaterThan(0);
    expect(review.data.rows.every((r: Body) => r.reviewStatus !== 'draft')).toBe(true);
    const detail = await call(t, center, 'GET', `/api/examineFactory/plans/${review.data.rows[0].id}`);
    expect(detail.data.items.length).toBeGreaterThan(5);
    expect((await call(t, farm, 'GET', '/api/examineFactory/plans/page')).status).toBe(40301);
    for (const who of ['farm2', 'nursery']) {
      const token = `Bearer ${await t.login(who)}`;
      const groups = await call(t, token, 'GET', '/api/farmPlantGroup/groups/page?status=growing&status=harvested&status=closed&pageSize=50');
      expect(new Set(groups.data.rows.map((g: Body) => g.status)).size, who).toBeGreaterThanOrEqual(2);
    }
  });
});
