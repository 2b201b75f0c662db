/**
 * Demo data of the materials area for every farm-like organisation (the two farms and the
 * seedling base): a catalogue, two stores, and a season of movements around today (stock-ins
 * from the farm's suppliers, stock-outs to its planting groups, one mistaken stock-in and its
 * reversal). The balances are then computed from the lines exactly as the ledger keeps them
 * (server/materials/ledger.ts): each batch enters once at one price, so every stock-out
 * leaves at that price and a batch drawn to zero is worth zero. Some rows are meant to show
 * the highlights: stock below safety stock, a batch expiring within 30 days.
 * Runs inside the demo seed's transaction; does nothing when any movement exists.
 */
import type { Queryable } from '../db/database.ts';
import { seedFactory, seedOrders } from './order-seed.ts';
import { seedShare } from './share-seed.ts';
import { seedTraceDraws } from './trace-seed.ts';
import { seedArticles } from './article-seed.ts';

type Org = { id: number; bloc_id: number | null; type: number; name: string; user_id: number | null };

interface Item {
  code: string;
  name: string;
  category: 'fertilizer' | 'pesticide' | 'seed' | 'seedling' | 'equipmentPart' | 'facilityPart' | 'other';
  specification: string;
  unit: string;
  manufacturer: string;
  unitPrice: number;
  safetyStock: number;
  registrationNo?: string;
  safetyIntervalDays?: number;
  shelfLifeMonths?: number;
  /** What one unit holds (40 公斤 a bag), so that plan amounts in 公斤 or 克 convert. */
  contentPerUnit?: number;
  contentUnit?: string;
}

const COMMON: Item[] = [
  { code: 'FL-001', name: '复合肥 15-15-15', category: 'fertilizer', specification: '50 公斤/袋，N-P₂O₅-K₂O 15-15-15', unit: '袋', manufacturer: '史丹利农业集团股份有限公司', unitPrice: 165, safetyStock: 20, shelfLifeMonths: 36, contentPerUnit: 50, contentUnit: '公斤' },
  { code: 'FL-002', name: '尿素', category: 'fertilizer', specification: '40 公斤/袋，含氮 46.4%', unit: '袋', manufacturer: '中海石油化学股份有限公司', unitPrice: 110, safetyStock: 30, shelfLifeMonths: 36, contentPerUnit: 40, contentUnit: '公斤' },
  { code: 'FL-003', name: '磷酸二铵', category: 'fertilizer', specification: '50 公斤/袋，18-46-0', unit: '袋', manufacturer: '云天化股份有限公司', unitPrice: 205, safetyStock: 15, shelfLifeMonths: 36, contentPerUnit: 50, contentUnit: '公斤' },
  { code: 'FL-004', name: '硫酸钾', category: 'fertilizer', specification: '50 公斤/袋，K₂O ≥ 50%', unit: '袋', manufacturer: '国投新疆罗布泊钾盐有限责任公司', unitPrice: 190, safetyStock: 10, shelfLifeMonths: 36, contentPerUnit: 50, contentUnit: '公斤' },
  { code: 'NY-001', name: '吡虫啉 10% 可湿性粉剂', category: 'pesticide', specification: '100 克/袋', unit: '袋', manufacturer: '江苏红太阳集团股份有限公司', unitPrice: 8.5, safetyStock: 50, registrationNo: 'PD20096870', safetyIntervalDays: 14, shelfLifeMonths: 24, contentPerUnit: 100, contentUnit: '克' },
  { code: 'NY-002', name: '阿维菌素 1.8% 乳油', category: 'pesticide', specification: '500 毫升/瓶', unit: '瓶', manufacturer: '河北威远生物化工有限公司', unitPrice: 18, safetyStock: 10, registrationNo: 'PD20070171', safetyIntervalDays: 7, shelfLifeMonths: 24, contentPerUnit: 500, contentUnit: '毫升' },
  { code: 'NY-003', name: '代森锰锌 80% 可湿性粉剂', category: 'pesticide', specification: '500 克/袋', unit: '袋', manufacturer: '利民化学股份有限公司', unitPrice: 22, safetyStock: 20, registrationNo: 'PD20081234', safetyIntervalDays: 15, shelfLifeMonths: 24, contentPerUnit: 500, contentUnit: '克' },
  { code: 'PJ-001', name: '内镶式滴灌带', category: 'facilityPart', specification: '16 毫米，滴头间距 30 厘米，500 米/卷', unit: '卷', manufacturer: '新疆天业节水灌溉股份有限公司', unitPrice: 260, safetyStock: 5 },
  { code: 'PJ-002', name: '旋耕机刀片', category: 'equipmentPart', specification: 'IT245 型，65Mn 钢', unit: '片', manufacturer: '江苏常发农业装备股份有限公司', unitPrice: 12, safetyStock: 40 },
];

