import type { Queryable } from '../db/database.ts';
import { addDays, today } from './dates.ts';
import { planItemsFromTemplate, type PlanItemDraft, type Template } from './rules.ts';

/**
 * Two seasons of planting for every farm-like organisation (farms and the seedling base):
 * one finished (groups harvested or closed, every task done, records with materials) and
 * one under way around today (a greenhouse group growing, a plan of ~20 items from the farm's
 * whole-season template, tasks done, overdue and due today, some records). Dates of the season
 * under way are relative to the day of seeding, so a fresh demo always shows a living farm.
 * Runs inside the demo seed's transaction after the plots and groups exist; does nothing when
 * any plan exists.
 */
type Org = { id: number; bloc_id: number | null; type: number; name: string };
type Person = { id: number; name: string };

const WORK_TYPES = [
  // The knowledge base's farm-work types (server/knowledge/seed.ts), found by name; the
  // category is the document's enum, used only if the knowledge seed did not run.
  ['整地', 'tillage', 'soil'],
  ['育苗', 'sowing', 'planting'],
  ['定植', 'transplant', 'planting'],
  ['追肥', 'fertilize', 'nutrition'],
  ['浇水', 'irrigate', 'water'],
  ['打药', 'protect', 'protection'],
  ['整枝打杈', 'prune', 'management'],
  ['采收', 'harvest', 'harvest'],
] as const;

type WorkKey = (typeof WORK_TYPES)[number][1];

/**
 * The work items of a seeded plan that follow another, by template: [item, predecessor, lag
 * in days]. The template's offsets already keep each rule (start ≥ predecessor's end + 1 + lag),
 * so the seeded plans show arrows on the timeline from the first day.
 */
const DEPENDENCIES: Record<string, readonly (readonly [string, string, number])[]> = {
  日光温室番茄全季农事: [
    ['整枝打杈', '吊蔓', 5],
    ['第二次追施水溶肥', '第一次追施水溶肥', 18],
    ['防治白粉虱', '落蔓', 5],
    ['分批采收', '防治白粉虱', 8],
  ],
};

function tomatoTemplate(work: Record<WorkKey, number>, cropId: number): Template & { description: string } {
  return {
    name: '日光温室番茄全季农事',
    kind: 'seasonWork',
    cropId,
    description: '日光温室越冬茬、秋冬茬番茄，定植到拉秧约 120 天。',
    stages: [
      { name: '缓苗期', startDay: 0, days: 10 },
      { name: '开花坐果期', startDay: 10, days: 30 },
      { name: '结果期', startDay: 40, days: 40 },
      { name: '采收期', startDay: 80, days: 40 },
    ],
    keyNodes: [
      { name: '定植', day: 0 },
      { name: '第一穗花开放', day: 18 },
      { name: '首次采收', day: 80 },
      { name: '拉秧', day: 119 },
    ],
    workItems: [
      { orderNumber: 1, name: '定植浇定根水', workTypeId: work.transplant, startDay: 0, days: 1 },
      { orderNumber: 2, name: '缓苗后中耕松土', workTypeId: work.tillage, startDay: 8, days: 2 },
      { orderNumber: 3, name: '吊蔓', workTypeId: work.prune, startDay: 12, days: 3 },
      { orderNumber: 4, name: '整枝打杈', workTypeId: work.prune, startDay: 20, days: 5 },
      { orderNumber: 5, name: '熊蜂授粉', workTypeId: work.prune, startDay: 22, days: 20 },
      { orderNumber: 6, name: '第一次追施水溶肥', workTypeId: work.fertilize, startDay: 30, days: 2, materials: [{ name: '大量元素水溶肥', amountPerMu: 5, unit: '公斤' }] },
      { orderNumber: 7, name: '防治灰霉病', workTypeId: work.protect, startDay: 35, days: 2, materials: [{ name: '腐霉利 50% 可湿性粉剂', amountPerMu: 50, unit: '克' }] },
      { orderNumber: 8, name: '疏花疏果', workTypeId: work.prune, startDay: 40, days: 3 },
      { orderNumber: 9, name: '第二次追施水溶肥', workTypeId: work.fertilize, startDay: 50, days: 2, materials: [{ name: '高钾水溶肥', amountPerMu: 6, unit: '公斤' }] },
      { orderNumber: 10, name: '滴灌补水', workTypeId: work.irrigate, startDay: 55, days: 3 },
      { orderNumber: 11, name: '落蔓', workTypeId: work.prune, startDay: 62, days: 3 },
      { orderNumber: 12, name: '防治白粉虱', workTypeId: work.protect, startDay: 70, days: 2, materials: [{ name: '吡虫啉 10% 可湿性粉剂', amountPerMu: 20, unit: '克' }] },
      { orderNumber: 13, name: '分批采收', workTypeId: work.harvest, startDay: 80, days: 40 },
    ],
  };
}

