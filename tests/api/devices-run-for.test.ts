/**
 * Run for N minutes and rules of several conditions (issue 26 item 4; docs/devices.md, "Run
 * for a while" and "Scenarios and alarms"), on every engine, with the embedded broker. The
 * test plays the greenhouse gateway with its own MQTT client (acknowledging commands) and
 * moves the stop sweep's clock itself (`commands.stopDue(now)`): nobody waits minutes.
 *
 * - a person's «on for 10 minutes»: nothing before the time, one off of source `timer` after
 *   it (in the command history), sent once however many sweeps or instances look;
 * - a later off or on cancels the pending stop, a later on with its own duration replaces it;
 * - a stop due while the device is offline waits for it; one due while no instance ran is
 *   sent by the next instance at its start;
 * - the timer's off goes through the interlocks: refused, it is a failed command and an alarm;
 * - bad durations refused with a sentence on `params.runForS`, nothing stored;
 * - a rule of two conditions (all, then any) fires once when the combination holds, re-arms
 *   by the deadbands, ignores a stale value, and its action's run-for duration stops the fan;
 * - the old single-condition shape and the new one refused when mixed; the seed shows both.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { gatewaySecret, until } from '../support/devices-support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';
import { deviceServiceOf } from '../../server/devices/plugin.ts';
import type { DeviceService } from '../../server/devices/service.ts';
import { Commands } from '../../server/devices/commands.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';

const root = `runfor${process.pid}${Math.random().toString(36).slice(2, 6)}`;
const MENU = 'farmControllRoomEquipmentControll';
const GH1 = '一号日光温室';

for (const engine of engines()) {
  describe(`run for a while and rules of several conditions on ${engine.name}`, () => {
    let t: TestApp;
    let svc: DeviceService;
    let farm: string;
    let farmId: number;
    let gw: MqttClient;
    const code = (key: string) => `F${farmId}-${key}`;
    const topic = (key: string, kind: string) => `${t.config.mqttTopicRoot}/${farmId}/device/${code(key)}/${kind}`;
    const deviceId = async (key: string) => (await t.db.query<{ id: number }>('SELECT id FROM devices WHERE code = $1', [code(key)])).rows[0].id;
    const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params)).rows[0].n);
    const publish = (key: string, kind: string, body: Record<string, unknown>) => gw.publishAsync(topic(key, kind), JSON.stringify({ deviceId: code(key), ...body }), { qos: 1 });
    const settle = async () => {
      await new Promise((r) => setTimeout(r, 30));
      await svc.hub.idle();
    };
    /** The device's commands, oldest first. */
    const commandsOf = async (id: number) =>
      (await t.db.query<{ id: number; source: string; status: string; params: Record<string, unknown>; scenario_id: number | null; message: string }>(
        'SELECT id, source, status, params, scenario_id, message FROM device_commands WHERE device_id = $1 ORDER BY id',
        [id],
      )).rows;
    const stops = (id: number) => count('SELECT count(*)::int AS n FROM device_timed_stops WHERE device_id = $1', [id]);
    /** The clock `s` seconds after the pending stop's command was stored (the stop sweep's `now`). */
    const dueAfter = async (id: number, s: number) => {
      const { rows } = await t.db.query<{ at: Date }>('SELECT c.requested_at AS at FROM device_timed_stops s JOIN device_commands c ON c.id = s.command_id WHERE s.device_id = $1', [id]);
      return new Date(new Date(rows[0]?.at ?? Date.now()).getTime() + s * 1000);
    };
    const command = async (key: string, params: Record<string, unknown>, lang = 'zh') => call(t, farm, 'POST', '/api/devices/commands', { deviceId: await deviceId(key), action: 'switch', params, menu: MENU }, lang);
    const acknowledged = (id: number) => until(async () => (await commandsOf(id)).every((c) => c.status !== 'pending'));
    /** The device reports `on` (an ack's state is merged just after its command's outcome is stored). */
    const reports = (id: number, on: boolean) => until(async () => (await t.db.query<{ state: { on?: boolean } }>('SELECT state FROM devices WHERE id = $1', [id])).rows[0].state.on === on);

    beforeAll(async () => {
      t = await createTestApp(engine, { mqttTopicRoot: root, commandTimeoutMs: 5000 });
      svc = deviceServiceOf(t.app);
      // The test moves the clocks; the automatic sweeps stay out of its way.
      svc.autoSweep = false;
      farm = await t.login('farm');
      farmId = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0].org_id;
      // Only this file's rules act.
      await t.db.query('UPDATE device_scenarios SET enabled = false');
      svc.scenarios.forget();
      const broker = svc.broker as NonNullable<DeviceService['broker']>;
      gw = new MqttClient(() => broker.connectInProcess(), { username: `F${farmId}-GW1`, password: await gatewaySecret(t.db, `F${farmId}-GW1`), reconnectPeriod: 0, clientId: `gw1-${Math.random().toString(36).slice(2)}`, protocolVersion: 4 });
      gw.on('error', () => undefined);
      await new Promise<void>((resolve) => gw.once('connect', () => resolve()));
      // The gateway does what it is told and says so.
      for (const key of ['GH1-FAN', 'GH1-LAMP']) await gw.subscribeAsync(topic(key, 'command'), { qos: 1 });
      gw.on('message', (tp, payload) => {
        const key = ['GH1-FAN', 'GH1-LAMP'].find((k) => tp === topic(k, 'command'));
        const cmd = JSON.parse(payload.toString()) as { commandId: number; params: { on: boolean } };
        if (key) void publish(key, 'ack', { commandId: cmd.commandId, ok: true, state: { on: cmd.params.on } });
      });
      for (const key of ['GH1-FAN', 'GH1-LAMP', 'GH1-TH']) await publish(key, 'status', { online: true });
      await settle();
    });

    afterAll(async () => {
      await gw?.endAsync(true).catch(() => undefined);
      await t?.close();
    });

    it('a person’s «on for 10 minutes»: nothing before the time, one off of source timer after it, sent once by two instances', async () => {
      const fan = await deviceId('GH1-FAN');
      const on = await command('GH1-FAN', { on: true, runForS: 600 });
      expect(on.status, on.raw.body).toBe(200);
      expect(on.data.params).toEqual({ on: true, runForS: 600 });
      await acknowledged(fan);
      expect(await stops(fan)).toBe(1);
      expect(await svc.commands.stopDue(await dueAfter(fan, 599))).toBe(0);
      expect((await commandsOf(fan)).map((c) => c.source)).toEqual(['user']);
      // Two instances' sweeps at once, after the time: one off.
      const other = new Commands(t.db, svc.hub, t.config, svc.alarms);
      try {
        const later = await dueAfter(fan, 601);
        const sent = await Promise.all([svc.commands.stopDue(later), other.stopDue(later), svc.commands.stopDue(later)]);
        expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
      } finally {
        other.close();
      }
      const rows = await commandsOf(fan);
      expect(rows.map((c) => [c.source, c.params])).toEqual([['user', { on: true, runForS: 600 }], ['timer', { on: false }]]);
      expect(await stops(fan)).toBe(0);
      await acknowledged(fan);
      await reports(fan, false);
      // The command history says who switched it off.
      const page = await call(t, farm, 'GET', `/api/devices/commands/page?deviceId=${fan}`);
      expect(page.data.rows[0]).toMatchObject({ source: 'timer', params: { on: false }, status: 'acknowledged', requestedBy: null });
      expect(await svc.commands.stopDue(await dueAfter(fan, 3600))).toBe(0);
    });

    it('a later off or on cancels the pending stop; a later on with its own duration replaces it', async () => {
      const fan = await deviceId('GH1-FAN');
      const n = (await commandsOf(fan)).length;
      await command('GH1-FAN', { on: true, runForS: 600 });
      await command('GH1-FAN', { on: false });
      expect(await stops(fan)).toBe(0);
      await command('GH1-FAN', { on: true, runForS: 600 });
      await command('GH1-FAN', { on: true });
      expect(await stops(fan)).toBe(0);
      await command('GH1-FAN', { on: true, runForS: 600 });
      const first = await dueAfter(fan, 601);
      await command('GH1-FAN', { on: true, runForS: 1200 });
      await acknowledged(fan);
      expect(await stops(fan)).toBe(1);
      expect(await svc.commands.stopDue(first)).toBe(0);
      expect(await svc.commands.stopDue(await dueAfter(fan, 1201))).toBe(1);
      expect((await commandsOf(fan)).slice(n).map((c) => c.source)).toEqual(['user', 'user', 'user', 'user', 'user', 'user', 'timer']);
      await acknowledged(fan);
    });

    it('a stop due while the device is offline waits for it; one due while no instance ran goes out at the next start', async () => {
      const fan = await deviceId('GH1-FAN');
      await command('GH1-FAN', { on: true, runForS: 60 });
      await acknowledged(fan);
      const due = await dueAfter(fan, 61);
      await t.db.query('UPDATE devices SET online = false WHERE id = $1', [fan]);
      expect(await svc.commands.stopDue(due)).toBe(0);
      expect(await stops(fan)).toBe(1);
      await t.db.query('UPDATE devices SET online = true, last_seen = now() WHERE id = $1', [fan]);
      // The time passes with no instance running; another starts on the same database.
      await t.db.query(`UPDATE device_timed_stops SET stop_at = now() - interval '1 minute' WHERE device_id = $1`, [fan]);
      const before = (await commandsOf(fan)).length;
      const dir = mkdtempSync(join(tmpdir(), 'farm-test-'));
      const second = await buildApp({ db: t.db, config: { ...loadConfig({ DATA_DIR: dir, DEVICE_SIMULATOR: 'off' }), distDir: join(dir, 'no-dist'), mqttTopicRoot: `${root}b`, commandTimeoutMs: 60_000 } });
      try {
        await second.ready();
        await until(async () => (await stops(fan)) === 0);
        const rows = (await commandsOf(fan)).slice(before);
        expect(rows.map((c) => [c.source, c.params])).toEqual([['timer', { on: false }]]);
      } finally {
        await second.close();
      }
    });

    it('the timer’s off goes through the interlocks: refused, a failed command saying why and an alarm, claimed once', async () => {
      const fan = await deviceId('GH1-FAN');
      const lamp = await deviceId('GH1-LAMP');
      // «The lamp runs only while the fan runs»: switching the fan off while the lamp is on is refused.
      await t.db.query(
        `INSERT INTO device_interlocks(farm_id, unit, name, device_id, guard) VALUES ($1, $2, '补光须通风', $3, $4)`,
        [farmId, GH1, lamp, JSON.stringify({ when: { on: true }, requires: 'all', of: [{ deviceId: fan, key: 'on', equals: true }] })],
      );
      try {
        await command('GH1-FAN', { on: true, runForS: 120 });
        await acknowledged(fan);
        await reports(fan, true);
        const lampOn = await command('GH1-LAMP', { on: true });
        expect(lampOn.status, lampOn.raw.body).toBe(200);
        await acknowledged(lamp);
        await reports(lamp, true);
        const due = await dueAfter(fan, 121);
        expect(await svc.commands.stopDue(due)).toBe(1);
        expect(await svc.commands.stopDue(due)).toBe(0);
        const last = (await commandsOf(fan)).at(-1);
        expect(last).toMatchObject({ source: 'timer', status: 'failed', params: { on: false } });
        expect(last?.message).toContain('补光须通风');
        expect(await stops(fan)).toBe(0);
        const alarm = (await t.db.query<{ severity: string; condition: string }>(`SELECT severity, condition FROM device_alarms WHERE source = $1 AND cleared_at IS NULL`, [`device:${fan}`])).rows;
        expect(alarm).toEqual([{ severity: 'major', condition: 'commandFailed' }]);
        // A person is refused the same way, in their language.
        const person = await command('GH1-FAN', { on: false }, 'en');
        expect(person.status).toBe(40001);
        expect(person.message).toContain('Interlock');
      } finally {
        await t.db.query(`DELETE FROM device_interlocks WHERE name = '补光须通风'`);
        await command('GH1-LAMP', { on: false });
        await command('GH1-FAN', { on: false });
        await acknowledged(fan);
        await acknowledged(lamp);
      }
    });

    it('bad durations are refused with a sentence on params.runForS, and nothing is stored', async () => {
      const fan = await deviceId('GH1-FAN');
      const n = (await commandsOf(fan)).length;
      const short = await command('GH1-FAN', { on: true, runForS: 5 }, 'en');
      expect(short.status).toBe(40001);
      expect(short.data.errors).toEqual([{ field: 'params.runForS', message: 'The run time must be a whole number of seconds from 10 s to 24 h' }]);
      const long = await command('GH1-FAN', { on: true, runForS: 86_401 }, 'es');
      expect(long.data.errors[0].field).toBe('params.runForS');
      expect(long.data.errors[0].message).toContain('24 h');
      const off = await command('GH1-FAN', { on: false, runForS: 60 });
      expect(off.data.errors).toEqual([{ field: 'params.runForS', message: '只有「开」的命令可以设定运行时长' }]);
      const valve = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: await deviceId('GH1-DRIP'), action: 'valve', params: { open: true, runForS: 60 }, menu: MENU }, 'en');
      expect(valve.status).toBe(40001);
      expect(valve.data.errors).toEqual([{ field: 'params.runForS', message: expect.stringContaining('Only switches, pumps and fans') }]);
      expect((await commandsOf(fan)).length).toBe(n);
      expect(await stops(fan)).toBe(0);
    });

    it('a rule of two conditions fires once when both hold, re-arms by the deadbands, ignores a stale value; its run-for stops the fan', async () => {
      const fan = await deviceId('GH1-FAN');
      const r = await call(t, farm, 'POST', '/api/devices/scenarios', {
        name: '测试：闷热通风',
        trigger: {
          type: 'threshold', match: 'all', minIntervalS: 0,
          conditions: [
            { place: GH1, kind: 'airTemperature', op: 'above', value: 30, deadband: 0.5 },
            { place: GH1, kind: 'airHumidity', op: 'above', value: 80, deadband: 5 },
          ],
        },
        action: { deviceId: fan, action: 'switch', params: { on: true, runForS: 900 } },
      });
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data.trigger).toMatchObject({ match: 'all', conditions: [{ deadband: 0.5 }, { deadband: 5 }] });
      const id = r.data.id as number;
      const runs = () => count('SELECT runs AS n FROM device_scenarios WHERE id = $1', [id]);
      const read = async (values: Record<string, number>, ts = Date.now()) => {
        await publish('GH1-TH', 'reading', { ts: new Date(ts).toISOString(), values });
        await settle();
      };
      // A humidity of 20 minutes ago (older than the farm's stale limit, 15 minutes) does not count.
      await read({ airHumidity: 90 }, Date.now() - 20 * 60_000);
      await read({ airTemperature: 31 });
      expect(await runs()).toBe(0);
      await read({ airHumidity: 85 });
      expect(await runs()).toBe(1);
      const fired = (await commandsOf(fan)).at(-1);
      expect(fired).toMatchObject({ source: 'scenario', scenario_id: id, params: { on: true, runForS: 900 } });
      // Noise: temperature in its band, humidity still beyond; then temperature beyond again: no second firing.
      await read({ airTemperature: 29.8 });
      await read({ airTemperature: 30.4, airHumidity: 83 });
      expect(await runs()).toBe(1);
      // Humidity back past its deadband (75): the combination is false, the rule re-arms; both beyond again: fires.
      await read({ airHumidity: 74 });
      await read({ airHumidity: 86 });
      expect(await runs()).toBe(2);
      await acknowledged(fan);
      // The fan's run time ends: the timer's off, in the rule's history.
      expect(await svc.commands.stopDue(await dueAfter(fan, 901))).toBe(1);
      expect((await commandsOf(fan)).at(-1)).toMatchObject({ source: 'timer', scenario_id: id, params: { on: false } });
      await acknowledged(fan);
      const history = await call(t, farm, 'GET', `/api/devices/commands/page?scenarioId=${id}`);
      expect(history.data.rows.map((c: { source: string }) => c.source)).toEqual(['timer', 'scenario', 'scenario']);

      // «any»: fires when one holds; re-arms only when every one is back.
      const changed = await call(t, farm, 'PUT', '/api/devices/scenarios', {
        id, name: '测试：闷热通风', alarm: true,
        trigger: { type: 'threshold', match: 'any', minIntervalS: 0, conditions: [{ place: GH1, kind: 'airTemperature', op: 'above', value: 30, deadband: 0.5 }, { place: GH1, kind: 'airHumidity', op: 'above', value: 80, deadband: 5 }] },
        action: { deviceId: fan, action: 'switch', params: { on: true } },
      });
      expect(changed.status, changed.raw.body).toBe(200);
      await read({ airTemperature: 25, airHumidity: 60 });
      expect(await runs()).toBe(2);
      await read({ airTemperature: 31 });
      expect(await runs()).toBe(3);
      await read({ airTemperature: 25, airHumidity: 90 });
      expect(await runs()).toBe(3);
      const open = () => count(`SELECT count(*)::int AS n FROM device_alarms WHERE scenario_id = $1 AND cleared_at IS NULL`, [id]);
      expect(await open()).toBe(1);
      await read({ airHumidity: 70 });
      expect(await open()).toBe(0);
      await read({ airHumidity: 81 });
      expect(await runs()).toBe(4);
      await acknowledged(fan);
      await t.db.query('UPDATE device_scenarios SET enabled = false WHERE id = $1', [id]);
      svc.scenarios.forget();
    });

    it('refuses a trigger mixing the two shapes, all / any without conditions, a bad condition and a bad run time, on their fields in three languages', async () => {
      const fan = await deviceId('GH1-FAN');
      const post = (trigger: Record<string, unknown>, lang = 'zh', params: Record<string, unknown> = { on: true }) =>
        call(t, farm, 'POST', '/api/devices/scenarios', { name: '测试：错误', trigger: { type: 'threshold', ...trigger }, action: { deviceId: fan, action: 'switch', params } }, lang);
      const cond = { place: GH1, kind: 'airTemperature', op: 'above', value: 30 };
      const n = await count('SELECT count(*)::int AS n FROM device_scenarios');
      const mixed = await post({ ...cond, conditions: [cond, { ...cond, kind: 'airHumidity' }] }, 'en');
      expect(mixed.status).toBe(40001);
      expect(mixed.data.errors.map((e: { field: string }) => e.field)).toEqual(['trigger.place', 'trigger.kind', 'trigger.op', 'trigger.value']);
      expect(mixed.data.errors[0].message).toContain('With several conditions');
      const match = await post({ ...cond, match: 'any' }, 'es');
      expect(match.data.errors).toEqual([{ field: 'trigger.match', message: '«todas / cualquiera» solo se aplica a varias condiciones (conditions)' }]);
      const missing = await post({ conditions: [cond, { place: GH1, kind: 'airHumidity', op: 'above' }] });
      expect(missing.status).toBe(40001);
      expect(missing.data.errors[0].field).toMatch(/^trigger\.conditions\.1/);
      const tooMany = await post({ conditions: Array.from({ length: 9 }, () => cond) });
      expect(tooMany.status).toBe(40001);
      const runFor = await post({ conditions: [cond, cond] }, 'en', { on: true, runForS: 3 });
      expect(runFor.data.errors).toEqual([{ field: 'action.params.runForS', message: 'The run time must be a whole number of seconds from 10 s to 24 h' }]);
      expect(await count('SELECT count(*)::int AS n FROM device_scenarios')).toBe(n);
      // The first shape still stands as it was.
      const single = await post(cond);
      expect(single.status, single.raw.body).toBe(200);
      expect(single.data.trigger).toEqual({ type: 'threshold', ...cond, deadband: 0, minIntervalS: 60 });
      await call(t, farm, 'DELETE', `/api/devices/scenarios?id=${single.data.id}`);
    });

    it('the seed shows a rule of two conditions whose action runs the fan for 15 minutes', async () => {
      const page = await call(t, farm, 'GET', '/api/devices/scenarios/page');
      const demo = (page.data.rows as { name: string; trigger: { match?: string; conditions?: unknown[] }; action: { params: Record<string, unknown> } }[]).find((s) => s.name === '一号温室闷热除湿通风');
      expect(demo?.trigger.match).toBe('all');
      expect(demo?.trigger.conditions).toHaveLength(2);
      expect(demo?.action.params).toEqual({ on: true, runForS: 900 });
    });
  });
}
