/**
 * Demo devices of the two demo farms (禾丰生态农场 and 嫩江源合作农场, where the `farm`,
 * `farm2` and `device` accounts work): gateways, sensors, switches, valves, a pump, air
 * conditioners, a fertigation machine and a weather station, 30 days of hourly readings
 * (enough for the charts, a few thousand rows per farm — the simulator adds live ones),
 * scenarios, an alarm and field observation reports (墒情 comes from the sensors; 苗情,
 * 虫情 and 灾情 are reports). Runs inside the demo seed's transaction; does nothing when any
 * gateway exists.
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { ROLLUP_FROM } from './readings-writer.ts';

interface DeviceSpec {
  key: string;
  name: string;
  kind: 'sensor' | 'switch' | 'valve' | 'pump' | 'airConditioner' | 'fertigation' | 'camera';
  model: string;
  placeType: 'plot' | 'greenhouse' | 'facility';
  place: string;
  unit: string;
  channels?: string[];
  state?: Record<string, unknown>;
  gateway: 0 | 1;
}

const GREENHOUSE_1 = '一号日光温室';
const GREENHOUSE_2 = '二号日光温室';
const FIELD = '东区大田灌溉';
const FERTIGATION = '水肥一体机';
const STATION = '场区气象站';

const DEVICES: DeviceSpec[] = [
  { key: 'GH1-TH', name: '一号温室温湿度传感器', kind: 'sensor', model: 'RS-WS-N01', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, channels: ['airTemperature', 'airHumidity'], gateway: 0 },
  { key: 'GH1-CO2', name: '一号温室二氧化碳与光照传感器', kind: 'sensor', model: 'RS-CO2-N01', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, channels: ['co2', 'light'], gateway: 0 },
  { key: 'GH1-SOIL', name: '一号温室土壤墒情传感器', kind: 'sensor', model: 'RS-ECTHS-N01', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, channels: ['soilMoisture', 'soilTemperature'], gateway: 0 },
  { key: 'GH1-SHADE', name: '一号温室卷帘机', kind: 'switch', model: 'JL-220', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, state: { on: false }, gateway: 0 },
  { key: 'GH1-FAN', name: '一号温室通风机', kind: 'switch', model: 'FJ-1380', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, state: { on: false }, gateway: 0 },
  { key: 'GH1-LAMP', name: '一号温室补光灯', kind: 'switch', model: 'LED-600W', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, state: { on: false }, gateway: 0 },
  { key: 'GH1-AC', name: '一号温室空调', kind: 'airConditioner', model: 'KFR-120LW', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, state: { power: false, mode: 'auto', setPoint: 24, fan: 'auto' }, gateway: 0 },
  { key: 'GH1-DRIP', name: '一号温室滴灌电磁阀', kind: 'valve', model: 'DN32-24V', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, state: { open: false }, gateway: 0 },
  { key: 'GH2-TH', name: '二号温室温湿度传感器', kind: 'sensor', model: 'RS-WS-N01', placeType: 'greenhouse', place: GREENHOUSE_2, unit: GREENHOUSE_2, channels: ['airTemperature', 'airHumidity'], gateway: 0 },
  { key: 'GH2-SOIL', name: '二号温室土壤墒情传感器', kind: 'sensor', model: 'RS-ECTHS-N01', placeType: 'greenhouse', place: GREENHOUSE_2, unit: GREENHOUSE_2, channels: ['soilMoisture', 'soilTemperature'], gateway: 0 },
  { key: 'GH2-SHADE', name: '二号温室卷帘机', kind: 'switch', model: 'JL-220', placeType: 'greenhouse', place: GREENHOUSE_2, unit: GREENHOUSE_2, state: { on: false }, gateway: 0 },
  { key: 'GH2-AC', name: '二号温室空调', kind: 'airConditioner', model: 'KFR-72LW', placeType: 'greenhouse', place: GREENHOUSE_2, unit: GREENHOUSE_2, state: { power: false, mode: 'auto', setPoint: 22, fan: 'auto' }, gateway: 0 },
  { key: 'FLD-SOIL1', name: '东区一号地块墒情站', kind: 'sensor', model: 'TDR-3', placeType: 'plot', place: '东区一号地块', unit: FIELD, channels: ['soilMoisture', 'soilTemperature'], gateway: 1 },
  { key: 'FLD-SOIL2', name: '东区二号地块墒情站', kind: 'sensor', model: 'TDR-3', placeType: 'plot', place: '东区二号地块', unit: FIELD, channels: ['soilMoisture'], gateway: 1 },
  { key: 'FLD-PUMP', name: '东区灌溉潜水泵', kind: 'pump', model: '200QJ50-52', placeType: 'plot', place: '东区泵房', unit: FIELD, state: { on: false }, gateway: 1 },
  // Open: the field's interlock lets the pump run only while a valve is open (seedAlarms).
  { key: 'FLD-V1', name: '东区一号地块电磁阀', kind: 'valve', model: 'DN50-24V', placeType: 'plot', place: '东区一号地块', unit: FIELD, state: { open: true }, gateway: 1 },
  { key: 'FLD-V2', name: '东区二号地块电磁阀', kind: 'valve', model: 'DN50-24V', placeType: 'plot', place: '东区二号地块', unit: FIELD, state: { open: false }, gateway: 1 },
  { key: 'FERT', name: '水肥一体机', kind: 'fertigation', model: 'SF-3000 三通道', placeType: 'facility', place: '灌溉泵房', unit: FERTIGATION, state: { running: false, recipe: null }, gateway: 1 },
  { key: 'FERT-EC', name: '水肥一体机 EC/pH 传感器', kind: 'sensor', model: 'EC-PH-200', placeType: 'facility', place: '灌溉泵房', unit: FERTIGATION, channels: ['ec', 'ph'], gateway: 1 },
  { key: 'WX', name: '场区小型气象站', kind: 'sensor', model: 'QXZ-6', placeType: 'facility', place: '场部', unit: STATION, channels: ['airTemperature', 'airHumidity', 'light', 'rainfall', 'windSpeed'], gateway: 1 },
  { key: 'CAM1', name: '一号温室摄像头', kind: 'camera', model: 'DS-2DE4425', placeType: 'greenhouse', place: GREENHOUSE_1, unit: GREENHOUSE_1, gateway: 0 },
];

const NURSERY_HOUSE = '育苗一号连栋温室';
/** The seedling base's one multi-span nursery house: climate, substrate moisture, misting, heating, shade and a camera. */
const NURSERY_DEVICES: DeviceSpec[] = [
  { key: 'NH-TH', name: '育苗温室温湿度传感器', kind: 'sensor', model: 'RS-WS-N01', placeType: 'greenhouse', place: NURSERY_HOUSE, unit: NURSERY_HOUSE, channels: ['airTemperature', 'airHumidity'], gateway: 0 },
  { key: 'NH-CO2', name: '育苗温室二氧化碳与光照传感器', kind: 'sensor', model: 'RS-CO2-N01', placeType: 'greenhouse', place: NURSERY_HOUSE, unit: NURSERY_HOUSE, channels: ['co2', 'light'], gateway: 0 },
  { key: 'NH-SOIL', name: '育苗基质墒情传感器', kind: 'sensor', model: 'RS-ECTHS-N01', placeType: 'greenhouse', place: NURSERY_HOUSE, unit: NURSERY_HOUSE, channels: ['soilMoisture', 'soilTemperature'], gateway: 0 },
  { key: 'NH-MIST', name: '育苗温室喷雾电磁阀', kind: 'valve', model: 'DN25-24V', placeType: 'greenhouse', place: NURSERY_HOUSE, unit: NURSERY_HOUSE, state: { open: false }, gateway: 0 },
  { key: 'NH-SHADE', name: '育苗温室内遮阳', kind: 'switch', model: 'ZY-380', placeType: 'greenhouse', place: NURSERY_HOUSE, unit: NURSERY_HOUSE, state: { on: false }, gateway: 0 },
  { key: 'NH-AC', name: '育苗温室热风机', kind: 'airConditioner', model: 'RFJ-60', placeType: 'greenhouse', place: NURSERY_HOUSE, unit: NURSERY_HOUSE, state: { power: false, mode: 'heat', setPoint: 20, fan: 'auto' }, gateway: 0 },
  { key: 'NH-CAM', name: '育苗温室摄像头', kind: 'camera', model: 'DS-2DE4425', placeType: 'greenhouse', place: NURSERY_HOUSE, unit: NURSERY_HOUSE, gateway: 0 },
];

