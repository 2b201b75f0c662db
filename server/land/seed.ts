/**
 * Demo land of the two demo farms (禾丰生态农场 near Shuangcheng, Harbin; 嫩江源合作农场 near
 * Fuyu, Qiqihar): a boundary, a block of field plots laid out as Heilongjiang state-farm
 * fields are (long strips on a slightly rotated grid, field roads between them), a solar
 * greenhouse group with its houses (long axis east–west, facing south), a multi-span group on
 * the first farm, facilities (stores, sheds, wells, a pumping station, the main road) and the
 * farm's people. Shapes are generated from a fixed seed, so every run draws the same farm;
 * areas are computed as the server computes them (server/land/geometry.ts).
 *
 * The farm's first plot (by id) is left without a shape on purpose: it is the one "still to
 * be drawn" of the land-build screen, and the generic resource tests copy it.
 * Runs inside the demo seed's transaction; does nothing when any boundary exists.
 */
import type { Polygon, Position } from 'geojson';
import type { Queryable } from '../db/database.ts';
import { areaMu } from './geometry.ts';

interface FarmPlan {
  origin: [lon: number, lat: number];
  /** Rotation of the field grid, degrees anticlockwise from east. */
  angle: number;
  cols: number;
  rows: number;
  /** Plot width (along the grid's x) and length (along y), metres. */
  plotW: number;
  plotL: number;
  village: string;
  crops: string[];
  solarHouses: number;
  multiSpan: boolean;
  people: [name: string, gender: 'male' | 'female', role: string, team: string, phone: string, skills: string][];
}

const PLANS: FarmPlan[] = [
  {
    origin: [126.302, 45.372], angle: 8, cols: 6, rows: 4, plotW: 190, plotL: 420, village: '双城区农丰镇', crops: ['水稻', '玉米', '大豆'],
    solarHouses: 8, multiSpan: true,
    people: [
      ['张伟', 'male', 'manager', '场部', '13845010001', '经营管理、农机调度'],
      ['王建国', 'male', 'technician', '技术组', '13845010012', '水稻栽培、病虫害识别'],
      ['刘桂芳', 'female', 'technician', '技术组', '13845010013', '设施蔬菜、水肥一体化'],
      ['赵大勇', 'male', 'driver', '农机队', '13845010014', '拖拉机、插秧机、收割机'],
      ['孙立新', 'male', 'driver', '农机队', '13845010015', '植保无人机'],
      ['李秀英', 'female', 'keeper', '仓储组', '13845010016', '农资出入库'],
      ['陈福', 'male', 'worker', '一队', '13845010017', '田间管理、灌溉'],
      ['周玉兰', 'female', 'worker', '一队', '13845010018', '温室定植、采收'],
      ['吴海', 'male', 'worker', '二队', '13845010019', '田间管理'],
      ['郑春梅', 'female', 'seasonal', '二队', '13845010020', '除草、采收'],
    ],
  },
  {
    origin: [124.458, 47.788], angle: -5, cols: 5, rows: 3, plotW: 240, plotL: 500, village: '富裕县', crops: ['大豆', '玉米'],
    solarHouses: 6, multiSpan: false,
    people: [
      ['李娜', 'female', 'manager', '场部', '13945020002', '合作社经营、订单管理'],
      ['高志强', 'male', 'technician', '技术组', '13945020021', '大豆栽培、测土配方'],
      ['马晓东', 'male', 'driver', '农机队', '13945020022', '大马力拖拉机、播种机'],
      ['韩淑珍', 'female', 'keeper', '仓储组', '13945020023', '粮库与农资保管'],
      ['杨宝山', 'male', 'worker', '一队', '13945020024', '喷灌设备维护'],
      ['徐丽', 'female', 'worker', '一队', '13945020025', '温室管理'],
      ['何长林', 'male', 'seasonal', '二队', '13945020026', '田间管理'],
      ['冯雪', 'female', 'seasonal', '二队', '13945020027', '采收分拣'],
    ],
  },
];

