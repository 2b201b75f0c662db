/**
 * The last requests the server answered, kept in memory for the trace screen: a ring
 * buffer of fixed size, so memory stays bounded however long the server runs. Each
 * server instance keeps its own (a trace of one node, not of a cluster).
 */
export interface TraceEntry {
  at: string;
  method: string;
  /** The route pattern (`/api/admin/role/:id`), or the raw path when no route matched. */
  route: string;
  status: number;
  durationMs: number;
}

export interface RouteLatency {
  method: string;
  route: string;
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export class RequestTrace {
  private readonly entries: (TraceEntry | undefined)[];
  private next = 0;
  private total = 0;

  constructor(readonly capacity = 1000) {
    this.entries = new Array(capacity);
  }

  record(entry: TraceEntry): void {
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.total++;
  }

  /** Requests recorded since start (the buffer holds the last `capacity` of them). */
  get recorded(): number {
    return this.total;
  }

  /** Newest first. */
  recent(): TraceEntry[] {
    const out: TraceEntry[] = [];
    for (let i = 1; i <= this.capacity; i++) {
      const e = this.entries[(this.next - i + this.capacity) % this.capacity];
      if (!e) break;
      out.push(e);
    }
    return out;
  }

  /** Latency percentiles per route over the buffered requests, slowest p95 first. */
  latencies(): RouteLatency[] {
    const groups = new Map<string, { method: string; route: string; durations: number[]; errors: number }>();
    for (const e of this.recent()) {
      const key = `${e.method} ${e.route}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { method: e.method, route: e.route, durations: [], errors: 0 }));
      g.durations.push(e.durationMs);
      if (e.status >= 500) g.errors++;
    }
    return [...groups.values()]
      .map((g) => {
        const sorted = g.durations.sort((a, b) => a - b);
        return {
          method: g.method,
          route: g.route,
          count: sorted.length,
          errors: g.errors,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          max: sorted[sorted.length - 1],
        };
      })
      .sort((a, b) => b.p95 - a.p95 || a.route.localeCompare(b.route));
  }
}

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