/** SQL of a channel's value at hour `h` (farm time) with a per-series offset `o`: the simulator's curve (simulator.ts). */
const CURVE_SQL: Record<string, string> = {
  airTemperature: `20 + 7 * sin((h - 8) / 24 * 2 * pi()) + o`,
  airHumidity: `68 - 15 * sin((h - 8) / 24 * 2 * pi()) - o`,
  soilMoisture: `32 + 3 * cos(h / 24 * 2 * pi()) + o - d * 0.08`,
  soilTemperature: `17 + 3 * sin((h - 8) / 24 * 2 * pi()) + o / 2`,
  light: `42000 * greatest(0, sin((h - 5) / 14 * pi()))`,
  co2: `620 - 220 * greatest(0, sin((h - 5) / 14 * pi())) + o * 10`,
  ec: `1.6 + o / 20`,
  ph: `6.4 + o / 30`,
  rainfall: `CASE WHEN (d::int % 9) = 4 AND h BETWEEN 14 AND 17 THEN 2.5 ELSE 0 END`,
  windSpeed: `2.5 + 1.5 * sin((h - 8) / 24 * 2 * pi())`,
};

export async function seedDevices(tx: Queryable): Promise<void> {
  const { rows: existing } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM device_gateways');
  if (existing[0].n > 0) return;
  // The two demo farms, then the seedling base (its one nursery house).
  const { rows: farms } = await tx.query<{ id: number; name: string; bloc_id: number | null; type: number }>(
    `(SELECT id, name, bloc_id, type FROM organisations WHERE type = 0 ORDER BY id LIMIT 2) UNION ALL (SELECT id, name, bloc_id, type FROM organisations WHERE type = 4 ORDER BY id LIMIT 1)`,
  );
  for (const [fi, farm] of farms.entries()) {
    const prefix = `F${farm.id}`;
    const nursery = farm.type === 4;
    const gateways: number[] = [];
    const gatewaySpecs = nursery ? [{ name: '育苗温室网关', place: NURSERY_HOUSE }] : [{ name: '温室区网关', place: '温室区' }, { name: '大田与泵房网关', place: '灌溉泵房' }];
    for (const [gi, g] of gatewaySpecs.entries()) {
      const { rows } = await tx.query<{ id: number }>(
        // Simulated: the demo gateways are the simulator's to play, and say so on every screen.
        // Their secrets are made per installation (printed on the first start when a broker
        // port is open: demoGatewaySecrets), never a constant someone could read in the code.
        `INSERT INTO device_gateways(farm_id, code, name, secret, place, firmware, simulated) VALUES ($1, $2, $3, $4, $5, $6, true) RETURNING id`,
        [farm.id, `${prefix}-GW${gi + 1}`, g.name, randomBytes(12).toString('base64url'), g.place, 'v2.3.1'],
      );
      gateways.push(rows[0].id);
    }
    // The second farm is smaller: one greenhouse, the field and the station.
    const specs = nursery ? NURSERY_DEVICES : fi === 0 ? DEVICES : DEVICES.filter((d) => !d.key.startsWith('GH2') && d.key !== 'CAM1');
    const ids = new Map<string, number>();
    for (const d of specs) {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO devices(farm_id, gateway_id, code, name, kind, model, place_type, place, unit, channels, firmware, state, last_seen)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now() - interval '2 hours') RETURNING id`,
        [farm.id, gateways[d.gateway], `${prefix}-${d.key}`, d.name, d.kind, d.model, d.placeType, d.place, d.unit, d.channels ?? [], 'v1.8.0', JSON.stringify(d.state ?? {})],
      );
      ids.set(d.key, rows[0].id);
    }
    // 30 days of hourly readings of every channel (the rollup the charts start from).
    for (const d of specs) {
      for (const [ci, kind] of (d.channels ?? []).entries()) {
        await tx.query(
          `INSERT INTO device_readings(farm_id, device_id, place, kind, ts, value)
           SELECT $1, $2, $3, $4, ts, round(((${CURVE_SQL[kind]}) * (1 + (random() - 0.5) * 0.04))::numeric, 2)::float8
             FROM (SELECT ts, extract(hour FROM ts AT TIME ZONE 'Asia/Shanghai')::float8 AS h,
                          extract(epoch FROM now() - ts)::float8 / 86400 AS d, $5::float8 AS o
                     FROM generate_series(date_trunc('hour', now()) - interval '30 days', date_trunc('hour', now()) - interval '1 hour', interval '1 hour') ts) x`,
          [farm.id, ids.get(d.key), d.unit, kind, ((ids.get(d.key) ?? 0) % 5) - 2 + ci * 0],
        );
      }
    }
    // The hourly rollup of what was just stored, as the readings writer keeps it.
    await tx.query(`${ROLLUP_FROM('(SELECT farm_id, place, kind, ts, value FROM device_readings WHERE farm_id = $1) s')}`, [farm.id]);
    if (nursery) {
      await seedNurseryRules(tx, farm.id, ids);
      await seedNurseryReports(tx, farm);
      continue;
    }
    const pump = ids.get('FLD-PUMP');
    const drip = ids.get('GH1-DRIP');
    const fan = ids.get('GH1-FAN');
    const scenarios: { name: string; trigger: Record<string, unknown>; from: string; to: string; action: Record<string, unknown>; alarm: boolean }[] = [
      { name: '一号温室高温通风', trigger: { type: 'threshold', place: GREENHOUSE_1, kind: 'airTemperature', op: 'above', value: 30, deadband: 1, minIntervalS: 600 }, from: '06:00', to: '19:00', action: { deviceId: fan, action: 'switch', params: { on: true } }, alarm: true },
      { name: '东区土壤干旱自动灌溉', trigger: { type: 'threshold', place: FIELD, kind: 'soilMoisture', op: 'below', value: 22, deadband: 2, minIntervalS: 1800 }, from: '05:00', to: '20:00', action: { deviceId: pump, action: 'switch', params: { on: true } }, alarm: true },
      { name: '一号温室每日早间滴灌', trigger: { type: 'schedule', at: '07:30' }, from: '00:00', to: '23:59', action: { deviceId: drip, action: 'valve', params: { open: true, minutes: 20 } }, alarm: false },
      // Two conditions (both must hold) and a run-for duration: the fan runs 15 minutes and
      // the server switches it off itself (docs/devices.md, "Run for a while").
      {
        name: '一号温室闷热除湿通风',
        trigger: {
          type: 'threshold', match: 'all', minIntervalS: 1800,
          conditions: [
            { place: GREENHOUSE_1, kind: 'airTemperature', op: 'above', value: 28, deadband: 1 },
            { place: GREENHOUSE_1, kind: 'airHumidity', op: 'above', value: 85, deadband: 5 },
          ],
        },
        from: '08:00', to: '18:00', action: { deviceId: fan, action: 'switch', params: { on: true, runForS: 900 } }, alarm: false,
      },
    ];
    const scenarioIds: number[] = [];
    for (const s of scenarios) {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO device_scenarios(farm_id, name, trigger, window_from, window_to, action, alarm, last_fired_at, runs) VALUES ($1, $2, $3, $4, $5, $6, $7, now() - interval '1 day', 3) RETURNING id`,
        [farm.id, s.name, JSON.stringify(s.trigger), s.from, s.to, JSON.stringify(s.action), s.alarm],
      );
      scenarioIds.push(rows[0].id);
    }
    await seedAlarms(tx, farm.id, fi, ids, scenarioIds[0]);
    await seedReports(tx, farm);
  }
}