function riceTemplate(work: Record<WorkKey, number>, cropId: number): Template & { description: string } {
  return {
    name: '寒地水稻全季农事',
    kind: 'seasonWork',
    cropId,
    description: '第三积温带插秧栽培，插秧到收获约 130 天。',
    stages: [
      { name: '返青期', startDay: 0, days: 10 },
      { name: '分蘖期', startDay: 10, days: 35 },
      { name: '拔节孕穗期', startDay: 45, days: 30 },
      { name: '抽穗灌浆期', startDay: 75, days: 35 },
      { name: '成熟期', startDay: 110, days: 20 },
    ],
    keyNodes: [
      { name: '插秧', day: 0 },
      { name: '晒田', day: 40 },
      { name: '齐穗', day: 85 },
      { name: '收获', day: 125 },
    ],
    workItems: [
      { orderNumber: 1, name: '机械插秧', workTypeId: work.transplant, startDay: 0, days: 3 },
      { orderNumber: 2, name: '施返青肥', workTypeId: work.fertilize, startDay: 7, days: 1, materials: [{ name: '尿素', amountPerMu: 4, unit: '公斤' }] },
      { orderNumber: 3, name: '封闭除草', workTypeId: work.protect, startDay: 15, days: 2, materials: [{ name: '丙草胺', amountPerMu: 60, unit: '毫升' }] },
      { orderNumber: 4, name: '晒田控蘖', workTypeId: work.irrigate, startDay: 40, days: 7 },
      { orderNumber: 5, name: '追施穗肥', workTypeId: work.fertilize, startDay: 50, days: 1, materials: [{ name: '尿素', amountPerMu: 3, unit: '公斤' }, { name: '硫酸钾', amountPerMu: 4, unit: '公斤' }] },
      { orderNumber: 6, name: '防治稻瘟病', workTypeId: work.protect, startDay: 80, days: 2, materials: [{ name: '三环唑 75% 可湿性粉剂', amountPerMu: 20, unit: '克' }] },
      { orderNumber: 7, name: '机械收获', workTypeId: work.harvest, startDay: 125, days: 5 },
    ],
  };
}

