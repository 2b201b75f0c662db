/**
 * Devices over MQTT (server/devices, docs/devices.md), against the embedded broker on every
 * engine, and against Mosquitto on 127.0.0.1:1883 when it is reachable: a command
 * acknowledged, timed out, refused offline, refused without the element code or for another
 * farm's device; a device spoofing another's topic ignored; bad payloads dropped; a scenario
 * firing once per crossing (and its alarm reaching the notices); readings aggregated exactly
 * over a range. The test plays the gateway with its own MQTT client.
 */
import { MqttClient, connect } from 'mqtt';
import { COMMAND_STATUSES } from '../../runtime/protocol/devices.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { until, mosquittoReachable, gatewaySecret } from '../support/devices-support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';
import { deviceServiceOf } from '../../server/devices/plugin.ts';
import type { DeviceService } from '../../server/devices/service.ts';
import type { ServerConfig } from '../../server/config.ts';

const TIMEOUT_MS = 700;



interface Broker {
  name: string;
  config: () => Promise<Partial<ServerConfig> | null>;
}

const root = `test${process.pid}${Math.random().toString(36).slice(2, 6)}`;
const BROKERS: Broker[] = [
  { name: 'embedded broker', config: async () => ({ mqttTopicRoot: root }) },
  { name: 'Mosquitto', config: async () => ((await mosquittoReachable()) ? { mqttUrl: 'mqtt://127.0.0.1:1883', mqttTopicRoot: `${root}m`, deviceSimulator: false } : null) },
];

const mosquittoUp = await mosquittoReachable();