/**
 * The farm's alarm settings (on-duty and escalation contacts: phones no demo account uses),
 * its interlock (the field pump runs only while a valve is open), and, on the first farm,
 * alarms in every state of the lifecycle (docs/devices.md, "Alarms", "Seed").
 */
async function seedAlarms(tx: Queryable, farmId: number, fi: number, ids: Map<string, number>, hotRule: number): Promise<void> {
  await tx.query(
    `INSERT INTO device_farm_settings(farm_id, duty_name, duty_phone, escalation_name, escalation_phone, escalate_after_s, stale_after_s)
     VALUES ($1, $2, $3, $4, $5, 900, 900)`,
    [farmId, fi === 0 ? '周伟' : '李娜', `139666602${fi}1`, fi === 0 ? '王建国' : '赵强', `139666602${fi}2`],
  );
  await tx.query(
    `INSERT INTO device_interlocks(farm_id, unit, name, device_id, guard) VALUES ($1, $2, '水泵须有阀门开启', $3, $4)`,
    [farmId, FIELD, ids.get('FLD-PUMP'), JSON.stringify({ when: { on: true }, requires: 'any', of: [{ deviceId: ids.get('FLD-V1'), key: 'open', equals: true }, { deviceId: ids.get('FLD-V2'), key: 'open', equals: true }] })],
  );
  if (fi !== 0) return;
  const operator = (await tx.query<{ id: number }>(`SELECT id FROM users WHERE username = 'farm'`)).rows[0]?.id ?? null;
  const add = (a: { source: string; condition: string; severity: string; deviceId?: number; scenarioId?: number; place: string; kind: string; params: Record<string, unknown>; message: string; raised: string; occurrences?: number; ack?: [string, string]; cleared?: string; reason?: string; level?: number; escalated?: string }) =>
    tx.query(
      `INSERT INTO device_alarms(farm_id, scenario_id, device_id, place, kind, message, source, condition, severity, params, occurrences, raised_at, last_raised_at,
                                 acknowledged_at, acknowledged_by, ack_note, cleared_at, cleared_by, clear_reason, escalation_level, escalated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() - $12::interval, now() - $12::interval,
               now() - $13::interval, CASE WHEN $13::text IS NULL THEN NULL ELSE $14::int END, $15, now() - $16::interval, CASE WHEN $17 = '' THEN NULL ELSE $14::int END, $17, $18, now() - $19::interval)`,
      [
        farmId, a.scenarioId ?? null, a.deviceId ?? null, a.place, a.kind, a.message, a.source, a.condition, a.severity, JSON.stringify(a.params), a.occurrences ?? 1, a.raised,
        a.ack?.[0] ?? null, operator, a.ack?.[1] ?? '', a.cleared ?? null, a.reason ?? '', a.level ?? 0, a.escalated ?? null,
      ],
    );
  const id = (key: string) => ids.get(key) as number;
  // Open, major, escalated once: the high-temperature rule fired and nobody has acknowledged it (the rule is disarmed: it clears when the house cools).
  await add({ source: `scenario:${hotRule}`, condition: 'threshold', severity: 'major', scenarioId: hotRule, place: GREENHOUSE_1, kind: 'airTemperature', params: { rule: '一号温室高温通风', kind: 'airTemperature', value: 'airTemperature 31.2' }, message: '一号温室高温通风（airTemperature 31.2）', raised: '25 minutes', occurrences: 3, level: 1, escalated: '10 minutes' });
  await tx.query(`UPDATE device_scenarios SET armed = false WHERE id = $1`, [hotRule]);
  // Acknowledged: the fertigation machine refused a recipe; someone is on it.
  await add({ source: `device:${id('FERT')}`, condition: 'commandFailed', severity: 'minor', deviceId: id('FERT'), place: FERTIGATION, kind: 'commandFailed', params: { device: '水肥一体机', reason: 'E2 A 桶液位低' }, message: '设备「水肥一体机」拒绝执行命令：E2 A 桶液位低', raised: '3 hours', ack: ['2 hours 40 minutes', '已安排补充 A 液'] });
  // Cleared automatically: the greenhouse's air conditioner was offline for 18 minutes yesterday.
  await add({ source: `device:${id('GH1-AC')}`, condition: 'offline', severity: 'major', deviceId: id('GH1-AC'), place: GREENHOUSE_1, kind: 'offline', params: { device: '一号温室空调' }, message: '设备「一号温室空调」离线', raised: '26 hours', cleared: '25 hours 42 minutes' });
  // Cleared by hand with the reason: a field station sent nothing after its battery ran out.
  await add({ source: `device:${id('FLD-SOIL2')}`, condition: 'stale', severity: 'minor', deviceId: id('FLD-SOIL2'), place: FIELD, kind: 'stale', params: { device: '东区二号地块墒情站', minutes: 45 }, message: '传感器「东区二号地块墒情站」在线但已 45 分钟没有读数', raised: '3 days', ack: ['2 days 23 hours', '去现场看'], cleared: '2 days 20 hours', reason: '更换电池后恢复上报' });
  // The older threshold alarm (cleared when the rule re-armed).
  await add({ source: `scenario:${hotRule}`, condition: 'threshold', severity: 'major', scenarioId: hotRule, place: GREENHOUSE_1, kind: 'airTemperature', params: { rule: '一号温室高温通风', kind: 'airTemperature', value: 'airTemperature 31.4' }, message: '一号温室高温通风（airTemperature 31.4）', raised: '2 days', cleared: '1 day 23 hours 20 minutes' });
}

