/**
 * Live charts (issue 26 item 7): a reading that arrives while a chart is open joins the
 * series of its farm and place in the bucket the server would have put it in, so the chart
 * grows without a reload and matches what reading the range again would show.
 */
export interface ChartPoint {
  t: string;
  avg: number;
  min: number;
  max: number;
  n: number;
}

export interface ChartSeries {
  kind: string;
  unit: string;
  bucket: string;
  series: { place: string; farmId: number | null; farmName: string | null; label: string; simulated?: boolean; points: ChartPoint[] }[];
}

export interface LiveReading {
  farmId: number;
  place: string;
  ts: string;
  values: Record<string, number>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The farms' clock for buckets, as the server's (server/devices/reads.ts): UTC+8, from 2000-01-01. */
const ZONE_MS = 8 * HOUR;
const ORIGIN = Date.UTC(2000, 0, 1) - ZONE_MS;
const FIXED: Record<string, number> = { '5m': 300_000, hour: HOUR, day: DAY };

/** The start of the bucket holding `ts`, as the server computes it (date_bin, or the local week or month). */
export function bucketStart(bucket: string, ts: number): number {
  const size = FIXED[bucket];
  if (size) return ORIGIN + Math.floor((ts - ORIGIN) / size) * size;
  const local = new Date(ts + ZONE_MS);
  if (bucket === 'month') return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - ZONE_MS;
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  return midnight - ((local.getUTCDay() + 6) % 7) * DAY - ZONE_MS;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The chart with `reading` added, or null when it does not belong (another kind or place,
 * outside [from, to) when the range is fixed). `windowMs`: a range that follows now drops
 * the buckets that fell out of it.
 */
export function withReading(chart: ChartSeries, reading: LiveReading, range: { windowMs: number } | { from: number; to: number }): ChartSeries | null {
  const value = reading.values[chart.kind];
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const at = Date.parse(reading.ts);
  if ('from' in range && (at < range.from || at >= range.to)) return null;
  const index = chart.series.findIndex((s) => s.place === reading.place && (s.farmId === null || s.farmId === reading.farmId));
  if (index < 0) return null;
  const t = new Date(bucketStart(chart.bucket, at)).toISOString();
  const keepFrom = 'windowMs' in range ? bucketStart(chart.bucket, at - range.windowMs) : -Infinity;
  const series = chart.series.map((s, i) => {
    if (i !== index) return 'windowMs' in range ? { ...s, points: s.points.filter((p) => Date.parse(p.t) >= keepFrom) } : s;
    const points = s.points.filter((p) => Date.parse(p.t) >= keepFrom);
    const at = points.findIndex((p) => p.t === t);
    if (at >= 0) {
      const p = points[at];
      points[at] = { t, avg: round((p.avg * p.n + value) / (p.n + 1)), min: Math.min(p.min, value), max: Math.max(p.max, value), n: p.n + 1 };
    } else {
      points.push({ t, avg: round(value), min: value, max: value, n: 1 });
      points.sort((a, b) => Date.parse(a.t) - Date.parse(b.t));
    }
    return { ...s, farmId: s.farmId ?? reading.farmId, points };
  });
  return { ...chart, series };
}
