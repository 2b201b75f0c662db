/**
 * The land area's geometry rules (server/land, docs/land-and-maps.md) through the API on
 * every engine: the server computes a plot's area in mu from its polygon (exactly, for
 * shapes whose geodesic area is known in closed form); every invalid shape is refused with
 * 40001 on the shape's field, in the caller's language, and nothing changes; two plots of
 * one farm may not overlap beyond the tolerance the resource declares, but plots of two
 * farms may; the map read keeps each farm's shapes to itself; the seeded land is valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, fingerprint, type Body, type Reply } from './resource-fixtures.ts';
import { checkGeometry, MAX_VERTICES } from '../../server/land/geometry.ts';

const PLOTS = '/api/admin/fields';
const rad = Math.PI / 180;
// WGS 84.
const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E = Math.sqrt(E2);
const B = A * (1 - F);
const q = (lat: number) => {
  const s = Math.sin(lat * rad);
  return s / (1 - E2 * s * s) + Math.log((1 + E * s) / (1 - E * s)) / (2 * E);
};

/**
 * The area (mu) on the WGS 84 ellipsoid of a box between two meridians and two parallels,
 * in closed form (b²/2 · Δλ · [q(φ₁) − q(φ₀)]). The server's polygon has geodesic edges, which
 * bow poleward of the parallels by centimetres at these sizes: the two agree to well under
 * 0.01 mu for the boxes below.
 */
function boxMu(lon0: number, lat0: number, lon1: number, lat1: number): number {
  const m2 = ((B * B) / 2) * (lon1 - lon0) * rad * Math.abs(q(lat1) - q(lat0));
  return Math.round((m2 / (10_000 / 15)) * 100) / 100;
}
const box = (lon0: number, lat0: number, lon1: number, lat1: number) =>
  JSON.stringify({ type: 'Polygon', coordinates: [[[lon0, lat0], [lon1, lat0], [lon1, lat1], [lon0, lat1], [lon0, lat0]]] });

