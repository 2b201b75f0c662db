/**
 * GET /api/devices/events: server-sent events of the caller's farms (state, reading,
 * command, alarm), so open consoles are pushed, not polling. A comment line every 20 s
 * keeps proxies from closing the stream; the console reconnects after a drop and reads the
 * units again (what it missed). The studio's /api/schemas/events is another stream.
 */
import type { FastifyInstance } from 'fastify';
import { requireCan } from '../http/guard.ts';
import { regionOrgIds } from '../auth/region-scope.ts';
import type { DeviceEvent } from './events.ts';
import { DEVICE_MENUS } from './routes.ts';
import type { DeviceService } from './service.ts';

export function registerEventStream(app: FastifyInstance, service: DeviceService): void {
  app.get('/devices/events', { schema: { tags: ['devices'], summary: 'Server-sent events of the caller’s farms: device state and online, readings, command outcomes, alarms' } }, async (req, reply) => {
    const me = requireCan(req, { menus: DEVICE_MENUS });
    // The stream only reads: a center follows its region's farms too (auth/region-scope.ts).
    const farms = me.platformAdmin ? null : me.orgId != null ? new Set([me.orgId, ...(await regionOrgIds(app.db, me))]) : new Set<number>(await farmsOfBloc(app, me.blocId));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    res.write(`event: hello\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`);
    const send = (e: DeviceEvent) => {
      if (farms && !farms.has(e.farmId)) return;
      res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
    };
    const off = service.hub.events.subscribe('*', send);
    const ping = setInterval(() => res.write(': ping\n\n'), 20_000);
    const end = () => {
      clearInterval(ping);
      off();
      service.streams.delete(end);
      if (!res.writableEnded) res.end();
    };
    service.streams.add(end);
    req.raw.on('close', end);
  });
}

async function farmsOfBloc(app: FastifyInstance, blocId: number | null): Promise<number[]> {
  if (blocId == null) return [];
  const { rows } = await app.db.query<{ id: number }>('SELECT id FROM organisations WHERE bloc_id = $1', [blocId]);
  return rows.map((r) => r.id);
}