for (const engine of engines()) {
  for (const broker of BROKERS) {
    const skip = broker.name === 'Mosquitto' && !mosquittoUp;
    // Skipped with the reason: no Mosquitto on 127.0.0.1:1883 on this machine.
    describe.skipIf(skip)(`devices on ${engine.name} with the ${broker.name}${skip ? ' (skipped: Mosquitto is not reachable on 127.0.0.1:1883)' : ''}`, () => {
      let t: TestApp;
      let svc: DeviceService;
      let farm: string;
      let farm2: string;
      let farmId: number;
      let cfg: ServerConfig;
      let gw: MqttClient;
      let gw1: MqttClient;
      const acks: { topic: string; body: { commandId: number } }[] = [];
      const codes = (key: string) => `F${farmId}-${key}`;
      const topic = (key: string, kind: string) => `${cfg.mqttTopicRoot}/${farmId}/device/${codes(key)}/${kind}`;
      const deviceId = async (key: string) => (await t.db.query<{ id: number }>('SELECT id FROM devices WHERE code = $1', [codes(key)])).rows[0].id;
      const gatewayClient = async (n: 1 | 2) => {
        const username = `F${farmId}-GW${n}`;
        const password = await gatewaySecret(t.db, username);
        const client = svc.broker
          ? new MqttClient(() => (svc.broker as NonNullable<DeviceService['broker']>).connectInProcess(), { username, password, protocolVersion: 4, reconnectPeriod: 0, clientId: `${username}-${Math.random()}` })
          : connect(cfg.mqttUrl as string, { username, password, reconnectPeriod: 0, clientId: `${username}-${Math.random()}` });
        await new Promise<void>((resolve, reject) => {
          client.once('connect', () => resolve());
          client.once('error', reject);
        });
        return client;
      };
      const publish = async (client: MqttClient, key: string, kind: string, body: Record<string, unknown>) => {
        await client.publishAsync(topic(key, kind), JSON.stringify({ deviceId: codes(key), ...body }), { qos: 1 });
      };
      const settle = async () => {
        await new Promise((r) => setTimeout(r, svc.broker ? 30 : 150));
        await svc.hub.idle();
      };
      const command = (token: string, body: Record<string, unknown>, lang = 'zh') => call(t, token, 'POST', '/api/devices/commands', body, lang);

      beforeAll(async () => {
        const overrides = await broker.config();
        t = await createTestApp(engine, { ...overrides, commandTimeoutMs: TIMEOUT_MS });
        cfg = t.config;
        svc = deviceServiceOf(t.app);
        farm = await t.login('farm');
        farm2 = await t.login('farm2');
        farmId = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0].org_id;
        gw = await gatewayClient(2);
        gw.on('message', (tp, payload) => acks.push({ topic: tp, body: JSON.parse(payload.toString()) }));
        await gw.subscribeAsync(`${cfg.mqttTopicRoot}/${farmId}/device/${codes('FLD-PUMP')}/command`, { qos: 1 });
        await gw.subscribeAsync(`${cfg.mqttTopicRoot}/${farmId}/device/${codes('FERT')}/command`, { qos: 1 });
      });

      afterAll(async () => {
        await gw?.endAsync(true);
        await gw1?.endAsync(true);
        await t?.close();
      });

      it('stores exactly the command states the wire knows (runtime/protocol/devices.ts), so the console has a word for each', async () => {
        const { rows } = await t.db.query<{ def: string }>(
          `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'device_commands'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%status%'`,
        );
        expect(rows).toHaveLength(1);
        const stored = [...rows[0].def.matchAll(/'([A-Za-z]+)'/g)].map((m) => m[1]);
        expect(new Set(stored)).toEqual(new Set(COMMAND_STATUSES));
      });

      it('refuses a command to an offline device at once, in the caller’s language', async () => {
        const id = await deviceId('FLD-PUMP');
        const r = await command(farm, { deviceId: id, action: 'switch', params: { on: true }, menu: 'farmControllRoomEquipmentControll' });
        expect(r.status, r.raw.body).toBe(40001);
        expect(r.message).toContain('离线');
        const en = await command(farm, { deviceId: id, action: 'switch', params: { on: true }, menu: 'farmControllRoomEquipmentControll' }, 'en');
        expect(en.message).toContain('offline');
        expect((await t.db.query(`SELECT count(*)::int AS n FROM device_commands`)).rows[0].n).toBe(0);
      });

      it('a command is pending until the device acknowledges it, audited, and the state follows the ack', async () => {
        await publish(gw, 'FLD-PUMP', 'status', { online: true });
        await settle();
        const id = await deviceId('FLD-PUMP');
        const r = await command(farm, { deviceId: id, action: 'switch', params: { on: true }, menu: 'farmControllRoomEquipmentControll' });
        expect(r.status, r.raw.body).toBe(200);
        expect(r.data.status).toBe('pending');
        await until(() => acks.some((a) => a.body.commandId === r.data.id));
        await publish(gw, 'FLD-PUMP', 'ack', { commandId: r.data.id, ok: true, state: { on: true } });
        await settle();
        const d = await call(t, farm, 'GET', `/api/devices/commands/detail?id=${r.data.id}`);
        expect(d.data.status).toBe('acknowledged');
        const state = (await t.db.query<{ state: { on: boolean } }>('SELECT state FROM devices WHERE id = $1', [id])).rows[0].state;
        expect(state.on).toBe(true);
        const log = await t.db.query(`SELECT changes FROM operation_log WHERE action = 'devices.command.switch' AND record_id = $1`, [String(id)]);
        expect(log.rows.length).toBe(1);
      });

      it('a command nobody acknowledges times out with a clear sentence', async () => {
        const id = await deviceId('FLD-PUMP');
        await publish(gw, 'FLD-PUMP', 'status', { online: true });
        await settle();
        const r = await command(farm, { deviceId: id, action: 'switch', params: { on: false }, menu: 'equipmentControllIndex' });
        expect(r.data.status).toBe('pending');
        await new Promise((res) => setTimeout(res, TIMEOUT_MS + 200));
        const d = await call(t, farm, 'GET', `/api/devices/commands/detail?id=${r.data.id}`, undefined, 'es');
        expect(d.data.status).toBe('timedOut');
        expect(d.data.message).toMatch(/no respondió/);
      });

      it('of two commands racing on one device the later supersedes the earlier', async () => {
        const id = await deviceId('FLD-PUMP');
        const [a, b] = await Promise.all([
          command(farm, { deviceId: id, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' }),
          command(farm, { deviceId: id, action: 'switch', params: { on: false }, menu: 'equipmentControllIndex' }),
        ]);
        const [first, later] = a.data.id < b.data.id ? [a, b] : [b, a];
        expect((await call(t, farm, 'GET', `/api/devices/commands/detail?id=${first.data.id}`)).data.status).toBe('superseded');
        // An ack of the superseded one changes nothing; the later's ack decides.
        await publish(gw, 'FLD-PUMP', 'ack', { commandId: first.data.id, ok: true, state: { on: first.data.params.on } });
        await publish(gw, 'FLD-PUMP', 'ack', { commandId: later.data.id, ok: true, state: { on: later.data.params.on } });
        await settle();
        expect((await call(t, farm, 'GET', `/api/devices/commands/detail?id=${first.data.id}`)).data.status).toBe('superseded');
        expect((await call(t, farm, 'GET', `/api/devices/commands/detail?id=${later.data.id}`)).data.status).toBe('acknowledged');
      });

      it('refuses without the screen’s element code, for another farm’s device, and bad parameters', async () => {
        const id = await deviceId('FLD-PUMP');
        // farm2 cannot reach farm's pump: as missing.
        const other = await command(farm2, { deviceId: id, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' });
        expect(other.status).toBe(40401);
        // The element code of the screen is needed, not only the menu.
        await t.db.query(`UPDATE roles SET elements = array_remove(elements, 'equipmentControllIndex:control') WHERE code = 'farmOperator'`);
        const noElement = await command(farm, { deviceId: id, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' });
        expect(noElement.status).toBe(40301);
        await t.db.query(`UPDATE roles SET elements = array_append(elements, 'equipmentControllIndex:control') WHERE code = 'farmOperator'`);
        const noMenu = await command(farm, { deviceId: id, action: 'switch', params: { on: true } });
        expect(noMenu.status).toBe(40001);
        const wrong = await command(farm, { deviceId: id, action: 'valve', params: { open: true }, menu: 'equipmentControllIndex' });
        expect(wrong.data.errors.map((e: { field: string }) => e.field)).toEqual(['action']);
        const fert = await deviceId('FERT');
        const badRecipe = await command(farm, { deviceId: fert, action: 'fertigation', params: { run: true, recipe: { name: '果期', ec: 9, ph: 6, minutes: 30 } }, menu: 'spirit' });
        expect(badRecipe.data.errors.map((e: { field: string }) => e.field)).toEqual(['params.recipe.ec']);
      });

      it('ignores a device speaking for another device, and bad payloads, storing nothing', async () => {
        const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_readings')).rows[0].n;
        const dropped = svc.hub.counters.dropped;
        // The payload names another device than the topic.
        await gw.publishAsync(topic('FLD-SOIL1', 'reading'), JSON.stringify({ deviceId: codes('FLD-SOIL2'), values: { soilMoisture: 1 } }), { qos: 1 });
        await gw.publishAsync(topic('FLD-SOIL1', 'reading'), 'not json', { qos: 1 });
        await gw.publishAsync(topic('FLD-SOIL1', 'reading'), JSON.stringify({ deviceId: codes('FLD-SOIL1'), values: { soilMoisture: 'wet' } }), { qos: 1 });
        await settle();
        await until(() => svc.hub.counters.dropped >= dropped + 3);
        if (svc.broker) {
          // Gateway 1 (the greenhouses) publishing on the topic of gateway 2's sensor: refused by the broker, which closes it.
          gw1 = await gatewayClient(1);
          const refused = svc.broker.refused;
          gw1.publish(topic('FLD-SOIL1', 'reading'), JSON.stringify({ deviceId: codes('FLD-SOIL1'), values: { soilMoisture: 2 } }), { qos: 0 });
          await until(() => (svc.broker as NonNullable<DeviceService['broker']>).refused === refused + 1);
        } else {
          // An external broker lets anyone publish: the server ignores a device of another farm's topic.
          await gw.publishAsync(`${cfg.mqttTopicRoot}/999/device/${codes('FLD-SOIL1')}/reading`, JSON.stringify({ deviceId: codes('FLD-SOIL1'), values: { soilMoisture: 2 } }), { qos: 1 });
          await until(() => svc.hub.counters.dropped >= dropped + 4);
        }
        await settle();
        expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_readings')).rows[0].n).toBe(before);
      });

      it('a scenario fires once per crossing, its alarm raised and cleared in the notices', async () => {
        const pump = await deviceId('FLD-PUMP');
        const created = await call(t, farm, 'POST', '/api/devices/scenarios', {
          name: '测试：土壤过干', trigger: { type: 'threshold', place: '东区大田灌溉', kind: 'soilMoisture', op: 'below', value: 10, minIntervalS: 0 }, alarm: true,
          action: { deviceId: pump, action: 'switch', params: { on: true } },
        });
        expect(created.status, created.raw.body).toBe(200);
        const sid = created.data.id;
        // The seeded dry-soil rule (below 22) acts on the same pump; only ours is counted.
        await t.db.query(`UPDATE device_scenarios SET enabled = false WHERE id <> $1`, [sid]);
        const ts = Date.now();
        for (const [i, v] of [15, 8, 7, 6, 12, 5].entries()) {
          await publish(gw, 'FLD-SOIL2', 'reading', { ts: ts + i, values: { soilMoisture: v } });
          await settle();
        }
        const s = (await t.db.query<{ runs: number }>('SELECT runs FROM device_scenarios WHERE id = $1', [sid])).rows[0];
        expect(s.runs).toBe(2);
        const commands = await t.db.query(`SELECT status FROM device_commands WHERE scenario_id = $1`, [sid]);
        expect(commands.rows.length).toBe(2);
        const alarms = await t.db.query<{ cleared: boolean }>(`SELECT cleared_at IS NOT NULL AS cleared FROM device_alarms WHERE scenario_id = $1 ORDER BY id`, [sid]);
        expect(alarms.rows.map((a) => a.cleared)).toEqual([true, false]);
        const notices = await t.db.query(`SELECT n.title FROM notices n JOIN notice_receipts r ON r.notice_id = n.id JOIN users u ON u.id = r.user_id WHERE u.username = 'farm' AND n.title LIKE '%测试：土壤过干%'`);
        expect(notices.rows.length).toBe(3);
      });

      it('aggregates readings exactly over a range, by hour and by day', async () => {
        // Midnight UTC of a day within the retention (readings older are refused); the seed's
        // readings on the hour lie in the past 30 days, so a day well before them is empty.
        const base = Math.floor((Date.now() - 60 * 86_400_000) / 86_400_000) * 86_400_000;
        const iso = (ms: number) => new Date(ms).toISOString();
        const at = (hours: number) => iso(base + hours * 3_600_000);
        const points: [number, number][] = [[10, 10], [50, 20], [90, 30], [179, 41]];
        for (const [min, v] of points) await publish(gw, 'FLD-SOIL1', 'reading', { ts: base + min * 60_000, values: { soilTemperature: v } });
        await settle();
        const place = encodeURIComponent('东区大田灌溉');
        const q = (bucket: string) => call(t, farm, 'GET', `/api/devices/readings/series?kind=soilTemperature&places=${place}&from=${at(0)}&to=${at(3)}&bucket=${bucket}`);
        const hour = await q('hour');
        expect(hour.status, hour.raw.body).toBe(200);
        expect(hour.data.series[0].points).toEqual([
          { t: at(0), avg: 15, min: 10, max: 20, n: 2 },
          { t: at(1), avg: 30, min: 30, max: 30, n: 1 },
          { t: at(2), avg: 41, min: 41, max: 41, n: 1 },
        ]);
        const day = await q('day');
        // Days begin at the farm's midnight: 16:00 UTC the day before.
        expect(day.data.series[0].points).toEqual([{ t: at(-8), avg: 25.25, min: 10, max: 41, n: 4 }]);
        // Whole hours read the hourly rollup; a range cut inside an hour reads the readings themselves.
        const cut = await call(t, farm, 'GET', `/api/devices/readings/series?kind=soilTemperature&places=${place}&from=${at(0.5)}&to=${at(3)}&bucket=hour`);
        expect(cut.data.series[0].points[0]).toEqual({ t: at(0), avg: 20, min: 20, max: 20, n: 1 });
        const fine = await call(t, farm, 'GET', `/api/devices/readings/series?kind=soilTemperature&places=${place}&from=${at(0)}&to=${at(1)}&bucket=5m`);
        expect(fine.data.series[0].points.map((p: { t: string; avg: number }) => [p.t.slice(11, 16), p.avg])).toEqual([['00:10', 10], ['00:50', 20]]);
        // farm2 sees none of farm's readings.
        const other = await call(t, farm2, 'GET', `/api/devices/readings/series?kind=soilTemperature&places=${place}&from=${at(0)}&to=${at(3)}&bucket=hour`);
        expect(other.data.series[0].points).toEqual([]);
        const tooLong = await call(t, farm, 'GET', `/api/devices/readings/series?kind=soilTemperature&from=2010-01-01T00:00:00Z&to=2020-01-01T03:00:00Z&bucket=hour`);
        expect(tooLong.data.errors[0].field).toBe('bucket');
      });
    });
  }
}
