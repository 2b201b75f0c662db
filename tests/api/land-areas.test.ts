/**
 * Surveyed areas (issue 30 item 2, docs/land-and-maps.md "Areas"): the shared geodesic area
 * (runtime/format/geodesic.ts) against GeographicLib's published figures and against the
 * closed form of the ellipsoid's quadrangle for fields at 20°, 45° and 53° N (within 0.01 %),
 * and the one-off recomputation migration 153 asks for, on every engine: stored areas from
 * the old sphere are put right, each change is in the operation log, and it runs once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaUnits, lineLength, polygonArea } from '../../runtime/format/geodesic.ts';
import { areaMu } from '../../server/land/geometry.ts';
import { recomputePendingAreas } from '../../server/land/area-recompute.ts';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

const rad = Math.PI / 180;
const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E = Math.sqrt(E2);
const B = A * (1 - F);
const q = (lat: number) => {
  const s = Math.sin(lat * rad);
  return s / (1 - E2 * s * s) + Math.log((1 + E * s) / (1 - E * s)) / (2 * E);
};
/** The ellipsoid's area between two meridians and two parallels (closed form). */
const quadrangle = (lon0: number, lat0: number, lon1: number, lat1: number) => ((B * B) / 2) * (lon1 - lon0) * rad * Math.abs(q(lat1) - q(lat0));
/** turf's sphere (the previous areas). */
const R = 6_371_008.8;
const sphereBox = (lon0: number, lat0: number, lon1: number, lat1: number) => R * R * (lon1 - lon0) * rad * Math.abs(Math.sin(lat1 * rad) - Math.sin(lat0 * rad));
const ring = (lon0: number, lat0: number, lon1: number, lat1: number) => [[lon0, lat0], [lon1, lat0], [lon1, lat1], [lon0, lat1], [lon0, lat0]];

describe('geodesic areas on the WGS 84 ellipsoid', () => {
  it('matches GeographicLib’s published figures', () => {
    // Planimeter(1) manual: the octant (0,0), (0,90), (90,0): perimeter 30022685 m, area 63758202715511 m².
    const octant = [[0, 0], [90, 0], [0, 90], [0, 0]];
    expect(Math.abs(polygonArea([octant]) - 63_758_202_715_511) / 63_758_202_715_511).toBeLessThan(1e-9);
    expect(Math.round(lineLength(octant))).toBe(30_022_686);
    // The geographiclib-geodesic documentation's Antarctica: 13662703680020.1 m².
    const antarctica = [[-63.1, -58], [-72.9, -74], [-71.9, -102], [-74.9, -102], [-74.3, -131], [-77.5, -163], [-77.4, 163], [-71.7, 172], [-65.9, 140], [-65.7, 113], [-66.6, 88], [-66.9, 59], [-69.8, 25], [-70.0, -4], [-71.0, -14], [-77.3, -33], [-77.9, -46], [-74.7, -61]].map(([lat, lon]) => [lon, lat]);
    expect(Math.abs(polygonArea([antarctica]) - 13_662_703_680_020.1)).toBeLessThan(1);
  });

  it.each([20, 45, 53])('a field at %i° N is within 0.01 per cent of the ellipsoid’s figure, in m², hectares and mu', (lat) => {
    // A large state-farm field: 0.05° × 0.03° (about 5,000 to 8,000 mu).
    const exact = quadrangle(126, lat, 126.05, lat + 0.03);
    const m2 = polygonArea([ring(126, lat, 126.05, lat + 0.03)]);
    expect(Math.abs(m2 - exact) / exact).toBeLessThan(1e-4);
    const units = areaUnits(m2);
    expect(units.hectares).toBeCloseTo(m2 / 10_000, 9);
    expect(units.mu).toBeCloseTo(m2 / (10_000 / 15), 9);
    // The stored figure (mu to the hundredth) is the same.
    expect(Math.abs(areaMu({ type: 'Polygon', coordinates: [ring(126, lat, 126.05, lat + 0.03)] }) - exact / (10_000 / 15))).toBeLessThan(0.01);
    // The sphere was off by more than 0.1 % (under the ellipsoid at 45° and 53°, over at 20°).
    expect(Math.abs(sphereBox(126, lat, 126.05, lat + 0.03) - exact) / exact).toBeGreaterThan(1e-3);
  });

  it('takes holes out and ignores the ring’s direction', () => {
    const outer = ring(126, 45, 126.01, 45.01);
    const hole = ring(126.002, 45.002, 126.004, 45.004);
    expect(polygonArea([outer])).toBeCloseTo(polygonArea([[...outer].reverse()]), 6);
    expect(polygonArea([outer, hole])).toBeCloseTo(quadrangle(126, 45, 126.01, 45.01) - quadrangle(126.002, 45.002, 126.004, 45.004), -1);
  });
});

describe.each(engines())('the recomputation of stored areas on $name', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it('puts the sphere’s areas right once, each change in the operation log', async () => {
    // The server's start ran migration 153's request already (the seed's areas were right).
    const first = await t.db.query<{ done: boolean; changed: number }>('SELECT done_at IS NOT NULL AS done, changed FROM land_area_recomputations WHERE id = 1');
    expect(first.rows[0]).toEqual({ done: true, changed: 0 });
    // A database from before: the plots of farm 1 with their areas on the sphere.
    const { rows: plots } = await t.db.query<{ id: number; shape: string; area: number }>(
      `SELECT id, data->>'geometry' AS shape, (data->>'areaMu')::float8 AS area FROM resource_records
        WHERE resource = 'farmFields' AND data ? 'geometry' ORDER BY id LIMIT 5`,
    );
    expect(plots.length).toBe(5);
    const stale = plots.map((p) => ({ id: Number(p.id), area: Math.round((p.area * (1 - 0.0023) - 0.01) * 100) / 100, right: Number(p.area) }));
    for (const s of stale) await t.db.query(`UPDATE resource_records SET data = jsonb_set(data, '{areaMu}', to_jsonb($2::numeric)) WHERE id = $1`, [s.id, s.area]);
    await t.db.query(`INSERT INTO land_area_recomputations(id, reason) VALUES (2, 'test')`);

    const done = await recomputePendingAreas(t.db);
    expect(done?.changed).toBe(5);
    expect(done!.muAfter - done!.muBefore).toBeCloseTo(stale.reduce((sum, s) => sum + s.right - s.area, 0), 1);
    for (const s of stale) {
      const { rows } = await t.db.query<{ area: number }>(`SELECT (data->>'areaMu')::float8 AS area FROM resource_records WHERE id = $1`, [s.id]);
      expect(rows[0].area).toBe(s.right);
      const log = await t.db.query<{ username: string; changes: { areaMu: { before: number; after: number } } }>(
        `SELECT username, changes FROM operation_log WHERE action = 'land.areaRecomputed' AND record_id = $1`,
        [String(s.id)],
      );
      expect(log.rows).toHaveLength(1);
      expect(log.rows[0].username).toBe('system');
      expect(log.rows[0].changes.areaMu).toEqual({ before: s.area, after: s.right });
    }
    // Once: nothing is pending any more.
    expect(await recomputePendingAreas(t.db)).toBeNull();
    const row = await t.db.query<{ checked: number; changed: number }>('SELECT checked, changed FROM land_area_recomputations WHERE id = 2');
    expect(Number(row.rows[0].changed)).toBe(5);
    expect(Number(row.rows[0].checked)).toBeGreaterThan(20);
  });
});
