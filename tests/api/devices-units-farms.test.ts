/**
 * A viewer of several farms (the provider of the demo bloc, the regional center) sees each
 * farm's places apart on the equipment screens (GET /api/devices/units): both demo farms have
 * a 一号日光温室, and each is a unit of its own, holding only its farm's devices and alarms;
 * the environment charts (GET /api/devices/readings/series) give each farm's house a series
 * of its own, named with its farm, and a place asked for as farmId:name is that farm's only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call } from './resource-fixtures.ts';

type Series = { series: { place: string; farmId: number | null; farmName: string | null; label: string; points: { t: string; avg: number; n: number }[] }[] };
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

  it('charts: the two farms’ 一号日光温室 are two series, never averaged together; farmId:name asks for one farm’s', async () => {
    const to = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const from = new Date(to.getTime() - 3 * 86_400_000);
    const url = (places: string) => `/api/devices/readings/series?kind=airTemperature&places=${encodeURIComponent(places)}&from=${from.toISOString()}&to=${to.toISOString()}&bucket=day`;
    const provider = await t.login('provider');
    const both = (await call(t, provider, 'GET', url('一号日光温室'))).data as Series;
    expect(both.series.map((s) => s.farmName).sort()).toEqual(['嫩江源合作农场', '禾丰生态农场']);
    expect(new Set(both.series.map((s) => s.label)).size).toBe(2);
    for (const s of both.series) expect(s.label).toBe(`${s.farmName} · 一号日光温室`);
    // Each series is exactly what its own farm reads of its house.
    const farm = await t.login('farm');
    const own = (await call(t, farm, 'GET', url('一号日光温室'))).data as Series;
    expect(own.series).toHaveLength(1);
    expect(own.series[0].label).toBe('一号日光温室');
    expect(own.series[0].points.length).toBeGreaterThan(0);
    const same = both.series.find((s) => s.farmId === own.series[0].farmId);
    expect(same?.points).toEqual(own.series[0].points);
    const qualified = (await call(t, provider, 'GET', url(`${own.series[0].farmId}:一号日光温室`))).data as Series;
    expect(qualified.series.map((s) => s.farmId)).toEqual([own.series[0].farmId]);
    expect(qualified.series[0].points).toEqual(own.series[0].points);
    // Another farm's place asked for by id is not read: the scope still holds.
    const other = both.series.find((s) => s.farmId !== own.series[0].farmId);
    const refused = (await call(t, farm, 'GET', url(`${other?.farmId}:一号日光温室`))).data as Series;
    expect(refused.series.every((s) => s.points.length === 0)).toBe(true);
  });
});
