/**
 * The device simulator in a long-running server (docs/devices.md, "Simulator"): actuators
 * publish nothing between commands, so without the simulated gateways' heartbeat they read
 * offline once DEVICE_OFFLINE_AFTER_S has passed since the server started, and the control
 * room refused every command (the browser tests met it in the full suite's shared server).
 * Here the offline limit is two seconds: after three, the pump and the lamp must still be
 * online and take a command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';

const [engine] = engines();

describe(`the simulator keeps its devices online past the offline limit (${engine.name})`, () => {
  let t: TestApp;
  let farm: string;
  beforeAll(async () => {
    t = await createTestApp(engine, { deviceSimulator: true, deviceOfflineAfterS: 2, commandTimeoutMs: 3000 });
    farm = await t.login('farm');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the pump and the lamp are online after the offline limit has passed, and the pump is switched', async () => {
    await new Promise((r) => setTimeout(r, 3500));
    const units = await call(t, farm, 'GET', '/api/devices/units');
    const devices = (units.data.units as { devices: { id: number; code: string; online: boolean }[] }[]).flatMap((u) => u.devices);
    const pump = devices.find((d) => d.code.endsWith('-FLD-PUMP'))!;
    const lamp = devices.find((d) => d.code.endsWith('-GH1-LAMP'))!;
    expect(pump.online).toBe(true);
    expect(lamp.online).toBe(true);
    const r = await call(t, farm, 'POST', '/api/devices/commands', { deviceId: pump.id, action: 'switch', params: { on: true }, menu: 'farmControllRoomEquipmentControll' });
    expect(r.status, r.raw.body).toBe(200);
    const end = Date.now() + 4000;
    let status = 'pending';
    while (status === 'pending' && Date.now() < end) {
      await new Promise((res) => setTimeout(res, 100));
      status = (await call(t, farm, 'GET', `/api/devices/commands/detail?id=${r.data.id}`)).data.status;
    }
    expect(status).toBe('acknowledged');
  });
});
