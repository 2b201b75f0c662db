/**
 * Demo data of harvest, sales, accounts and traceability for the demo farms (type 0): the
 * finished season's planting groups harvested in batches, part of each batch sold to local
 * buyers (their income posted as the sales module posts it), hand entries of the season's
 * other costs and a subsidy, the farm's products, brand and sales plan, quality records
 * (residue and soil tests, a green-food certificate), and trace codes with scans and
 * consumers' reviews, some answered. Runs inside the demo seed's transaction after the
 * planting and materials seeds; does nothing when any harvest exists.
 */
import type { Queryable } from '../db/database.ts';
import { batchNumber } from './numbers.ts';
import { safetyFlags } from './reads.ts';
import { newTraceCode } from './sales.ts';

type Org = { id: number; name: string; bloc_id: number | null; user_id: number | null };
type Group = { id: number; name: string; crop: string | null; area: string; planted_on: string; harvest_on: string | null };

const CUSTOMERS = ['哈尔滨市道里区农贸批发市场', '大庆百汇生鲜超市', '齐齐哈尔惠民社区团购', '黑龙江粮油集团有限公司'];

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export async function seedHarvest(db: Queryable): Promise<void> {
  if ((await db.query('SELECT 1 FROM harvests LIMIT 1')).rows[0]) return;
  const orgs = (
    await db.query<Org>(`SELECT o.id, o.name, o.bloc_id, (SELECT u.id FROM users u WHERE u.org_id = o.id ORDER BY u.id LIMIT 1) AS user_id FROM organisations o WHERE o.type = 0 ORDER BY o.id`)
  ).rows;
  for (const [n, org] of orgs.entries()) await seedFarm(db, org, n);
  const makers = (
    await db.query<Org>(`SELECT o.id, o.name, o.bloc_id, (SELECT u.id FROM users u WHERE u.org_id = o.id ORDER BY u.id LIMIT 1) AS user_id FROM organisations o WHERE o.type = 1 ORDER BY o.id`)
  ).rows;
  for (const org of makers) await seedManufacturerMarketing(db, org);
  const bases = (
    await db.query<Org>(`SELECT o.id, o.name, o.bloc_id, (SELECT u.id FROM users u WHERE u.org_id = o.id ORDER BY u.id LIMIT 1) AS user_id FROM organisations o WHERE o.type = 4 ORDER BY o.id`)
  ).rows;
  for (const org of bases) await seedNurseryMarketing(db, org);
}

/**
 * A seedling base's marketing, sales and accounts: the seedlings it sells (per plant), its
 * brand pages, a sales plan, the finished season's seedlings lifted in batches (per plant)
 * and sold to the vegetable bases it supplies (their income posted as the sales module posts
 * it), a trace code for the first batch, and the season's other entries by hand.
 */