/** The organisation's own seed or seedling, by its first word. */
const OWN: Item[] = [
  { code: 'ZZ-001', name: '龙粳31 种子', category: 'seed', specification: '25 公斤/袋，发芽率 ≥ 85%', unit: '袋', manufacturer: '黑龙江省农垦科学院', unitPrice: 180, safetyStock: 10, shelfLifeMonths: 12, contentPerUnit: 25, contentUnit: '公斤' },
  { code: 'ZZ-002', name: '先玉335 玉米种', category: 'seed', specification: '10 公斤/袋，包衣', unit: '袋', manufacturer: '铁岭先锋种子研究有限公司', unitPrice: 450, safetyStock: 5, shelfLifeMonths: 12, contentPerUnit: 10, contentUnit: '公斤' },
  { code: 'ZM-001', name: '金棚1号 番茄种子', category: 'seed', specification: '1000 粒/袋', unit: '袋', manufacturer: '西安金鹏种苗有限公司', unitPrice: 85, safetyStock: 20, shelfLifeMonths: 24, contentPerUnit: 1000, contentUnit: '粒' },
];

const SUPPLIER_FOR_NURSERY = {
  name: '寿光市农丰农资经营部', contact: '刘建国', phone: '13563610456', address: '山东省寿光市文家街道农资大市场 3 区 12 号',
  categories: ['fertilizer', 'pesticide', 'seed', 'facilityPart'], rating: 4, status: 1,
};

/** One line: item code, batch, quantity; a stock-in's price is the item's. */
type Line = [code: string, batch: string, quantity: number];
interface Movement {
  day: number;
  direction: 'in' | 'out';
  store: 0 | 1;
  purpose: string;
  lines: Line[];
  /** Days from the movement to the expiry of its batches (stock-ins). */
  expiresIn?: number;
  toGroup?: boolean;
  reversed?: boolean;
}