/** The seedling base's automation: heating on cold nights, misting when the air is dry, and one cleared alarm. */
async function seedNurseryRules(tx: Queryable, farmId: number, ids: Map<string, number>): Promise<void> {
  const scenarios = [
    { name: '育苗温室夜间低温加热', trigger: { type: 'threshold', place: NURSERY_HOUSE, kind: 'airTemperature', op: 'below', value: 15, deadband: 1, minIntervalS: 600 }, from: '18:00', to: '23:59', action: { deviceId: ids.get('NH-AC'), action: 'airConditioner', params: { power: true, mode: 'heat', setPoint: 20 } }, alarm: true },
    { name: '育苗温室干燥喷雾', trigger: { type: 'threshold', place: NURSERY_HOUSE, kind: 'airHumidity', op: 'below', value: 55, deadband: 5, minIntervalS: 900 }, from: '08:00', to: '18:00', action: { deviceId: ids.get('NH-MIST'), action: 'valve', params: { open: true, minutes: 5 } }, alarm: false },
  ];
  for (const s of scenarios) {
    await tx.query(
      `INSERT INTO device_scenarios(farm_id, name, trigger, window_from, window_to, action, alarm, last_fired_at, runs) VALUES ($1, $2, $3, $4, $5, $6, $7, now() - interval '1 day', 2)`,
      [farmId, s.name, JSON.stringify(s.trigger), s.from, s.to, JSON.stringify(s.action), s.alarm],
    );
  }
  await tx.query(
    `INSERT INTO device_alarms(farm_id, place, kind, message, raised_at, cleared_at) VALUES ($1, $2, 'airTemperature', '育苗温室夜间低温加热（airTemperature 13.6）', now() - interval '3 days', now() - interval '3 days' + interval '25 minutes')`,
    [farmId, NURSERY_HOUSE],
  );
}

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

