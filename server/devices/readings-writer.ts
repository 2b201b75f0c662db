/**
 * Readings are stored as they arrive, in batches: a message's values are queued and
 * written by one multi-row INSERT (unnest of arrays) at most every `intervalMs` or when
 * `maxRows` are waiting, so a burst of messages costs a few statements, not one each.
 * `flush()` writes what is waiting (tests, close). Write latencies are kept for the bench.
 */
import type { Database } from '../db/database.ts';

export interface ReadingRow {
  farmId: number;
  deviceId: number;
  place: string;
  kind: string;
  ts: Date;
  value: number;
}

export class ReadingsWriter {
  private queue: { row: ReadingRow; at: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Milliseconds from arrival to commit, last 10,000 (bench). */
  readonly latencies: number[] = [];
  written = 0;

  constructor(
    private readonly db: Database,
    private readonly opts: { intervalMs: number; maxRows: number; log?: (msg: string) => void } = { intervalMs: 200, maxRows: 1000 },
  ) {}

  add(rows: ReadingRow[]): void {
    const at = performance.now();
    for (const row of rows) this.queue.push({ row, at });
    if (this.queue.length >= this.opts.maxRows) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.intervalMs);
  }

  /** Writes everything queued so far; resolves when it is committed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queue;
    this.queue = [];
    if (!batch.length) return this.writing;
    this.writing = this.writing.then(() => this.write(batch)).catch((e: unknown) => this.opts.log?.(`[devices] readings not stored: ${String(e)}`));
    return this.writing;
  }

  private async write(batch: { row: ReadingRow; at: number }[]): Promise<void> {
    const r = batch.map((b) => b.row);
    // The readings and their hourly rollup in one statement (one transaction): a chart never
    // sees one without the other. Two instances adding to the same hour meet in ON CONFLICT.
    await this.db.query(
      `WITH r AS (SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::timestamptz[], $6::float8[]) AS r(farm_id, device_id, place, kind, ts, value)),
            stored AS (INSERT INTO device_readings(farm_id, device_id, place, kind, ts, value) SELECT * FROM r)
       ${ROLLUP_FROM('r')}`,
      [r.map((x) => x.farmId), r.map((x) => x.deviceId), r.map((x) => x.place), r.map((x) => x.kind), r.map((x) => x.ts.toISOString()), r.map((x) => x.value)],
    );
    const now = performance.now();
    this.written += batch.length;
    for (const b of batch) this.latencies.push(now - b.at);
    if (this.latencies.length > 10_000) this.latencies.splice(0, this.latencies.length - 10_000);
  }
}

/** Adds the readings of `source` (farm_id, place, kind, ts, value) to the hourly rollup. */
export const ROLLUP_FROM = (source: string) => `INSERT INTO device_readings_hourly AS h(farm_id, kind, place, hour, n, total, min, max)
  SELECT farm_id, kind, place, date_bin('1 hour', ts, TIMESTAMPTZ '2000-01-01 00:00:00+00'), count(*), sum(value), min(value), max(value)
    FROM ${source} GROUP BY 1, 2, 3, 4
  ON CONFLICT (farm_id, kind, place, hour) DO UPDATE
    SET n = h.n + excluded.n, total = h.total + excluded.total, min = least(h.min, excluded.min), max = greatest(h.max, excluded.max)`;