async function seedNurseryMarketing(db: Queryable, org: Org): Promise<void> {
  const products = [
    { name: '番茄嫁接苗（金棚1号 / 砧木 托鲁巴姆）', crop: '番茄', specification: '72 孔穴盘，4 叶 1 心', unit: '株', price: 0.85, description: '贴接法嫁接，抗枯萎病、根结线虫，定植成活率 98% 以上。' },
    { name: '黄瓜嫁接苗（津优35 / 黑籽南瓜砧）', crop: '黄瓜', specification: '50 孔穴盘，2 叶 1 心', unit: '株', price: 0.7, description: '插接法嫁接，耐低温，适合日光温室秋冬茬、冬春茬。' },
    { name: '辣椒穴盘苗（中椒6号）', crop: '辣椒', specification: '105 孔穴盘，6–7 片真叶', unit: '株', price: 0.32, description: '基质育苗，根系盘结好，带基质定植不伤根。' },
    { name: '甘蓝穴盘苗（中甘21）', crop: '甘蓝', specification: '128 孔穴盘，5–6 片真叶', unit: '株', price: 0.12, description: '早熟春甘蓝，苗龄 45 天，炼苗后出圃。' },
  ];
  const productIds: number[] = [];
  for (const p of products) productIds.push(await insertRecord(db, 'farmProducts', org, { ...p, grade: 'first', onSale: true }));
  await insertRecord(db, 'brandArticles', org, { kind: 'story', title: `${org.name}：寿光的工厂化育苗`, publishedOn: '2024-11-02', content: `${org.name}有连栋育苗温室 2 栋、催芽室 1 间，年出圃嫁接苗与穴盘苗 1,800 万株，供应山东、河北和东北的蔬菜基地。` });
  await insertRecord(db, 'brandArticles', org, { kind: 'certificate', title: '农作物种子生产经营许可证', publishedOn: '2025-02-18', content: '寿光市农业农村局核发，经营范围：蔬菜种苗生产、销售。' });
  await insertRecord(db, 'brandArticles', org, { kind: 'article', title: '嫁接苗定植后的缓苗管理', publishedOn: '2025-09-05', content: '定植后 3–5 天保持棚温白天 28 ℃、夜间 18 ℃，中午适当遮阴，嫁接口不要埋入土中。' });

  const year = new Date().toISOString().slice(0, 4);
  const by = org.user_id;
  const entries: [string, 'income' | 'expense', string, string, string | null, string][] = [
    [`${year}-02-12`, 'expense', 'materials', '12650.00', null, '育苗基质 110 立方米、72 孔穴盘 8,000 张'],
    [`${year}-02-28`, 'expense', 'utilities', '9380.40', null, '2 月热风机燃气费与电费'],
    [`${year}-03-10`, 'income', 'sales', '31500.00', '辣椒', '辣椒穴盘苗 9.8 万株（寿光市洛城街道蔬菜合作社）'],
    [`${year}-03-31`, 'expense', 'labour', '18200.00', null, '3 月嫁接与分苗用工 130 人次'],
    [`${year}-08-15`, 'income', 'sales', '52500.00', '黄瓜', '黄瓜嫁接苗 7.5 万株（秋冬茬订单）'],
    [`${year}-09-30`, 'income', 'subsidy', '20000.00', null, '集约化育苗补贴'],
  ];
  for (const [on, direction, category, amount, crop, note] of entries) {
    await db.query(
      `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, note, created_by) VALUES ($1, $2, $3, $4, $5, $6, 'manual', $7, $8)`,
      [org.id, on, direction, category, amount, crop, note, by],
    );
  }
  await seedNurserySales(db, org, productIds[0]);
  await insertRecord(db, 'salesPlans', org, { month: `${year}-12`, crop: '番茄', plannedQuantity: 120000, unit: '株', plannedAmount: 102000 });
  await insertRecord(db, 'salesPlans', org, { month: `${year}-12`, crop: '黄瓜', plannedQuantity: 60000, unit: '株', plannedAmount: 42000 });
}

/**
 * The finished seedling season: each finished group of the base lifted in two batches of
 * grafted plants, most of them sold to the vegetable bases it supplies, income posted from
 * the orders; the first batch has a trace code.
 */