/** 苗情, 虫情 and 灾情 reports of the season (the last six weeks), as the farm's technician files them. */
async function seedReports(tx: Queryable, farm: { id: number; bloc_id: number | null }): Promise<void> {
  const by = (await tx.query<{ id: number }>(`SELECT id FROM users WHERE org_id = $1 ORDER BY id LIMIT 1`, [farm.id])).rows[0]?.id ?? null;
  const add = (resource: string, data: Record<string, unknown>) =>
    tx.query(`INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5)`, [resource, farm.id, farm.bloc_id, JSON.stringify(data), by]);
  const photo = (name: string) => `https://img.example.com/farm-${farm.id}/${name}.jpg`;
  const seedling: [number, string, string, string, number, number, number][] = [
    [40, '东区一号地块', '玉米', '出苗期', 4, 4300, 2], [33, '东区一号地块', '玉米', '三叶期', 11, 4250, 1], [26, '东区一号地块', '玉米', '五叶期', 23, 4200, 1],
    [38, '东区二号地块', '大豆', '出苗期', 3, 16000, 3], [24, '东区二号地块', '大豆', '分枝期', 18, 15800, 2], [12, GREENHOUSE_1, '番茄', '开花坐果期', 85, 2600, 1],
  ];
  for (const [ago, place, crop, stage, heightCm, densityPerMu, grade] of seedling) {
    await add('seedlingReports', { place, observedOn: day(ago), crop, stage, heightCm, densityPerMu, grade, observer: '吴刚', photoUrls: photo(`seedling-${ago}`), remark: grade >= 3 ? '低洼处出苗不齐，建议补种' : '长势均匀' });
  }
  const insects: [number, string, string, number, string, number][] = [
    [30, '东区一号地块', '玉米螟', 12, '玉米', 1], [23, '东区一号地块', '玉米螟', 35, '玉米', 2], [16, '东区一号地块', '玉米螟', 86, '玉米', 3],
    [9, '东区一号地块', '玉米螟', 41, '玉米', 2], [20, '东区二号地块', '大豆蚜', 150, '大豆', 2], [6, GREENHOUSE_1, '白粉虱', 28, '番茄', 1],
  ];
  for (const [ago, place, pest, trapCount, crop, grade] of insects) {
    await add('insectReports', { place, observedOn: day(ago), pest, trapCount, crop, grade, observer: '吴刚', photoUrls: photo(`trap-${ago}`), remark: grade >= 3 ? '已达防治指标，安排统防统治' : '' });
  }
  const disasters: [number, string, string, number, string, number, string][] = [
    [28, '东区二号地块', 'hail', 35, '大豆', 2, '6 月冰雹，叶片破损'], [14, '东区一号地块', 'lodging', 12, '玉米', 1, '大风后局部倒伏'], [5, '东区二号地块', 'drought', 60, '大豆', 2, '连续 12 天无有效降雨'],
  ];
  for (const [ago, place, disasterType, affectedAreaMu, crop, grade, remark] of disasters) {
    await add('disasterReports', { place, observedOn: day(ago), disasterType, affectedAreaMu, crop, grade, observer: '吴刚', photoUrls: photo(`disaster-${ago}`), remark });
  }
}

