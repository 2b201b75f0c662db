import { monitorEventLoopDelay } from 'node:perf_hooks';
import { hostname, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { ok } from '../http/envelope.ts';
import { requireAnyMenu } from '../http/guard.ts';
import { envelopeSchema, errorReplySchema, pageSchema } from '../resources/page.ts';
import type { RequestTrace } from './trace.ts';
import { pagedQuery, slicePage } from './schemas.ts';

/** Menu codes of the monitoring screens (spec §2.3 /authManager/serviceManager and /monitorManager). */
export const MONITOR_AUTHORITY = {
  registry: ['registry', 'serviceManager'],
  status: ['serviceMonitor'],
  trace: ['traceMonitor'],
} as const;

export interface RegisteredRoute {
  method: string;
  url: string;
  module: string;
  public: boolean;
  summary: string | null;
}

/** Every /api route as it is registered, for the service registry screen. */
export class RouteRegistry {
  readonly routes: RegisteredRoute[] = [];

  readonly onRoute = (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    const schema = (route.schema ?? {}) as { tags?: string[]; summary?: string };
    const url = route.url ?? '';
    const module = schema.tags?.[0] ?? url.split('/').filter(Boolean)[1] ?? 'api';
    for (const method of methods) {
      this.routes.push({ method, url, module, public: route.config?.public === true, summary: schema.summary ?? null });
    }
  };

  modules(): { name: string; routes: number; publicRoutes: number }[] {
    const byName = new Map<string, { name: string; routes: number; publicRoutes: number }>();
    for (const r of this.routes) {
      let m = byName.get(r.module);
      if (!m) byName.set(r.module, (m = { name: r.module, routes: 0, publicRoutes: 0 }));
      m.routes++;
      if (r.public) m.publicRoutes++;
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}

const PACKAGE_VERSION: string = (() => {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
const ms = (value: number) => Math.round(value * 100) / 100;

const tags = ['monitor'];
const errors = { 400: errorReplySchema, 401: errorReplySchema, 403: errorReplySchema };
const obj = { type: 'object', additionalProperties: true } as const;

/**
 * The monitoring screens' data, all from this running server: its route registry, its
 * health (process, event loop, database) and its recent requests with latency
 * percentiles per route.
 */
export function registerMonitorRoutes(instance: FastifyInstance, deps: { registry: RouteRegistry; trace: RequestTrace }): void {
  const app = typedRoutes(instance);
  const startedAt = new Date();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  // A window of about a minute: recent stalls show, old ones fade out.
  let windowStart = Date.now();
  app.addHook('onClose', async () => loopDelay.disable());

  const service = () => ({
    name: 'farm-backoffice-api',
    version: PACKAGE_VERSION,
    node: process.version,
    engine: app.db.engine,
    pid: process.pid,
    host: hostname(),
    platform: `${process.platform}/${process.arch}`,
    startedAt: startedAt.toISOString(),
    uptimeSeconds: Math.round(process.uptime()),
  });

  app.get(
    '/admin/monitor/registry',
    {
      schema: {
        tags,
        summary: 'Service registry: this API server, its modules and how many routes each serves',
        description: `Needs menu code ${MONITOR_AUTHORITY.registry.join(' or ')}.`,
        querystring: { type: 'object', additionalProperties: false, properties: {} },
        response: { 200: envelopeSchema(obj), ...errors },
      },
    },
    async (req) => {
      requireAnyMenu(req, MONITOR_AUTHORITY.registry);
      const modules = deps.registry.modules();
      return ok({ service: service(), modules, routeCount: deps.registry.routes.length, publicRouteCount: deps.registry.routes.filter((r) => r.public).length });
    },
  );

  app.get(
    '/admin/monitor/routes/page',
    {
      schema: {
        tags,
        summary: 'Service registry: the routes, paged and filtered',
        description: `Needs menu code ${MONITOR_AUTHORITY.registry.join(' or ')}.`,
        querystring: pagedQuery({
          keyword: { type: 'string', maxLength: 100, description: 'Path or summary contains' },
          module: { type: 'string', maxLength: 64 },
          method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        }),
        response: { 200: envelopeSchema(pageSchema(obj)), ...errors },
      },
    },
    async (req) => {
      requireAnyMenu(req, MONITOR_AUTHORITY.registry);
      const q = req.query;
      const kw = q.keyword?.toLowerCase();
      const rows = deps.registry.routes
        .filter((r) => (!q.module || r.module === q.module) && (!q.method || r.method === q.method))
        .filter((r) => !kw || r.url.toLowerCase().includes(kw) || (r.summary ?? '').toLowerCase().includes(kw))
        .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
      return ok(slicePage(rows, q));
    },
  );

  app.get(
    '/admin/monitor/status',
    {
      schema: {
        tags,
        summary: 'Service status: uptime, memory, event-loop delay, database state and latency, request counts',
        description: `Needs menu code ${MONITOR_AUTHORITY.status.join(' or ')}.`,
        querystring: { type: 'object', additionalProperties: false, properties: {} },
        response: { 200: envelopeSchema(obj), ...errors },
      },
    },
    async (req) => {
      requireAnyMenu(req, MONITOR_AUTHORITY.status);
      const database = await databaseStatus(app);
      const mem = process.memoryUsage();
      const cpu = process.cpuUsage();
      const eventLoop = {
        meanMs: ms(loopDelay.mean / 1e6),
        p50Ms: ms(loopDelay.percentile(50) / 1e6),
        p99Ms: ms(loopDelay.percentile(99) / 1e6),
        maxMs: ms(loopDelay.max / 1e6),
        windowSeconds: Math.round((Date.now() - windowStart) / 1000),
      };
      if (Date.now() - windowStart > 60_000) {
        loopDelay.reset();
        windowStart = Date.now();
      }
      const recent = deps.trace.recent();
      return ok({
        status: database.state === 'up' ? 'up' : 'degraded',
        ...service(),
        memory: { rssMb: mb(mem.rss), heapUsedMb: mb(mem.heapUsed), heapTotalMb: mb(mem.heapTotal), externalMb: mb(mem.external) },
        cpu: { userMs: Math.round(cpu.user / 1000), systemMs: Math.round(cpu.system / 1000) },
        loadAverage: loadavg().map((v) => ms(v)),
        eventLoop,
        database,
        requests: {
          recorded: deps.trace.recorded,
          inBuffer: recent.length,
          bufferSize: deps.trace.capacity,
          serverErrors: recent.filter((e) => e.status >= 500).length,
          clientErrors: recent.filter((e) => e.status >= 400 && e.status < 500).length,
        },
      });
    },
  );

  app.get(
    '/admin/monitor/trace/page',
    {
      schema: {
        tags,
        summary: 'Trace: the most recent requests, newest first',
        description: `Needs menu code ${MONITOR_AUTHORITY.trace.join(' or ')}. Kept in memory by this server instance (a ring buffer).`,
        querystring: pagedQuery({
          route: { type: 'string', maxLength: 200, description: 'Route pattern contains' },
          method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
          minStatus: { type: 'integer', minimum: 100, maximum: 599, description: 'Status at least (400: refusals and errors)' },
          minDurationMs: { type: 'number', minimum: 0, maximum: 3600000, description: 'Slower than' },
        }),
        response: { 200: envelopeSchema(pageSchema(obj)), ...errors },
      },
    },
    async (req) => {
      requireAnyMenu(req, MONITOR_AUTHORITY.trace);
      const q = req.query;
      const route = q.route?.toLowerCase();
      const rows = deps.trace
        .recent()
        .filter((e) => (!route || e.route.toLowerCase().includes(route)) && (!q.method || e.method === q.method))
        .filter((e) => (q.minStatus === undefined || e.status >= q.minStatus) && (q.minDurationMs === undefined || e.durationMs >= q.minDurationMs));
      return ok(slicePage(rows, q));
    },
  );

  app.get(
    '/admin/monitor/trace/latency',
    {
      schema: {
        tags,
        summary: 'Trace: p50, p95 and p99 latency per route over the recent requests, slowest first',
        description: `Needs menu code ${MONITOR_AUTHORITY.trace.join(' or ')}.`,
        querystring: pagedQuery({ route: { type: 'string', maxLength: 200, description: 'Route pattern contains' } }),
        response: { 200: envelopeSchema(pageSchema(obj)), ...errors },
      },
    },
    async (req) => {
      requireAnyMenu(req, MONITOR_AUTHORITY.trace);
      const route = req.query.route?.toLowerCase();
      return ok(slicePage(deps.trace.latencies().filter((l) => !route || l.route.toLowerCase().includes(route)), req.query));
    },
  );
}

async function databaseStatus(app: FastifyInstance) {
  const engine = app.db.engine;
  const t0 = performance.now();
  try {
    await app.db.query('SELECT 1');
    const latencyMs = ms(performance.now() - t0);
    const info = (
      await app.db.query<{ version: string; size: number }>(`SELECT current_setting('server_version') AS version, pg_database_size(current_database())::bigint AS size`)
    ).rows[0];
    let connections: { total: number; active: number } | null = null;
    if (engine === 'postgres') {
      const c = (
        await app.db.query<{ total: number; active: number }>(
          `SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'active')::int AS active FROM pg_stat_activity WHERE datname = current_database()`,
        )
      ).rows[0];
      connections = { total: c.total, active: c.active };
    }
    return {
      engine,
      state: 'up' as const,
      latencyMs,
      version: info.version,
      sizeMb: mb(Number(info.size)),
      // PGlite runs inside this process: one connection, no server to count them on.
      connections: connections ?? { total: 1, active: 1 },
      embedded: engine === 'pglite',
    };
  } catch {
    return { engine, state: 'down' as const, latencyMs: ms(performance.now() - t0), version: null, sizeMb: null, connections: null, embedded: engine === 'pglite' };
  }
}