export async function seedPlanting(db: Queryable, now = new Date()): Promise<void> {
  const exists = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'plantPlans'`);
  if (exists.rows[0].n > 0) return;
  const admin = (await db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]?.id ?? null;
  const insert = async (resource: string, data: Record<string, unknown>, org: Org | null, by: number | null) => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [resource, org?.id ?? null, org?.bloc_id ?? null, JSON.stringify(data), by],
    );
    return Number(rows[0].id);
  };
  const idOf = async (resource: string, name: string, farmId: number | null = null) =>
    (
      await db.query<{ id: number }>(
        `SELECT id FROM resource_records WHERE resource = $1 AND data->>'name' = $2 AND farm_id IS NOT DISTINCT FROM $3 ORDER BY id LIMIT 1`,
        [resource, name, farmId],
      )
    ).rows[0]?.id ?? null;

  const work = {} as Record<WorkKey, number>;
  for (const [name, code, category] of WORK_TYPES) {
    work[code] = (await idOf('farmWorkTypes', name)) ?? (await insert('farmWorkTypes', { name, code, category }, null, admin));
  }
  const tomato = await idOf('crops', '番茄');
  const rice = await idOf('crops', '水稻');
  if (!tomato || !rice) return;
  const jinpeng = await idOf('cropSubtype', '金棚1号');
  const longjing = await idOf('cropSubtype', '龙粳31');

  const orgs = (await db.query<Org>(`SELECT id, bloc_id, type, name FROM organisations WHERE type IN (0, 4) ORDER BY type, id`)).rows;
  const year = now.getUTCFullYear();
  const todayIso = today(0, now);
  for (const org of orgs) {
    const people = (await db.query<Person>(`SELECT id, name FROM users WHERE org_id = $1 ORDER BY id`, [org.id])).rows;
    if (people.length === 0) continue;
    const by = people[0].id;
    const fields = (await db.query<{ id: number; name: string; land: string; area: string }>(
      `SELECT id, data->>'name' AS name, data->>'landType' AS land, data->>'areaMu' AS area FROM resource_records WHERE resource = 'farmFields' AND farm_id = $1 ORDER BY id`,
      [org.id],
    )).rows;
    const greenhouseName = org.type === 4 ? '育苗一号连栋温室' : '二号日光温室';
    let greenhouse = fields.find((f) => f.land === 'greenhouse' || f.land === 'nursery');
    if (!greenhouse) {
      const code = org.type === 4 ? 'LY-G1' : `G${org.id}-02`;
      const fid = await insert('farmFields', {
        code, name: greenhouseName, areaMu: 1.5, landType: org.type === 4 ? 'nursery' : 'greenhouse', soilType: 'sandyLoam', irrigation: 'drip', cropId: tomato, status: 1, location: '场部东侧',
      }, org, by);
      greenhouse = { id: fid, name: greenhouseName, land: 'greenhouse', area: '1.5' };
    }
    const area = Number(greenhouse.area);

    // The groups the plots seeding made: season and status from their own dates.
    const existing = (await db.query<{ id: number; data: Record<string, unknown> }>(
      `SELECT id, data FROM resource_records WHERE resource = 'plantGroups' AND farm_id = $1 ORDER BY id`,
      [org.id],
    )).rows;
    for (const g of existing) {
      const planted = String(g.data.plantedOn);
      const harvest = String(g.data.expectedHarvestOn ?? addDays(planted, 120));
      const data = {
        ...g.data,
        ...(g.data.fieldId ? { fieldIds: [g.data.fieldId] } : {}),
        season: `${planted.slice(0, 4)} 年`,
        seasonStart: `${planted.slice(0, 4)}-03-01`,
        seasonEnd: `${planted.slice(0, 4)}-11-30`,
        status: harvest < todayIso ? 'harvested' : 'growing',
      };
      await db.query(`UPDATE resource_records SET data = $1 WHERE id = $2`, [JSON.stringify(data), g.id]);
    }

    const tomatoT = tomatoTemplate(work, tomato);
    const tomatoTemplateId = await insert('planTemplates', { ...tomatoT }, org, by);
    const worker = (i: number) => people[i % people.length];

    // The season under way first: the lowest ids of plans, items, tasks and records are of an open
    // group, the rows a generic client (and the contract test) picks first to copy and edit; a
    // closed group's refuse every change.
    // An autumn-winter greenhouse crop planted 60 days ago.
    const start = today(-60, now);
    const currentGroup = await insert('plantGroups', {
      name: org.type === 4 ? `${year} 秋冬番茄育苗` : `${year} 秋冬茬温室番茄`, cropId: tomato, ...(jinpeng ? { cropSubtypeId: jinpeng } : {}),
      fieldId: greenhouse.id, fieldIds: [greenhouse.id], areaMu: area, plantedOn: start, expectedHarvestOn: addDays(start, 119),
      stage: 'fruiting', manager: people[0].name, season: `${year} 年秋冬茬`, seasonStart: today(-75, now), seasonEnd: today(120, now), status: 'growing',
    }, org, by);
    await seedPlan(currentGroup, tomatoTemplateId, tomatoT, start, area, org.type === 4 ? 'draft' : 'submitted', false);

    // The finished season: last year's spring greenhouse tomatoes (or paddy rice on a paddy plot).
    const paddy = fields.find((f) => f.land === 'paddy');
    const finishedT = paddy ? riceTemplate(work, rice) : tomatoT;
    const finishedTemplateId = paddy ? await insert('planTemplates', { ...finishedT }, org, by) : tomatoTemplateId;
    const finishedStart = paddy ? `${year - 1}-05-18` : `${year - 1}-03-10`;
    const finishedField = paddy ?? greenhouse;
    const finishedGroup = await insert('plantGroups', {
      name: paddy ? `${year - 1} 东岗水稻` : `${year - 1} 春茬温室番茄`, cropId: paddy ? rice : tomato,
      ...((paddy ? longjing : jinpeng) ? { cropSubtypeId: (paddy ? longjing : jinpeng)! } : {}),
      fieldId: finishedField.id, fieldIds: [finishedField.id], areaMu: Number(finishedField.area), plantedOn: finishedStart,
      expectedHarvestOn: addDays(finishedStart, paddy ? 129 : 119), stage: 'harvested', manager: people[0].name,
      season: `${year - 1} 年${paddy ? '' : '春茬'}`, seasonStart: paddy ? `${year - 1}-04-01` : `${year - 1}-02-15`, seasonEnd: paddy ? `${year - 1}-10-31` : `${year - 1}-07-31`,
      status: org.type === 0 && paddy ? 'closed' : 'harvested', remark: '上季已完成，数据用于对比。',
    }, org, by);
    await seedPlan(finishedGroup, finishedTemplateId, finishedT, finishedStart, Number(finishedField.area), 'approved', true);

    async function seedPlan(groupId: number, templateId: number, template: Template, startOn: string, areaMu: number, reviewStatus: string, finished: boolean) {
      const planId = await insert('plantPlans', { groupId, templateId, planType: template.kind, name: `${template.name} · ${startOn}`, startOn, reviewStatus }, org, by);
      const items = planItemsFromTemplate(template, startOn);
      const itemIds: number[] = [];
      // Finish-to-start dependencies (docs/planting.md, "Dependencies"): the predecessor is inserted first (a lower number).
      const idByName = new Map<string, number>();
      for (const item of items) {
        const dep = item.itemType === 'work' ? DEPENDENCIES[template.name]?.find((d) => d[0] === item.name) : undefined;
        const after = dep ? idByName.get(dep[1]) : undefined;
        const id = await insert('planItems', { planId, ...item, ...(after ? { after, lagDays: dep![2] } : {}) }, org, by);
        if (item.itemType === 'work') idByName.set(item.name, id);
        itemIds.push(id);
      }
      let dueTodayGiven = false;
      for (const [i, item] of items.entries()) {
        if (item.itemType !== 'work') continue;
        const plan = planTask(item, finished, todayIso, dueTodayGiven);
        if (!plan) continue;
        if (plan.dueOn === todayIso) dueTodayGiven = true;
        const assignees = [worker(i), worker(i + 1)].filter((p, k, a) => a.findIndex((x) => x.id === p.id) === k);
        const materials = (item.materials ?? []).map((m) => ({ name: m.name, amount: Math.round(m.amountPerMu * areaMu * 100) / 100, unit: m.unit }));
        const taskId = await insert('farmingTasks', {
          groupId, planId, planItemId: itemIds[i], orderNumber: item.orderNumber, title: item.name, assigneeIds: assignees.map((p) => p.id),
          startOn: plan.startOn, dueOn: plan.dueOn, ...(materials.length ? { materials } : {}), status: plan.status,
        }, org, by);
        if (plan.status === 'published') continue;
        const doneOn = plan.status === 'done' ? addDays(item.endOn, i % 3 === 0 ? 1 : 0) : plan.startOn;
        await insert('farmingRecords', {
          taskId, doneOn, workerNames: assignees.map((p) => p.name).join('、'), hours: Math.round((2 + (i % 5) * 1.5) * Math.max(1, areaMu / 20) * 10) / 10,
          ...(materials.length ? { materials: materials.map((m) => ({ name: m.name, quantity: Math.round(m.amount * (i % 2 ? 1.05 : 0.95) * 100) / 100, unit: m.unit })) } : {}),
          notes: plan.status === 'done' ? `${item.name}完成，长势正常。` : `${item.name}已开始，明日继续。`,
        }, org, by);
      }
      const observations = finished ? [20, 60, 100] : [15, 45];
      for (const [k, day] of observations.entries()) {
        const stage = items.find((it) => it.itemType === 'stage' && it.startOn <= addDays(startOn, day) && it.endOn >= addDays(startOn, day));
        await insert('growthObservations', {
          planId, positionType: template === tomatoT || !paddy ? 'greenhouse' : 'field', stage: stage?.name ?? '结果期', observedOn: addDays(startOn, day),
          plantCount: Math.round(areaMu * (template === tomatoT ? 2200 : 28000) * (1 - k * 0.01)), grade: k === 1 ? 'B' : 'A',
        }, org, by);
      }
    }
  }
}

/**
 * Which work items of a seeded plan became tasks, and how far each got: a finished season did
 * everything; the season under way has done what ended three days ago or more, is late with
 * what ended in the last ten days, has the next item due today, and has not published what lies further ahead.
 */
function planTask(item: PlanItemDraft, finished: boolean, todayIso: string, dueTodayGiven: boolean): { status: 'published' | 'inProgress' | 'done'; startOn: string; dueOn: string } | null {
  if (finished || item.endOn < addDays(todayIso, -10)) return { status: 'done', startOn: item.startOn, dueOn: item.endOn };
  if (item.endOn < todayIso) return { status: item.orderNumber % 2 ? 'inProgress' : 'published', startOn: item.startOn, dueOn: item.endOn };
  // The next item is brought forward to today: the farm decided to start it early.
  if (!dueTodayGiven) return { status: 'inProgress', startOn: item.startOn < todayIso ? item.startOn : todayIso, dueOn: todayIso };
  if (item.startOn <= addDays(todayIso, 7)) return { status: 'published', startOn: item.startOn, dueOn: item.endOn };
  return null;
}
