/**
 * What the consoles read: the units with their devices, state and latest readings, and
 * readings as time buckets over any range (docs/devices.md, "Readings"). A chart of one
 * place and kind over a year reads one range of device_readings_chart_idx (farm, kind,
 * place, ts, INCLUDE value) and aggregates it by bucket: date_bin for fixed buckets
 * (5 minutes, an hour, a day: aligned on the farm's midnight), date_trunc in the farm's
 * time zone for weeks and months.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmScope } from '../materials/ledger.ts';
import { READING_UNITS, type ReadingKind } from './topics.ts';
import type { DeviceUnitsReply, UnitView } from '../../runtime/protocol/devices.ts';

export const BUCKETS = ['5m', 'hour', 'day', 'week', 'month'] as const;
export type Bucket = (typeof BUCKETS)[number];
const BUCKET_MS: Record<Bucket, number> = { '5m': 300_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 };
export const MAX_POINTS = 2000;

/** The finest bucket that keeps a range under 800 points. */
export function autoBucket(from: Date, to: Date): Bucket {
  const span = to.getTime() - from.getTime();
  return BUCKETS.find((b) => span / BUCKET_MS[b] <= 800) ?? 'month';
}

export function pointsOf(from: Date, to: Date, bucket: Bucket): number {
  return Math.ceil((to.getTime() - from.getTime()) / BUCKET_MS[bucket]);
}

export function bucketSql(bucket: Bucket, column: string): string {
  switch (bucket) {
    case '5m': return `date_bin('5 minutes', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+08')`;
    case 'hour': return `date_bin('1 hour', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+08')`;
    case 'day': return `date_bin('1 day', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+08')`;
    case 'week': return `(date_trunc('week', ${column} AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai')`;
    case 'month': return `(date_trunc('month', ${column} AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai')`;
  }
}

/** A range that starts and ends on whole hours can be read from the hourly rollup. */
function onHours(d: Date): boolean {
  return d.getTime() % 3_600_000 === 0;
}

/** A place asked for by name alone (every farm in scope that has it) or by farm and name. */
export interface PlaceRef {
  place: string;
  farmId?: number;
}

/** `places` of the series query: names, or `farmId:name` for one farm's place (at most 12). */
export function parsePlaces(raw: string | undefined): PlaceRef[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 12)
    .map((s) => {
      const m = /^(\d{1,9}):(.+)$/.exec(s);
      return m ? { farmId: Number(m[1]), place: m[2] } : { place: s };
    });
}

export interface SeriesQuery {
  kind: ReadingKind;
  places: PlaceRef[];
  from: Date;
  to: Date;
  bucket: Bucket;
  farmId?: number;
}

type Point = { t: string; avg: number; min: number; max: number; n: number };
type SeriesOut = { place: string; farmId: number | null; farmName: string | null; label: string; simulated: boolean; points: Point[] };

