/**
 * The devices layer of the farm map (docs/land-and-maps.md): where each device stands
 * (the devices' own `lng` / `lat`, migration 115, which the system-build screens edit) and its live state — online, open alarms, the last
 * readings — for the map widget, which then follows the devices' event stream
 * (GET /api/devices/events) rather than polling. Read-only: the devices area owns the
 * devices themselves (server/devices).
 *
 * The demo positions are seeded inside the farm's own shapes: a greenhouse's devices in a
 * greenhouse, a plot's in a plot, a facility's at a facility (the devices' place names are
 * the devices area's, not the land register's, so the n-th place of a kind takes the n-th
 * shape of that kind), several devices at one place spread on a small circle.
 */
import type { Queryable } from '../db/database.ts';

type Ring = number[][];

/** The centre of a GeoJSON Point / LineString / Polygon text (vertex mean: inside a convex plot or house). */
export function shapeCentre(text: string): [number, number] | null {
  try {
    const g = JSON.parse(text) as { type: string; coordinates: unknown };
    const pts: number[][] = g.type === 'Point' ? [g.coordinates as number[]] : g.type === 'LineString' ? (g.coordinates as Ring) : g.type === 'Polygon' ? (g.coordinates as Ring[])[0].slice(0, -1) : [];
    if (!pts.length) return null;
    return [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
  } catch {
    return null;
  }
}

const LAND_OF_PLACE = { greenhouse: 'greenhouses', plot: 'farmFields', facility: 'farmFacilities' } as const;

/** Places every device that has no position yet (the demo seed; safe to run again). */
export async function seedDevicePositions(tx: Queryable): Promise<void> {
  const { rows: devices } = await tx.query<{ id: number; farm_id: number; place_type: keyof typeof LAND_OF_PLACE; place: string }>(
    `SELECT d.id, d.farm_id, d.place_type, d.place FROM devices d
      WHERE d.lng IS NULL OR d.lat IS NULL ORDER BY d.farm_id, d.id`,
  );
  const shapes = new Map<string, [number, number][]>();
  const centresOf = async (farmId: number, resource: string) => {
    const key = `${farmId}/${resource}`;
    if (!shapes.has(key)) {
      const { rows } = await tx.query<{ geometry: string }>(
        `SELECT data->>'geometry' AS geometry FROM resource_records WHERE resource = $1 AND farm_id = $2 AND data ? 'geometry' ORDER BY id`,
        [resource, farmId],
      );
      shapes.set(key, rows.map((r) => shapeCentre(r.geometry)).filter((c): c is [number, number] => !!c));
    }
    return shapes.get(key)!;
  };
  const placeIndex = new Map<string, Map<string, number>>();
  const atPlace = new Map<string, number>();
  const placed = new Map<number, [number, number][]>();
  for (const d of devices) {
    const resource = LAND_OF_PLACE[d.place_type] ?? 'farmFields';
    const centres = await centresOf(d.farm_id, resource);
    if (!centres.length) continue;
    const kindKey = `${d.farm_id}/${d.place_type}`;
    const places = placeIndex.get(kindKey) ?? new Map<string, number>();
    placeIndex.set(kindKey, places);
    if (!places.has(d.place)) places.set(d.place, places.size);
    const [lon, lat] = centres[places.get(d.place)! % centres.length];
    // The k-th device of one place: on a circle of 6 m around its centre (the first at the
    // centre), pushed further out while it would stand within 3 m of a device already placed.
    const k = atPlace.get(`${kindKey}/${d.place}`) ?? 0;
    atPlace.set(`${kindKey}/${d.place}`, k + 1);
    const angle = (k * 2 * Math.PI) / 7 + (places.get(d.place)! * Math.PI) / 5;
    const mPerLon = 111_320 * Math.cos((lat * Math.PI) / 180);
    const taken = placed.get(d.farm_id) ?? [];
    placed.set(d.farm_id, taken);
    let r = k === 0 ? 0 : 6;
    const at = () => [lon + (r * Math.cos(angle)) / mPerLon, lat + (r * Math.sin(angle)) / 111_320] as const;
    while (taken.some(([x, y]) => Math.hypot((x - at()[0]) * mPerLon, (y - at()[1]) * 111_320) < 3)) r += 6;
    const [dLon, dLat] = [at()[0] - lon, at()[1] - lat];
    taken.push(at() as unknown as [number, number]);
    await tx.query('UPDATE devices SET lng = $2, lat = $3 WHERE id = $1 AND (lng IS NULL OR lat IS NULL)', [
      d.id, Number((lon + dLon).toFixed(7)), Number((lat + dLat).toFixed(7)),
    ]);
  }
}

export interface DevicePoint {
  id: number;
  farmId: number;
  code: string;
  name: string;
  kind: string;
  model: string;
  place: string;
  unit: string;
  lon: number;
  lat: number;
  online: boolean;
  lastSeen: string | null;
  state: Record<string, unknown>;
  alarms: { id: number; message: string; raisedAt: string }[];
  readings: Record<string, { value: number; ts: string }>;
}

/** The devices with a position in the given scope (a SQL condition on `d.farm_id` with its parameters). */
export async function devicePoints(db: Queryable, scopeSql: string, values: unknown[], offlineAfterS: number): Promise<DevicePoint[]> {
  const n = values.length;
  const { rows } = await db.query<{
    id: number; farm_id: number; code: string; name: string; kind: string; model: string; place: string; unit: string; lon: number; lat: number;
    online: boolean | null; last_seen: Date | null; state: Record<string, unknown>;
  }>(
    `SELECT d.id, d.farm_id, d.code, d.name, d.kind, d.model, d.place, d.unit, d.lng AS lon, d.lat,
            d.online AND d.last_seen > now() - make_interval(secs => $${n + 1}) AS online, d.last_seen, d.state
       FROM devices d
      WHERE d.lng IS NOT NULL AND d.lat IS NOT NULL AND ${scopeSql} ORDER BY d.id`,
    [...values, offlineAfterS],
  );
  if (!rows.length) return [];
  const ids = rows.map((r) => Number(r.id));
  const alarms = await db.query<{ id: number; device_id: number | null; place: string; farm_id: number; message: string; raised_at: Date }>(
    `SELECT a.id, a.device_id, a.place, a.farm_id, a.message, a.raised_at FROM device_alarms a
      WHERE a.cleared_at IS NULL AND a.farm_id = ANY($1::int[]) ORDER BY a.raised_at DESC`,
    [[...new Set(rows.map((r) => Number(r.farm_id)))]],
  );
  const readings = await db.query<{ device_id: number; kind: string; value: number; ts: Date }>(
    `SELECT DISTINCT ON (device_id, kind) device_id, kind, value, ts FROM device_readings
      WHERE device_id = ANY($1::int[]) AND ts > now() - interval '2 days' ORDER BY device_id, kind, ts DESC`,
    [ids],
  );
  return rows.map((r) => ({
    id: Number(r.id), farmId: Number(r.farm_id), code: r.code, name: r.name, kind: r.kind, model: r.model, place: r.place, unit: r.unit,
    lon: Number(r.lon), lat: Number(r.lat), online: r.online === true, lastSeen: r.last_seen ? new Date(r.last_seen).toISOString() : null, state: r.state ?? {},
    // An alarm of the device, or of its place when the alarm names no device (a scenario on a greenhouse's readings).
    alarms: alarms.rows
      .filter((a) => Number(a.farm_id) === Number(r.farm_id) && (a.device_id != null ? Number(a.device_id) === Number(r.id) : a.place === r.unit || a.place === r.place))
      .map((a) => ({ id: Number(a.id), message: a.message, raisedAt: new Date(a.raised_at).toISOString() })),
    readings: Object.fromEntries(readings.rows.filter((x) => Number(x.device_id) === Number(r.id)).map((x) => [x.kind, { value: Number(x.value), ts: new Date(x.ts).toISOString() }])),
  }));
}