describe.each(engines())('land geometry on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let seq = 0;
  // An empty corner far from the seeded farm (plots there meet no seeded shape).
  let lon = 127.5;
  const lat = 45.9;
  const nextBox = (w = 0.002, h = 0.001) => {
    lon += 0.01;
    return { lon0: lon, lat0: lat, lon1: lon + w, lat1: lat + h };
  };
  const plot = (geometry: string | undefined, extra: Body = {}): Body => {
    seq += 1;
    return { code: `LT-${seq}`, name: `测试地块${seq}`, landType: 'dryland', status: 1, ...(geometry === undefined ? {} : { geometry }), ...extra };
  };
  const unchanged = async (write: () => Promise<Reply>, fields: string[]) => {
    const before = await fingerprint(t.db);
    const r = await write();
    expect(r.status, r.raw.body).toBe(40001);
    expect(r.data.errors.map((e: Body) => e.field), r.raw.body).toEqual(fields);
    expect(await fingerprint(t.db)).toBe(before);
    return r;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  // First: the later tests add plots of their own.
  it('seeds valid land for both demo farms: a boundary, 10–30 plots with shapes, houses, facilities, people', async () => {
    for (const who of [farm, farm2]) {
      const { data } = await call(t, who, 'GET', '/api/land/map');
      const features = data.features.features as { geometry: unknown; properties: Body }[];
      const of = (layer: string) => features.filter((f) => f.properties.layer === layer);
      expect(of('boundary')).toHaveLength(1);
      expect(of('plots').length).toBeGreaterThanOrEqual(10);
      expect(of('plots').length).toBeLessThanOrEqual(30);
      expect(of('greenhouses').length).toBeGreaterThanOrEqual(4);
      expect(of('facilities').length).toBeGreaterThanOrEqual(5);
      for (const f of features) {
        const kinds = f.properties.layer === 'facilities' ? (['Point', 'LineString', 'Polygon'] as const) : (['Polygon'] as const);
        const checked = checkGeometry(JSON.stringify(f.geometry), kinds);
        expect(checked.ok, `${f.properties.layer} ${f.properties.name}`).toBe(true);
      }
      // Heilongjiang.
      const [lon, lat] = (of('boundary')[0].geometry as { coordinates: number[][][] }).coordinates[0][0];
      expect(lon).toBeGreaterThan(121);
      expect(lon).toBeLessThan(135);
      expect(lat).toBeGreaterThan(43);
      expect(lat).toBeLessThan(54);
      const people = await call(t, who, 'GET', '/api/land/people/page?pageSize=50');
      expect(people.data.rows.length).toBeGreaterThanOrEqual(6);
    }
  });
  // The tests below draw plots in an empty corner far from the seeded land: without a
  // boundary a plot is not held to one (the boundary rule is tested in land-import.test.ts).
  it('sets the farms’ boundaries aside (the plots below lie outside the seeded ones)', async () => {
    await t.db.query(`UPDATE resource_records SET resource = 'farmBoundariesAside' WHERE resource = 'farmBoundaries'`);
    const { data } = await call(t, farm, 'GET', '/api/land/map?layers=boundary');
    expect(data.features.features).toEqual([]);
  });

  it('computes the area in mu from the polygon, whatever area the client sent', async () => {
    for (const [w, h] of [[0.002, 0.001], [0.01, 0.004], [0.0003, 0.0002]]) {
      const b = nextBox(w, h);
      const r = await call(t, farm, 'POST', PLOTS, plot(box(b.lon0, b.lat0, b.lon1, b.lat1), { areaMu: 99999 }));
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data.areaMu).toBe(boxMu(b.lon0, b.lat0, b.lon1, b.lat1));
    }
    // A right triangle is half its box (the two meridian-parallel halves differ by far less than 0.01 mu at this size).
    const b = nextBox();
    const tri = JSON.stringify({ type: 'Polygon', coordinates: [[[b.lon0, b.lat0], [b.lon1, b.lat0], [b.lon1, b.lat1], [b.lon0, b.lat0]]] });
    const r = await call(t, farm, 'POST', PLOTS, plot(tri));
    expect(r.status, r.raw.body).toBe(200);
    expect(Math.abs(r.data.areaMu - boxMu(b.lon0, b.lat0, b.lon1, b.lat1) / 2)).toBeLessThan(0.05);
    // A hole (a pond) is taken out of the area.
    const c = nextBox(0.004, 0.002);
    const withHole = JSON.stringify({
      type: 'Polygon',
      coordinates: [JSON.parse(box(c.lon0, c.lat0, c.lon1, c.lat1)).coordinates[0], JSON.parse(box(c.lon0 + 0.001, c.lat0 + 0.0005, c.lon0 + 0.002, c.lat0 + 0.0015)).coordinates[0].reverse()],
    });
    const holed = await call(t, farm, 'POST', PLOTS, plot(withHole));
    expect(holed.status, holed.raw.body).toBe(200);
    expect(holed.data.areaMu).toBeCloseTo(boxMu(c.lon0, c.lat0, c.lon1, c.lat1) - boxMu(c.lon0 + 0.001, c.lat0 + 0.0005, c.lon0 + 0.002, c.lat0 + 0.0015), 1);
  });

  it('recomputes the area when a vertex moves', async () => {
    const b = nextBox();
    const made = await call(t, farm, 'POST', PLOTS, plot(box(b.lon0, b.lat0, b.lon1, b.lat1)));
    expect(made.status, made.raw.body).toBe(200);
    const { id, version, ...rest } = made.data;
    const wider = box(b.lon0, b.lat0, b.lon1 + 0.001, b.lat1);
    const r = await call(t, farm, 'PUT', `${PLOTS}/${id}`, { ...rest, geometry: wider, version });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.areaMu).toBe(boxMu(b.lon0, b.lat0, b.lon1 + 0.001, b.lat1));
    expect(r.data.areaMu).toBeGreaterThan(made.data.areaMu);
  });

  it('refuses every invalid shape with a sentence on the shape field, in three languages, changing nothing', async () => {
    const b = nextBox();
    const ring = (coords: number[][]) => JSON.stringify({ type: 'Polygon', coordinates: [coords] });
    const cases: [string, string, RegExp][] = [
      ['self-intersection (a bow tie)', ring([[b.lon0, b.lat0], [b.lon1, b.lat1], [b.lon1, b.lat0], [b.lon0, b.lat1], [b.lon0, b.lat0]]), /自相交/],
      ['open ring', ring([[b.lon0, b.lat0], [b.lon1, b.lat0], [b.lon1, b.lat1], [b.lon0, b.lat1]]), /没有闭合/],
      ['longitude out of bounds', ring([[190, 45], [190.001, 45], [190.001, 45.001], [190, 45]]), /超出经纬度范围/],
      ['latitude out of bounds', ring([[126, 95], [126.001, 95], [126.001, 95.001], [126, 95]]), /超出经纬度范围/],
      ['a shape across a province', box(124, 45, 127, 47), /范围过大/],
      ['too few points', ring([[b.lon0, b.lat0], [b.lon1, b.lat0], [b.lon0, b.lat0]]), /至少需要/],
      ['all on one line', ring([[b.lon0, b.lat0], [b.lon1, b.lat0], [b.lon0 + 0.003, b.lat0], [b.lon0, b.lat0]]), /(自相交|太小|至少需要)/],
      ['not JSON', '{"type":"Polygon",', /不是合法的 GeoJSON/],
      ['a point where a polygon is wanted', JSON.stringify({ type: 'Point', coordinates: [b.lon0, b.lat0] }), /只能是以下图形/],
      ['text coordinates', JSON.stringify({ type: 'Polygon', coordinates: [[['a', 'b'], [1, 2], [3, 4], ['a', 'b']]] }), /坐标应为/],
      ['foreign members', JSON.stringify({ type: 'Polygon', coordinates: JSON.parse(box(b.lon0, b.lat0, b.lon1, b.lat1)).coordinates, crs: 'x' }), /坐标应为/],
    ];
    for (const [what, geometry, words] of cases) {
      const r = await unchanged(() => call(t, farm, 'POST', PLOTS, plot(geometry)), ['geometry']);
      expect(r.message, what).toMatch(words);
      expect(r.data.errors[0].message, what).toMatch(/^地块图形/);
    }
    // Too many vertices: a circle of MAX_VERTICES + 1 corners (short numbers keep it under the field's length).
    const n = MAX_VERTICES + 1;
    const circle = Array.from({ length: n }, (_, i) => [
      Number((126.5 + 0.01 * Math.cos((2 * Math.PI * i) / n)).toFixed(4)),
      Number((46.5 + 0.01 * Math.sin((2 * Math.PI * i) / n)).toFixed(4)),
    ]);
    const big = JSON.stringify({ type: 'Polygon', coordinates: [[...circle, circle[0]]] });
    expect(big.length).toBeLessThanOrEqual(100_000);
    const many = await unchanged(() => call(t, farm, 'POST', PLOTS, plot(big)), ['geometry']);
    expect(many.message).toMatch(new RegExp(`最多 ${MAX_VERTICES}`));
    // The same sentence in English and Spanish.
    const bow = cases[0][1];
    const en = await unchanged(() => call(t, farm, 'POST', PLOTS, plot(bow), 'en'), ['geometry']);
    expect(en.data.errors[0].message).toBe('The edges of Plot shape cross each other; move the corners so the outline does not cross itself');
    const es = await unchanged(() => call(t, farm, 'POST', PLOTS, plot(bow), 'es'), ['geometry']);
    expect(es.data.errors[0].message).toMatch(/Los bordes de Forma de la parcela se cruzan/);
    // Neither a shape nor an area: the area is asked for.
    await unchanged(() => call(t, farm, 'POST', PLOTS, plot(undefined)), ['areaMu']);
    // An update to a bad shape changes nothing either.
    const made = await call(t, farm, 'POST', PLOTS, plot(box(b.lon0, b.lat0, b.lon1, b.lat1)));
    expect(made.status, made.raw.body).toBe(200);
    const { id, version, ...rest } = made.data;
    await unchanged(() => call(t, farm, 'PUT', `${PLOTS}/${id}`, { ...rest, geometry: bow, version }), ['geometry']);
    // Bad input the schema refuses before any geometry rule: an object in place of the text, an overlong text.
    await unchanged(() => call(t, farm, 'POST', PLOTS, plot(undefined, { geometry: { type: 'Polygon' } })), ['geometry']);
    await unchanged(() => call(t, farm, 'POST', PLOTS, plot('x'.repeat(100_001))), ['geometry']);
  });

  it('refuses a plot overlapping another of the farm beyond the tolerance, allows a sliver and another farm', async () => {
    const b = nextBox(0.004, 0.002);
    const first = await call(t, farm, 'POST', PLOTS, plot(box(b.lon0, b.lat0, b.lon1, b.lat1)));
    expect(first.status, first.raw.body).toBe(200);
    // Half over the first plot.
    const r = await unchanged(() => call(t, farm, 'POST', PLOTS, plot(box(b.lon0 + 0.002, b.lat0, b.lon1 + 0.002, b.lat1))), ['geometry']);
    expect(r.message).toContain(String(first.data.name));
    expect(r.message).toMatch(/重叠了 50(\.\d)?%，最多允许 1%/);
    // A shared border drawn twice by hand: 0.5 % of the plot's width overlaps.
    const sliver = await call(t, farm, 'POST', PLOTS, plot(box(b.lon1 - 0.00002, b.lat0, b.lon1 + 0.004, b.lat1)));
    expect(sliver.status, sliver.raw.body).toBe(200);
    // Only touching.
    const touching = await call(t, farm, 'POST', PLOTS, plot(box(b.lon0 - 0.003, b.lat0, b.lon0, b.lat1)));
    expect(touching.status, touching.raw.body).toBe(200);
    // Moving a plot onto its neighbour is refused too; moving it onto itself is not an overlap.
    const { id, version, ...rest } = touching.data;
    await unchanged(() => call(t, farm, 'PUT', `${PLOTS}/${id}`, { ...rest, geometry: box(b.lon0 - 0.001, b.lat0, b.lon0 + 0.002, b.lat1), version }), ['geometry']);
    const same = await call(t, farm, 'PUT', `${PLOTS}/${id}`, { ...rest, version });
    expect(same.status, same.raw.body).toBe(200);
    // The same place on another farm is that farm's business.
    const other = await call(t, farm2, 'POST', PLOTS, plot(box(b.lon0, b.lat0, b.lon1, b.lat1)));
    expect(other.status, other.raw.body).toBe(200);
    expect(other.data.farmId).not.toBe(first.data.farmId);
  });

  it('of two overlapping plots saved at once, exactly one lands', async () => {
    const b = nextBox(0.004, 0.002);
    const [x, y] = await Promise.all([
      call(t, farm, 'POST', PLOTS, plot(box(b.lon0, b.lat0, b.lon1, b.lat1))),
      call(t, farm, 'POST', PLOTS, plot(box(b.lon0 + 0.001, b.lat0, b.lon1 + 0.001, b.lat1))),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 40001]);
    expect((x.status === 40001 ? x : y).data.errors[0].field).toBe('geometry');
  });

  it('greenhouses, groups, facilities and the boundary follow the same rules; facilities may be points and lines', async () => {
    const group = (await call(t, farm, 'GET', '/api/land/greenhouseGroups/page?pageSize=1&sort=code')).data.rows[0];
    expect(group).toBeDefined();
    const b = nextBox(0.001, 0.0001);
    const house = await call(t, farm, 'POST', '/api/land/greenhouses', {
      groupId: group.id, code: `GT-${++seq}`, name: `测试温室${seq}`, kind: 'solar', status: 0, geometry: box(b.lon0, b.lat0, b.lon1, b.lat1),
    });
    expect(house.status, house.raw.body).toBe(200);
    expect(house.data.areaMu).toBe(boxMu(b.lon0, b.lat0, b.lon1, b.lat1));
    const well = await call(t, farm, 'POST', '/api/land/facilities', {
      code: `W-${++seq}`, name: '测试机井', kind: 'well', status: 1, geometry: JSON.stringify({ type: 'Point', coordinates: [b.lon0, b.lat0] }),
    });
    expect(well.status, well.raw.body).toBe(200);
    expect(well.data.areaMu).toBeUndefined();
    const road = await call(t, farm, 'POST', '/api/land/facilities', {
      code: `R-${++seq}`, name: '测试道路', kind: 'road', status: 1, geometry: JSON.stringify({ type: 'LineString', coordinates: [[b.lon0, b.lat0], [b.lon1, b.lat1]] }),
    });
    expect(road.status, road.raw.body).toBe(200);
    await unchanged(
      () => call(t, farm, 'POST', '/api/land/facilities', { code: `P-${++seq}`, name: '坏点', kind: 'well', status: 1, geometry: JSON.stringify({ type: 'Point', coordinates: [200, 45] }) }),
      ['geometry'],
    );
    await unchanged(
      () => call(t, farm, 'POST', '/api/land/boundaries', { name: '坏边界', geometry: JSON.stringify({ type: 'Polygon', coordinates: [[[b.lon0, b.lat0], [b.lon1, b.lat1], [b.lon1, b.lat0], [b.lon0, b.lat1], [b.lon0, b.lat0]]] }) }),
      ['geometry'],
    );
    // A greenhouse must be in a group of its own farm.
    const farm2Group = (await call(t, farm2, 'GET', '/api/land/greenhouseGroups/page?pageSize=1')).data.rows[0];
    await unchanged(
      () => call(t, farm, 'POST', '/api/land/greenhouses', { groupId: farm2Group.id, code: `GT-${++seq}`, name: '跨场温室', kind: 'solar', status: 0 }),
      ['groupId'],
    );
  });

  it('puts the farms’ boundaries back', async () => {
    await t.db.query(`UPDATE resource_records SET resource = 'farmBoundaries' WHERE resource = 'farmBoundariesAside'`);
    const { data } = await call(t, farm, 'GET', '/api/land/map?layers=boundary');
    expect(data.features.features).toHaveLength(1);
  });

  it('the map read gives each farm its own shapes, and nothing beyond the caller’s scope', async () => {
    const mine = await call(t, farm, 'GET', '/api/land/map');
    expect(mine.status, mine.raw.body).toBe(200);
    const theirs = await call(t, farm2, 'GET', '/api/land/map');
    const farmIds = (r: Reply) => new Set(r.data.features.features.map((f: Body) => (f.properties as Body).farmId));
    expect([...farmIds(mine)]).toHaveLength(1);
    expect([...farmIds(theirs)]).toHaveLength(1);
    expect([...farmIds(mine)][0]).not.toBe([...farmIds(theirs)][0]);
    const layers = new Set(mine.data.features.features.map((f: Body) => (f.properties as Body).layer));
    expect([...layers].sort()).toEqual(['boundary', 'facilities', 'greenhouseGroups', 'greenhouses', 'plots']);
    const plots = (await call(t, farm, 'GET', '/api/land/map?layers=plots')).data.features.features as Body[];
    expect(plots.length).toBeGreaterThanOrEqual(10);
    expect(plots.every((f) => (f.properties as Body).layer === 'plots')).toBe(true);
    // Another farm's id narrows to nothing.
    const farm2Id = [...farmIds(theirs)][0];
    expect((await call(t, farm, 'GET', `/api/land/map?farmId=${farm2Id}`)).data.features.features).toEqual([]);
    // Bad input and no authority.
    expect((await call(t, farm, 'GET', '/api/land/map?layers=1;drop')).status).toBe(40001);
    expect((await call(t, farm, 'GET', '/api/land/map?farmId=abc')).status).toBe(40001);
    // Every demo role holds a map screen now (the home page's small map, farmMainIndex): a
    // manufacturer gets its own scope, which holds no farm's land.
    const factory = await call(t, `Bearer ${await t.login('factory')}`, 'GET', '/api/land/map');
    expect(factory.status, factory.raw.body).toBe(200);
    expect(factory.data.features.features).toEqual([]);
    expect((await call(t, null, 'GET', '/api/land/map')).status).toBe(40101);
  });

  it('the devices layer: each farm its own placed devices, inside its own land, with online, alarms and readings; no map screen refused', async () => {
    for (const who of [farm, farm2]) {
      const reply = await call(t, who, 'GET', '/api/land/devices');
      expect(reply.status, reply.raw.body).toBe(200);
      const devices = reply.data.devices as Body[];
      expect(devices.length).toBeGreaterThan(5);
      expect(new Set(devices.map((d) => d.farmId)).size).toBe(1);
      // Every device stands within its farm's land (the boundary's box, a few metres of slack) and no two on one spot.
      const { data } = await call(t, who, 'GET', '/api/land/map?layers=boundary');
      const ring = (data.features.features[0].geometry as { coordinates: number[][][] }).coordinates[0];
      const lons = ring.map((p) => p[0]);
      const lats = ring.map((p) => p[1]);
      for (const d of devices) {
        expect(d.lon as number).toBeGreaterThan(Math.min(...lons) - 0.001);
        expect(d.lon as number).toBeLessThan(Math.max(...lons) + 0.001);
        expect(d.lat as number).toBeGreaterThan(Math.min(...lats) - 0.001);
        expect(d.lat as number).toBeLessThan(Math.max(...lats) + 0.001);
        expect(typeof d.online).toBe('boolean');
        expect(Array.isArray(d.alarms)).toBe(true);
        expect(typeof d.readings).toBe('object');
      }
      expect(new Set(devices.map((d) => `${d.lon},${d.lat}`)).size).toBe(devices.length);
    }
    const mine = (await call(t, farm, 'GET', '/api/land/devices')).data.devices as Body[];
    const theirs = (await call(t, farm2, 'GET', '/api/land/devices')).data.devices as Body[];
    expect(mine[0].farmId).not.toBe(theirs[0].farmId);
    expect((await call(t, farm, 'GET', `/api/land/devices?farmId=${theirs[0].farmId}`)).data.devices).toEqual([]);
    expect((await call(t, farm, 'GET', '/api/land/devices?farmId=abc')).status).toBe(40001);
    expect((await call(t, `Bearer ${await t.login('factory')}`, 'GET', '/api/land/devices')).status).toBe(40301);
    expect((await call(t, null, 'GET', '/api/land/devices')).status).toBe(40101);
  });
});
