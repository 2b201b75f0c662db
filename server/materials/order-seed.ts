/**
 * Demo purchase orders between the two demo farms and the demo manufacturer (丰沃肥业), in
 * every state, and the seedling base's seed orders to its seed company, with their shipments and, for the received ones, the stock-in movements
 * the receipt posts (lines only: the materials seed computes every balance from the lines
 * afterwards, so balances stay the sum of the movements). Each received shipment line is a
 * batch of its own at the order's price, so the ledger's average cost stays that price.
 * Runs inside the materials seed, before the balances are computed.
 */
import type { Queryable } from '../db/database.ts';
import { orderNumber, shipmentNumber, type OrderState } from './orders.ts';

interface SeedOrder {
  day: number;
  status: OrderState;
  /** goods code, quantity, unit price */
  lines: [string, number, number][];
  /** Shipments as quantities per line (same order as lines); received ones post a stock-in. */
  shipments?: { day: number; quantities: number[]; received: boolean; waybill: string }[];
  note?: string;
  refuseReason?: string;
  toSupplier?: boolean;
}

const ORDERS: SeedOrder[] = [
  {
    day: -160, status: 'closed', note: '春耕基肥', lines: [['FL-001', 40, 158], ['FL-003', 20, 198.5]],
    shipments: [{ day: -155, quantities: [40, 20], received: true, waybill: 'SF1402236581' }],
  },
  {
    day: -100, status: 'received', note: '追肥尿素，分两批到货', lines: [['FL-002', 30, 106]],
    shipments: [
      { day: -96, quantities: [20], received: true, waybill: 'ZTO7382910' },
      { day: -90, quantities: [10], received: true, waybill: 'ZTO7382977' },
    ],
  },
  { day: -70, status: 'closed', note: '询价后对方无货', lines: [['FL-001', 60, 150]], refuseReason: '15-15-15 库存不足，下月排产后再联系' },
  {
    day: -14, status: 'shipped', note: '秋施磷肥，厂家分批发', lines: [['FL-003', 24, 199]],
    shipments: [{ day: -10, quantities: [12], received: true, waybill: 'YD4300811' }],
  },
  {
    day: -6, status: 'shipped', note: '明年备肥', lines: [['FL-001', 20, 160], ['FL-002', 15, 108]],
    shipments: [{ day: -2, quantities: [20, 15], received: false, waybill: 'SF1402299017' }],
  },
  { day: -4, status: 'accepted', note: '等厂家排车', lines: [['FL-002', 10, 108]] },
  { day: -1, status: 'submitted', note: '请尽快报价发货', lines: [['FL-003', 15, 199], ['FL-001', 10, 160]] },
  { day: 0, status: 'draft', note: '待场长确认', lines: [['FL-001', 30, 160]] },
  { day: -25, status: 'refused', note: '试订农药', lines: [['NY-002', 20, 17.5]], refuseReason: '本厂只生产肥料，不经营农药' },
  {
    day: -130, status: 'closed', note: '种子公司直供', toSupplier: true, lines: [['FL-002', 20, 112]],
    shipments: [{ day: -128, quantities: [20], received: true, waybill: '自提' }],
  },
];

