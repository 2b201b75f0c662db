/**
 * Alarms with a lifecycle and interlocks (issue 26 items 4 and 5; docs/devices.md, "Alarms",
 * "Interlocks"), on every engine, with the embedded broker and with the machine's Mosquitto
 * on 127.0.0.1:1883 (skipped, saying so, when it is not reachable). The test plays the
 * gateway with its own MQTT client; the sweep runs when the test calls it, at the clock the
 * test gives (never a long sleep):
 *
 * - a threshold alarm raised (pushed to an open console, texted to the on-duty contact),
 *   noise around the threshold raising one alarm, escalated when nobody acknowledges it
 *   (texted to both contacts), acknowledged (who, note; escalation stops), cleared
 *   automatically when the value comes back;
 * - offline, stale and command time-out alarms, cleared when their condition ends; one by
 *   hand with a reason;
 * - authority: an account with the alarm screen but without the element code cannot
 *   acknowledge (and is offered no button); the platform administrator neither;
 * - interlocks: a person's command refused with the sentence in their language, the valve
 *   that would break it refused too, and a rule's command refused with a failed command
 *   and an alarm.
 */
import { readFileSync, existsSync } from 'node:fs';
import { MqttClient, connect, type IClientOptions } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { gatewaySecret, mosquittoReachable, openEventStream, until } from '../support/devices-support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';
import { deviceServiceOf } from '../../server/devices/plugin.ts';
import type { DeviceService } from '../../server/devices/service.ts';
import type { ServerConfig } from '../../server/config.ts';

const OFFLINE_AFTER_S = 3;
const DUTY = '13966660201';
const ESCALATION = '13966660202';

const root = `alarm${process.pid}${Math.random().toString(36).slice(2, 6)}`;
const mosquittoUp = await mosquittoReachable();
const BROKERS = [
  { name: 'embedded broker', config: { mqttTopicRoot: root } as Partial<ServerConfig> },
  { name: 'Mosquitto', config: { mqttUrl: 'mqtt://127.0.0.1:1883', mqttTopicRoot: `${root}m`, deviceSimulator: false } as Partial<ServerConfig> },
];

