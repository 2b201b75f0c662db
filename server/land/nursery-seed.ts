/**
 * Demo land of the seedling base (绿源育苗基地, 寿光 nursery park): a walled compound with a
 * multi-span nursery group of two houses (the first is the planting seed's
 * 育苗一号连栋温室, which takes the house's shape), a substrate and materials store, a
 * germination room, a well, the yard road, and the base's people. Without it the base's
 * land screens and map were empty and its devices had nowhere to stand.
 * Runs inside the demo seed's transaction; does nothing when the base has a boundary.
 */
import type { Queryable } from '../db/database.ts';
import { areaMu } from './geometry.ts';
import { grid, ring } from './seed.ts';

const HOUSE_ONE = '育苗一号连栋温室';
const text = (g: unknown) => JSON.stringify(g);

export async function seedNurseryLand(db: Queryable): Promise<void> {
  const base = (
    await db.query<{ id: number; bloc_id: number | null; user_id: number | null }>(
      `SELECT o.id, o.bloc_id, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o WHERE o.type = 4 ORDER BY o.id LIMIT 1`,
    )
  ).rows[0];
  if (!base) return;
  const { rows: existing } = await db.query(`SELECT 1 FROM resource_records WHERE resource = 'farmBoundaries' AND farm_id = $1`, [base.id]);
  if (existing.length) return;
  const insert = async (resource: string, data: Record<string, unknown>) => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [resource, base.id, base.bloc_id, JSON.stringify(data), base.user_id],
    );
    return Number(rows[0].id);
  };
  // Local metres on a grid turned 3° from east, origin at the compound's south-west corner.
  const at = grid([118.7912, 36.8563], 3);
  const boundary = ring([at(0, 0), at(210, 0), at(210, 150), at(0, 150)]);
  await insert('farmBoundaries', { name: '绿源育苗基地院界', geometry: text(boundary), areaMu: areaMu(boundary), remark: '寿光市文家街道育苗园区，依据园区租赁合同' });

  const outline = ring([at(15, 60), at(195, 60), at(195, 140), at(15, 140)]);
  const group = await insert('greenhouseGroups', {
    code: 'LY-LD', name: '育苗连栋温室群', kind: 'multiSpan', manager: '陈静', location: '园区北侧', geometry: text(outline), areaMu: areaMu(outline), builtYear: 2021,
    remark: '薄膜连栋温室，苗床 + 潮汐灌溉，湿帘风机降温，热风机加温',
  });
  const tomato = (await db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'crops' AND data->>'name' = '番茄' ORDER BY id LIMIT 1`)).rows[0]?.id;
  const houses = [
    { code: 'LY-G1', name: HOUSE_ONE, x: 20, status: 1, crop: tomato },
    { code: 'LY-G2', name: '育苗二号连栋温室', x: 110, status: 0, crop: undefined },
  ];
  for (const h of houses) {
    const shape = ring([at(h.x, 65), at(h.x + 80, 65), at(h.x + 80, 135), at(h.x, 135)]);
    await insert('greenhouses', {
      groupId: group, code: h.code, name: h.name, kind: 'multiSpan', lengthM: 80, widthM: 70, geometry: text(shape), areaMu: areaMu(shape),
      ...(h.crop ? { cropId: Number(h.crop) } : {}), status: h.status, ...(h.status === 0 ? { remark: '春季育苗前消毒闲置' } : {}),
    });
    // The plot the planting seed registered for the first house takes its shape.
    await db.query(
      `UPDATE resource_records SET data = data || jsonb_build_object('geometry', $3::text, 'areaMu', $4::numeric)
        WHERE resource = 'farmFields' AND farm_id = $1 AND data->>'name' = $2`,
      [base.id, h.name, text(shape), areaMu(shape)],
    );
  }

  const store = ring([at(20, 15), at(70, 15), at(70, 45), at(20, 45)]);
  const germination = ring([at(85, 15), at(125, 15), at(125, 45), at(85, 45)]);
  const facilities: Record<string, unknown>[] = [
    { code: 'LY-CK', name: '基质与农资仓库', kind: 'store', geometry: text(store), areaMu: areaMu(store), capacity: '基质 300 立方米、穴盘 4 万张', keeper: '孟庆华', status: 1 },
    { code: 'LY-CY', name: '催芽室', kind: 'other', geometry: text(germination), areaMu: areaMu(germination), capacity: '催芽架 24 组，控温 25–28 ℃', status: 1 },
    { code: 'LY-JJ', name: '园区机井', kind: 'well', geometry: text({ type: 'Point', coordinates: at(150, 30) }), capacity: '井深 80 米，出水 30 立方米/时', status: 1 },
    { code: 'LY-PD', name: '配电房', kind: 'powerRoom', geometry: text({ type: 'Point', coordinates: at(180, 20) }), capacity: '250 千伏安', status: 1 },
    { code: 'LY-DL', name: '园区道路', kind: 'road', geometry: text({ type: 'LineString', coordinates: [at(0, 52), at(105, 52), at(210, 52)] }), capacity: '水泥路，宽 5 米', status: 1 },
  ];
  for (const f of facilities) await insert('farmFacilities', f);

  const people: [string, 'male' | 'female', string, string, string, string][] = [
    ['陈静', 'female', 'manager', '基地办公室', '18653610005', '育苗基地经营、订单排产'],
    ['刘海涛', 'male', 'technician', '技术组', '18653610011', '嫁接育苗、病害防控'],
    ['孟庆华', 'female', 'keeper', '仓储组', '18653610012', '基质、穴盘与农资保管'],
    ['王秀云', 'female', 'worker', '苗床组', '18653610013', '播种、分苗、炼苗'],
    ['张立军', 'male', 'worker', '苗床组', '18653610014', '潮汐灌溉、温室设备'],
  ];
  for (const [i, [name, gender, role, team, phone, skills]] of people.entries()) {
    await insert('farmPeople', { name, gender, role, team, phone, skills, joinedOn: `${2019 + (i % 4)}-0${3 + i}-15`, status: 1 });
  }
}
