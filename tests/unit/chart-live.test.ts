import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketStart, withReading, type ChartSeries } from '../../widgets/equipment-control/chart-live.ts';
import { BUCKETS, bucketSql } from '../../server/devices/reads.ts';
import { openPglite, type PgliteDatabase } from '../../server/db/pglite.ts';

const chart = (): ChartSeries => ({
  kind: 'airTemperature',
  unit: '°C',
  bucket: 'hour',
  series: [
    { place: '一号温室', farmId: 1, farmName: '禾丰', label: '一号温室', points: [{ t: '2026-12-07T09:00:00.000Z', avg: 20, min: 19, max: 21, n: 2 }, { t: '2026-12-07T10:00:00.000Z', avg: 22, min: 22, max: 22, n: 1 }] },
    { place: '二号温室', farmId: 1, farmName: '禾丰', label: '二号温室', points: [{ t: '2026-12-07T09:00:00.000Z', avg: 18, min: 18, max: 18, n: 1 }] },
  ],
});
const reading = (ts: string, value: number, place = '一号温室', kind = 'airTemperature') => ({ farmId: 1, place, ts, values: { [kind]: value } });

describe('live charts', () => {
  let db: PgliteDatabase;
  beforeAll(async () => {
    db = await openPglite();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('puts a reading in the bucket the server would (every bucket kind, 300 instants over two years)', async () => {
    const instants = Array.from({ length: 300 }, (_, i) => Date.UTC(2025, 0, 1) + Math.floor(((i * 7919) % 300) / 300 * 2 * 365 * 86_400_000) + i * 61_001);
    for (const bucket of BUCKETS) {
      const { rows } = await db.query<{ t: Date }>(`SELECT ${bucketSql(bucket, 'x.ts')} AS t FROM unnest($1::timestamptz[]) WITH ORDINALITY AS x(ts, i) ORDER BY i`, [instants.map((ms) => new Date(ms).toISOString())]);
      expect(rows.map((r) => new Date(r.t).getTime()), bucket).toEqual(instants.map((ms) => bucketStart(bucket, ms)));
    }
  });

  it('adds to the open bucket, opens the next, and leaves other places, kinds and values alone', () => {
    const same = withReading(chart(), reading('2026-12-07T10:30:00.000Z', 24), { windowMs: 86_400_000 })!;
    expect(same.series[0].points.at(-1)).toEqual({ t: '2026-12-07T10:00:00.000Z', avg: 23, min: 22, max: 24, n: 2 });
    const next = withReading(same, reading('2026-12-07T11:05:00.000Z', 25), { windowMs: 86_400_000 })!;
    expect(next.series[0].points.map((p) => p.t)).toEqual(['2026-12-07T09:00:00.000Z', '2026-12-07T10:00:00.000Z', '2026-12-07T11:00:00.000Z']);
    expect(next.series[1]).toEqual(chart().series[1]);
    expect(withReading(chart(), reading('2026-12-07T10:30:00.000Z', 24, '三号温室'), { windowMs: 86_400_000 })).toBeNull();
    expect(withReading(chart(), reading('2026-12-07T10:30:00.000Z', 24, '一号温室', 'airHumidity'), { windowMs: 86_400_000 })).toBeNull();
    expect(withReading(chart(), { farmId: 2, place: '一号温室', ts: '2026-12-07T10:30:00.000Z', values: { airTemperature: 5 } }, { windowMs: 86_400_000 })).toBeNull();
  });

  it('slides a range that follows now, and keeps a fixed range to itself', () => {
    const slid = withReading(chart(), reading('2026-12-07T11:05:00.000Z', 25), { windowMs: 2 * 3_600_000 })!;
    expect(slid.series[0].points.map((p) => p.t)).toEqual(['2026-12-07T09:00:00.000Z', '2026-12-07T10:00:00.000Z', '2026-12-07T11:00:00.000Z']);
    const later = withReading(slid, reading('2026-12-07T12:05:00.000Z', 25), { windowMs: 2 * 3_600_000 })!;
    expect(later.series[0].points.map((p) => p.t)).toEqual(['2026-12-07T10:00:00.000Z', '2026-12-07T11:00:00.000Z', '2026-12-07T12:00:00.000Z']);
    expect(later.series[1].points).toEqual([]);
    const fixed = { from: Date.parse('2026-12-07T09:00:00Z'), to: Date.parse('2026-12-07T11:00:00Z') };
    expect(withReading(chart(), reading('2026-12-07T11:05:00.000Z', 25), fixed)).toBeNull();
    expect(withReading(chart(), reading('2026-12-07T09:30:00.000Z', 23), fixed)!.series[0].points[0]).toEqual({ t: '2026-12-07T09:00:00.000Z', avg: 21, min: 19, max: 23, n: 3 });
  });
});