async function seedNurserySales(db: Queryable, org: Org, productId: number): Promise<void> {
  const by = org.user_id;
  const groups = (
    await db.query<{ id: number; harvest_on: string | null; planted_on: string }>(
      `SELECT id, data->>'expectedHarvestOn' AS harvest_on, data->>'plantedOn' AS planted_on FROM resource_records
        WHERE resource = 'plantGroups' AND farm_id = $1 AND data->>'status' IN ('harvested', 'closed') ORDER BY id`,
      [org.id],
    )
  ).rows;
  const buyers = [
    ['禾丰生态农场', '0451-86123501', 60000, 0.85],
    ['寿光市洛城街道蔬菜合作社', '0536-5238806', 36000, 0.82],
    ['嫩江源合作农场', '0452-6621930', 30000, 0.85],
  ] as const;
  let first: number | null = null;
  for (const g of groups) {
    const liftedOn = g.harvest_on ?? addDays(g.planted_on, 40);
    const lots = [
      { quantity: 128000, grade: 'premium', note: '嫁接口愈合良好，4 叶 1 心出圃' },
      { quantity: 42000, grade: 'first', note: null },
    ];
    for (const [i, lot] of lots.entries()) {
      const on = addDays(liftedOn, i * 5);
      const id = Number((await db.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('harvests', 'id')) AS id`)).rows[0].id);
      await db.query(
        `INSERT INTO harvests(id, farm_id, batch_no, group_id, harvested_on, quantity, unit, grade, note, created_by) VALUES ($1, $2, $3, $4, $5, $6, '株', $7, $8, $9)`,
        [id, org.id, batchNumber(on, id), g.id, on, lot.quantity, lot.grade, lot.note, by],
      );
      first ??= id;
      // The premium lot goes to the three bases; the second lot is partly sold to the first.
      const sales = i === 0 ? buyers : [[buyers[0][0], buyers[0][1], 24000, 0.8] as const];
      for (const [k, [customer, phone, quantity, unitPrice]] of sales.entries()) {
        const orderedOn = addDays(on, k);
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO sales_orders(farm_id, customer, customer_phone, ordered_on, total, note, created_by) VALUES ($1, $2, $3, $4, round($5::numeric * $6::numeric, 2), $7, $8) RETURNING id`,
          [org.id, customer, phone, orderedOn, quantity, unitPrice, k === 0 && i === 0 ? '冷链车配送，带基质出圃' : null, by],
        );
        const orderId = Number(rows[0].id);
        await db.query(
          `INSERT INTO sales_order_lines(order_id, line_no, harvest_id, product_id, quantity, unit_price, amount) VALUES ($1, 1, $2, $3, $4, $5, round($4::numeric * $5::numeric, 2))`,
          [orderId, id, productId, quantity, unitPrice],
        );
        await db.query('UPDATE harvests SET sold = sold + $2 WHERE id = $1', [id, quantity]);
        await db.query(
          `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, source_id, note, created_by)
           SELECT $1, $2, 'income', 'sales', total, '番茄', 'sale', id, '销售单 XS' || lpad(id::text, 6, '0') || '（' || customer || '）', $3 FROM sales_orders WHERE id = $4`,
          [org.id, orderedOn, by, orderId],
        );
      }
    }
  }
  if (first !== null) {
    await db.query(`INSERT INTO trace_codes(code, farm_id, harvest_id, scans, last_scanned_at, created_by) VALUES ($1, $2, $3, 23, now() - interval '5 days', $4)`, [newTraceCode(), org.id, first, by]);
  }
}

/** A manufacturer's own marketing pages: its product introductions and brand articles. */
async function seedManufacturerMarketing(db: Queryable, org: Org): Promise<void> {
  const products = [
    { name: '丰沃 硫酸钾型复合肥 15-15-15', crop: '通用', specification: '40 公斤/袋', unit: '袋', price: 168, description: '氮磷钾各 15%，硫酸钾型，适合烟草、果蔬等忌氯作物作基肥。' },
    { name: '丰沃 水溶肥 20-20-20+TE', crop: '番茄', specification: '10 公斤/袋', unit: '袋', price: 96, description: '全水溶，含微量元素，滴灌冲施两用，设施番茄膨果期专用。' },
    { name: '丰沃 玉米专用缓释肥 28-8-9', crop: '玉米', specification: '40 公斤/袋', unit: '袋', price: 152, description: '树脂包膜缓释氮，一次施肥管全季，适合东北春玉米。' },
  ];
  for (const p of products) await insertRecord(db, 'farmProducts', org, { ...p, grade: 'first', onSale: true });
  await insertRecord(db, 'brandArticles', org, { kind: 'story', title: `${org.name}：二十年专注作物营养`, publishedOn: '2024-09-10', content: `${org.name}始建于 2005 年，年产复合肥 30 万吨，在山东、黑龙江设有两个生产基地和农化服务中心。` });
  await insertRecord(db, 'brandArticles', org, { kind: 'certificate', title: '肥料登记证与 ISO 9001 质量管理体系认证', publishedOn: '2025-01-15', content: '主要产品均取得农业农村部肥料登记证，工厂通过 ISO 9001:2015 认证。' });
  await insertRecord(db, 'brandArticles', org, { kind: 'article', title: '春玉米一次性施肥技术要点', publishedOn: '2025-03-20', content: '播种时种肥同播，缓释肥侧深施 5 厘米以下，与种子间隔 5 厘米以上，避免烧种。' });
}

async function insertRecord(db: Queryable, resource: string, org: Org, data: Record<string, unknown>): Promise<number> {
  const { rows } = await db.query<{ id: string }>(`INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`, [resource, org.id, org.bloc_id, JSON.stringify(data), org.user_id]);
  return Number(rows[0].id);
}