/** Deterministic pseudo-random numbers (a fixed LCG), so the demo farm is the same on every machine. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Converts metres on the farm's local grid (x east-ish, y north-ish, rotated) to lon/lat. */
export function grid(origin: [number, number], angleDeg: number) {
  const a = (angleDeg * Math.PI) / 180;
  const mPerLat = 111_320;
  const mPerLon = 111_320 * Math.cos((origin[1] * Math.PI) / 180);
  return (x: number, y: number): Position => {
    const east = x * Math.cos(a) - y * Math.sin(a);
    const north = x * Math.sin(a) + y * Math.cos(a);
    return [round(origin[0] + east / mPerLon), round(origin[1] + north / mPerLat)];
  };
}

const round = (n: number) => Math.round(n * 1e7) / 1e7;

export function ring(points: Position[]): Polygon {
  return { type: 'Polygon', coordinates: [[...points, points[0]]] };
}

const text = (g: unknown) => JSON.stringify(g);

export async function seedLand(db: Queryable): Promise<void> {
  const { rows: existing } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'farmBoundaries'`);
  if (existing[0].n > 0) return;
  const farms = (
    await db.query<{ id: number; bloc_id: number | null; user_id: number | null }>(
      `SELECT o.id, o.bloc_id, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o WHERE o.type = 0 ORDER BY o.id LIMIT 2`,
    )
  ).rows;
  const cropIds = new Map(
    (await db.query<{ id: number; name: string }>(`SELECT id, data->>'name' AS name FROM resource_records WHERE resource = 'crops'`)).rows.map((r) => [r.name, Number(r.id)]),
  );

  for (const [n, farm] of farms.entries()) {
    const plan = PLANS[n];
    const rnd = random(20260 + n);
    const at = grid(plan.origin, plan.angle);
    const insert = async (resource: string, data: Record<string, unknown>) => {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
        [resource, farm.id, farm.bloc_id, JSON.stringify(data), farm.user_id],
      );
      return Number(rows[0].id);
    };
    const gap = 12; // field road and ditch between plots, metres
    const fieldW = plan.cols * (plan.plotW + gap);
    const fieldL = plan.rows * (plan.plotL + gap);
    // The headquarters strip south of the fields: greenhouses, stores, sheds.
    const hqDepth = 260;

    // Boundary: the fields and the headquarters strip, with a bend along the river side.
    const boundary = ring([
      at(-40, -hqDepth - 30), at(fieldW * 0.55, -hqDepth - 45), at(fieldW + 35, -hqDepth - 20), at(fieldW + 60, fieldL * 0.5),
      at(fieldW + 30, fieldL + 35), at(fieldW * 0.4, fieldL + 55), at(-35, fieldL + 30), at(-55, fieldL * 0.35),
    ]);
    await insert('farmBoundaries', { name: n === 0 ? '禾丰生态农场场界' : '嫩江源合作农场场界', geometry: text(boundary), areaMu: areaMu(boundary), remark: `${plan.village}，依据土地承包合同界址点测绘` });

    // Plots: the farm's existing plots (except its first) take the first cells, new ones the rest.
    const { rows: plots } = await db.query<{ id: number; data: Record<string, unknown> }>(
      `SELECT id, data FROM resource_records WHERE resource = 'farmFields' AND farm_id = $1 ORDER BY id`,
      [farm.id],
    );
    const openFields = plots.slice(1).filter((p) => p.data.landType !== 'greenhouse' && p.data.landType !== 'nursery');
    const houses = plots.filter((p) => p.data.landType === 'greenhouse');
    const soils = ['blackSoil', 'meadowSoil', 'chernozem', 'blackSoil'];
    let made = 0;
    for (let c = 0; c < plan.cols; c++) {
      for (let r = 0; r < plan.rows; r++) {
        const x0 = c * (plan.plotW + gap);
        const y0 = r * (plan.plotL + gap);
        const j = () => (rnd() - 0.5) * 8; // a few metres of hand-drawn imprecision
        const corners = [at(x0 + j(), y0 + j()), at(x0 + plan.plotW + j(), y0 + j()), at(x0 + plan.plotW + j(), y0 + plan.plotL + j())];
        // Some plots lose a corner to a ditch or a shelter belt: five corners, still convex.
        if (rnd() < 0.3) corners.push(at(x0 + plan.plotW * 0.35, y0 + plan.plotL + j()), at(x0 + j(), y0 + plan.plotL * 0.8));
        else corners.push(at(x0 + j(), y0 + plan.plotL + j()));
        const shape = ring(corners);
        const mu = areaMu(shape);
        const reuse = openFields.shift();
        if (reuse) {
          await db.query(`UPDATE resource_records SET data = $2 WHERE id = $1`, [reuse.id, JSON.stringify({ ...reuse.data, geometry: text(shape), areaMu: mu })]);
          continue;
        }
        made += 1;
        const crop = plan.crops[(c + r) % plan.crops.length];
        const paddy = crop === '水稻';
        const fallow = rnd() < 0.12;
        const code = `${n === 0 ? 'HF' : 'NJ'}-${String(c + 1).padStart(2, '0')}${String.fromCharCode(65 + r)}`;
        const centre = at(x0 + plan.plotW / 2, y0 + plan.plotL / 2);
        await insert('farmFields', {
          code,
          name: `${['东', '西', '南', '北', '中'][c % 5]}${['一', '二', '三', '四', '五', '六'][c]}区${r + 1}号${paddy ? '水田' : '地'}`,
          areaMu: mu,
          landType: paddy ? 'paddy' : 'dryland',
          soilType: soils[(c * 3 + r) % soils.length],
          irrigation: paddy ? 'flood' : n === 1 ? 'sprinkler' : 'rainfed',
          ...(fallow || !cropIds.get(crop) ? {} : { cropId: cropIds.get(crop) }),
          location: `${plan.village}第${c + 1}作业区`,
          longitude: centre[0],
          latitude: centre[1],
          status: fallow ? 0 : 1,
          geometry: text(shape),
          ...(fallow ? { remark: '轮作休耕' } : {}),
        });
      }
    }
    void made;

    // Greenhouses: a solar group south of the fields, houses 80 m × 12 m, 9 m apart north–south.
    const gx = 40;
    const gy = -hqDepth + 20;
    const houseW = 80;
    const houseD = 12;
    const step = houseD + 9;
    const solarOutline = ring([at(gx - 5, gy - 5), at(gx + houseW + 5, gy - 5), at(gx + houseW + 5, gy + plan.solarHouses * step), at(gx - 5, gy + plan.solarHouses * step)]);
    const solarGroup = await insert('greenhouseGroups', {
      code: n === 0 ? 'RG-01' : 'NRG-01', name: n === 0 ? '场部日光温室群' : '富裕日光温室园区', kind: 'solar', manager: plan.people[2][0],
      location: `${plan.village}场部南侧`, geometry: text(solarOutline), areaMu: areaMu(solarOutline), builtYear: n === 0 ? 2019 : 2021,
      remark: '后墙砖混保温，棉被卷帘',
    });
    const tomato = cropIds.get('番茄');
    const cucumber = cropIds.get('黄瓜') ?? tomato;
    for (let h = 0; h < plan.solarHouses; h++) {
      const y = gy + h * step;
      const shape = ring([at(gx, y), at(gx + houseW, y), at(gx + houseW, y + houseD), at(gx, y + houseD)]);
      const crop = h % 3 === 2 ? undefined : h % 2 ? cucumber : tomato;
      await insert('greenhouses', {
        groupId: solarGroup, code: `${n === 0 ? 'RG' : 'NRG'}-${String(h + 1).padStart(2, '0')}`, name: `${h + 1}号日光温室`, kind: 'solar',
        lengthM: houseW, widthM: houseD, geometry: text(shape), areaMu: areaMu(shape), ...(crop ? { cropId: crop } : {}),
        status: crop ? 1 : h === plan.solarHouses - 1 ? 2 : 0,
      });
      // The plots registered as greenhouses take the first houses' shapes.
      const plot = houses[h];
      if (plot) await db.query(`UPDATE resource_records SET data = $2 WHERE id = $1`, [plot.id, JSON.stringify({ ...plot.data, geometry: text(shape), areaMu: areaMu(shape) })]);
    }
    if (plan.multiSpan) {
      const mx = gx + houseW + 40;
      const outline = ring([at(mx - 5, gy - 5), at(mx + 130, gy - 5), at(mx + 130, gy + 50), at(mx - 5, gy + 50)]);
      const group = await insert('greenhouseGroups', {
        code: 'LD-01', name: '连栋智能温室', kind: 'multiSpan', manager: plan.people[2][0], location: `${plan.village}场部南侧`,
        geometry: text(outline), areaMu: areaMu(outline), builtYear: 2022, remark: '文洛式玻璃温室，湿帘风机降温',
      });
      for (let h = 0; h < 2; h++) {
        const x = mx + h * 65;
        const shape = ring([at(x, gy), at(x + 60, gy), at(x + 60, gy + 45), at(x, gy + 45)]);
        await insert('greenhouses', {
          groupId: group, code: `LD-0${h + 1}`, name: `连栋温室${h === 0 ? 'A' : 'B'}区`, kind: 'multiSpan', lengthM: 60, widthM: 45,
          geometry: text(shape), areaMu: areaMu(shape), ...(tomato ? { cropId: tomato } : {}), status: 1,
        });
      }
    }

    // Facilities.
    const fx = fieldW - 260;
    const store = ring([at(fx, -120), at(fx + 45, -120), at(fx + 45, -95), at(fx, -95)]);
    const shed = ring([at(fx + 70, -120), at(fx + 130, -120), at(fx + 130, -90), at(fx + 70, -90)]);
    const yard = ring([at(fx, -220), at(fx + 120, -220), at(fx + 120, -150), at(fx, -150)]);
    const prefix = n === 0 ? 'HF' : 'NJ';
    // The field lane runs in the gap between the middle columns.
    const lane = Math.floor(plan.cols / 2) * (plan.plotW + gap) - gap / 2;
    const facilities: Record<string, unknown>[] = [
      { code: `${prefix}-CK1`, name: '一号农资仓库', kind: 'store', geometry: text(store), areaMu: areaMu(store), capacity: '1,100 平方米', keeper: plan.people.find((p) => p[2] === 'keeper')?.[0], status: 1 },
      { code: `${prefix}-NJP`, name: '农机具棚', kind: 'shed', geometry: text(shed), areaMu: areaMu(shed), capacity: '停放大型农机 12 台', status: 1 },
      { code: `${prefix}-SC`, name: '水泥晒场', kind: 'dryingYard', geometry: text(yard), areaMu: areaMu(yard), capacity: '8,400 平方米', status: 1 },
      { code: `${prefix}-JJ1`, name: '1号机井', kind: 'well', geometry: text({ type: 'Point', coordinates: at(fieldW * 0.25, -6) }), capacity: '井深 60 米，出水 50 立方米/时', status: 1 },
      { code: `${prefix}-JJ2`, name: '2号机井', kind: 'well', geometry: text({ type: 'Point', coordinates: at(fieldW * 0.75, -6) }), capacity: '井深 60 米，出水 50 立方米/时', status: 1 },
      { code: `${prefix}-JJ3`, name: '3号机井', kind: 'well', geometry: text({ type: 'Point', coordinates: at(-6, fieldL * 0.6) }), capacity: '井深 45 米', status: 0, remark: '水泵待修' },
      { code: `${prefix}-BZ`, name: '提水泵站', kind: 'pumpingStation', geometry: text({ type: 'Point', coordinates: at(fieldW + 20, fieldL * 0.45) }), capacity: '2 × 55 千瓦', status: 1 },
      { code: `${prefix}-PD`, name: '场部配电房', kind: 'powerRoom', geometry: text({ type: 'Point', coordinates: at(fx - 20, -100) }), capacity: '400 千伏安', status: 1 },
      { code: `${prefix}-ZL`, name: '场区主干道', kind: 'road', geometry: text({ type: 'LineString', coordinates: [at(-30, -40), at(lane, -40), at(fieldW + 25, -40)] }), capacity: '水泥路，宽 6 米', status: 1 },
      { code: `${prefix}-TJ`, name: '田间作业路', kind: 'road', geometry: text({ type: 'LineString', coordinates: [at(lane, -40), at(lane, fieldL)] }), capacity: '砂石路，宽 4 米', status: 1 },
    ];
    for (const f of facilities) await insert('farmFacilities', Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)));

    // People.
    for (const [i, [name, gender, role, team, phone, skills]] of plan.people.entries()) {
      await insert('farmPeople', {
        name, gender, role, team, phone, skills, joinedOn: `${2016 + (i % 7)}-0${1 + (i % 9)}-1${i % 10}`, status: i === plan.people.length - 1 && n === 0 ? 0 : 1,
      });
    }
  }
}
