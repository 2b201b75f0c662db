/**
 * System build (server/devices/build-routes.ts, docs/devices.md "System build"): gateways
 * and devices added, changed and deleted from the system-build screens with their element
 * codes, in the caller's farm; 40001 on a duplicate code, an unknown kind or channel, a
 * gateway of another farm, a device with history or in a scenario; the MQTT identity shown
 * on creation (the password once); audited. The embedded broker follows: a new device may
 * speak at once, a deleted or unwired one may not, and its messages are ignored; the
 * simulator plays a new device.
 */
import { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { until } from '../support/devices-support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, makeUser } from './resource-fixtures.ts';
import { deviceServiceOf } from '../../server/devices/plugin.ts';
import type { DeviceService } from '../../server/devices/service.ts';


for (const engine of engines()) {
  describe(`system build on ${engine.name}`, () => {
    let t: TestApp;
    let svc: DeviceService;
    let farm: string;
    let farm2: string;
    let farmId: number;
    const menu = 'equipmentManagement';
    const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params)).rows[0].n);

    beforeAll(async () => {
      t = await createTestApp(engine, { deviceSimulator: true, mqttTopicRoot: `b${process.pid}` });
      svc = deviceServiceOf(t.app);
      farm = await t.login('farm');
      farm2 = await t.login('farm2');
      farmId = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0].org_id;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('lists the farm’s gateways and devices with channels and placement, never a secret', async () => {
      const r = await call(t, farm, 'GET', '/api/devices/build');
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data.gateways.length).toBe(2);
      expect(r.data.devices.length).toBeGreaterThan(10);
      expect(r.data.devices.every((d: { farmId: number }) => d.farmId === farmId)).toBe(true);
      expect(r.raw.body).not.toContain('secret');
      const { rows: secrets } = await t.db.query<{ secret: string }>('SELECT secret FROM device_gateways WHERE farm_id = $1', [farmId]);
      for (const { secret } of secrets) expect(r.raw.body).not.toContain(secret);
      expect(r.data.devices[0]).toHaveProperty('lng');
    });

    it('creates a gateway (password once), a device on it with its topics, audited; the simulator plays a sensor added to a demo gateway, never the registered one', async () => {
      const g = await call(t, farm, 'POST', '/api/devices/build/gateways', { menu, code: `F${farmId}-GW9`, name: '三号棚网关', place: '三号日光温室' });
      expect(g.status, g.raw.body).toBe(200);
      expect(g.data.mqtt.password).toMatch(/^[\w-]{20,}$/);
      expect(g.data.mqtt.username).toBe(`F${farmId}-GW9`);
      const list = await call(t, farm, 'GET', '/api/devices/build');
      expect(list.raw.body).not.toContain(g.data.mqtt.password);

      const d = await call(t, farm, 'POST', '/api/devices/build/devices', {
        menu, code: `F${farmId}-GH3-TH`, name: '三号棚温湿度', kind: 'sensor', gatewayId: g.data.gateway.id, placeType: 'greenhouse', place: '三号日光温室',
        channels: ['airTemperature', 'airHumidity'], lng: 124.1, lat: 47.3,
      });
      expect(d.status, d.raw.body).toBe(200);
      expect(d.data.mqtt.topics.reading).toBe(`b${process.pid}/${farmId}/device/F${farmId}-GH3-TH/reading`);
      expect(d.data.mqtt.username).toBe(`F${farmId}-GW9`);
      expect(d.data.mqtt.password).toBeUndefined();
      expect(d.data.device).toMatchObject({ unit: '三号日光温室', lng: 124.1, lat: 47.3, gateway: '三号棚网关' });
      expect(await count(`SELECT count(*) AS n FROM operation_log WHERE action IN ('devices.gateway.create', 'devices.device.create')`)).toBe(2);
      // A gateway the farm registers is real equipment: the simulator never plays it, and it is not labelled simulated.
      expect(d.data.device.simulated).toBe(false);
      const demoGw = (await t.db.query<{ id: number }>(`SELECT id FROM device_gateways WHERE code = $1`, [`F${farmId}-GW1`])).rows[0].id;
      const demo = await call(t, farm, 'POST', '/api/devices/build/devices', {
        menu, code: `F${farmId}-GH1-TH2`, name: '一号温室第二温湿度', kind: 'sensor', gatewayId: demoGw, placeType: 'greenhouse', place: '一号日光温室', channels: ['airTemperature'],
      });
      expect(demo.status, demo.raw.body).toBe(200);
      expect(demo.data.device.simulated).toBe(true);
      // A sensor added to a demo (simulated) gateway is played; the real gateway's sensor is not.
      svc.simulator?.readNow();
      await until(async () => (await count(`SELECT count(*) AS n FROM device_readings WHERE device_id = $1`, [demo.data.device.id])) > 0);
      svc.simulator?.readNow();
      await svc.hub.idle();
      expect(await count(`SELECT count(*) AS n FROM device_readings WHERE device_id = $1`, [d.data.device.id])).toBe(0);
    });

    it('refuses bad input with 40001 on the field, nothing stored', async () => {
      const before = await count('SELECT count(*) AS n FROM devices');
      const dup = await call(t, farm, 'POST', '/api/devices/build/devices', { menu, code: `F${farmId}-FLD-PUMP`, name: '重复', kind: 'pump' });
      expect(dup.status).toBe(40001);
      expect(dup.raw.json().data ?? dup.raw.body).toBeDefined();
      expect(dup.message).toContain(`F${farmId}-FLD-PUMP`);
      const kind = await call(t, farm, 'POST', '/api/devices/build/devices', { menu, code: `F${farmId}-X1`, name: '怪设备', kind: 'teleporter' }, 'en');
      expect(kind.status).toBe(40001);
      expect(kind.message).toContain('Unknown device kind');
      const channel = await call(t, farm, 'POST', '/api/devices/build/devices', { menu, code: `F${farmId}-X2`, name: '泵', kind: 'pump', channels: ['airTemperature'] });
      expect(channel.status).toBe(40001);
      expect(channel.message).toContain('只有传感器');
      const otherGw = (await t.db.query<{ id: number }>(`SELECT id FROM device_gateways WHERE farm_id <> $1 LIMIT 1`, [farmId])).rows[0].id;
      const foreign = await call(t, farm, 'POST', '/api/devices/build/devices', { menu, code: `F${farmId}-X3`, name: '跨场', kind: 'sensor', gatewayId: otherGw, channels: ['soilMoisture'] }, 'es');
      expect(foreign.status).toBe(40001);
      expect(foreign.message).toContain('pasarela');
      expect(await count('SELECT count(*) AS n FROM devices')).toBe(before);
    });

    it('needs the screen’s element code and the farm’s own records', async () => {
      const reader = await makeUser(t, { orgId: farmId, menus: ['equipmentManagement'], elements: ['equipmentManagement:view'] });
      const r = await call(t, reader.token, 'POST', '/api/devices/build/devices', { menu, code: `F${farmId}-X4`, name: '无权', kind: 'pump' });
      expect(r.status).toBe(40301);
      const pump = (await t.db.query<{ id: number }>(`SELECT id FROM devices WHERE code = $1`, [`F${farmId}-FLD-PUMP`])).rows[0].id;
      const other = await call(t, farm2, 'PUT', '/api/devices/build/devices', { menu, id: pump, name: '被改' });
      expect(other.status).toBe(40401);
      const del = await call(t, farm2, 'DELETE', `/api/devices/build/devices?menu=${menu}&id=${pump}`);
      expect(del.status).toBe(40401);
      expect((await t.db.query<{ name: string }>('SELECT name FROM devices WHERE id = $1', [pump])).rows[0].name).not.toBe('被改');
    });

    it('a device with history or in a scenario is not deleted; a gateway with devices is not deleted', async () => {
      const pump = (await t.db.query<{ id: number }>(`SELECT id FROM devices WHERE code = $1`, [`F${farmId}-FLD-PUMP`])).rows[0].id;
      const r = await call(t, farm, 'DELETE', `/api/devices/build/devices?menu=${menu}&id=${pump}`);
      expect(r.status).toBe(40001);
      expect(r.message).toContain('不能删除');
      const gw = (await t.db.query<{ id: number }>(`SELECT id FROM device_gateways WHERE code = $1`, [`F${farmId}-GW2`])).rows[0].id;
      const g = await call(t, farm, 'DELETE', `/api/devices/build/gateways?menu=${menu}&id=${gw}`);
      expect(g.status).toBe(40001);
      expect(g.message).toContain('还有');
    });

    it('a direct device gets its own password once; the broker lets it speak at once and ignores it once deleted', async () => {
      const code = `F${farmId}-DIRECT1`;
      const d = await call(t, farm, 'POST', '/api/devices/build/devices', { menu: 'constructSmartSystem', code, name: '直连土壤墒情站', kind: 'sensor', direct: true, placeType: 'plot', place: '东区大田灌溉', channels: ['soilMoisture'] });
      expect(d.status, d.raw.body).toBe(200);
      expect(d.data.mqtt.username).toBe(code);
      expect(d.data.mqtt.password).toBeTruthy();
      // The simulator plays it too; stop it from playing so that this test is the device.
      await svc.simulator?.close();
      const broker = svc.broker as NonNullable<DeviceService['broker']>;
      const client = new MqttClient(() => broker.connectInProcess(), { username: code, password: d.data.mqtt.password, protocolVersion: 4, reconnectPeriod: 0, clientId: `${code}-t` });
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', reject);
      });
      // A device never seen can be deleted: delete it first, then have it speak.
      const id = d.data.device.id;
      const del = await call(t, farm, 'DELETE', `/api/devices/build/devices?menu=constructSmartSystem&id=${id}`);
      expect(del.status, del.raw.body).toBe(200);
      expect(await count('SELECT count(*) AS n FROM device_gateways WHERE code = $1', [code])).toBe(0);
      expect(client.connected).toBe(false);
      expect(await count(`SELECT count(*) AS n FROM operation_log WHERE action = 'devices.device.delete' AND record_id = $1`, [String(id)])).toBe(1);
      client.end(true);
    });

    it('a device taken off its gateway may no longer speak; a message for a deleted device is ignored by the hub', async () => {
      const code = `F${farmId}-GH3-SOIL`;
      const gw = (await t.db.query<{ id: number; secret: string }>(`SELECT id, secret FROM device_gateways WHERE code = $1`, [`F${farmId}-GW1`])).rows[0];
      const d = await call(t, farm, 'POST', '/api/devices/build/devices', { menu, code, name: '三号棚土壤', kind: 'sensor', gatewayId: gw.id, place: '三号日光温室', channels: ['soilMoisture'] });
      expect(d.status, d.raw.body).toBe(200);
      const broker = svc.broker as NonNullable<DeviceService['broker']>;
      const connectGw = async () => {
        const c = new MqttClient(() => broker.connectInProcess(), { username: `F${farmId}-GW1`, password: gw.secret, protocolVersion: 4, reconnectPeriod: 0, clientId: `gw1-${Math.random()}` });
        await new Promise<void>((resolve, reject) => {
          c.once('connect', () => resolve());
          c.once('error', reject);
        });
        return c;
      };
      const c = await connectGw();
      const topic = `${t.config.mqttTopicRoot}/${farmId}/device/${code}/reading`;
      await c.publishAsync(topic, JSON.stringify({ deviceId: code, values: { soilMoisture: 33.3 } }), { qos: 1 });
      await until(async () => (await count('SELECT count(*) AS n FROM device_readings WHERE device_id = $1', [d.data.device.id])) === 1);
      // Unwired: the broker refuses its messages (and closes the offender's connection).
      const refused = broker.refused;
      const off = await call(t, farm, 'PUT', '/api/devices/build/devices', { menu, id: d.data.device.id, name: '三号棚土壤（停用）', gatewayId: null });
      expect(off.status, off.raw.body).toBe(200);
      await c.publishAsync(topic, JSON.stringify({ deviceId: code, values: { soilMoisture: 40 } }), { qos: 0 }).catch(() => undefined);
      await until(() => broker.refused > refused);
      await svc.hub.idle();
      expect(await count('SELECT count(*) AS n FROM device_readings WHERE device_id = $1', [d.data.device.id])).toBe(1);
      c.end(true);
      // The hub ignores a message naming a device that no longer exists (as an external broker would pass it).
      await t.db.query('DELETE FROM devices WHERE id = $1', [d.data.device.id]);
      await svc.buildChanged();
      const dropped = svc.hub.counters.dropped;
      await (svc.hub as unknown as { receive(topic: string, payload: Buffer): Promise<void> }).receive(topic, Buffer.from(JSON.stringify({ deviceId: code, values: { soilMoisture: 41 } })));
      expect(svc.hub.counters.dropped).toBe(dropped + 1);
      expect(svc.hub.counters.lastDropReason).toContain('no device');
    });
  });
}