function season(seedCode: string): Movement[] {
  return [
    { day: -150, direction: 'in', store: 0, purpose: '春季备肥', lines: [['FL-001', 'SDL2403', 100], ['FL-002', 'ZH2402', 120], ['FL-003', 'YTH2401', 60], ['FL-004', 'LBP2402', 40]], expiresIn: 1000 },
    { day: -149, direction: 'in', store: 0, purpose: '春播种子', lines: [[seedCode, 'S2403', 40]], expiresIn: 300 },
    { day: -148, direction: 'in', store: 1, purpose: '植保备药', lines: [['NY-001', 'HTY2402', 200], ['NY-002', 'WY2401', 60]], expiresIn: 170 },
    { day: -147, direction: 'in', store: 1, purpose: '植保备药', lines: [['NY-003', 'LM2403', 80]], expiresIn: 600 },
    { day: -140, direction: 'in', store: 0, purpose: '设施维修', lines: [['PJ-001', 'TY2403', 20], ['PJ-002', 'CF2401', 50]] },
    { day: -125, direction: 'out', store: 0, purpose: '基肥', lines: [['FL-001', 'SDL2403', 60], ['FL-003', 'YTH2401', 50]], toGroup: true },
    { day: -120, direction: 'out', store: 0, purpose: '播种', lines: [[seedCode, 'S2403', 36]], toGroup: true },
    { day: -110, direction: 'in', store: 0, purpose: '补货（录错，已冲销）', lines: [['FL-001', 'SDL2403', 10]], reversed: true },
    { day: -95, direction: 'out', store: 0, purpose: '追肥', lines: [['FL-002', 'ZH2402', 80]], toGroup: true },
    { day: -80, direction: 'out', store: 0, purpose: '铺设滴灌', lines: [['PJ-001', 'TY2403', 16], ['PJ-002', 'CF2401', 18]] },
    { day: -60, direction: 'out', store: 1, purpose: '防治稻飞虱、蚜虫', lines: [['NY-001', 'HTY2402', 170], ['NY-003', 'LM2403', 20]], toGroup: true },
    { day: -45, direction: 'in', store: 0, purpose: '追肥补货', lines: [['FL-002', 'ZH2406', 60]], expiresIn: 1000 },
    { day: -30, direction: 'out', store: 0, purpose: '追肥', lines: [['FL-002', 'ZH2402', 40], ['FL-002', 'ZH2406', 10], ['FL-004', 'LBP2402', 35]], toGroup: true },
    { day: -10, direction: 'out', store: 1, purpose: '防治红蜘蛛', lines: [['NY-002', 'WY2401', 12]], toGroup: true },
  ];
}

const STORES = [
  { name: '一号农资库', keeper: '赵立新', phone: '13845011101', location: '场部东侧仓储区 1 号库', areaM2: 600, remark: '化肥、种子与配件' },
  { name: '农药专用库', keeper: '钱玉梅', phone: '13845011102', location: '场部北侧，独立上锁', areaM2: 120, remark: '农药单独存放，双人双锁' },
];

