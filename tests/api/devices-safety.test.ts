/**
 * Devices safe to wire to real equipment (issue 26; issue 24 item 5; docs/devices.md), on
 * every engine, with the embedded broker and with the machine's Mosquitto on
 * 127.0.0.1:1883 as the real gateway's broker (skipped, saying so, when it is not reachable):
 *
 * - commands only by the device's own farm: the platform administrator's and the
 *   configurer's command to a farm's pump refused, and a command from a screen of another
 *   device kind refused on `menu`;
 * - availability: an open event stream is told a silent device went offline (the server's
 *   sweep, no reload); a gateway's last will takes it and its devices offline, live;
 * - payloads: a reading stamped 1970 or tomorrow refused; a state with an undeclared key,
 *   a wrong type or junk of 15 KiB refused; nothing stored;
 * - rules: ±0.1 °C of noise around 30 °C fires once with a deadband, and once with a
 *   minimum interval.
 *
 * The test plays the gateway with its own MQTT client.
 */
import { networkInterfaces } from 'node:os';
import { MqttClient, connect, type IClientOptions } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { until, mosquittoReachable, gatewaySecret, openEventStream as openStream } from '../support/devices-support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';
import { deviceServiceOf } from '../../server/devices/plugin.ts';
import type { DeviceService } from '../../server/devices/service.ts';
import { startEmbeddedBroker } from '../../server/devices/broker.ts';
import { loadConfig, type ServerConfig } from '../../server/config.ts';

const OFFLINE_AFTER_S = 3;




const root = `safe${process.pid}${Math.random().toString(36).slice(2, 6)}`;
const mosquittoUp = await mosquittoReachable();
const BROKERS = [
  { name: 'embedded broker', config: { mqttTopicRoot: root } as Partial<ServerConfig> },
  { name: 'Mosquitto', config: { mqttUrl: 'mqtt://127.0.0.1:1883', mqttTopicRoot: `${root}m`, deviceSimulator: false } as Partial<ServerConfig> },
];

