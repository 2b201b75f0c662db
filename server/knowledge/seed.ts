import type { Queryable } from '../db/database.ts';

/**
 * The planting knowledge base of the demo: crop categories, farm-work types, production
 * standards, the platform's system templates for the seeded crops, and for each demo farm
 * (禾丰, 嫩江源, 绿源育苗) copies of a few of them in its own planting templates, as a farm
 * makes them with «复制到本农场». Runs inside the demo seed's transaction, after the crops
 * (server/resources/seed.ts); does nothing when any system template exists already.
 */
export async function seedKnowledge(db: Queryable): Promise<void> {
  const existing = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'systemTemplates'`);
  if (existing.rows[0].n > 0) return;
  const admin = (await db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]?.id ?? null;
  const cropIds = new Map(
    (await db.query<{ id: number; name: string }>(`SELECT id, data->>'name' AS name FROM resource_records WHERE resource = 'crops'`)).rows.map((r) => [r.name, Number(r.id)]),
  );
  const crop = (name: string) => {
    const id = cropIds.get(name);
    if (id === undefined) throw new Error(`knowledge seed: no crop ${name}`);
    return id;
  };

  const insert = async (resource: string, data: Record<string, unknown>, owner?: { farmId: number; blocId: number | null; userId: number | null }) => {
    const by = owner ? owner.userId : admin;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [resource, owner?.farmId ?? null, owner?.blocId ?? null, JSON.stringify(data), by],
    );
    return Number(rows[0].id);
  };

  for (const [i, c] of CROP_CATEGORIES.entries()) await insert('cropCategories', { ...c, sortOrder: (i + 1) * 10 });

  const workType = new Map<string, number>();
  for (const w of FARM_WORK_TYPES) workType.set(w.code, await insert('farmWorkTypes', w));
  const wt = (code: string) => workType.get(code)!;

  await insert('productionStandards', {
    name: '绿色食品 水稻生产技术规程', code: 'NY/T 1620-2016', level: 'industry', cropId: crop('水稻'), issuedOn: '2016-10-26', issuer: '农业部',
    summary: '规定了绿色食品水稻的产地环境、品种选择、育秧、插秧、肥水管理、病虫草害防治和收获要求。',
    limits: [
      { material: '尿素', unit: '袋', maxPerMu: 0.5, note: '绿色食品：化学氮肥减半' },
      { material: '复合肥 15-15-15', unit: '袋', maxPerMu: 0.8 },
      { material: '吡虫啉 10% 可湿性粉剂', unit: '袋', maxPerMu: 0.4 },
    ],
  });
  await insert('productionStandards', {
    name: '寒地水稻生产技术规程', code: 'DB23/T 1520-2013', level: 'local', cropId: crop('水稻'), issuedOn: '2013-06-20', issuer: '黑龙江省质量技术监督局',
    summary: '黑龙江省寒地水稻旱育稀植三化栽培：大棚育秧、合理密植、测土配方施肥和节水灌溉。',
  });
  await insert('productionStandards', {
    name: '日光温室番茄栽培技术规程', code: 'NY/T 5007-2001', level: 'industry', cropId: crop('番茄'), issuedOn: '2001-09-03', issuer: '农业部',
    summary: '无公害番茄日光温室生产：品种、育苗、定植、温光水肥管理、整枝打杈、病虫害防治与采收。',
    // Per mu of a season, in the units the farms' catalogues keep (inputs applied, docs/materials.md).
    limits: [
      { material: '复合肥 15-15-15', unit: '袋', maxPerMu: 60, note: '基肥与追肥合计' },
      { material: '尿素', unit: '袋', maxPerMu: 50, note: '分次追施，单次不超过 10 袋/亩' },
      { material: '吡虫啉 10% 可湿性粉剂', unit: '袋', maxPerMu: 80, note: '每季最多施用 2 次' },
      { material: '阿维菌素 1.8% 乳油', unit: '瓶', maxPerMu: 12, note: '安全间隔期 7 天' },
      { material: '代森锰锌 80% 可湿性粉剂', unit: '袋', maxPerMu: 20 },
    ],
  });
  await insert('productionStandards', {
    name: '玉米栽培技术规程', code: 'GB/T 17980.1-2021', level: 'national', cropId: crop('玉米'), issuedOn: '2021-04-30', issuer: '国家市场监督管理总局',
    summary: '春玉米整地、播种、密植、施肥、化控与收获的技术要求。',
  });
  await insert('productionStandards', {
    name: '禾丰生态农场大豆企业标准', code: 'Q/HF 003-2024', level: 'enterprise', cropId: crop('大豆'), issuedOn: '2024-03-01', issuer: '禾丰生态农场',
    summary: '高蛋白大豆订单生产：轮作、垄三栽培、减量施肥和机械收获。',
  });

  const systems = {
    riceCycle: await insert('systemTemplates', riceGrowthCycle(crop('水稻'))),
    riceNodes: await insert('systemTemplates', riceKeyNodes(crop('水稻'))),
    tomatoSeason: await insert('systemTemplates', tomatoSeasonWork(crop('番茄'), wt)),
    tomatoNodes: await insert('systemTemplates', tomatoKeyNodes(crop('番茄'))),
    maizeSeason: await insert('systemTemplates', maizeSeasonWork(crop('玉米'), wt)),
    soyMaizePattern: await insert('systemTemplates', soybeanPattern(crop('大豆'), wt)),
  };

  const farms = (
    await db.query<{ id: number; name: string; bloc_id: number | null; user_id: number | null }>(
      `SELECT o.id, o.name, o.bloc_id, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id
         FROM organisations o WHERE o.name IN ('禾丰生态农场', '嫩江源合作农场', '绿源育苗基地') ORDER BY o.id`,
    )
  ).rows;
  // Which system templates each farm adapted: rice farms in the north, tomatoes at the nursery.
  const copies: Record<string, (keyof typeof systems)[]> = {
    禾丰生态农场: ['riceCycle', 'riceNodes', 'soyMaizePattern'],
    嫩江源合作农场: ['maizeSeason', 'riceCycle'],
    绿源育苗基地: ['tomatoSeason', 'tomatoNodes'],
  };
  for (const f of farms) {
    for (const key of copies[f.name] ?? []) {
      const source = (await db.query<{ data: Record<string, unknown> }>(`SELECT data FROM resource_records WHERE id = $1`, [systems[key]])).rows[0].data;
      await insert('planTemplates', { ...source, sourceTemplateId: systems[key] }, { farmId: f.id, blocId: f.bloc_id, userId: f.user_id });
    }
  }
}

const CROP_CATEGORIES = [
  { name: '粮食作物', code: 'grain', description: '水稻、玉米、小麦等禾谷类和薯类作物。' },
  { name: '油料作物', code: 'oil', description: '大豆、油菜、花生、向日葵等。' },
  { name: '蔬菜', code: 'vegetable', description: '茄果类、瓜类、叶菜类、根茎类蔬菜。' },
  { name: '果树', code: 'fruit', description: '苹果、梨、葡萄、蓝莓等多年生果树。' },
  { name: '经济作物', code: 'cash', description: '甜菜、烟草、中药材、棉麻等。' },
  { name: '饲草作物', code: 'forage', description: '青贮玉米、苜蓿、燕麦草等。' },
  { name: '食用菌', code: 'mushroom', description: '黑木耳、香菇、平菇等。' },
];

const FARM_WORK_TYPES = [
  { name: '整地', code: 'tillage', category: 'soil', description: '翻地、旋耕、耙平，打碎土块，达到播种或定植要求。' },
  { name: '施基肥', code: 'basalFertilizing', category: 'nutrition', description: '整地前撒施有机肥和复合肥，翻入土中。' },
  { name: '育苗', code: 'seedling', category: 'planting', description: '大棚或温室内播种育苗，控温控湿培育壮苗。' },
  { name: '播种', code: 'sowing', category: 'planting', description: '按播期、密度和播深播种，播后镇压。' },
  { name: '定植', code: 'transplanting', category: 'planting', description: '将秧苗移栽到大田或温室，栽后浇定植水。' },
  { name: '浇水', code: 'irrigation', category: 'water', description: '按墒情浇水或滴灌，避免大水漫灌。' },
  { name: '追肥', code: 'topdressing', category: 'nutrition', description: '在关键生育期追施速效肥或水溶肥。' },
  { name: '打药', code: 'spraying', category: 'protection', description: '按病虫害预报施药，注意安全间隔期。' },
  { name: '中耕除草', code: 'weeding', category: 'management', description: '松土、培土，人工或化学除草。' },
  { name: '整枝打杈', code: 'pruning', category: 'management', description: '去除侧枝和老叶，吊蔓、落蔓，改善通风透光。' },
  { name: '授粉', code: 'pollination', category: 'management', description: '熊蜂授粉或振荡授粉，提高坐果率。' },
  { name: '疏花疏果', code: 'thinning', category: 'management', description: '每穗留果 4–5 个，去畸形果。' },
  { name: '晒田', code: 'fieldDrying', category: 'water', description: '水稻分蘖末期排水晒田，控制无效分蘖。' },
  { name: '采收', code: 'harvest', category: 'harvest', description: '按成熟度分批采收或机械收获。' },
  { name: '清园', code: 'fieldCleaning', category: 'soil', description: '收获后清除残株，集中处理，减少病源。' },
];

function riceGrowthCycle(cropId: number) {
  return {
    name: '寒地粳稻生长周期（第三积温带）', kind: 'growthCycle', cropId,
    description: '4 月中旬大棚育秧起算，第 0 天为播种日。适用于龙粳31、绥粳18 等主茎 11 片叶品种。',
    stages: [
      { name: '育秧期', startDay: 0, days: 35 },
      { name: '返青期', startDay: 35, days: 10 },
      { name: '分蘖期', startDay: 45, days: 30 },
      { name: '拔节孕穗期', startDay: 75, days: 25 },
      { name: '抽穗扬花期', startDay: 100, days: 12 },
      { name: '灌浆结实期', startDay: 112, days: 28 },
      { name: '成熟期', startDay: 140, days: 10 },
    ],
  };
}

function riceKeyNodes(cropId: number) {
  return {
    name: '寒地水稻关键节点', kind: 'keyNodes', cropId, description: '水稻一季作的农时关键节点，第 0 天为育秧播种日。',
    keyNodes: [
      { name: '播种育秧', day: 0 }, { name: '秧苗 2.5 叶期', day: 20 }, { name: '插秧', day: 35 }, { name: '有效分蘖终止', day: 65 },
      { name: '晒田', day: 68 }, { name: '幼穗分化', day: 78 }, { name: '齐穗', day: 105 }, { name: '黄熟收获', day: 145 },
    ],
  };
}

function tomatoKeyNodes(cropId: number) {
  return {
    name: '日光温室番茄关键节点', kind: 'keyNodes', cropId, description: '越冬茬番茄，第 0 天为定植日。',
    keyNodes: [
      { name: '定植', day: 0 }, { name: '缓苗', day: 7 }, { name: '第一穗花开', day: 25 }, { name: '第一穗果膨大', day: 45 },
      { name: '始收', day: 75 }, { name: '打顶', day: 110 }, { name: '拉秧', day: 150 },
    ],
  };
}

type WorkType = (code: string) => number;

function tomatoSeasonWork(cropId: number, wt: WorkType) {
  const items: [string, string, number, number, [string, number, string][]][] = [
    ['清园消毒', 'fieldCleaning', 0, 3, [['百菌清烟剂', 0.25, '公斤']]],
    ['施基肥', 'basalFertilizing', 3, 2, [['腐熟羊粪', 5000, '公斤'], ['硫酸钾复合肥（15-15-15）', 50, '公斤'], ['过磷酸钙', 30, '公斤']]],
    ['深翻整地起垄', 'tillage', 5, 3, []],
    ['铺设滴灌带和地膜', 'irrigation', 8, 2, [['滴灌带', 300, '米'], ['黑色地膜', 5, '公斤']]],
    ['定植', 'transplanting', 10, 2, [['番茄穴盘苗', 2300, '株'], ['生根剂', 0.1, '公斤']]],
    ['浇定植水', 'irrigation', 11, 1, [['水', 15, '立方米']]],
    ['缓苗水', 'irrigation', 17, 1, [['水', 10, '立方米']]],
    ['中耕松土', 'weeding', 20, 2, []],
    ['吊蔓', 'pruning', 25, 2, [['吊蔓绳', 2300, '根'], ['番茄夹', 4600, '个']]],
    ['熊蜂授粉', 'pollination', 35, 30, [['熊蜂', 0.5, '箱']]],
    ['第一次整枝打杈', 'pruning', 35, 2, []],
    ['第一次追肥（坐果肥）', 'topdressing', 45, 1, [['高钾水溶肥', 10, '公斤']]],
    ['防治灰霉病', 'spraying', 50, 1, [['腐霉利', 0.06, '公斤']]],
    ['疏花疏果', 'thinning', 52, 3, []],
    ['第二次整枝打杈', 'pruning', 60, 2, []],
    ['第二次追肥（膨果肥）', 'topdressing', 65, 1, [['高钾水溶肥', 12, '公斤'], ['钙镁叶面肥', 0.5, '公斤']]],
    ['防治白粉虱', 'spraying', 70, 1, [['吡虫啉', 0.02, '公斤'], ['黄板', 30, '张']]],
    ['第一穗果采收', 'harvest', 75, 10, [['周转筐', 40, '个']]],
    ['落蔓', 'pruning', 90, 2, []],
    ['第三次追肥', 'topdressing', 95, 1, [['平衡型水溶肥', 10, '公斤']]],
    ['打顶', 'pruning', 110, 1, []],
    ['集中采收', 'harvest', 115, 35, [['周转筐', 80, '个']]],
  ];
  return {
    name: '日光温室越冬茬番茄全季农事', kind: 'seasonWork', cropId,
    description: '寿光越冬茬番茄：9 月下旬整地，10 月上旬定植，翌年 2 月底拉秧。物资均为每亩用量。',
    workItems: items.map(([name, code, startDay, days, materials], i) => ({
      orderNumber: i + 1, name, workTypeId: wt(code), startDay, days,
      ...(materials.length ? { materials: materials.map(([n, amountPerMu, unit]) => ({ name: n, amountPerMu, unit })) } : {}),
    })),
  };
}

function maizeSeasonWork(cropId: number, wt: WorkType) {
  return {
    name: '春玉米大垄密植全季农事', kind: 'seasonWork', cropId,
    description: '第 0 天为播种日（4 月下旬至 5 月上旬，地温稳定通过 10℃）。物资为每亩用量。',
    workItems: [
      { orderNumber: 1, name: '秋翻整地', workTypeId: wt('tillage'), startDay: 0, days: 3 },
      { orderNumber: 2, name: '施种肥', workTypeId: wt('basalFertilizing'), startDay: 3, days: 1, materials: [{ name: '玉米专用复合肥', amountPerMu: 40, unit: '公斤' }] },
      { orderNumber: 3, name: '精量播种', workTypeId: wt('sowing'), startDay: 4, days: 3, materials: [{ name: '玉米种子（德美亚1号）', amountPerMu: 2.2, unit: '公斤' }] },
      { orderNumber: 4, name: '苗前封闭除草', workTypeId: wt('spraying'), startDay: 7, days: 2, materials: [{ name: '乙草胺', amountPerMu: 0.15, unit: '升' }] },
      { orderNumber: 5, name: '中耕', workTypeId: wt('weeding'), startDay: 35, days: 3 },
      { orderNumber: 6, name: '追施拔节肥', workTypeId: wt('topdressing'), startDay: 50, days: 2, materials: [{ name: '尿素', amountPerMu: 15, unit: '公斤' }] },
      { orderNumber: 7, name: '防治玉米螟', workTypeId: wt('spraying'), startDay: 70, days: 2, materials: [{ name: '赤眼蜂卡', amountPerMu: 2, unit: '张' }] },
      { orderNumber: 8, name: '机械收获', workTypeId: wt('harvest'), startDay: 135, days: 7 },
    ],
  };
}

function soybeanPattern(cropId: number, wt: WorkType) {
  return {
    name: '玉米—大豆轮作大豆季种植模式', kind: 'pattern', cropId,
    description: '前茬玉米，垄三栽培，减氮增磷钾。阶段、节点和农事一并给出，第 0 天为播种日。',
    stages: [
      { name: '播种出苗期', startDay: 0, days: 12 },
      { name: '幼苗期', startDay: 12, days: 25 },
      { name: '开花结荚期', startDay: 37, days: 35 },
      { name: '鼓粒成熟期', startDay: 72, days: 45 },
    ],
    keyNodes: [{ name: '出苗', day: 10 }, { name: '始花', day: 40 }, { name: '鼓粒', day: 75 }, { name: '收获', day: 120 }],
    workItems: [
      { orderNumber: 1, name: '整地起垄', workTypeId: wt('tillage'), startDay: 0, days: 2 },
      { orderNumber: 2, name: '垄上双行播种', workTypeId: wt('sowing'), startDay: 2, days: 3, materials: [{ name: '大豆种子（黑河43）', amountPerMu: 5, unit: '公斤' }, { name: '大豆专用肥', amountPerMu: 20, unit: '公斤' }] },
      { orderNumber: 3, name: '苗期中耕', workTypeId: wt('weeding'), startDay: 25, days: 3 },
      { orderNumber: 4, name: '花期叶面追肥', workTypeId: wt('topdressing'), startDay: 45, days: 1, materials: [{ name: '磷酸二氢钾', amountPerMu: 0.2, unit: '公斤' }] },
      { orderNumber: 5, name: '防治大豆食心虫', workTypeId: wt('spraying'), startDay: 60, days: 2, materials: [{ name: '高效氯氟氰菊酯', amountPerMu: 0.03, unit: '升' }] },
      { orderNumber: 6, name: '机械收获', workTypeId: wt('harvest'), startDay: 118, days: 5 },
    ],
  };
}