for (const engine of engines()) {
  for (const broker of BROKERS) {
    const skip = broker.name === 'Mosquitto' && !mosquittoUp;
    describe.skipIf(skip)(`alarms and interlocks on ${engine.name} with the ${broker.name}${skip ? ' (skipped: Mosquitto is not reachable on 127.0.0.1:1883)' : ''}`, () => {
      let t: TestApp;
      let svc: DeviceService;
      let cfg: ServerConfig;
      let farm: string;
      let farmId: number;
      let base: string;
      const clients: MqttClient[] = [];
      const code = (key: string) => `F${farmId}-${key}`;
      const deviceId = async (key: string) => (await t.db.query<{ id: number }>('SELECT id FROM devices WHERE code = $1', [code(key)])).rows[0].id;
      const gateway = async (n: 1 | 2) => {
        const options: IClientOptions = { username: `F${farmId}-GW${n}`, password: await gatewaySecret(t.db, `F${farmId}-GW${n}`), reconnectPeriod: 0, clientId: `gw${n}-${Math.random().toString(36).slice(2)}` };
        const client = svc.broker
          ? new MqttClient(() => (svc.broker as NonNullable<DeviceService['broker']>).connectInProcess(), { ...options, protocolVersion: 4 })
          : connect(cfg.mqttUrl as string, options);
        client.on('error', () => undefined);
        await new Promise<void>((resolve) => client.once('connect', () => resolve()));
        clients.push(client);
        return client;
      };
      const publish = (client: MqttClient, key: string, kind: string, body: Record<string, unknown>) =>
        client.publishAsync(`${cfg.mqttTopicRoot}/${farmId}/device/${code(key)}/${kind}`, JSON.stringify({ deviceId: code(key), ...body }), { qos: 1 });
      const settle = async () => {
        await new Promise((r) => setTimeout(r, svc.broker ? 30 : 150));
        await svc.hub.idle();
      };
      const texts = () => (existsSync(cfg.smsMailbox) ? readFileSync(cfg.smsMailbox, 'utf8').split('\n').filter((l) => l.includes('\talarm\t')) : []);
      const alarmsOf = async (source: string) =>
        (await t.db.query<{ id: number; condition: string; cleared: boolean; acked: boolean; level: number; occurrences: number; cleared_by: number | null }>(
          `SELECT id, condition, cleared_at IS NOT NULL AS cleared, acknowledged_at IS NOT NULL AS acked, escalation_level AS level, occurrences, cleared_by
             FROM device_alarms WHERE source = $1 ORDER BY id`,
          [source],
        )).rows;
      const page = async (token: string, query = '', lang = 'zh') => {
        const r = await call(t, token, 'GET', `/api/devices/alarms/page?pageSize=100${query}`, undefined, lang);
        expect(r.status, r.raw.body).toBe(200);
        return r.data.rows as { id: number; state: string; severity: string; condition: string; message: string; acknowledgedBy: string | null; ackNote: string; clearedBy: string | null; clearReason: string; escalationLevel: number; occurrences: number; _can: { acknowledge: boolean; clear: boolean } }[];
      };
      /** The sweep as the server runs it, at a clock `aheadS` seconds from now. */
      const sweepAt = (aheadS: number) => svc.sweep(new Date(Date.now() + aheadS * 1000));

      beforeAll(async () => {
        t = await createTestApp(engine, { ...broker.config, commandTimeoutMs: 600, deviceOfflineAfterS: OFFLINE_AFTER_S });
        cfg = t.config;
        svc = deviceServiceOf(t.app);
        // The sweep runs only when a test calls it, at the clock the test gives.
        svc.autoSweep = false;
        farm = await t.login('farm');
        farmId = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0].org_id;
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const address = t.app.server.address();
        base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        // Only our rules act; the seeded alarms stay out of the way (escalated to the last level).
        await t.db.query('UPDATE device_scenarios SET enabled = false');
        await t.db.query('UPDATE device_alarms SET escalation_level = 3');
        await t.db.query('UPDATE device_farm_settings SET duty_phone = $2, escalation_phone = $3 WHERE farm_id = $1', [farmId, DUTY, ESCALATION]);
        svc.scenarios.forget();
      });

      afterAll(async () => {
        for (const c of clients) await c.endAsync(true).catch(() => undefined);
        await t?.close();
      });

      it('a threshold alarm: raised live and texted, noise raises it once, escalated unacknowledged, acknowledged, cleared when the value comes back', async () => {
        const gw = await gateway(1);
        const made = await call(t, farm, 'POST', '/api/devices/scenarios', {
          name: '测试：高温告警', alarm: true, trigger: { type: 'threshold', place: '一号日光温室', kind: 'airTemperature', op: 'above', value: 30, deadband: 0.5, minIntervalS: 0 },
        });
        expect(made.status, made.raw.body).toBe(200);
        const source = `scenario:${made.data.id}`;
        const stream = await openEventStream(base, farm);
        const sentBefore = texts().length;
        try {
          // Sensor noise around 30 °C: one alarm, however often it crosses.
          for (const v of [30.2, 29.9, 30.1, 29.8, 30.3, 29.7, 30.1]) {
            await publish(gw, 'GH1-TH', 'reading', { values: { airTemperature: v } });
            await settle();
          }
          const [alarm, ...more] = await alarmsOf(source);
          expect(more).toEqual([]);
          expect(alarm).toMatchObject({ condition: 'threshold', cleared: false, acked: false, level: 0 });
          await until(() => stream.events.some((e) => e.type === 'alarm' && e.data.alarmId === alarm.id && e.data.state === 'open'));
          // Texted once to the on-duty contact, in the farm's language.
          const raised = texts().slice(sentBefore);
          expect(raised.filter((l) => l.includes(DUTY))).toHaveLength(1);
          expect(raised.join('\n')).toContain('告警：测试：高温告警（airTemperature 30.2）');
          // Raising the same source and condition again only counts.
          const again = await svc.alarms.raise({ farmId, source, condition: 'threshold', severity: 'major', params: { rule: 'x', value: '1' } });
          expect(again).toEqual({ id: alarm.id, raised: false });
          expect((await alarmsOf(source))[0].occurrences).toBe(2);
          // Nobody acknowledges: 15 minutes on (the seeded delay), one level up, both contacts texted; not again at once.
          await sweepAt(10 * 60);
          expect((await alarmsOf(source))[0].level).toBe(0);
          await sweepAt(15 * 60 + 5);
          expect((await alarmsOf(source))[0].level).toBe(1);
          await sweepAt(15 * 60 + 10);
          expect((await alarmsOf(source))[0].level).toBe(1);
          const escalated = texts().slice(sentBefore).filter((l) => l.includes('无人确认') && l.includes('测试：高温告警'));
          expect(escalated.map((l) => l.split('\t')[1]).sort(), escalated.join('\n')).toEqual([DUTY, ESCALATION]);
          expect(escalated[0]).toContain('第 1 次升级');
          await until(() => stream.events.some((e) => e.type === 'alarm' && e.data.alarmId === alarm.id && e.data.escalationLevel === 1));
          // Acknowledged with a note, in English: who and when are kept, and escalation stops.
          const listed = (await page(farm, '&state=open', 'en')).find((a) => a.id === alarm.id);
          expect(listed).toMatchObject({ severity: 'major', message: '测试：高温告警 (airTemperature 30.2)', escalationLevel: 1, _can: { acknowledge: true, clear: true } });
          const ack = await call(t, farm, 'POST', '/api/devices/alarms/acknowledge', { id: alarm.id, note: '已开窗' }, 'en');
          expect(ack.status, ack.raw.body).toBe(200);
          const farmName = (await t.db.query<{ name: string }>(`SELECT name FROM users WHERE username = 'farm'`)).rows[0].name;
          expect(ack.data).toMatchObject({ state: 'acknowledged', acknowledgedBy: farmName, ackNote: '已开窗', _can: { acknowledge: false, clear: true } });
          const twice = await call(t, farm, 'POST', '/api/devices/alarms/acknowledge', { id: alarm.id }, 'en');
          expect(twice.status).toBe(40001);
          expect(twice.message).toContain(`already acknowledged by ${farmName}`);
          await sweepAt(60 * 60);
          expect((await alarmsOf(source))[0].level).toBe(1);
          // Back past the deadband: cleared by itself, and the console told.
          await publish(gw, 'GH1-TH', 'reading', { values: { airTemperature: 29.2 } });
          await settle();
          expect((await alarmsOf(source))[0]).toMatchObject({ cleared: true, cleared_by: null });
          await until(() => stream.events.some((e) => e.type === 'alarm' && e.data.alarmId === alarm.id && e.data.state === 'cleared'));
          const cleared = (await page(farm, '&state=cleared', 'es')).find((a) => a.id === alarm.id);
          expect(cleared).toMatchObject({ clearedBy: 'Resuelta automáticamente', _can: { acknowledge: false, clear: false } });
        } finally {
          stream.close();
          await t.db.query('UPDATE device_scenarios SET enabled = false WHERE id = $1', [made.data.id]);
          svc.scenarios.forget();
        }
      });

      it('offline, stale and command time-out alarms clear when the condition ends; one cleared by hand with the reason', async () => {
        const gw = await gateway(2);
        const valve = await deviceId('FLD-V2');
        await publish(gw, 'FLD-V2', 'status', { online: true });
        await settle();
        // The valve says it is gone (its gateway is alive): an actuator's offline alarm, major.
        await publish(gw, 'FLD-V2', 'status', { online: false });
        await settle();
        expect(await alarmsOf(`device:${valve}`)).toMatchObject([{ condition: 'offline', cleared: false }]);
        // Flapping back and away again before the sweep notices: still one alarm.
        await publish(gw, 'FLD-V2', 'status', { online: true });
        await publish(gw, 'FLD-V2', 'status', { online: false });
        await settle();
        expect(await alarmsOf(`device:${valve}`)).toHaveLength(1);
        // Back: the sweep clears it.
        await publish(gw, 'FLD-V2', 'status', { online: true });
        await settle();
        await svc.alarms.sweep(new Date());
        expect(await alarmsOf(`device:${valve}`)).toMatchObject([{ condition: 'offline', cleared: true, cleared_by: null }]);
        // The whole gateway silent past the limit (the sweep's clock ahead): one gateway alarm stands for its devices.
        const gatewayId = (await t.db.query<{ id: number }>('SELECT id FROM device_gateways WHERE code = $1', [`F${farmId}-GW2`])).rows[0].id;
        await sweepAt(OFFLINE_AFTER_S + 20);
        expect(await alarmsOf(`gateway:${gatewayId}`)).toMatchObject([{ condition: 'offline', cleared: false }]);
        expect(await alarmsOf(`device:${valve}`)).toHaveLength(1);
        await gw.publishAsync(`${cfg.mqttTopicRoot}/${farmId}/device/F${farmId}-GW2/status`, JSON.stringify({ deviceId: `F${farmId}-GW2`, online: true }), { qos: 1 });
        await settle();
        await svc.alarms.sweep(new Date());
        expect(await alarmsOf(`gateway:${gatewayId}`)).toMatchObject([{ cleared: true }]);

        // A sensor online that sends nothing for the farm's stale limit (15 min seeded).
        const soil = await deviceId('FLD-SOIL1');
        await publish(gw, 'FLD-SOIL1', 'reading', { values: { soilMoisture: 30 } });
        await settle();
        await svc.alarms.sweep(new Date(Date.now() + 10 * 60_000));
        expect(await alarmsOf(`device:${soil}`)).toEqual([]);
        await svc.alarms.sweep(new Date(Date.now() + 16 * 60_000));
        const [stale] = await alarmsOf(`device:${soil}`);
        expect(stale).toMatchObject({ condition: 'stale', cleared: false });
        // Cleared by hand: the reason is required, then kept with who cleared it.
        const empty = await call(t, farm, 'POST', '/api/devices/alarms/clear', { id: stale.id, reason: '  ' }, 'en');
        expect(empty.status).toBe(40001);
        expect(empty.data.errors).toEqual([{ field: 'reason', message: 'Give the reason for clearing it by hand' }]);
        const byHand = await call(t, farm, 'POST', '/api/devices/alarms/clear', { id: stale.id, reason: '传感器已更换' });
        expect(byHand.status, byHand.raw.body).toBe(200);
        expect(byHand.data).toMatchObject({ state: 'cleared', clearReason: '传感器已更换' });
        expect(byHand.data.clearedBy).not.toBe('自动解除');

        // A command the device never answers: timed out, an alarm on the device; its next acknowledged command clears it.
        const pump = await deviceId('FLD-PUMP');
        await publish(gw, 'FLD-PUMP', 'status', { online: true });
        await settle();
        const body = { deviceId: pump, action: 'switch', params: { on: false }, menu: 'equipmentControllIndex' };
        const sent = await call(t, farm, 'POST', '/api/devices/commands', body);
        expect(sent.status, sent.raw.body).toBe(200);
        await until(async () => (await alarmsOf(`device:${pump}`)).some((a) => a.condition === 'commandTimedOut' && !a.cleared), 4000);
        const listed = (await page(farm, `&deviceId=${pump}&condition=commandTimedOut`)).filter((a) => a.state === 'open');
        expect(listed).toHaveLength(1);
        expect(listed[0]).toMatchObject({ severity: 'minor', message: '设备「东区灌溉潜水泵」没有回应命令（1 秒内）' });
        const next = await call(t, farm, 'POST', '/api/devices/commands', body);
        await publish(gw, 'FLD-PUMP', 'ack', { commandId: next.data.id, ok: true, state: { on: false } });
        await settle();
        await until(async () => (await alarmsOf(`device:${pump}`)).every((a) => a.cleared));
      });

      it('authority: without deviceAlarms:acknowledge no button and a refusal; the platform administrator neither (not its farm)', async () => {
        const station = await deviceId('WX');
        const alarm = await svc.alarms.raise({ farmId, source: `device:${station}`, condition: 'offline', severity: 'minor', deviceId: station, params: { device: '场区小型气象站' } });
        // A farm account that holds the alarm screen (and its view code) but neither acknowledge nor clear.
        await t.db.query(`INSERT INTO roles(code, name, menus, elements) VALUES ('alarmWatcher', '{"zh":"告警查看","en":"Alarm watcher","es":"Observador"}', ARRAY['deviceAlarms'], ARRAY['deviceAlarms:view'])`);
        await t.db.query(
          `INSERT INTO users(username, name, password_hash, org_id) SELECT 'alarmwatcher', '值班查看员', password_hash, org_id FROM users WHERE username = 'farm'`,
        );
        await t.db.query(`INSERT INTO user_roles(user_id, role_id) SELECT u.id, r.id FROM users u, roles r WHERE u.username = 'alarmwatcher' AND r.code = 'alarmWatcher'`);
        const watcher = await t.login('alarmwatcher');
        const row = (await page(watcher)).find((a) => a.id === alarm.id);
        expect(row?._can).toEqual({ acknowledge: false, clear: false });
        const refused = await call(t, watcher, 'POST', '/api/devices/alarms/acknowledge', { id: alarm.id });
        expect(refused.status).toBe(40301);
        const refusedClear = await call(t, watcher, 'POST', '/api/devices/alarms/clear', { id: alarm.id, reason: 'x' });
        expect(refusedClear.status).toBe(40301);
        const admin = await t.login('admin');
        expect((await page(admin)).find((a) => a.id === alarm.id)?._can).toEqual({ acknowledge: false, clear: false });
        const byAdmin = await call(t, admin, 'POST', '/api/devices/alarms/acknowledge', { id: alarm.id }, 'en');
        expect(byAdmin.status).toBe(40301);
        expect(byAdmin.message).toContain('alarm’s own farm');
        expect((await alarmsOf(`device:${station}`))[0].acked).toBe(false);
        // The farm's operator holds the code.
        const ok = await call(t, farm, 'POST', '/api/devices/alarms/acknowledge', { id: alarm.id });
        expect(ok.status, ok.raw.body).toBe(200);
      });

      it('interlock: the pump refused with every valve closed — a person’s command (the sentence in their language), the valve that would break it, and a rule’s command (a failed command and an alarm)', async () => {
        const gw = await gateway(2);
        const [pump, v1, v2] = [await deviceId('FLD-PUMP'), await deviceId('FLD-V1'), await deviceId('FLD-V2')];
        for (const key of ['FLD-PUMP', 'FLD-V1', 'FLD-V2']) await publish(gw, key, 'status', { online: true });
        await publish(gw, 'FLD-PUMP', 'state', { state: { on: false } });
        await publish(gw, 'FLD-V1', 'state', { state: { open: false } });
        await publish(gw, 'FLD-V2', 'state', { state: { open: false } });
        await settle();
        const commands = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_commands WHERE device_id = $1', [pump])).rows[0].n);
        const before = await commands();
        const on = { deviceId: pump, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' };
        const en = await call(t, farm, 'POST', '/api/devices/commands', on, 'en');
        expect(en.status, en.raw.body).toBe(40001);
        expect(en.message).toBe('Interlock “水泵须有阀门开启”: 东区灌溉潜水泵 may run only while at least one of 「东区一号地块电磁阀」 / 「东区二号地块电磁阀」 is open; the command was not sent');
        const zh = await call(t, farm, 'POST', '/api/devices/commands', on);
        expect(zh.message).toBe('联锁「水泵须有阀门开启」：「东区一号地块电磁阀」 / 「东区二号地块电磁阀」中至少一个打开时，东区灌溉潜水泵才能运行；命令未发送');
        expect(await commands()).toBe(before);
        // A valve open: the pump may run; closing that last open valve while it runs is refused, the other one is not.
        await publish(gw, 'FLD-V1', 'state', { state: { open: true } });
        await publish(gw, 'FLD-PUMP', 'state', { state: { on: true } });
        await settle();
        const closeV1 = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: v1, action: 'valve', params: { open: false }, menu: 'equipmentControllIndex' }, 'es');
        expect(closeV1.status).toBe(40001);
        expect(closeV1.message).toContain('Enclavamiento «水泵须有阀门开启»');
        const closeV2 = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: v2, action: 'valve', params: { open: false }, menu: 'equipmentControllIndex' });
        expect(closeV2.status, closeV2.raw.body).toBe(200);
        // A rule that runs the pump when the soil is dry, with every valve closed: refused the same way.
        await publish(gw, 'FLD-PUMP', 'state', { state: { on: false } });
        await publish(gw, 'FLD-V1', 'state', { state: { open: false } });
        await settle();
        const rule = await call(t, farm, 'POST', '/api/devices/scenarios', {
          name: '测试：干旱开泵', alarm: false, trigger: { type: 'threshold', place: '东区大田灌溉', kind: 'soilMoisture', op: 'below', value: 20, deadband: 1, minIntervalS: 0 },
          action: { deviceId: pump, action: 'switch', params: { on: true } },
        });
        expect(rule.status, rule.raw.body).toBe(200);
        try {
          await publish(gw, 'FLD-SOIL1', 'reading', { values: { soilMoisture: 18 } });
          await settle();
          const failed = (await t.db.query<{ status: string; message: string }>('SELECT status, message FROM device_commands WHERE scenario_id = $1', [rule.data.id])).rows;
          expect(failed).toEqual([{ status: 'failed', message: expect.stringContaining('联锁「水泵须有阀门开启」') }]);
          const [alarm] = await alarmsOf(`scenario:${rule.data.id}`);
          expect(alarm).toMatchObject({ condition: 'interlock', cleared: false });
          const listed = (await page(farm, '&condition=interlock', 'en')).find((a) => a.id === alarm.id);
          expect(listed?.message).toBe('The rule “测试：干旱开泵” was refused by an interlock: Interlock “水泵须有阀门开启”: 东区灌溉潜水泵 may run only while at least one of 「东区一号地块电磁阀」 / 「东区二号地块电磁阀」 is open; the command was not sent');
          expect(listed?.severity).toBe('major');
          // The soil wet again: the rule re-arms and its alarm clears.
          await publish(gw, 'FLD-SOIL1', 'reading', { values: { soilMoisture: 25 } });
          await settle();
          expect((await alarmsOf(`scenario:${rule.data.id}`))[0].cleared).toBe(true);
        } finally {
          await t.db.query('UPDATE device_scenarios SET enabled = false WHERE id = $1', [rule.data.id]);
          svc.scenarios.forget();
        }
      });

      it('rules: an action when the value comes back; windows and schedules in the farm’s own time zone', async () => {
        const gw = await gateway(1);
        const fan = await deviceId('GH1-FAN');
        await publish(gw, 'GH1-FAN', 'status', { online: true });
        await settle();
        const back = await call(t, farm, 'POST', '/api/devices/scenarios', {
          name: '测试：通风并回关', trigger: { type: 'threshold', place: '一号日光温室', kind: 'airHumidity', op: 'above', value: 90, deadband: 5, minIntervalS: 0 },
          action: { deviceId: fan, action: 'switch', params: { on: true } }, backAction: { deviceId: fan, action: 'switch', params: { on: false } },
        });
        expect(back.status, back.raw.body).toBe(200);
        expect(back.data.backAction).toEqual({ deviceId: fan, action: 'switch', params: { on: false } });
        const sentBy = async (id: number) => (await t.db.query<{ params: { on: boolean } }>('SELECT params FROM device_commands WHERE scenario_id = $1 ORDER BY id', [id])).rows.map((r) => r.params.on);
        try {
          for (const v of [92, 88, 91, 84]) {
            await publish(gw, 'GH1-TH', 'reading', { values: { airHumidity: v } });
            await settle();
          }
          // On at 92; 88 and 91 are in the band; back at 84: the fan off again.
          expect(await sentBy(back.data.id)).toEqual([true, false]);
        } finally {
          await t.db.query('UPDATE device_scenarios SET enabled = false WHERE id = $1', [back.data.id]);
        }

        // The farm's time zone: a bad one refused on the field, UTC accepted.
        const bad = await call(t, farm, 'PUT', '/api/devices/alarms/settings', { dutyName: '周伟', dutyPhone: DUTY, timeZone: 'Mars/Olympus' }, 'en');
        expect(bad.status).toBe(40001);
        expect(bad.data.errors).toEqual([{ field: 'timeZone', message: 'Unknown time zone (e.g. Asia/Shanghai)' }]);
        const utc = await call(t, farm, 'PUT', '/api/devices/alarms/settings', { dutyName: '周伟', dutyPhone: DUTY, timeZone: 'UTC' });
        expect(utc.status, utc.raw.body).toBe(200);
        expect(utc.data).toMatchObject({ timeZone: 'UTC', escalateAfterMin: 15, escalationPhone: ESCALATION });
        svc.scenarios.forget();
        try {
          // A reading stamped half past an hour: the rule whose window is that hour in UTC acts; the one with that hour in Shanghai does not.
          const ts = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 30 * 60_000);
          const hh = (h: number) => `${String(h % 24).padStart(2, '0')}`;
          const make = async (name: string, hour: number) => {
            const r = await call(t, farm, 'POST', '/api/devices/scenarios', {
              name, alarm: true, windowFrom: `${hh(hour)}:00`, windowTo: `${hh(hour)}:59`,
              trigger: { type: 'threshold', place: '一号日光温室', kind: 'co2', op: 'above', value: 1500, deadband: 0, minIntervalS: 0 },
            });
            expect(r.status, r.raw.body).toBe(200);
            return r.data.id as number;
          };
          const inUtc = await make('测试：UTC 窗口', ts.getUTCHours());
          const inShanghai = await make('测试：上海窗口', ts.getUTCHours() + 8);
          await publish(gw, 'GH1-CO2', 'reading', { ts: ts.toISOString(), values: { co2: 1600 } });
          await settle();
          const runs = async (id: number) => Number((await t.db.query<{ runs: number }>('SELECT runs FROM device_scenarios WHERE id = $1', [id])).rows[0].runs);
          expect(await runs(inUtc)).toBe(1);
          expect(await runs(inShanghai)).toBe(0);
          // A schedule at 03:15 farm time runs at 03:15 UTC, not at 03:15 in Shanghai.
          const at = await call(t, farm, 'POST', '/api/devices/scenarios', { name: '测试：UTC 定时', alarm: true, trigger: { type: 'schedule', at: '03:15' } });
          expect(at.status, at.raw.body).toBe(200);
          await svc.scenarios.runSchedule(new Date('2026-06-01T03:15:20+08:00'));
          expect(await runs(at.data.id)).toBe(0);
          await svc.scenarios.runSchedule(new Date('2026-06-01T03:15:20Z'));
          expect(await runs(at.data.id)).toBe(1);
          await t.db.query('UPDATE device_scenarios SET enabled = false WHERE id = ANY($1::int[])', [[inUtc, inShanghai, at.data.id]]);
        } finally {
          await t.db.query(`UPDATE device_farm_settings SET time_zone = 'Asia/Shanghai' WHERE farm_id = $1`, [farmId]);
          svc.scenarios.forget();
        }
      });
    });
  }
}
