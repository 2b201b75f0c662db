import type { Queryable } from '../db/database.ts';

/**
 * Demo records for the shipped resource documents: a small real knowledge base of crops
 * of the Songnen plain (varieties and planting rules), and the suppliers and materials
 * of the two demo farms (their catalogues, stores and movements: server/materials/seed.ts). Runs inside the demo seed's transaction; does nothing when any
 * record exists already.
 */
export async function seedResources(db: Queryable): Promise<void> {
  const existing = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM resource_records');
  if (existing.rows[0].n > 0) return;
  const admin = (await db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]?.id ?? null;
  const farms = (
    await db.query<{ id: number; bloc_id: number | null; user_id: number | null }>(
      `SELECT o.id, o.bloc_id, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id
         FROM organisations o WHERE o.type = 0 ORDER BY o.id LIMIT 2`,
    )
  ).rows;

  const insert = async (resource: string, data: Record<string, unknown>, owner?: { id: number; bloc_id: number | null; user_id: number | null }) => {
    const by = owner ? owner.user_id : admin;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [resource, owner?.id ?? null, owner?.bloc_id ?? null, JSON.stringify(data), by],
    );
    return Number(rows[0].id);
  };

  const rice = await insert('crops', {
    name: '水稻', englishName: 'Rice', latinName: 'Oryza sativa L.', category: 'grain', family: '禾本科',
    growthDaysMin: 120, growthDaysMax: 150, sowingMonths: [4, 5], optimalTempMin: 20, optimalTempMax: 32,
    waterRequirement: 'high', status: 1, description: '东北粳稻一季作，4 月中旬育秧，5 月中下旬插秧，9 月下旬收获。',
  });
  const maize = await insert('crops', {
    name: '玉米', englishName: 'Maize', latinName: 'Zea mays L.', category: 'grain', family: '禾本科',
    growthDaysMin: 115, growthDaysMax: 135, sowingMonths: [4, 5], optimalTempMin: 18, optimalTempMax: 30,
    waterRequirement: 'medium', status: 1, description: '春播玉米，地温稳定通过 8–10℃ 时播种，适合大垄密植。',
  });
  const soybean = await insert('crops', {
    name: '大豆', englishName: 'Soybean', latinName: 'Glycine max (L.) Merr.', category: 'oil', family: '豆科',
    growthDaysMin: 105, growthDaysMax: 130, sowingMonths: [5], optimalTempMin: 18, optimalTempMax: 28,
    waterRequirement: 'medium', status: 1, description: '高油高蛋白大豆，忌重茬，宜与玉米轮作。',
  });
  await insert('crops', {
    name: '马铃薯', englishName: 'Potato', latinName: 'Solanum tuberosum L.', category: 'vegetable', family: '茄科',
    growthDaysMin: 80, growthDaysMax: 110, sowingMonths: [4, 5], optimalTempMin: 15, optimalTempMax: 25,
    waterRequirement: 'medium', status: 1, description: '喜冷凉，块茎膨大期需水多，宜起垄栽培。',
  });
  const tomato = await insert('crops', {
    name: '番茄', englishName: 'Tomato', latinName: 'Solanum lycopersicum L.', category: 'vegetable', family: '茄科',
    growthDaysMin: 100, growthDaysMax: 140, sowingMonths: [2, 3], optimalTempMin: 20, optimalTempMax: 28,
    waterRequirement: 'medium', status: 1, description: '日光温室或大棚育苗移栽，需吊蔓整枝。',
  });

  const longjing31 = await insert('cropSubtype', {
    cropId: rice, name: '龙粳31', maturity: 'medium', growthDays: 130, yieldPerMu: 650,
    resistance: '中抗稻瘟病，耐冷性强', suitableRegion: '黑龙江省第三积温带', description: '主茎 11 片叶，株型收敛，分蘖力强。',
  });
  await insert('cropSubtype', {
    cropId: rice, name: '绥粳18', maturity: 'medium', growthDays: 134, yieldPerMu: 620,
    resistance: '抗倒伏，中抗稻瘟病', suitableRegion: '黑龙江省第二积温带', description: '香稻，米质优，适宜插秧栽培。',
  });
  const xianyu335 = await insert('cropSubtype', {
    cropId: maize, name: '先玉335', maturity: 'medium', growthDays: 127, yieldPerMu: 750,
    resistance: '抗大斑病、丝黑穗病', suitableRegion: '东北春玉米区第一、二积温带', description: '株高约 286 厘米，穗长 20 厘米，籽粒黄色马齿型。',
  });
  await insert('cropSubtype', {
    cropId: maize, name: '郑单958', maturity: 'medium', growthDays: 128, yieldPerMu: 720,
    resistance: '抗倒伏，耐密植', suitableRegion: '东北、华北春玉米区', description: '紧凑型，适宜密植，每亩 4500–5000 株。',
  });
  const heihe43 = await insert('cropSubtype', {
    cropId: soybean, name: '黑河43', maturity: 'early', growthDays: 115, yieldPerMu: 190,
    resistance: '中抗灰斑病', suitableRegion: '黑龙江省第四、五积温带', description: '亚有限结荚习性，蛋白质 41%，脂肪 20%。',
  });
  await insert('cropSubtype', {
    cropId: tomato, name: '金棚1号', maturity: 'early', growthDays: 105, yieldPerMu: 8000,
    resistance: '抗番茄花叶病毒病', suitableRegion: '北方日光温室', description: '粉红果，单果重 200–250 克，硬度好耐储运。',
  });

  await insert('plantRules', {
    name: '寒地水稻插秧栽培规则', cropId: rice, cropSubtypeId: longjing31, region: '黑龙江省第三积温带',
    sowingStart: '04-10', sowingEnd: '04-25', plantingDensity: 28000, seedRateKgPerMu: 4, rowSpacingCm: 30,
    basalFertilizer: '每亩施尿素 6 公斤、磷酸二铵 10 公斤、硫酸钾 6 公斤，耙地前施入。',
    topdressingPlan: '返青期每亩追尿素 4 公斤；幼穗分化期追尿素 3 公斤、硫酸钾 4 公斤。',
    irrigationPlan: '浅水插秧，寸水返青，分蘖末期晒田，抽穗后干湿交替，收获前 7 天停水。', status: 2,
  });
  await insert('plantRules', {
    name: '松嫩平原春玉米大垄密植规则', cropId: maize, cropSubtypeId: xianyu335, region: '松嫩平原',
    sowingStart: '04-25', sowingEnd: '05-10', plantingDensity: 4500, seedRateKgPerMu: 2.5, rowSpacingCm: 65,
    basalFertilizer: '每亩施复合肥（15-15-15）40 公斤，侧深施于种下 5 厘米。',
    topdressingPlan: '拔节期每亩追尿素 15 公斤。', irrigationPlan: '雨养为主，播后遇旱坐水种。', status: 2,
  });
  await insert('plantRules', {
    name: '大豆垄三栽培规则', cropId: soybean, cropSubtypeId: heihe43, region: '黑龙江省北部',
    sowingStart: '05-05', sowingEnd: '05-20', plantingDensity: 25000, seedRateKgPerMu: 5, rowSpacingCm: 65,
    basalFertilizer: '每亩施磷酸二铵 10 公斤、硫酸钾 5 公斤，分层深施。',
    topdressingPlan: '初花期叶面喷施磷酸二氢钾。', irrigationPlan: '结荚鼓粒期遇旱及时灌水。', status: 1,
  });

  const [farm1, farm2] = farms;
  if (farm1) {
    await insert('farmMaterialsSupplier', {
      name: '北大荒农资双城供应站', contact: '孙志刚', phone: '0451-53121188', address: '哈尔滨市双城区农丰镇站前街 18 号',
      creditCode: '91230113MA1B2C3D4E', categories: ['fertilizer', 'pesticide', 'seed'], rating: 5, status: 1, remark: '长期合作，送货到田。',
    }, farm1);
    await insert('farmMaterialsSupplier', {
      name: '哈尔滨丰收种业有限公司', contact: '高丽', phone: '13904510123', address: '哈尔滨市香坊区农科路 6 号',
      categories: ['seed', 'seedling'], rating: 4, status: 1,
    }, farm1);
  }
  if (farm2) {
    await insert('farmMaterialsSupplier', {
      name: '齐齐哈尔金土地农资商店', contact: '马春生', phone: '13804520456', address: '齐齐哈尔市富裕县嫩江路 21 号',
      categories: ['fertilizer', 'seed', 'equipmentPart'], rating: 4, status: 1,
    }, farm2);
  }
}