/** Days from the first group's harvest to the season's last day (see seedMaterials). */
const SEASON_AFTER_HARVEST = 61;

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export async function seedMaterials(db: Queryable): Promise<void> {
  const existing = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM material_movements');
  if (existing.rows[0].n > 0) return;
  const orgs = (
    await db.query<Org>(
      `SELECT o.id, o.bloc_id, o.type, o.name, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id
         FROM organisations o WHERE o.type IN (0, 4) ORDER BY o.type, o.id`,
    )
  ).rows;
  const today = new Date().toISOString().slice(0, 10);
  for (const [n, org] of orgs.entries()) {
    const insert = async (resource: string, data: Record<string, unknown>) => {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
        [resource, org.id, org.bloc_id, JSON.stringify(data), org.user_id],
      );
      return Number(rows[0].id);
    };
    let suppliers = (await db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmMaterialsSupplier' AND farm_id = $1 ORDER BY id`, [org.id])).rows.map((r) => Number(r.id));
    if (!suppliers.length) suppliers = [await insert('farmMaterialsSupplier', SUPPLIER_FOR_NURSERY)];
    const own = org.type === 4 ? OWN[2] : OWN[Math.min(n, 1)];
    const items = [...COMMON, own];
    const materials = new Map<string, { id: number; item: Item }>();
    for (const item of items) {
      const { code, ...rest } = item;
      // The farm's own seed comes from its seed company (the last supplier), the rest from the first.
      const supplierId = item === own ? suppliers[suppliers.length - 1] : suppliers[0];
      const id = await insert('farmMaterials', { goodsCode: code, ...rest, supplierId });
      materials.set(code, { id, item });
    }
    const stores = [];
    for (const store of STORES) stores.push(await insert('farmStores', store));
    const group = (
      await db.query<{ id: number; harvest_on: string | null }>(
        `SELECT id, data->>'expectedHarvestOn' AS harvest_on FROM resource_records WHERE resource = 'plantGroups' AND farm_id = $1 ORDER BY id LIMIT 1`,
        [org.id],
      )
    ).rows[0];
    // The season ends at most two months after the group's harvest: its spraying (day −60)
    // then falls just after the first pick, inside the interval of the second, on any day the
    // demo is installed (the trace story of docs/harvest-sales-trace.md), not only in late November.
    const latest = group?.harvest_on ? addDays(group.harvest_on, SEASON_AFTER_HARVEST) : today;
    const seasonEnd = latest < today ? latest : today;

    // Per batch: what is left and what it is worth, to price the stock-outs and prove the season never goes below zero.
    const left = new Map<string, number>();
    for (const m of season(own.code)) {
      const movedOn = addDays(seasonEnd, m.day);
      const supplier = m.direction === 'in' ? (materials.get(m.lines[0][0])!.item === own ? suppliers[suppliers.length - 1] : suppliers[0]) : null;
      const movementId = await postSeed(db, org, stores[m.store], movedOn, m, supplier, m.toGroup && group ? Number(group.id) : null, null);
      for (const [i, [code, batch, quantity]] of m.lines.entries()) {
        const { id, item } = materials.get(code)!;
        const key = `${m.store}:${code}:${batch}`;
        const now = (left.get(key) ?? 0) + (m.direction === 'in' ? quantity : -quantity);
        if (now < 0) throw new Error(`materials seed: ${code} ${batch} would go below zero`);
        left.set(key, now);
        await db.query(
          `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on)
           VALUES ($1, $2, $3, $4, $5, $6, round($5::numeric * $6::numeric, 2), $7, $8)`,
          [movementId, i + 1, id, batch, quantity, item.unitPrice, m.expiresIn ? addDays(movedOn, -20) : null, m.expiresIn ? addDays(movedOn, m.expiresIn) : null],
        );
      }
      if (m.reversed) {
        for (const [code, batch, quantity] of m.lines) left.set(`${m.store}:${code}:${batch}`, left.get(`${m.store}:${code}:${batch}`)! - quantity);
        const reversal = await postSeed(db, org, stores[m.store], addDays(movedOn, 1), { ...m, direction: 'out', purpose: `冲销 RK${String(movementId).padStart(6, '0')}` }, null, null, movementId);
        await db.query(
          `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on)
           SELECT $1, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on FROM material_movement_lines WHERE movement_id = $2`,
          [reversal, movementId],
        );
      }
    }
  }
  // Orders with the factory, whose receipts are stock-ins too.
  await seedOrders(db, today);
  await seedTraceDraws(db, today);
  await seedFactory(db);
  await seedArticles(db);
  // The balances are the sum of the movements, as the ledger keeps them.
  await db.query(
    `INSERT INTO material_balances(farm_id, store_id, material_id, batch, quantity, value, produced_on, expires_on)
     SELECT m.farm_id, m.store_id, l.material_id, l.batch,
            sum(CASE WHEN m.direction = 'in' THEN l.quantity ELSE -l.quantity END),
            sum(CASE WHEN m.direction = 'in' THEN l.amount ELSE -l.amount END),
            min(l.produced_on), min(l.expires_on)
       FROM material_movements m JOIN material_movement_lines l ON l.movement_id = m.id
      GROUP BY m.farm_id, m.store_id, l.material_id, l.batch`,
  );
  // The group's shared-materials market, with a hand-over that moves the balances as the ledger does.
  await seedShare(db, today);
}

async function postSeed(db: Queryable, org: Org, storeId: number, movedOn: string, m: Movement, supplierId: number | null, groupId: number | null, reversesId: number | null): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, supplier_id, purpose, group_id, reverses_id, reference, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $4::date + time '09:00')
     RETURNING id`,
    [org.id, m.direction, storeId, movedOn, supplierId, m.purpose, groupId, reversesId, reversesId ? `RK${String(reversesId).padStart(6, '0')}` : null, org.user_id],
  );
  return Number(rows[0].id);
}
