/**
 * A viewer of several farms (the provider of the demo bloc, the regional center) sees each
 * farm's places apart on the equipment screens (GET /api/devices/units): both demo farms have
 * a 一号日光温室, and each is a unit of its own, holding only its farm's devices and alarms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';

type Units = { units: { unit: string; farmId: number; farmName: string; devices: { farmId: number }[] }[] };

describe.each(engines())('units by farm on $name', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['provider', 'center'])('%s: the two farms’ 一号日光温室 are two units, each with its own devices', async (who) => {
    const reply = await call(t, await t.login(who), 'GET', '/api/devices/units');
    expect(reply.status).toBe(200);
    const { units } = reply.data as Units;
    const houses = units.filter((u) => u.unit === '一号日光温室');
    expect(houses.map((u) => u.farmName).sort()).toEqual(['嫩江源合作农场', '禾丰生态农场']);
    for (const u of units) expect(u.devices.every((d) => d.farmId === u.farmId)).toBe(true);
  });

  it('a farm sees only its own units', async () => {
    const { units } = (await call(t, await t.login('farm'), 'GET', '/api/devices/units')).data as Units;
    expect(new Set(units.map((u) => u.farmName))).toEqual(new Set(['禾丰生态农场']));
  });
});