async function seedFarm(db: Queryable, org: Org, n: number): Promise<void> {
  const groups = (
    await db.query<Group>(
      `SELECT g.id, g.data->>'name' AS name, (SELECT c.data->>'name' FROM resource_records c WHERE c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint) AS crop,
              coalesce(g.data->>'areaMu', '10') AS area, g.data->>'plantedOn' AS planted_on, g.data->>'expectedHarvestOn' AS harvest_on
         FROM resource_records g WHERE g.resource = 'plantGroups' AND g.farm_id = $1 AND g.data->>'status' IN ('harvested', 'closed') ORDER BY g.id`,
      [org.id],
    )
  ).rows;
  const by = org.user_id;
  const crops = [...new Set(groups.map((g) => g.crop).filter((c): c is string => !!c))];
  const price: Record<string, number> = { 水稻: 3.6, 番茄: 6.8, 玉米: 1.32, 大豆: 5.4 };
  const products = new Map<string, number>();
  for (const crop of crops) {
    products.set(
      crop,
      await insertRecord(db, 'farmProducts', org, {
        name: `${org.name.slice(0, 2)}${crop}`, crop, specification: crop === '水稻' ? '5 公斤/袋，真空包装' : '5 公斤/箱', grade: 'first',
        unit: '公斤', price: price[crop] ?? 4.5, onSale: true, description: `${org.name}自产${crop}，黑土地种植，全程可追溯。`,
      }),
    );
  }
  await insertRecord(db, 'brandArticles', org, { kind: 'story', title: `${org.name}的黑土地`, publishedOn: '2025-03-01', content: `${org.name}位于松嫩平原，土壤有机质含量高，坚持测土配方施肥和绿色防控。` });
  await insertRecord(db, 'brandArticles', org, { kind: 'certificate', title: '绿色食品证书', publishedOn: '2025-05-12', content: '中国绿色食品发展中心颁发，有效期三年。' });
  await insertRecord(db, 'qualityRecords', org, { kind: 'certification', title: '绿色食品认证', testedOn: '2024-05-12', agency: '中国绿色食品发展中心', certificateNo: `LB-18-2405${String(2301 + n)}`, validUntil: '2027-05-11', conclusion: 'pass' });
  // Production-process checks: what an inspector verifies while the crop grows (inputs, water, records).
  await insertRecord(db, 'qualityRecords', org, { kind: 'processCheck', title: '农药使用与安全间隔期核查', testedOn: '2025-07-16', agency: '县农业综合行政执法大队', item: '农药购销台账、施药记录、安全间隔期', result: '施药记录完整，未使用禁限用农药，采收前安全间隔期均已满足', conclusion: 'pass' });
  await insertRecord(db, 'qualityRecords', org, { kind: 'processCheck', title: '灌溉水质检测', testedOn: '2025-06-03', agency: '市农业环境监测站', item: 'pH、总汞、总镉、总铅、总砷、粪大肠菌群', result: '各项指标符合 GB 5084-2021 旱作标准', conclusion: 'pass' });
  await insertRecord(db, 'qualityRecords', org, { kind: 'processCheck', title: '投入品仓库巡查', testedOn: '2025-08-21', agency: '农场质量安全内审组', item: '农资分区存放、标识、过期农资处置', result: '两袋过期叶面肥未隔离，已当场隔离并登记报废', conclusion: 'fail' });
  await insertRecord(db, 'qualityRecords', org, { kind: 'soilTest', title: '春季测土', testedOn: '2025-04-08', agency: '黑龙江省农业科学院土壤肥料研究所', item: 'pH、有机质、碱解氮、有效磷、速效钾', result: 'pH 6.6，有机质 38.2 g/kg，碱解氮 176 mg/kg', conclusion: 'pass' });

  const batches: { id: number; quantity: number; crop: string | null; harvestedOn: string }[] = [];
  for (const g of groups) {
    const start = g.harvest_on ?? addDays(g.planted_on, 120);
    const perMu = g.crop === '水稻' ? 550 : g.crop === '番茄' ? 4200 : 600;
    const total = Math.round(Number(g.area) * perMu);
    const splits = [0.55, 0.3, 0.15];
    for (const [i, share] of splits.entries()) {
      const harvestedOn = addDays(start, i * 6);
      const quantity = Math.max(1, Math.round(total * share));
      const id = Number((await db.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('harvests', 'id')) AS id`)).rows[0].id);
      await db.query(
        `INSERT INTO harvests(id, farm_id, batch_no, group_id, harvested_on, quantity, unit, grade, note, created_by) VALUES ($1, $2, $3, $4, $5, $6, '公斤', $7, $8, $9)`,
        [id, org.id, batchNumber(harvestedOn, id), g.id, harvestedOn, quantity, i === 0 ? 'premium' : i === 1 ? 'first' : 'second', i === 0 ? '头茬，商品率高' : null, by],
      );
      batches.push({ id, quantity, crop: g.crop, harvestedOn });
      if (i === 0) await insertRecord(db, 'qualityRecords', org, { kind: 'residueTest', title: `${g.crop ?? ''}农残速测`, harvestId: id, groupId: g.id, testedOn: harvestedOn, agency: '市农产品质量安全检测站', item: '有机磷、氨基甲酸酯类', result: '抑制率低于 50%，未检出', conclusion: 'pass' });
    }
  }

  // A batch picked inside a pesticide's safety interval was recorded, as the harvest form now
  // demands, with the override's reason and who gave it (its trace page says so plainly).
  const flagged = await safetyFlags(db, batches.map((b) => b.id));
  for (const id of flagged.keys()) {
    await db.query('UPDATE harvests SET safety_override_reason = $2, safety_override_by = $3 WHERE id = $1', [id, '寒潮预报 3 天后降温至 -5 ℃，农场负责人决定提前抢收', by]);
  }

  // The release gate (issue 25): a flagged batch is sold or given a trace code only once a
  // residue test of that batch after its harvest has passed. The flagged batches that are
  // sold below (not the third of a group, never sold) were re-tested the day after picking;
  // the first farm's early batch was not (it is recalled below, its page says so), and the
  // third batches wait for their test.
  const recalledEarly = n === 0 ? [...flagged.keys()].find((id) => batches.findIndex((b) => b.id === id) % 3 === 1) : undefined;
  for (const id of flagged.keys()) {
    const i = batches.findIndex((b) => b.id === id);
    if (i % 3 === 2 || id === recalledEarly) continue;
    const b = batches[i];
    await insertRecord(db, 'qualityRecords', org, {
      kind: 'residueTest', title: `${b.crop ?? ''}农残复检（安全间隔期内采收）`, harvestId: id, testedOn: addDays(b.harvestedOn, 1), agency: '市农产品质量安全检测站',
      item: '代森锰锌（以二硫代氨基甲酸盐计）、吡虫啉', result: '未检出超过 GB 2763 限量的残留', conclusion: 'pass',
    });
  }

  // Sales: most of each first batch and part of the second, to the farm's regular buyers.
  let orderNo = 0;
  for (const [i, b] of batches.entries()) {
    if (i % 3 === 2) continue;
    const quantity = Math.floor(b.quantity * (i % 3 === 0 ? 0.8 : 0.4));
    if (quantity <= 0) continue;
    const unitPrice = (price[b.crop ?? ''] ?? 4.5) + (i % 3 === 0 ? 0.4 : 0);
    const orderedOn = addDays(b.harvestedOn, 2);
    const customer = CUSTOMERS[(orderNo + n) % CUSTOMERS.length];
    orderNo += 1;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO sales_orders(farm_id, customer, customer_phone, ordered_on, total, note, created_by) VALUES ($1, $2, $3, $4, round($5::numeric * $6::numeric, 2), NULL, $7) RETURNING id`,
      [org.id, customer, `0451-8${String(6123400 + orderNo)}`, orderedOn, quantity, unitPrice, by],
    );
    const orderId = Number(rows[0].id);
    await db.query(
      `INSERT INTO sales_order_lines(order_id, line_no, harvest_id, product_id, quantity, unit_price, amount) VALUES ($1, 1, $2, $3, $4, $5, round($4::numeric * $5::numeric, 2))`,
      [orderId, b.id, b.crop ? (products.get(b.crop) ?? null) : null, quantity, unitPrice],
    );
    await db.query('UPDATE harvests SET sold = sold + $2 WHERE id = $1', [b.id, quantity]);
    await db.query(
      `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, source_id, note, created_by)
       SELECT $1, $2, 'income', 'sales', total, $3, 'sale', id, '销售单 XS' || lpad(id::text, 6, '0') || '（' || customer || '）', $4 FROM sales_orders WHERE id = $5`,
      [org.id, orderedOn, b.crop, by, orderId],
    );
  }

  // The first farm recalled its early batch once a re-test found the fungicide above its limit:
  // its trace page says so, its sales are refused, its lot report lists the buyers to call.
  const recalled = recalledEarly;
  if (recalled !== undefined) {
    await db.query(`UPDATE harvests SET recalled_at = now() - interval '1 day', recall_reason = $2, recalled_by = $3 WHERE id = $1`, [recalled, '复检发现代森锰锌残留超过国家标准限量，主动召回已售产品', by]);
  }

  if (n === 0) await seedRecallStory(db, org, batches, recalled ?? null);

  // The season's other costs and a subsidy, by hand.
  const year = (batches[0]?.harvestedOn ?? new Date().toISOString()).slice(0, 4);
  const mainCrop = crops[0] ?? null;
  const manual: [string, 'income' | 'expense', string, string, string | null, string][] = [
    [`${year}-04-20`, 'expense', 'land', '36000.00', null, '土地流转费（上半年）'],
    [`${year}-05-15`, 'expense', 'machinery', '4850.50', mainCrop, '插秧机、旋耕机作业费'],
    [`${year}-06-30`, 'expense', 'labour', '12600.00', mainCrop, '6 月临时用工 42 人次'],
    [`${year}-07-31`, 'expense', 'utilities', '1863.27', null, '7 月电费（灌溉泵站）'],
    [`${year}-08-31`, 'expense', 'labour', '9800.00', mainCrop, '8 月田间管理用工'],
    [`${year}-09-25`, 'expense', 'transport', '2400.00', mainCrop, '销售运输费'],
    [`${year}-10-10`, 'income', 'subsidy', '15000.00', null, '耕地地力保护补贴'],
  ];
  for (const [on, direction, category, amount, crop, note] of manual) {
    await db.query(
      `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, note, created_by) VALUES ($1, $2, $3, $4, $5, $6, 'manual', $7, $8)`,
      [org.id, on, direction, category, amount, crop, note, by],
    );
  }
  for (const crop of crops) {
    await insertRecord(db, 'salesPlans', org, { month: `${year}-09`, crop, plannedQuantity: 20000, unit: '公斤', plannedAmount: 80000 });
    await insertRecord(db, 'salesPlans', org, { month: `${year}-10`, crop, plannedQuantity: 15000, unit: '公斤', plannedAmount: 60000 });
  }

  // Trace codes for the first two batches, with scans and reviews.
  const reviews = [
    ['review', 5, '米粒饱满，煮出来很香，孩子很爱吃。', '谢谢您的认可！欢迎常来农场参观。'],
    ['review', 4, '口感不错，包装可以再结实一点。', '已经更换了加厚包装袋，感谢建议。'],
    ['suggestion', null, '希望能出小包装，2.5 公斤的就好。', null],
  ] as const;
  for (const [i, b] of batches.slice(0, 2).entries()) {
    const code = newTraceCode();
    await db.query(`INSERT INTO trace_codes(code, farm_id, harvest_id, scans, last_scanned_at, created_by) VALUES ($1, $2, $3, $4, now() - interval '2 days', $5)`, [code, org.id, b.id, 86 - i * 31 + n * 7, by]);
    for (const [k, [kind, rating, content, answer]] of reviews.entries()) {
      if (i === 1 && k === 0) continue;
      await db.query(
        `INSERT INTO trace_reviews(code, farm_id, kind, rating, content, nickname, client_key, answer, answered_at, answered_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $8::text IS NULL THEN NULL ELSE now() - interval '1 day' END, CASE WHEN $8::text IS NULL THEN NULL ELSE $9::int END, now() - make_interval(days => $10))`,
        [code, org.id, kind, rating, content, ['哈尔滨的王女士', '老顾客', null][k], `seed-${org.id}-${i}-${k}`, answer, by, 10 - k],
      );
    }
  }
}

/**
 * The first farm's recalls (issue 25 item 6): the early batch recalled after its re-test (a
 * batch recall, every customer contacted and the quantity back), and a supplier's recalled
 * fungicide lot: bought in September, sprayed once on the corn between its second and third
 * pickings, so it reached exactly the third batch, which two buyers took. That recall is in
 * progress: one buyer called and part returned, the other still to reach. The ledger rows are
 * written as the ledger writes them (the balance is the stock-in less the stock-out). Texts
 * are not sent by the seed (no server runs it): their status stays `none`.
 */
async function seedRecallStory(db: Queryable, org: Org, batches: { id: number; quantity: number; crop: string | null; harvestedOn: string }[], earlyRecalled: number | null): Promise<void> {
  const by = org.user_id;
  const notice = async (title: string, content: string) => {
    const id = (await db.query<{ id: number }>(`INSERT INTO notices(title, content, kind, sender_id, created_at) VALUES ($1, $2, 'message', $3, now() - interval '1 day') RETURNING id`, [title, content, by])).rows[0].id;
    await db.query(`INSERT INTO notice_receipts(notice_id, user_id) SELECT $1, id FROM users WHERE org_id = $2`, [id, org.id]);
    return id;
  };
  const contactsOf = async (recallId: number, harvestId: number, noticeId: number) => {
    await db.query(
      `INSERT INTO recall_contacts(recall_id, harvest_id, customer, phone, sold, unit, orders, notice_id, updated_by)
       SELECT $1, l.harvest_id, o.customer, coalesce(o.customer_phone, ''), sum(l.quantity), h.unit, string_agg(DISTINCT 'XS' || lpad(o.id::text, 6, '0'), ' · '), $3, $4
         FROM sales_order_lines l JOIN sales_orders o ON o.id = l.order_id JOIN harvests h ON h.id = l.harvest_id
        WHERE l.harvest_id = $2 AND o.status = 'confirmed' GROUP BY l.harvest_id, h.unit, o.customer, coalesce(o.customer_phone, '')`,
      [recallId, harvestId, noticeId, by],
    );
  };

  if (earlyRecalled !== null) {
    const b = (await db.query<{ batch_no: string; recall_reason: string }>('SELECT batch_no, recall_reason FROM harvests WHERE id = $1', [earlyRecalled])).rows[0];
    const id = (await db.query<{ id: number }>(`INSERT INTO recalls(farm_id, kind, harvest_id, reason, created_by, created_at) VALUES ($1, 'batch', $2, $3, $4, now() - interval '1 day') RETURNING id`, [org.id, earlyRecalled, b.recall_reason, by])).rows[0].id;
    await db.query('INSERT INTO recall_batches(recall_id, harvest_id, marked) VALUES ($1, $2, true)', [id, earlyRecalled]);
    const noticeId = await notice(`召回 RC${String(id).padStart(6, '0')}：${b.batch_no}`, `${org.name} 召回，原因：${b.recall_reason}。`);
    await contactsOf(id, earlyRecalled, noticeId);
    // Every buyer reached; what they still had came back, the rest they destroyed under the farm's eye.
    await db.query(`UPDATE recall_contacts SET contacted_at = now() - interval '20 hours', returned = round(sold * 0.6, 3), destroyed = sold - round(sold * 0.6, 3), note = '已上门回收，剩余部分在市场监管人员见证下销毁' WHERE recall_id = $1`, [id]);
  }

  // The fungicide lot: the corn group's third batch is the one picked after the spray.
  const corn = batches.map((b, i) => ({ ...b, i })).filter((b) => b.crop === '玉米');
  if (corn.length < 3) return;
  const [, second, third] = corn;
  const store = (await db.query<{ id: string }>(`SELECT id FROM resource_records WHERE resource = 'farmStores' AND farm_id = $1 ORDER BY id LIMIT 1`, [org.id])).rows[0];
  const supplier = (await db.query<{ id: string }>(`SELECT id FROM resource_records WHERE resource = 'farmMaterialsSupplier' AND farm_id = $1 ORDER BY id LIMIT 1`, [org.id])).rows[0];
  if (!store) return;
  const material = await insertRecord(db, 'farmMaterials', org, {
    goodsCode: 'NT-BMJ-10', name: '苯醚甲环唑 10% 水分散粒剂', category: 'pesticide', unit: '袋', specification: '100 克/袋', safetyIntervalDays: 3,
    manufacturer: '山东绿丰植保有限公司', registrationNo: 'PD20132145', safetyStock: 2,
  });
  const lot = 'BJ2409-07';
  const boughtOn = addDays(second.harvestedOn, -10);
  const sprayedOn = addDays(second.harvestedOn, 1);
  const move = async (direction: 'in' | 'out', on: string, quantity: number) => {
    const id = Number(
      (
        await db.query<{ id: string }>(
          `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, supplier_id, purpose, group_id, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $4::date + time '09:00') RETURNING id`,
          [org.id, direction, store.id, on, direction === 'in' ? (supplier?.id ?? null) : null, direction === 'in' ? '植保备药' : '玉米叶斑病防治', direction === 'out' ? (await groupOf(db, third.id)) : null, by],
        )
      ).rows[0].id,
    );
    await db.query(
      `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on) VALUES ($1, 1, $2, $3, $4, 18.5, round($4 * 18.5, 2), $5, $6)`,
      [id, material, lot, quantity, '2026-03-03', '2028-03-02'],
    );
  };
  await move('in', boughtOn, 10);
  await move('out', sprayedOn, 4);
  await db.query(`INSERT INTO material_balances(farm_id, store_id, material_id, batch, quantity, value, produced_on, expires_on) VALUES ($1, $2, $3, $4, 6, 111.00, '2026-03-03', '2028-03-02')`, [org.id, store.id, material, lot]);

  // The third batch, sold to two buyers after its harvest (it was never sold before).
  const buyers: [string, string, number][] = [
    ['大庆百汇生鲜超市', '0459-6351288', Math.floor(third.quantity * 0.3)],
    ['齐齐哈尔惠民社区团购', '0452-2417706', Math.floor(third.quantity * 0.2)],
  ];
  for (const [k, [customer, phone, quantity]] of buyers.entries()) {
    const orderedOn = addDays(third.harvestedOn, 2 + k);
    const orderId = Number(
      (
        await db.query<{ id: string }>(
          `INSERT INTO sales_orders(farm_id, customer, customer_phone, ordered_on, total, created_by) VALUES ($1, $2, $3, $4, round($5::numeric * 1.32, 2), $6) RETURNING id`,
          [org.id, customer, phone, orderedOn, quantity, by],
        )
      ).rows[0].id,
    );
    await db.query(`INSERT INTO sales_order_lines(order_id, line_no, harvest_id, quantity, unit_price, amount) VALUES ($1, 1, $2, $3, 1.32, round($3::numeric * 1.32, 2))`, [orderId, third.id, quantity]);
    await db.query('UPDATE harvests SET sold = sold + $2 WHERE id = $1', [third.id, quantity]);
    await db.query(
      `INSERT INTO account_entries(farm_id, entry_on, direction, category, amount, crop, source, source_id, note, created_by)
       SELECT $1, $2, 'income', 'sales', total, '玉米', 'sale', id, '销售单 XS' || lpad(id::text, 6, '0') || '（' || customer || '）', $3 FROM sales_orders WHERE id = $4`,
      [org.id, orderedOn, by, orderId],
    );
  }

  const reason = '供应商通知：该批次有效成分含量不合格、杂质超标，召回并要求追查用药地块';
  const id = (await db.query<{ id: number }>(`INSERT INTO recalls(farm_id, kind, material_id, lot, reason, created_by, created_at) VALUES ($1, 'materialLot', $2, $3, $4, $5, now() - interval '3 hours') RETURNING id`, [org.id, material, lot, reason, by])).rows[0].id;
  await db.query('INSERT INTO recall_batches(recall_id, harvest_id, marked) VALUES ($1, $2, true)', [id, third.id]);
  await db.query(`UPDATE harvests SET recalled_at = now() - interval '3 hours', recall_reason = $2, recalled_by = $3 WHERE id = $1`, [third.id, `苯醚甲环唑 10% 水分散粒剂 ${lot}：${reason}`.slice(0, 200), by]);
  const noticeId = await notice(`召回 RC${String(id).padStart(6, '0')}：苯醚甲环唑 10% 水分散粒剂 ${lot}`, `${org.name} 召回，原因：${reason}。`);
  await contactsOf(id, third.id, noticeId);
  // In progress: the supermarket was called and sent part back; the group-buying site is still to reach.
  await db.query(
    `UPDATE recall_contacts SET contacted_at = now() - interval '2 hours', returned = round(sold * 0.5, 3), note = '已电话联系，门店下架，首批退回' WHERE recall_id = $1 AND customer = '大庆百汇生鲜超市'`,
    [id],
  );
}

async function groupOf(db: Queryable, harvestId: number): Promise<number> {
  return Number((await db.query<{ group_id: string }>('SELECT group_id FROM harvests WHERE id = $1', [harvestId])).rows[0].group_id);
}