for (const engine of engines()) {
  for (const broker of BROKERS) {
    const skip = broker.name === 'Mosquitto' && !mosquittoUp;
    describe.skipIf(skip)(`devices safe for real equipment on ${engine.name} with the ${broker.name}${skip ? ' (skipped: Mosquitto is not reachable on 127.0.0.1:1883)' : ''}`, () => {
      let t: TestApp;
      let svc: DeviceService;
      let cfg: ServerConfig;
      let farm: string;
      let farmId: number;
      let base: string;
      const clients: MqttClient[] = [];
      const code = (key: string) => `F${farmId}-${key}`;
      const topic = (key: string, kind: string) => `${cfg.mqttTopicRoot}/${farmId}/device/${code(key)}/${kind}`;
      const deviceId = async (key: string) => (await t.db.query<{ id: number }>('SELECT id FROM devices WHERE code = $1', [code(key)])).rows[0].id;
      const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params)).rows[0].n);
      const gateway = async (n: 1 | 2, extra: Partial<IClientOptions> = {}) => {
        const options: IClientOptions = { username: `F${farmId}-GW${n}`, password: await gatewaySecret(t.db, `F${farmId}-GW${n}`), reconnectPeriod: 0, clientId: `gw${n}-${Math.random().toString(36).slice(2)}`, ...extra };
        const client = svc.broker
          ? new MqttClient(() => (svc.broker as NonNullable<DeviceService['broker']>).connectInProcess(), { ...options, protocolVersion: 4 })
          : connect(cfg.mqttUrl as string, options);
        client.on('error', () => undefined);
        await new Promise<void>((resolve) => client.once('connect', () => resolve()));
        clients.push(client);
        return client;
      };
      const publish = (client: MqttClient, key: string, kind: string, body: Record<string, unknown>) =>
        client.publishAsync(topic(key, kind), JSON.stringify({ deviceId: code(key), ...body }), { qos: 1 });
      const settle = async () => {
        await new Promise((r) => setTimeout(r, svc.broker ? 30 : 150));
        await svc.hub.idle();
      };
      const online = async (key: string) => (await t.db.query<{ online: boolean }>('SELECT online FROM devices WHERE code = $1', [code(key)])).rows[0].online;

      beforeAll(async () => {
        t = await createTestApp(engine, { ...broker.config, commandTimeoutMs: 800, deviceOfflineAfterS: OFFLINE_AFTER_S });
        cfg = t.config;
        svc = deviceServiceOf(t.app);
        farm = await t.login('farm');
        farmId = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0].org_id;
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const address = t.app.server.address();
        base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        // Only our rules act in this file.
        await t.db.query('UPDATE device_scenarios SET enabled = false');
        svc.scenarios.forget();
      });

      afterAll(async () => {
        for (const c of clients) await c.endAsync(true).catch(() => undefined);
        await t?.close();
      });

      it('commands only for the device’s farm: the platform administrator’s and the configurer’s command to a farm’s pump refused; a screen of another kind refused on menu', async () => {
        const gw = await gateway(2);
        const pump = await deviceId('FLD-PUMP');
        await publish(gw, 'FLD-PUMP', 'status', { online: true });
        await settle();
        const body = { deviceId: pump, action: 'switch', params: { on: true }, menu: 'farmControllRoomEquipmentControll' };
        const admin = await call(t, await t.login('admin'), 'POST', '/api/devices/commands', body, 'en');
        expect(admin.status, admin.raw.body).toBe(40301);
        expect(admin.message).toContain('device’s own farm');
        const config = await call(t, await t.login('config'), 'POST', '/api/devices/commands', body);
        expect(config.status, config.raw.body).toBe(40301);
        // The administrator reads the pump all the same.
        const units = await call(t, await t.login('admin'), 'GET', '/api/devices/units');
        expect(JSON.stringify(units.data)).toContain(code('FLD-PUMP'));
        // The pump is not commanded from the air-conditioner screen, even by its farm.
        const wrongScreen = await call(t, farm, 'POST', '/api/devices/commands', { ...body, menu: 'aircondition' }, 'es');
        expect(wrongScreen.status, wrongScreen.raw.body).toBe(40001);
        expect(wrongScreen.data.errors.map((e: { field: string }) => e.field)).toEqual(['menu']);
        expect(wrongScreen.message).toContain('pantalla');
        expect(await count('SELECT count(*)::int AS n FROM device_commands WHERE device_id = $1', [pump])).toBe(0);
        // Its farm, from a screen of pumps, is heard (the pump says it is alive again: the offline limit is short here).
        await publish(gw, 'FLD-PUMP', 'status', { online: true });
        await settle();
        const own = await call(t, farm, 'POST', '/api/devices/commands', body);
        expect(own.status, own.raw.body).toBe(200);
      });

      it('payloads: a reading stamped 1970 or a day ahead refused; an undeclared, mistyped or 15 KiB state refused; nothing stored', async () => {
        const gw = await gateway(2);
        const soil = await deviceId('FLD-SOIL1');
        const readings = () => count('SELECT count(*)::int AS n FROM device_readings WHERE device_id = $1', [soil]);
        const before = await readings();
        // The clock the hub judges by is fixed: an hour ago is fine, 1970 and tomorrow are not.
        const now = Date.now();
        svc.hub.now = () => now;
        try {
          let dropped = svc.hub.counters.dropped;
          await publish(gw, 'FLD-SOIL1', 'reading', { ts: 0, values: { soilMoisture: 30 } });
          await until(() => svc.hub.counters.dropped === dropped + 1);
          expect(svc.hub.counters.lastDropReason).toMatch(/1970-01-01T00:00:00.000Z.*older than the 400-day retention/);
          dropped = svc.hub.counters.dropped;
          await publish(gw, 'FLD-SOIL1', 'reading', { ts: new Date(now + 86_400_000).toISOString(), values: { soilMoisture: 30 } });
          await until(() => svc.hub.counters.dropped === dropped + 1);
          expect(svc.hub.counters.lastDropReason).toContain('in the future');
          await settle();
          expect(await readings()).toBe(before);
          await publish(gw, 'FLD-SOIL1', 'reading', { ts: now - 3_600_000, values: { soilMoisture: 30 } });
          await settle();
          expect(await readings()).toBe(before + 1);
        } finally {
          svc.hub.now = () => Date.now();
        }
        const pump = await deviceId('FLD-PUMP');
        const stateOf = async () => (await t.db.query<{ state: Record<string, unknown> }>('SELECT state FROM devices WHERE id = $1', [pump])).rows[0].state;
        await publish(gw, 'FLD-PUMP', 'state', { state: { on: false } });
        await settle();
        const good = await stateOf();
        const junk: [Record<string, unknown>, RegExp][] = [
          [{ on: true, junk: 'x' }, /state key "junk" is not declared for a pump/],
          [{ on: 'yes' }, /state "on" of a pump has a wrong type/],
          [{ on: true, fault: 'x'.repeat(15_000) }, /larger than 1024/],
        ];
        for (const [state, reason] of junk) {
          const dropped = svc.hub.counters.dropped;
          await publish(gw, 'FLD-PUMP', 'state', { state });
          await until(() => svc.hub.counters.dropped === dropped + 1);
          expect(svc.hub.counters.lastDropReason).toMatch(reason);
        }
        // An ack carries a state too: judged the same way.
        const dropped = svc.hub.counters.dropped;
        await publish(gw, 'FLD-PUMP', 'ack', { commandId: 1, ok: true, state: { on: true, extra: { deep: 1 } } });
        await until(() => svc.hub.counters.dropped === dropped + 1);
        await settle();
        expect(await stateOf()).toEqual(good);
        await publish(gw, 'FLD-PUMP', 'state', { state: { on: true, fault: null } });
        await settle();
        expect(await stateOf()).toEqual({ ...good, on: true, fault: null });
      });

      it('availability: an open console is told a silent device went offline, without a reload', async () => {
        const gw = await gateway(2);
        const stream = await openStream(base, farm);
        try {
          const valve = await deviceId('FLD-V1');
          await publish(gw, 'FLD-V1', 'status', { online: true });
          await settle();
          expect(await online('FLD-V1')).toBe(true);
          // Nothing more from the valve: the server's sweep says it is offline after OFFLINE_AFTER_S.
          const started = Date.now();
          await until(() => stream.events.some((e) => e.type === 'state' && e.data.deviceId === valve && e.data.online === false), (OFFLINE_AFTER_S + 4) * 1000);
          expect(Date.now() - started).toBeGreaterThanOrEqual((OFFLINE_AFTER_S - 1) * 1000);
          const units = await call(t, farm, 'GET', '/api/devices/units');
          const devices = (units.data.units as { devices: { id: number; online: boolean }[] }[]).flatMap((u) => u.devices);
          expect(devices.find((d) => d.id === valve)?.online).toBe(false);
        } finally {
          stream.close();
        }
      });

      it('availability: a gateway’s last will takes it and its devices offline live; its status online brings it back', async () => {
        const gwCode = `F${farmId}-GW2`;
        const will = { topic: `${cfg.mqttTopicRoot}/${farmId}/device/${gwCode}/status`, payload: Buffer.from(JSON.stringify({ deviceId: gwCode, online: false })), qos: 1 as const, retain: false };
        const gw = await gateway(2, { will, keepalive: 60 });
        await gw.publishAsync(will.topic, JSON.stringify({ deviceId: gwCode, online: true }), { qos: 1 });
        await publish(gw, 'FLD-PUMP', 'status', { online: true });
        await publish(gw, 'FLD-V2', 'status', { online: true });
        await settle();
        const gatewayOnline = async () => (await t.db.query<{ online: boolean }>('SELECT online FROM device_gateways WHERE code = $1', [gwCode])).rows[0].online;
        expect(await gatewayOnline()).toBe(true);
        expect(await online('FLD-PUMP')).toBe(true);
        const stream = await openStream(base, farm);
        try {
          const pump = await deviceId('FLD-PUMP');
          const v2 = await deviceId('FLD-V2');
          // The gateway loses power: its connection drops without a DISCONNECT, the broker publishes its will.
          (gw as unknown as { stream: { destroy(): void } }).stream.destroy();
          await until(() => [pump, v2].every((id) => stream.events.some((e) => e.type === 'state' && e.data.deviceId === id && e.data.online === false)), 8000);
          expect(stream.events.some((e) => e.type === 'gateway' && e.data.online === false)).toBe(true);
          await until(async () => !(await gatewayOnline()));
          expect(await online('FLD-PUMP')).toBe(false);
          expect(await online('FLD-V2')).toBe(false);
          // A command to the pump is refused at once (offline), not queued.
          const r = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: pump, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' });
          expect(r.status).toBe(40001);
          expect(r.message).toContain('离线');
        } finally {
          stream.close();
        }
        const back = await gateway(2);
        await back.publishAsync(will.topic, JSON.stringify({ deviceId: gwCode, online: true }), { qos: 1 });
        await settle();
        await until(gatewayOnline);
      });

      it('rules: ±0.1 °C of noise around 30 °C fires once with a deadband, and once with a minimum interval', async () => {
        const gw1 = await gateway(1);
        const fan = await deviceId('GH1-FAN');
        const make = async (name: string, trigger: Record<string, unknown>) => {
          const r = await call(t, farm, 'POST', '/api/devices/scenarios', {
            name, alarm: true, trigger: { type: 'threshold', place: '一号日光温室', kind: 'airTemperature', op: 'above', value: 30, ...trigger },
            action: { deviceId: fan, action: 'switch', params: { on: true } },
          });
          expect(r.status, r.raw.body).toBe(200);
          return r.data.id as number;
        };
        const noise = [29.9, 30.1, 29.95, 30.05, 29.9, 30.1, 30.02, 29.98, 30.1, 29.92];
        const play = async (values: number[]) => {
          for (const v of values) {
            await publish(gw1, 'GH1-TH', 'reading', { values: { airTemperature: v } });
            await settle();
          }
        };
        const runs = async (id: number) => ({
          runs: await count('SELECT runs AS n FROM device_scenarios WHERE id = $1', [id]),
          commands: await count('SELECT count(*)::int AS n FROM device_commands WHERE scenario_id = $1', [id]),
          alarms: await count('SELECT count(*)::int AS n FROM device_alarms WHERE scenario_id = $1', [id]),
        });
        // A deadband of 0.5 °C, no minimum interval: the noise fires once; back to 29.4 re-arms; 30.3 fires again.
        const banded = await make('测试：死区通风', { deadband: 0.5, minIntervalS: 0 });
        await play(noise);
        expect(await runs(banded)).toEqual({ runs: 1, commands: 1, alarms: 1 });
        await play([29.4]);
        expect(await count('SELECT count(*)::int AS n FROM device_alarms WHERE scenario_id = $1 AND cleared_at IS NULL', [banded])).toBe(0);
        await play([30.3]);
        expect(await runs(banded)).toEqual({ runs: 2, commands: 2, alarms: 2 });
        await t.db.query('UPDATE device_scenarios SET enabled = false WHERE id = $1', [banded]);
        svc.scenarios.forget();
        // No deadband, a 5-minute minimum interval: the same noise fires once too.
        const spaced = await make('测试：最短间隔通风', { deadband: 0, minIntervalS: 300 });
        await play([29.5, ...noise]);
        expect(await runs(spaced)).toEqual({ runs: 1, commands: 1, alarms: 1 });
        // Without either (the chattering rule issue 26 met): the noise fires at every crossing.
        await t.db.query('UPDATE device_scenarios SET enabled = false WHERE id = $1', [spaced]);
        const bare = await make('测试：无死区', { deadband: 0, minIntervalS: 0 });
        await play([29.5, ...noise]);
        expect((await runs(bare)).runs).toBe(4);
      });
    });
  }
}

