import type { Queryable } from '../db/database.ts';

/**
 * Part of the materials seed (docs/materials.md, "Product articles"): for the demo
 * manufacturer (丰沃肥业), two combination packages and articles for four of its products
 * and both packages; for the demo farms (type 0), two catalogue materials that are the
 * manufacturer's products (same manufacturer and registration number), so the farm's
 * article route shows the manufacturer's article.
 */
export async function seedArticles(db: Queryable): Promise<void> {
  const factory = (await db.query<{ id: number; name: string; user_id: number | null }>('SELECT o.id, o.name, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o WHERE o.type = 1 ORDER BY o.id LIMIT 1')).rows[0];
  if (!factory) return;
  const existing = await db.query(`SELECT 1 FROM resource_records WHERE resource IN ('productArticles', 'fertilizerCombos') LIMIT 1`);
  if (existing.rows.length) return;
  const products = new Map(
    (await db.query<{ id: number; name: string; data: Record<string, unknown> }>(`SELECT id, data->>'name' AS name, data FROM resource_records WHERE resource = 'fertilizerProducts' AND farm_id = $1`, [factory.id])).rows.map((r) => [r.name, r]),
  );
  const product = (name: string) => {
    const p = products.get(name);
    if (!p) throw new Error(`article seed: no product ${name}`);
    return p;
  };
  const insert = async (resource: string, farmId: number, blocId: number | null, data: Record<string, unknown>, by: number | null) => {
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id',
      [resource, farmId, blocId, JSON.stringify(data), by],
    );
    return Number(rows[0].id);
  };
  const f = (data: Record<string, unknown>) => insert('productArticles', factory.id, null, data, factory.user_id);

  const rice = await insert('fertilizerCombos', factory.id, null, {
    name: '水稻全程营养套餐（每 10 亩）', suitableFor: '寒地水稻', price: 1980, onSale: true,
    items: [{ productId: Number(product('丰沃 复合肥 15-15-15').id), quantity: 6 }, { productId: Number(product('丰沃 大颗粒尿素').id), quantity: 4 }, { productId: Number(product('丰沃 硫酸钾').id), quantity: 2 }],
    description: '基肥、分蘖肥、穗肥一次配齐，比单买省 6%。',
  }, factory.user_id);
  const greenhouse = await insert('fertilizerCombos', factory.id, null, {
    name: '温室果菜水肥一体化套餐（每亩）', suitableFor: '番茄、黄瓜、辣椒', price: 1260, onSale: true,
    items: [{ productId: Number(product('丰沃 大量元素水溶肥 20-20-20').id), quantity: 6 }, { productId: Number(product('丰沃 生物有机肥').id), quantity: 8 }],
    description: '生物有机肥作底肥，水溶肥随滴灌追施，全生育期用量。',
  }, factory.user_id);

  await f({
    productId: Number(product('丰沃 复合肥 15-15-15').id), title: '丰沃 15-15-15：一袋解决基肥', coverUrl: '/logo.svg',
    summary: '氮磷钾各 15%，硫酸钾型，适合水稻、玉米、大豆作基肥。',
    content: '<h3>产品特点</h3><ul><li>N-P₂O₅-K₂O 15-15-15，总养分 ≥ 45%</li><li>硫酸钾型，氯离子 ≤ 3%，忌氯作物可用</li><li>颗粒均匀，抗结块，适合机械侧深施</li></ul><h3>用法用量</h3><p>水稻基肥每亩 20–25 公斤，插秧前结合整地一次施入；玉米每亩 30–40 公斤作种肥，与种子间隔 5 厘米以上。</p><p>登记证号：鲁农肥（2021）准字 5112 号。</p>',
  });
  await f({
    productId: Number(product('丰沃 大颗粒尿素').id), title: '大颗粒尿素的追肥时机', coverUrl: '/logo.svg',
    summary: '分蘖期和拔节期是追氮的两个关键窗口，量少次多更省肥。',
    content: '<h3>为什么选大颗粒</h3><p>粒径 2–4 毫米，溶解慢、挥发少，撒施更均匀。</p><h3>追施建议</h3><ol><li>水稻分蘖肥：插秧后 7–10 天，每亩 5–7 公斤</li><li>穗肥：倒二叶露尖时，每亩 3–4 公斤</li></ol><p>阴雨天或田面有水层时不宜撒施，避免随水流失。</p>',
  });
  await f({
    productId: Number(product('丰沃 大量元素水溶肥 20-20-20').id), title: '温室果菜滴灌追肥方案', coverUrl: '/logo.svg',
    summary: '20-20-20+TE，全水溶，滴灌、冲施两用。',
    content: '<h3>适用作物</h3><p>番茄、黄瓜、辣椒等温室果菜全生育期。</p><h3>用量</h3><ul><li>苗期：每亩每次 2–3 公斤，7–10 天一次</li><li>结果期：每亩每次 4–5 公斤，5–7 天一次</li></ul><p>先放清水 10 分钟再加肥，结束前再冲清水 10 分钟，防止滴头堵塞。</p>',
  });
  await f({
    productId: Number(product('丰沃 生物有机肥').id), title: '改土养根的生物有机肥', coverUrl: '/logo.svg',
    summary: '有机质 ≥ 40%，有效活菌 ≥ 0.2 亿/克，连作温室改土首选。',
    content: '<p>含枯草芽孢杆菌和胶冻样类芽孢杆菌，疏松土壤、抑制土传病害，与化肥配合使用可减少化肥用量 10%–15%。</p><p>作底肥每亩 200–300 公斤，开沟条施后覆土。不要与杀菌剂同时使用。</p>',
  });
  await f({
    comboId: rice, title: '水稻全程营养套餐：10 亩一套', coverUrl: '/logo.svg',
    summary: '复合肥 6 袋、尿素 4 袋、硫酸钾 2 袋，基肥到穗肥一次配齐。',
    content: '<h3>套餐内容</h3><ul><li>丰沃 复合肥 15-15-15 × 6 袋（基肥）</li><li>丰沃 大颗粒尿素 × 4 袋（分蘖肥、穗肥）</li><li>丰沃 硫酸钾 × 2 袋（穗肥）</li></ul><h3>施用时间表</h3><p>整地时施复合肥；插秧后 7–10 天施尿素 2 袋；倒二叶露尖时施尿素 2 袋和硫酸钾 2 袋。</p>',
  });
  await f({
    comboId: greenhouse, title: '温室果菜水肥一体化套餐', coverUrl: '/logo.svg',
    summary: '每亩一套：生物有机肥打底，水溶肥随水追施。',
    content: '<p>定植前每亩施生物有机肥 8 袋（320 公斤）作底肥；缓苗后开始随滴灌追施水溶肥，全季 6 袋。</p><p>配合丰沃技术员上门测土，可按土壤检测结果调整用量。</p>',
  });

  // The demo farms keep two of the manufacturer's products in their catalogue: their article links there.
  const farms = (await db.query<{ id: number; bloc_id: number | null; user_id: number | null }>('SELECT o.id, o.bloc_id, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o WHERE o.type = 0 ORDER BY o.id')).rows;
  for (const farm of farms) {
    const own = await db.query(`SELECT 1 FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 AND data->>'goodsCode' LIKE 'FW-%'`, [farm.id]);
    if (own.rows.length) continue;
    // Bought this spring: one stock-in of both into the farm's first store (the balances are
    // computed from the movements after this seed), so the materials have stock and history.
    const store = (await db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmStores' AND farm_id = $1 ORDER BY id LIMIT 1`, [farm.id])).rows[0];
    const movement = store
      ? Number(
          (
            await db.query<{ id: number }>(
              `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, purpose, created_by, created_at)
               VALUES ($1, 'in', $2, $3, $4, $5, $3::date + time '10:00') RETURNING id`,
              [farm.id, store.id, `${new Date().getUTCFullYear()}-03-18`, '春季备肥（丰沃）', farm.user_id],
            )
          ).rows[0].id,
        )
      : null;
    let lineNo = 0;
    for (const [code, name, price, safetyStock, bought] of [['FW-001', '丰沃 大量元素水溶肥 20-20-20', 128, 10, 24], ['FW-002', '丰沃 生物有机肥', 68, 20, 40]] as const) {
      const p = product(name).data;
      const id = await insert('farmMaterials', farm.id, farm.bloc_id, {
        goodsCode: code, name, category: 'fertilizer', specification: String(p.specification), unit: String(p.unit), manufacturer: factory.name,
        registrationNo: String(p.registrationNo), unitPrice: price, safetyStock, shelfLifeMonths: 24,
      }, farm.user_id);
      if (movement)
        await db.query(
          `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [movement, ++lineNo, id, `FW${new Date().getUTCFullYear()}03`, bought, price, (bought * price).toFixed(2), `${new Date().getUTCFullYear()}-02-20`, `${new Date().getUTCFullYear() + 2}-02-19`],
        );
    }
  }
}