export async function readingSeries(db: Queryable, user: SessionUser, q: SeriesQuery) {
  const p = new Params();
  // A place is a place of one farm: series are grouped by farm and place, so a viewer of
  // several farms never sees two farms' same-named houses averaged into one line.
  const placeCond = q.places.length
    ? `AND (${q.places.map((r) => (r.farmId ? `(place = ${p.add(r.place)} AND farm_id = ${p.add(r.farmId)})` : `place = ${p.add(r.place)}`)).join(' OR ')})`
    : '';
  const farm = `${farmScope(user, p, 'farm_id', 'read')} ${q.farmId ? `AND farm_id = ${p.add(q.farmId)}` : ''}`;
  const range = (column: string) => `${column} >= ${p.add(q.from.toISOString())} AND ${column} < ${p.add(q.to.toISOString())}`;
  // Hour and coarser buckets over whole hours read the rollup (exact: sums and counts);
  // 5-minute buckets, and ranges cut inside an hour, read the readings themselves.
  const rollup = q.bucket !== '5m' && onHours(q.from) && onHours(q.to);
  const sql = rollup
    ? `SELECT farm_id, place, ${bucketSql(q.bucket, 'hour')} AS t, sum(total) / sum(n) AS avg, min(min) AS min, max(max) AS max, sum(n)::int AS n
         FROM device_readings_hourly WHERE ${farm} AND kind = ${p.add(q.kind)} ${placeCond} AND ${range('hour')}
        GROUP BY farm_id, place, t ORDER BY farm_id, place, t`
    : `SELECT farm_id, place, ${bucketSql(q.bucket, 'ts')} AS t, avg(value) AS avg, min(value) AS min, max(value) AS max, count(*)::int AS n
         FROM device_readings WHERE ${farm} AND kind = ${p.add(q.kind)} ${placeCond} AND ${range('ts')}
        GROUP BY farm_id, place, t ORDER BY farm_id, place, t`;
  const { rows } = await db.query<{ farm_id: number; place: string; t: Date; avg: number; min: number; max: number; n: number }>(sql, p.values);
  const groups = new Map<string, { farmId: number; place: string; points: Point[] }>();
  for (const r of rows) {
    const key = `${r.farm_id}\u0000${r.place}`;
    const g = groups.get(key) ?? { farmId: Number(r.farm_id), place: r.place, points: [] };
    g.points.push({ t: new Date(r.t).toISOString(), avg: round(Number(r.avg)), min: Number(r.min), max: Number(r.max), n: r.n });
    groups.set(key, g);
  }
  const farmIds = [...new Set([...groups.values()].map((g) => g.farmId))];
  const names = new Map<number, string>();
  if (farmIds.length) {
    const found = await db.query<{ id: number; name: string }>('SELECT id, name FROM organisations WHERE id = ANY($1::int[])', [farmIds]);
    for (const o of found.rows) names.set(Number(o.id), o.name);
  }
  // A place with devices of a simulated gateway: its readings come from the simulator, and the series says so.
  const simulated = new Set<string>();
  if (farmIds.length) {
    const sim = await db.query<{ farm_id: number; unit: string }>(
      `SELECT DISTINCT d.farm_id, coalesce(nullif(d.unit, ''), d.place) AS unit FROM devices d JOIN device_gateways g ON g.id = d.gateway_id WHERE g.simulated AND d.farm_id = ANY($1::int[])`,
      [farmIds],
    );
    for (const r of sim.rows) simulated.add(`${r.farm_id}\u0000${r.unit}`);
  }
  const all = [...groups.values()];
  type Picked = { farmId: number | null; place: string; points: Point[] };
  const picked: Picked[] = q.places.length
    ? q.places.flatMap((ref): Picked[] => {
        const hits = all.filter((g) => g.place === ref.place && (!ref.farmId || g.farmId === ref.farmId));
        return hits.length ? hits : [{ farmId: ref.farmId ?? null, place: ref.place, points: [] }];
      })
    : all;
  const severalFarms = new Set(picked.map((g) => g.farmId).filter((id) => id !== null)).size > 1;
  const series: SeriesOut[] = picked.map((g) => {
    const farmName = g.farmId === null ? null : (names.get(g.farmId) ?? null);
    return {
      place: g.place, farmId: g.farmId, farmName, label: severalFarms && farmName ? `${farmName} · ${g.place}` : g.place,
      simulated: g.farmId !== null && simulated.has(`${g.farmId}\u0000${g.place}`), points: g.points,
    };
  });
  return {
    kind: q.kind,
    unit: READING_UNITS[q.kind],
    bucket: q.bucket,
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    series,
  };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Every unit of the caller's farms with its devices, their state and the latest readings. */
export async function unitsOverview(db: Queryable, user: SessionUser, offlineAfterS: number, kinds?: string[]): Promise<DeviceUnitsReply> {
  const p = new Params();
  const kindCond = kinds?.length ? `AND d.kind = ANY(${p.add(kinds)}::text[])` : '';
  const { rows } = await db.query<{
    id: number; farm_id: number; farm_name: string; code: string; name: string; kind: string; model: string; place: string; place_type: string; unit: string;
    channels: string[]; state: Record<string, unknown>; online: boolean; last_seen: Date | null; firmware: string; gateway: string | null; simulated: boolean;
  }>(
    `SELECT d.id, d.farm_id, o.name AS farm_name, d.code, d.name, d.kind, d.model, d.place, d.place_type, d.unit, d.channels, d.state,
            d.online AND d.last_seen > now() - make_interval(secs => ${p.add(offlineAfterS)}) AS online, d.last_seen, d.firmware, g.name AS gateway,
            coalesce(g.simulated, false) AS simulated
       FROM devices d LEFT JOIN device_gateways g ON g.id = d.gateway_id JOIN organisations o ON o.id = d.farm_id
      WHERE ${farmScope(user, p, 'd.farm_id', 'read')} ${kindCond}
      ORDER BY d.unit, d.kind, d.id`,
    p.values,
  );
  const ids = rows.map((r) => r.id);
  // The latest value of each device and kind: one index probe per pair, the last day only.
  const latest = ids.length
    ? (
        await db.query<{ device_id: number; kind: string; value: number; ts: Date }>(
          `SELECT DISTINCT ON (device_id, kind) device_id, kind, value, ts FROM device_readings
            WHERE device_id = ANY($1::int[]) AND ts > now() - interval '1 day' ORDER BY device_id, kind, ts DESC`,
          [ids],
        )
      ).rows
    : [];
  const pending = ids.length
    ? (await db.query<{ device_id: number; id: number; action: string; params: Record<string, unknown> }>(`SELECT device_id, id, action, params FROM device_commands WHERE status = 'pending' AND device_id = ANY($1::int[])`, [ids])).rows
    : [];
  const ap = new Params();
  const alarms = (
    await db.query<{ id: number; farm_id: number; place: string; message: string; raised_at: Date }>(
      `SELECT id, farm_id, place, message, raised_at FROM device_alarms a WHERE cleared_at IS NULL AND ${farmScope(user, ap, 'a.farm_id', 'read')} ORDER BY raised_at DESC LIMIT 50`,
      ap.values,
    )
  ).rows;
  // A unit is a place of one farm: a viewer of several farms (a provider, a regional center)
  // sees each farm's 一号日光温室 apart, titled with its farm.
  const units = new Map<string, UnitView>();
  for (const r of rows) {
    const name = r.unit || r.place;
    const key = `${r.farm_id}\u0000${name}`;
    const unit = units.get(key) ?? { unit: name, farmId: Number(r.farm_id), farmName: r.farm_name, placeType: r.place_type, simulated: false, devices: [], alarms: [] };
    if (r.simulated) unit.simulated = true;
    const readings: Record<string, { value: number; ts: string }> = {};
    for (const l of latest) if (l.device_id === r.id) readings[l.kind] = { value: Number(l.value), ts: new Date(l.ts).toISOString() };
    const pend = pending.find((x) => x.device_id === r.id);
    unit.devices.push({
      id: r.id, farmId: Number(r.farm_id), code: r.code, name: r.name, kind: r.kind, model: r.model, place: r.place, channels: r.channels,
      state: r.state, online: r.online === true, lastSeen: r.last_seen ? new Date(r.last_seen).toISOString() : null, firmware: r.firmware,
      gateway: r.gateway, simulated: r.simulated === true, readings, pendingCommand: pend ? { id: pend.id, action: pend.action, params: pend.params } : null,
    });
    units.set(key, unit);
  }
  for (const a of alarms) units.get(`${a.farm_id}\u0000${a.place}`)?.alarms.push({ id: a.id, message: a.message, raisedAt: new Date(a.raised_at).toISOString() });
  return { units: [...units.values()], alarms: alarms.map((a) => ({ id: a.id, place: a.place, message: a.message, raisedAt: new Date(a.raised_at).toISOString() })) };
}