/** The seedling base buys its tomato seed from its seed company (orders to a supplier of its own). */
const NURSERY_ORDERS: SeedOrder[] = [
  {
    day: -120, status: 'closed', note: '秋冬茬番茄嫁接苗用种', toSupplier: true, lines: [['ZM-001', 30, 82]],
    shipments: [{ day: -117, quantities: [30], received: true, waybill: 'SF1402210442' }],
  },
  {
    day: -45, status: 'received', note: '冬春茬用种，分两批到货', toSupplier: true, lines: [['ZM-001', 40, 84]],
    shipments: [
      { day: -42, quantities: [25], received: true, waybill: 'YTO8830125' },
      { day: -38, quantities: [15], received: true, waybill: 'YTO8830177' },
    ],
  },
  { day: -3, status: 'submitted', note: '明年春茬备种，请确认发芽率报告', toSupplier: true, lines: [['ZM-001', 25, 85]] },
  { day: 0, status: 'draft', note: '待技术员确认品种', toSupplier: true, lines: [['ZM-001', 10, 85]] },
];
const CONTACTS = ['赵立新 13845011101', '孙大伟 13945022201', '韩雪 13563620031'];

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export async function seedOrders(db: Queryable, today: string): Promise<void> {
  const factory = (await db.query<{ id: number }>('SELECT id FROM organisations WHERE type = 1 ORDER BY id LIMIT 1')).rows[0];
  if (!factory) return;
  const farms = (
    await db.query<{ id: number; type: number; user_id: number | null }>(
      `(SELECT o.id, o.type, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o WHERE o.type = 0 ORDER BY o.id LIMIT 2)
       UNION ALL (SELECT o.id, o.type, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) FROM organisations o WHERE o.type = 4 ORDER BY o.id LIMIT 1)`,
    )
  ).rows;
  const factoryUser = (await db.query<{ id: number | null }>('SELECT min(id) AS id FROM users WHERE org_id = $1', [factory.id])).rows[0].id;
  for (const [n, farm] of farms.entries()) {
    const records = async (resource: string) =>
      (await db.query<{ id: number; data: Record<string, unknown> }>('SELECT id, data FROM resource_records WHERE resource = $1 AND farm_id = $2 ORDER BY id', [resource, farm.id])).rows;
    const materials = new Map((await records('farmMaterials')).map((r) => [String(r.data.goodsCode), r]));
    const store = (await records('farmStores'))[0];
    const supplier = (await records('farmMaterialsSupplier'))[0];
    if (!store) continue;
    // The second farm keeps fewer of them: the same stories, a little later.
    for (const o of farm.type === 4 ? NURSERY_ORDERS : n === 0 ? ORDERS : ORDERS.filter((_, i) => i % 2 === 1 || i >= 4)) {
      const orderedOn = addDays(today, o.day - n);
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO purchase_orders(farm_id, seller_org_id, supplier_id, store_id, status, ordered_on, expected_on, contact, note, refuse_reason, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $6::date + time '10:00') RETURNING id`,
        [farm.id, o.toSupplier ? null : factory.id, o.toSupplier ? supplier?.id ?? null : null, store.id, o.status, orderedOn, addDays(orderedOn, 10),
          CONTACTS[Math.min(n, CONTACTS.length - 1)], o.note ?? null, o.refuseReason ?? null, farm.user_id],
      );
      const orderId = Number(rows[0].id);
      const lineIds: number[] = [];
      for (const [i, [code, quantity, price]] of o.lines.entries()) {
        const m = materials.get(code);
        if (!m) throw new Error(`orders seed: no material ${code}`);
        const shipped = (o.shipments ?? []).reduce((s, sh) => s + sh.quantities[i], 0);
        const received = (o.shipments ?? []).filter((sh) => sh.received).reduce((s, sh) => s + sh.quantities[i], 0);
        const line = await db.query<{ id: number }>(
          `INSERT INTO purchase_order_lines(order_id, line_no, material_id, name, specification, unit, quantity, unit_price, amount, shipped, received)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, round($7::numeric * $8::numeric, 2), $9, $10) RETURNING id`,
          [orderId, i + 1, m.id, m.data.name, m.data.specification ?? null, m.data.unit, quantity, price, shipped, received],
        );
        lineIds.push(Number(line.rows[0].id));
      }
      for (const [k, sh] of (o.shipments ?? []).entries()) {
        const shippedOn = addDays(today, sh.day - n);
        const s = await db.query<{ id: number }>(
          `INSERT INTO purchase_shipments(order_id, shipped_on, waybill, created_by, created_at) VALUES ($1, $2, $3, $4, $2::date + time '15:00') RETURNING id`,
          [orderId, shippedOn, sh.waybill, factoryUser],
        );
        const shipmentId = Number(s.rows[0].id);
        const batches = sh.quantities.map((_, i) => `FW${orderedOn.slice(2, 4)}${String(orderId).padStart(3, '0')}${k + 1}${i + 1}`);
        for (const [i, q] of sh.quantities.entries()) {
          await db.query(
            'INSERT INTO purchase_shipment_lines(shipment_id, order_line_id, quantity, batch, produced_on, expires_on) VALUES ($1, $2, $3, $4, $5, $6)',
            [shipmentId, lineIds[i], q, batches[i], addDays(shippedOn, -30), addDays(shippedOn, 1065)],
          );
        }
        if (!sh.received) continue;
        const receivedOn = addDays(shippedOn, 2);
        const mv = await db.query<{ id: number }>(
          `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, supplier_id, purpose, reference, created_by, created_at)
           VALUES ($1, 'in', $2, $3, $4, $5, $6, $7, $3::date + time '11:00') RETURNING id`,
          [farm.id, store.id, receivedOn, o.toSupplier ? supplier?.id ?? null : null, `采购入库 ${orderNumber(orderId)}`, shipmentNumber(shipmentId), farm.user_id],
        );
        const movementId = Number(mv.rows[0].id);
        for (const [i, q] of sh.quantities.entries()) {
          const [code, , price] = o.lines[i];
          await db.query(
            `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on)
             VALUES ($1, $2, $3, $4, $5, $6, round($5::numeric * $6::numeric, 2), $7, $8)`,
            [movementId, i + 1, materials.get(code)!.id, batches[i], q, price, addDays(shippedOn, -30), addDays(shippedOn, 1065)],
          );
        }
        await db.query('UPDATE purchase_shipments SET received_movement_id = $2, received_on = $3 WHERE id = $1', [shipmentId, movementId, receivedOn]);
      }
    }
  }
}

const PRODUCTS = [
  { name: '丰沃 复合肥 15-15-15', productType: 'compound', nutrients: 'N-P₂O₅-K₂O 15-15-15，总养分 ≥ 45%', specification: '50 公斤/袋', unit: '袋', registrationNo: '鲁农肥（2021）准字 5112 号', price: 158, onSale: true, description: '硫酸钾型通用复合肥，适合水稻、玉米、大豆基肥。' },
  { name: '丰沃 高氮复合肥 26-10-12', productType: 'compound', nutrients: 'N-P₂O₅-K₂O 26-10-12', specification: '40 公斤/袋', unit: '袋', registrationNo: '鲁农肥（2021）准字 5113 号', price: 146, onSale: true, description: '玉米一次性施肥专用，含缓释氮。' },
  { name: '丰沃 大颗粒尿素', productType: 'nitrogen', nutrients: '总氮 ≥ 46.4%', specification: '40 公斤/袋', unit: '袋', registrationNo: '鲁农肥（2020）准字 4021 号', price: 106, onSale: true, description: '追肥用，颗粒均匀不易结块。' },
  { name: '丰沃 磷酸二铵', productType: 'phosphate', nutrients: 'N-P₂O₅ 18-46', specification: '50 公斤/袋', unit: '袋', registrationNo: '鲁农肥（2020）准字 4022 号', price: 199, onSale: true, description: '高浓度磷肥，适合作种肥。' },
  { name: '丰沃 硫酸钾', productType: 'potash', nutrients: 'K₂O ≥ 50%', specification: '50 公斤/袋', unit: '袋', registrationNo: '鲁农肥（2022）准字 6310 号', price: 185, onSale: true },
  { name: '丰沃 大量元素水溶肥 20-20-20', productType: 'waterSoluble', nutrients: 'N-P₂O₅-K₂O 20-20-20+TE', specification: '10 公斤/袋', unit: '袋', registrationNo: '农肥（2022）准字 23561 号', price: 128, onSale: true, description: '滴灌、冲施两用，温室果菜全生育期。' },
  { name: '丰沃 生物有机肥', productType: 'organic', nutrients: '有机质 ≥ 40%，有效活菌数 ≥ 0.2 亿/克', specification: '40 公斤/袋', unit: '袋', registrationNo: '微生物肥（2021）准字 9032 号', price: 68, onSale: true },
  { name: '丰沃 复合肥 17-17-17（老包装）', productType: 'compound', nutrients: 'N-P₂O₅-K₂O 17-17-17', specification: '50 公斤/袋', unit: '袋', registrationNo: '鲁农肥（2017）准字 3001 号', price: 165, onSale: false, description: '已停产，由 15-15-15 替代。' },
];

const AGENTS = [
  { name: '黑龙江丰沃农资总经销', level: 'province', region: '黑龙江省', contact: '高建军', phone: '13904511234', address: '哈尔滨市香坊区农资大市场 A 区 8 号', contractFrom: '2024-01-01', contractTo: '2026-12-31' },
  { name: '哈尔滨双城区丰沃经销部', level: 'county', region: '哈尔滨市双城区', contact: '于海波', phone: '13845016688', address: '双城区农丰镇中心街 21 号', contractFrom: '2025-03-01', contractTo: '2027-02-28' },
  { name: '齐齐哈尔富裕县农丰农资', level: 'county', region: '齐齐哈尔市富裕县', contact: '孙立国', phone: '13945027799', address: '富裕县嫩江路 102 号', contractFrom: '2025-01-01', contractTo: '2026-12-31' },
  { name: '大庆市丰沃农业服务中心', level: 'city', region: '大庆市', contact: '马春艳', phone: '13604598800', address: '大庆市萨尔图区东风路 55 号', contractFrom: '2024-06-01', contractTo: '2026-05-31', remark: '兼做测土配方服务' },
  { name: '绥化市北林区惠农农资店', level: 'county', region: '绥化市北林区', contact: '刘志强', phone: '15845538811', address: '北林区中直路 9 号', contractFrom: '2023-03-01', contractTo: '2025-02-28', remark: '合同已到期，待续签' },
];

/** The demo manufacturer's products and dealers. */
export async function seedFactory(db: Queryable): Promise<void> {
  const factory = (await db.query<{ id: number; user_id: number | null }>('SELECT o.id, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o WHERE o.type = 1 ORDER BY o.id LIMIT 1')).rows[0];
  if (!factory) return;
  const existing = await db.query(`SELECT 1 FROM resource_records WHERE resource IN ('fertilizerProducts', 'fertilizerAgents') AND farm_id = $1 LIMIT 1`, [factory.id]);
  if (existing.rows.length) return;
  for (const [resource, rows] of [['fertilizerProducts', PRODUCTS], ['fertilizerAgents', AGENTS]] as const) {
    for (const data of rows) {
      await db.query('INSERT INTO resource_records(resource, farm_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $4)', [resource, factory.id, JSON.stringify(data), factory.user_id]);
    }
  }
}