for (const engine of engines()) {
  describe(`the simulator never answers for real equipment on ${engine.name}`, () => {
    let t: TestApp;
    let svc: DeviceService;
    let farm: string;
    let farmId: number;
    const menu = 'equipmentManagement';
    const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params)).rows[0].n);

    beforeAll(async () => {
      // Forced on (DEVICE_SIMULATOR=on) with the embedded broker's TCP port open on an ephemeral port.
      t = await createTestApp(engine, { deviceSimulator: true, mqttPort: 0, mqttHost: '127.0.0.1', mqttTopicRoot: `sim${process.pid}`, commandTimeoutMs: 1200 });
      svc = deviceServiceOf(t.app);
      farm = await t.login('farm');
      farmId = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0].org_id;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('is off by default whenever real gateways can connect (MQTT_PORT or MQTT_URL), unless forced on', () => {
      expect(loadConfig({}).deviceSimulator).toBe(true);
      expect(loadConfig({ MQTT_PORT: '1883' }).deviceSimulator).toBe(false);
      expect(loadConfig({ MQTT_URL: 'mqtt://broker:1883' }).deviceSimulator).toBe(false);
      expect(loadConfig({ MQTT_PORT: '1883', DEVICE_SIMULATOR: 'on' }).deviceSimulator).toBe(true);
      expect(loadConfig({ DEVICE_SIMULATOR: 'off' }).deviceSimulator).toBe(false);
      // The embedded broker's port binds loopback unless MQTT_HOST says otherwise.
      expect(loadConfig({ MQTT_PORT: '1883' }).mqttHost).toBe('127.0.0.1');
    });

    it('a gateway the farm registers is never played: its pump stays offline, and a command to it is never acknowledged by the simulator', async () => {
      const g = await call(t, farm, 'POST', '/api/devices/build/gateways', { menu, code: `F${farmId}-GW8`, name: '新泵房网关', place: '西区泵房' });
      expect(g.status, g.raw.body).toBe(200);
      const d = await call(t, farm, 'POST', '/api/devices/build/devices', { menu, code: `F${farmId}-W-PUMP`, name: '西区潜水泵', kind: 'pump', gatewayId: g.data.gateway.id, placeType: 'plot', place: '西区泵房', unit: '西区灌溉' });
      expect(d.status, d.raw.body).toBe(200);
      const pump = d.data.device.id as number;
      // The simulator's heartbeat and readings go round: nothing for the registered pump.
      svc.simulator?.beat();
      svc.simulator?.readNow();
      await new Promise((r) => setTimeout(r, 400));
      await svc.hub.idle();
      const row = (await t.db.query<{ online: boolean; last_seen: Date | null }>('SELECT online, last_seen FROM devices WHERE id = $1', [pump])).rows[0];
      expect(row).toEqual({ online: false, last_seen: null });
      const offline = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: pump, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' });
      expect(offline.status).toBe(40001);
      // The real gateway connects over TCP (the embedded broker's port, on loopback) and says the pump is there.
      const port = svc.broker?.port as number;
      expect(port).toBeGreaterThan(0);
      const gw = connect(`mqtt://127.0.0.1:${port}`, { username: g.data.mqtt.username, password: g.data.mqtt.password, reconnectPeriod: 0, clientId: 'real-gw8' });
      await new Promise<void>((resolve, reject) => {
        gw.once('connect', () => resolve());
        gw.once('error', reject);
      });
      try {
        const topic = (kind: string) => `${t.config.mqttTopicRoot}/${farmId}/device/F${farmId}-W-PUMP/${kind}`;
        await gw.publishAsync(topic('status'), JSON.stringify({ deviceId: `F${farmId}-W-PUMP`, online: true }), { qos: 1 });
        await until(async () => (await t.db.query<{ online: boolean }>('SELECT online FROM devices WHERE id = $1', [pump])).rows[0].online);
        // The gateway does not answer: the command times out; the simulator never acknowledges it.
        const r = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: pump, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' });
        expect(r.status, r.raw.body).toBe(200);
        await until(async () => (await call(t, farm, 'GET', `/api/devices/commands/detail?id=${r.data.id}`)).data.status !== 'pending', 4000);
        expect((await call(t, farm, 'GET', `/api/devices/commands/detail?id=${r.data.id}`)).data.status).toBe('timedOut');
        // The demo pump, on a simulated gateway, is acknowledged by the simulator.
        const demo = (await t.db.query<{ id: number }>('SELECT id FROM devices WHERE code = $1', [`F${farmId}-FLD-PUMP`])).rows[0].id;
        svc.simulator?.beat();
        await until(async () => (await t.db.query<{ online: boolean }>('SELECT online FROM devices WHERE id = $1', [demo])).rows[0].online);
        const sim = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: demo, action: 'switch', params: { on: true }, menu: 'equipmentControllIndex' });
        expect(sim.status, sim.raw.body).toBe(200);
        await until(async () => (await call(t, farm, 'GET', `/api/devices/commands/detail?id=${sim.data.id}`)).data.status === 'acknowledged', 4000);
      } finally {
        await gw.endAsync(true);
      }
    });

    it('the embedded broker: loopback unless told, a throttle on failed logins, the demo gateways’ passwords refused from the network', async () => {
      const lan = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      if (!lan) return console.warn('skipped: this machine has no non-loopback IPv4 address to connect from');
      const login = (host: string, port: number, username: string, password: string) =>
        new Promise<number | string>((resolve) => {
          const c = connect(`mqtt://${host}:${port}`, { username, password, reconnectPeriod: 0, clientId: `t-${Math.random().toString(36).slice(2)}`, connectTimeout: 3000 });
          const done = (code: number | string) => {
            c.end(true);
            resolve(code);
          };
          c.once('connect', () => done(0));
          c.once('error', (e) => done((e as { code?: number | string }).code ?? -1));
          c.once('close', () => done(-2));
        });
      const g = await call(t, farm, 'POST', '/api/devices/build/gateways', { menu, code: `F${farmId}-GW7`, name: '北区网关' });
      expect(g.status, g.raw.body).toBe(200);
      const real = g.data.mqtt.password as string;
      // Default bind: loopback only; the network address is not even listened on.
      const local = await startEmbeddedBroker(t.db, { root: 'x', port: 0 });
      try {
        expect(await login('127.0.0.1', local.port as number, `F${farmId}-GW7`, real)).toBe(0);
        expect(await login(lan, local.port as number, `F${farmId}-GW7`, real)).toBe('ECONNREFUSED');
      } finally {
        await local.close();
      }
      const open = await startEmbeddedBroker(t.db, { root: 'x', port: 0, host: '0.0.0.0' });
      try {
        const port = open.port as number;
        // The seeded demo gateway's secret (made for this installation) works on this machine only.
        const demo = await gatewaySecret(t.db, `F${farmId}-GW2`);
        expect(demo).not.toMatch(/demo-secret/);
        expect(await login('127.0.0.1', port, `F${farmId}-GW2`, demo)).toBe(0);
        expect(await login(lan, port, `F${farmId}-GW2`, demo)).toBe(4);
        // A registered gateway connects from the network.
        expect(await login(lan, port, `F${farmId}-GW7`, real)).toBe(0);
        // Five wrong passwords from an address (its good login above started the count again): the right one is refused too, until the minute is over.
        const now = Date.now();
        open.throttle.now = () => now;
        for (let i = 0; i < 5; i++) expect(await login(lan, port, `F${farmId}-GW7`, `guess-${i}`)).toBe(4);
        expect(await login(lan, port, `F${farmId}-GW7`, real)).toBe(5);
        expect(open.throttle.throttled).toBe(1);
        // Loopback is another address: not throttled.
        expect(await login('127.0.0.1', port, `F${farmId}-GW7`, real)).toBe(0);
        open.throttle.now = () => now + 61_000;
        expect(await login(lan, port, `F${farmId}-GW7`, real)).toBe(0);
      } finally {
        await open.close();
      }
    });

    it('every simulated device, unit, gateway and series says so; registered ones do not', async () => {
      const units = await call(t, farm, 'GET', '/api/devices/units');
      type U = { unit: string; simulated: boolean; devices: { code: string; simulated: boolean }[] };
      const list = units.data.units as U[];
      const device = (c: string) => list.flatMap((u) => u.devices).find((d) => d.code === c);
      expect(device(`F${farmId}-FLD-PUMP`)?.simulated).toBe(true);
      expect(device(`F${farmId}-W-PUMP`)?.simulated).toBe(false);
      expect(list.find((u) => u.unit === '东区大田灌溉')?.simulated).toBe(true);
      expect(list.find((u) => u.unit === '西区灌溉')?.simulated).toBe(false);
      const build = await call(t, farm, 'GET', '/api/devices/build');
      const gateways = build.data.gateways as { code: string; simulated: boolean }[];
      expect(gateways.find((g) => g.code === `F${farmId}-GW1`)?.simulated).toBe(true);
      expect(gateways.find((g) => g.code === `F${farmId}-GW8`)?.simulated).toBe(false);
      const to = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
      const from = new Date(to.getTime() - 24 * 3_600_000);
      const series = await call(t, farm, 'GET', `/api/devices/readings/series?kind=soilMoisture&places=${encodeURIComponent('东区大田灌溉')}&from=${from.toISOString()}&to=${to.toISOString()}`);
      expect(series.data.series[0].simulated).toBe(true);
      expect(await count('SELECT count(*)::int AS n FROM device_gateways WHERE simulated')).toBeGreaterThan(0);
    });
  });
}
