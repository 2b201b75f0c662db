/**
 * Issue 30, item 4: finish-to-start dependencies with lag between the work items of a plan
 * (server/planting/rules.ts checkPredecessor and pushSuccessors, wired in
 * server/planting/extensions.ts), on every engine. A plan of a group with a fixed season
 * (2031-03-01 – 2031-05-31, nothing depends on today): a dependency saved (and a start too
 * early for it refused), a loop, the item itself, a predecessor of another plan or of another
 * farm refused on `after` with their sentences; moving or resizing a predecessor moves its
 * successors transitively by the days they lack (versions and operation log), never earlier;
 * a move that would push a successor out of the season refused on `endOn` with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { checkPredecessor, earliestStart, pushSuccessors, type LinkedItem } from '../../server/planting/rules.ts';
import { call, docs, fingerprint, recordOf, type Body, type Reply } from './resource-fixtures.ts';

const GROUPS = '/api/farmPlantGroup/groups';
const PLANS = '/api/farmPlantGroup/plans';
const ITEMS = '/api/farmPlantGroup/planItems';
const doc = (name: string) => docs.find((d) => d.name === name)!;

const SEASON = { seasonStart: '2031-03-01', seasonEnd: '2031-05-31' };

describe('the dependency rules, alone', () => {
  const item = (id: number, startOn: string, endOn: string, after?: number, lagDays?: number): LinkedItem => ({
    id,
    name: `#${id}`,
    itemType: 'work',
    planId: 1,
    startOn,
    endOn,
    ...(after !== undefined ? { after } : {}),
    ...(lagDays !== undefined ? { lagDays } : {}),
  });

  it('the earliest start is the day after the predecessor’s end plus the lag', () => {
    expect(earliestStart({ endOn: '2031-02-27' }, 0)).toBe('2031-02-28');
    expect(earliestStart({ endOn: '2031-02-27' }, 3)).toBe('2031-03-03');
  });

  it('a chain is pushed by the days each successor lacks, keeping lengths; slack absorbs; nothing moves earlier', () => {
    const plan = [item(1, '2031-03-01', '2031-03-03'), item(2, '2031-03-06', '2031-03-08', 1, 2), item(3, '2031-03-10', '2031-03-12', 2, 0), item(4, '2031-04-01', '2031-04-01', 1, 0)];
    expect(pushSuccessors(plan, { id: 1, endOn: '2031-03-06' }, SEASON)).toEqual({
      moves: [
        { id: 2, startOn: '2031-03-09', endOn: '2031-03-11' },
        { id: 3, startOn: '2031-03-12', endOn: '2031-03-14' },
      ],
      problems: [],
    });
    expect(pushSuccessors(plan, { id: 1, endOn: '2031-03-01' }, SEASON).moves).toEqual([]);
    const out = pushSuccessors(plan, { id: 1, endOn: '2031-05-26' }, SEASON);
    expect(out.moves).toEqual([]);
    // #2 still fits (05-29 – 05-31); #3 would end on 06-03.
    expect(out.problems).toEqual([{ field: 'endOn', key: 'planting.successorAfterSeason', params: { name: '#3', startOn: '2031-06-01', endOn: '2031-06-03', seasonEnd: '2031-05-31' } }]);
  });

  it('a loop, the item itself, another plan and a start too early are problems', () => {
    const plan = [item(1, '2031-03-01', '2031-03-03'), item(2, '2031-03-06', '2031-03-08', 1, 2), item(3, '2031-03-10', '2031-03-12', 2, 0)];
    expect(checkPredecessor({ ...plan[0], after: 3 }, plan[2], plan)[0]).toMatchObject({ field: 'after', key: 'planting.dependencyCycle' });
    expect(checkPredecessor({ ...plan[0], after: 1 }, plan[0], plan)[0]).toMatchObject({ field: 'after', key: 'planting.dependencySelf' });
    expect(checkPredecessor({ ...plan[2], after: 9 }, { ...item(9, '2031-03-01', '2031-03-01'), planId: 2 }, plan)[0]).toMatchObject({ key: 'planting.dependencyOtherPlan' });
    expect(checkPredecessor({ ...plan[1], startOn: '2031-03-05' }, plan[0], plan)[0]).toMatchObject({ field: 'startOn', key: 'planting.dependencyTooEarly', params: { earliest: '2031-03-06' } });
    expect(checkPredecessor(plan[1], plan[0], plan)).toEqual([]);
  });
});

describe.each(engines())('finish-to-start dependencies on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let plan: Body;
  let otherPlan: Body;
  let a: Body;
  let b: Body;
  let c: Body;

  const rows = async (token: string, url: string): Promise<Body[]> => {
    const r = await call(t, token, 'GET', url);
    expect(r.status, r.raw.body).toBe(200);
    return r.data.rows;
  };
  const get = async (row: Body): Promise<Body> => (await call(t, farm, 'GET', `${ITEMS}/${row.id}`)).data;
  const put = (row: Body, patch: Body, lang = 'zh') => call(t, farm, 'PUT', `${ITEMS}/${row.id}`, { ...recordOf(doc('planItems'), row), ...patch, version: row.version }, lang);
  const create = async (body: Body): Promise<Body> => {
    const r = await call(t, farm, 'POST', ITEMS, body);
    expect(r.status, r.raw.body).toBe(200);
    return r.data;
  };
  const work = (planId: unknown, orderNumber: number, name: string, startOn: string, endOn: string, extra: Body = {}) => ({ planId, orderNumber, itemType: 'work', name, startOn, endOn, ...extra });
  /** A refused write: the status, the one field, the sentence, and not a byte of the records or the log changed. */
  const refused = async (write: () => Promise<Reply>, field: string, message: RegExp) => {
    const before = await fingerprint(t.db);
    const r = await write();
    expect(r.status, r.raw.body).toBe(40001);
    expect(r.data.errors.map((e: Body) => e.field), r.raw.body).toEqual([field]);
    expect(r.data.errors[0].message).toMatch(message);
    expect(await fingerprint(t.db)).toBe(before);
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    const open = (await rows(farm, `${GROUPS}/page?status=growing&pageSize=50`)).find((g) => g.seasonStart && g.seasonEnd)!;
    const seeded = (await rows(farm, `${PLANS}/page?groupId=${open.id}&pageSize=1`))[0];
    const field = (await rows(farm, '/api/admin/fields/page?pageSize=1'))[0];
    const g = await call(t, farm, 'POST', GROUPS, { name: '依赖测试组', cropId: open.cropId, areaMu: 2, plantedOn: SEASON.seasonStart, stage: open.stage, fieldIds: [field.id], ...SEASON });
    expect(g.status, g.raw.body).toBe(200);
    const newPlan = async (name: string) => {
      const r = await call(t, farm, 'POST', PLANS, { groupId: g.data.id, templateId: seeded.templateId, planType: seeded.planType, name, startOn: SEASON.seasonStart });
      expect(r.status, r.raw.body).toBe(200);
      return r.data as Body;
    };
    plan = await newPlan('依赖测试计划');
    otherPlan = await newPlan('另一个计划');
    a = await create(work(plan.id, 1, '整地', '2031-03-01', '2031-03-03'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a dependency is saved with its lag; without a lag it is 0; a start too early for it is refused on startOn', async () => {
    await refused(() => call(t, farm, 'POST', ITEMS, work(plan.id, 2, '起垄', '2031-03-05', '2031-03-07', { after: a.id, lagDays: 2 }), 'en'), 'startOn', /starts after its predecessor “整地” ends \(2031-03-03\) and a lag of 2 days: on 2031-03-06 at the earliest/);
    b = await create(work(plan.id, 2, '起垄', '2031-03-06', '2031-03-08', { after: a.id, lagDays: 2 }));
    expect(b).toMatchObject({ after: a.id, lagDays: 2, startOn: '2031-03-06' });
    c = await create(work(plan.id, 3, '铺膜', '2031-03-10', '2031-03-12', { after: b.id }));
    expect(c).toMatchObject({ after: b.id, lagDays: 0 });
    const page = await rows(farm, `${ITEMS}/page?planId=${plan.id}&pageSize=50`);
    expect(page.map((r) => [r.name, r.after ?? null, r.lagDays ?? null])).toEqual([
      ['整地', null, null],
      ['起垄', a.id, 2],
      ['铺膜', b.id, 0],
    ]);
    // The successor itself moved before its predecessor allows: refused at its start, in each language.
    await refused(() => put(c, { startOn: '2031-03-08', endOn: '2031-03-10' }), 'startOn', /「铺膜」须在前置作业「起垄」结束（2031-03-08）并间隔 0 天后开始，最早 2031-03-09/);
    await refused(() => put(c, { startOn: '2031-03-08', endOn: '2031-03-10' }, 'es'), 'startOn', /el 2031-03-09 como pronto/);
  });

  it('a loop and the item itself are refused on after, in zh, en and es', async () => {
    await refused(() => put(a, { after: c.id }, 'en'), 'after', /That would make a loop: “铺膜” already comes after this item/);
    await refused(() => put(a, { after: c.id }), 'after', /不能形成循环：「铺膜」已经（直接或间接）排在这项农事之后/);
    await refused(() => put(a, { after: b.id }, 'es'), 'after', /Eso formaría un ciclo: «起垄» ya va después de esta labor/);
    await refused(() => put(a, { after: a.id }, 'en'), 'after', /cannot come after itself/);
  });

  it('a predecessor of another plan is refused with its sentence; another farm’s answers as a missing record', async () => {
    const foreign = await create(work(otherPlan.id, 1, '别的计划的整地', '2031-03-01', '2031-03-02'));
    await refused(() => put(c, { after: foreign.id }, 'en'), 'after', /The predecessor “别的计划的整地” belongs to another plan; choose a work item of this plan/);
    await refused(() => put(c, { after: foreign.id }), 'after', /前置作业「别的计划的整地」属于另一个计划，请选择本计划的农事作业/);
    await refused(() => put(c, { after: foreign.id }, 'es'), 'after', /pertenece a otro plan/);
    const stranger = (await rows(farm2, `${ITEMS}/page?itemType=work&pageSize=1`))[0];
    const missing = await put(c, { after: 2147483000 }, 'en');
    await refused(() => put(c, { after: stranger.id }, 'en'), 'after', new RegExp(`^${missing.data.errors[0].message}$`));
    // A stage or key node is no predecessor, and a work item others follow stays a work item.
    const stage = await create({ planId: plan.id, orderNumber: 9, itemType: 'stage', name: '苗期', startOn: '2031-03-01', endOn: '2031-03-20' });
    await refused(() => put(c, { after: stage.id }, 'en'), 'after', /“苗期” is not a work item/);
    await refused(() => put(a, { itemType: 'stage' }, 'en'), 'itemType', /“整地” is the predecessor of other work items/);
  });

  it('moving a predecessor moves its successors forward by the days they lack, transitively, with versions and the log', async () => {
    [a, b, c] = await Promise.all([get(a), get(b), get(c)]);
    const logs = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log WHERE action = 'planItems.update' AND record_id = ANY($1::text[])`, [[String(b.id), String(c.id)]])).rows[0].n;
    const before = await logs();
    // 整地 three days later: 起垄 needs 03-09 (+3 days), 铺膜 then needs 03-12 (+2 days: it had a day of slack).
    const r = await put(a, { startOn: '2031-03-04', endOn: '2031-03-06' });
    expect(r.status, r.raw.body).toBe(200);
    const [b2, c2] = await Promise.all([get(b), get(c)]);
    expect(b2).toMatchObject({ startOn: '2031-03-09', endOn: '2031-03-11', version: Number(b.version) + 1 });
    expect(c2).toMatchObject({ startOn: '2031-03-12', endOn: '2031-03-14', version: Number(c.version) + 1 });
    expect(await logs()).toBe(before + 2);
    // A resize of the end by one day pushes both by one day.
    a = r.data;
    const resized = await put(a, { endOn: '2031-03-07' });
    expect(resized.status, resized.raw.body).toBe(200);
    expect(await get(b)).toMatchObject({ startOn: '2031-03-10', endOn: '2031-03-12' });
    expect(await get(c)).toMatchObject({ startOn: '2031-03-13', endOn: '2031-03-15' });
    // Back earlier: the successors stay where they are (no earlier than needed is allowed, not required).
    a = resized.data;
    const back = await put(a, { startOn: '2031-03-01', endOn: '2031-03-03' });
    expect(back.status, back.raw.body).toBe(200);
    expect(await get(b)).toMatchObject({ startOn: '2031-03-10', endOn: '2031-03-12' });
    a = back.data;
  });

  it('a move that would push a successor past the season is refused on endOn, and nothing changes', async () => {
    // 整地 to 05-23–05-25: 起垄 to 05-28–05-30, 铺膜 to 05-31–06-02, after the season (05-31).
    await refused(() => put(a, { startOn: '2031-05-23', endOn: '2031-05-25' }, 'en'), 'endOn', /This would push the following item “铺膜” to 2031-05-31 – 2031-06-02, after the season ends \(2031-05-31\); nothing was changed/);
    await refused(() => put(a, { startOn: '2031-05-23', endOn: '2031-05-25' }), 'endOn', /这样会把后续作业「铺膜」推迟到 2031-05-31 至 2031-06-02，晚于种植季结束日期 2031-05-31；未做任何修改/);
    await refused(() => put(a, { startOn: '2031-05-23', endOn: '2031-05-25' }, 'es'), 'endOn', /llevaría la labor siguiente «铺膜» al 2031-05-31 – 2031-06-02/);
    expect(await get(a)).toMatchObject({ startOn: '2031-03-01', endOn: '2031-03-03', version: a.version });
  });

  it('deleting a predecessor releases its successor, which keeps its dates', async () => {
    const c1 = await get(c);
    const r = await call(t, farm, 'DELETE', `${ITEMS}/${b.id}`);
    expect(r.status, r.raw.body).toBe(200);
    const c2 = await get(c);
    expect(c2.after).toBeUndefined();
    expect(c2.lagDays).toBeUndefined();
    expect(c2).toMatchObject({ startOn: c1.startOn, endOn: c1.endOn, version: Number(c1.version) + 1 });
  });

  it('the seeded plan under way has dependencies its dates keep, and its done work carries the task’s state', async () => {
    const open = (await rows(farm, `${GROUPS}/page?status=growing&pageSize=50`)).find((g) => g.seasonStart && g.seasonEnd)!;
    const seeded = (await rows(farm, `${PLANS}/page?groupId=${open.id}&pageSize=1`))[0];
    const items = await rows(farm, `${ITEMS}/page?planId=${seeded.id}&pageSize=100`);
    const byId = new Map(items.map((i) => [i.id, i]));
    const linked = items.filter((i) => i.after !== undefined);
    expect(linked.length).toBeGreaterThanOrEqual(2);
    for (const s of linked) {
      const p = byId.get(s.after)!;
      expect(p.itemType).toBe('work');
      expect(String(s.startOn) >= earliestStart({ endOn: String(p.endOn) }, Number(s.lagDays))).toBe(true);
    }
    // "Finished work shown as overdue": a done task's item says so on the row the timeline reads.
    expect(items.some((i) => i.itemType === 'work' && i.taskStatus === 'done')).toBe(true);
  });
});