/**
 * The seedling base's 苗情, 虫情 and 灾情: its grafted tomato seedlings followed from the
 * cotyledons to lifting in its two houses, the whitefly and aphid traps, and a cold night.
 */
async function seedNurseryReports(tx: Queryable, farm: { id: number; bloc_id: number | null }): Promise<void> {
  const by = (await tx.query<{ id: number }>(`SELECT id FROM users WHERE org_id = $1 ORDER BY id LIMIT 1`, [farm.id])).rows[0]?.id ?? null;
  const add = (resource: string, data: Record<string, unknown>) =>
    tx.query(`INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5)`, [resource, farm.id, farm.bloc_id, JSON.stringify(data), by]);
  const photo = (name: string) => `https://img.example.com/farm-${farm.id}/${name}.jpg`;
  const house2 = '育苗二号连栋温室';
  // Plants per mu of tray bench: 72-hole trays, about 60 % of the floor under benches.
  const seedling: [number, string, string, string, number, number, number, string][] = [
    [36, NURSERY_HOUSE, '番茄', '子叶期', 2, 190000, 1, '出苗整齐，出苗率 96%'],
    [29, NURSERY_HOUSE, '番茄', '二叶一心', 5, 188000, 1, '准备嫁接，砧木同步'],
    [21, NURSERY_HOUSE, '番茄', '嫁接愈合期', 7, 181000, 2, '嫁接后第 5 天，约 3% 萎蔫，已遮阴保湿'],
    [12, NURSERY_HOUSE, '番茄', '四叶一心', 12, 179000, 1, '愈合良好，开始炼苗'],
    [18, house2, '黄瓜', '二叶一心', 6, 120000, 2, '夜温偏低，个别穴盘徒长'],
    [7, house2, '黄瓜', '三叶一心', 10, 119000, 1, '炼苗中，待出圃'],
  ];
  for (const [ago, place, crop, stage, heightCm, densityPerMu, grade, remark] of seedling) {
    await add('seedlingReports', { place, observedOn: day(ago), crop, stage, heightCm, densityPerMu, grade, observer: '韩雪', photoUrls: photo(`seedling-${ago}`), remark });
  }
  const insects: [number, string, string, number, string, number][] = [
    [27, NURSERY_HOUSE, '白粉虱', 6, '番茄', 1], [20, NURSERY_HOUSE, '白粉虱', 19, '番茄', 2], [13, NURSERY_HOUSE, '白粉虱', 9, '番茄', 1],
    [16, house2, '蚜虫', 24, '黄瓜', 2], [5, house2, '蚜虫', 7, '黄瓜', 1],
  ];
  for (const [ago, place, pest, trapCount, crop, grade] of insects) {
    await add('insectReports', { place, observedOn: day(ago), pest, trapCount, crop, grade, observer: '韩雪', photoUrls: photo(`trap-${ago}`), remark: grade >= 2 ? '黄板加密，释放丽蚜小蜂' : '' });
  }
  await add('disasterReports', { place: house2, observedOn: day(17), disasterType: 'frost', affectedAreaMu: 0.4, crop: '黄瓜', grade: 1, observer: '韩雪', photoUrls: photo('disaster-17'), remark: '寒潮夜间棚温降到 9 ℃，热风机补温，边行叶缘轻微受冻' });
}


/** The simulated (demo) gateways with their secrets, for the first start's console output. */
export async function demoGatewaySecrets(db: Queryable): Promise<{ code: string; secret: string }[]> {
  const { rows } = await db.query<{ code: string; secret: string }>('SELECT code, secret FROM device_gateways WHERE simulated ORDER BY code');
  return rows;
}
