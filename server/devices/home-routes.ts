/**
 * The devices' blocks of the farm home (/farmMain/index, issue 18 item 3): open device
 * alarms (count and the latest), devices online, and the readings now — the farm's key
 * measures (soil moisture, air temperature and humidity), the latest of each per place.
 */
import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { okObject, okPage } from '../admin/schemas.ts';
import { Params } from '../db/params.ts';
import { farmScope } from '../materials/ledger.ts';

const FARM_HOME = ['farmMainIndex'];
/** The home's key measures, in column order. */
export const HOME_KINDS = ['soilMoisture', 'airTemperature', 'airHumidity'] as const;
/** A reading older than this is not "now". */
const NOW_WINDOW_HOURS = 24;

export function registerHomeDeviceRoutes(plain: FastifyInstance): void {
  const app = typedRoutes(plain);
  const { db } = plain;
  const offlineAfterS = plain.config.deviceOfflineAfterS;

  app.get(
    '/farmMain/devices',
    { schema: { tags: ['devices'], summary: 'Farm home: open device alarms (count and the latest), devices and devices online', response: okObject() } },
    async (req) => {
      const me = requireCan(req, { menus: FARM_HOME });
      const p = new Params();
      const scope = farmScope(me, p, 'farm_id', 'read');
      const { rows } = await db.query<{ open_alarms: number; devices: number; online: number }>(
        `SELECT (SELECT count(*)::int FROM device_alarms WHERE cleared_at IS NULL AND ${scope}) AS open_alarms,
                (SELECT count(*)::int FROM devices WHERE ${scope}) AS devices,
                (SELECT count(*)::int FROM devices WHERE online AND last_seen > now() - make_interval(secs => ${p.add(offlineAfterS)}) AND ${scope}) AS online`,
        p.values,
      );
      const q = new Params();
      const latest = await db.query<{ message: string; place: string; raised_at: Date; cleared_at: Date | null }>(
        `SELECT message, place, raised_at, cleared_at FROM device_alarms WHERE ${farmScope(me, q, 'farm_id', 'read')} ORDER BY cleared_at IS NULL DESC, raised_at DESC LIMIT 1`,
        q.values,
      );
      const l = latest.rows[0];
      return ok({
        openAlarms: rows[0].open_alarms,
        devices: rows[0].devices,
        online: rows[0].online,
        latestAlarm: l ? { message: l.message, place: l.place, raisedAt: new Date(l.raised_at).toISOString(), open: l.cleared_at == null } : null,
        // The stat shows a word: the latest open alarm's sentence, else the latest one's with its state.
        latestAlarmText: l ? l.message : '—',
      });
    },
  );

  app.get(
    '/farmMain/readingsNow/page',
    {
      schema: {
        tags: ['devices'],
        summary: `Farm home: the latest soil moisture, air temperature and humidity per place (readings of the last ${NOW_WINDOW_HOURS} hours)`,
        querystring: { type: 'object', additionalProperties: false, properties: { pageIndex: { type: 'integer', minimum: 1, maximum: 1000, default: 1 }, pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 10 } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: FARM_HOME });
      const p = new Params();
      // One index range per kind (farm, kind, place, ts): the newest row of each place.
      const { rows } = await db.query<{ place: string; kind: string; value: number; ts: Date }>(
        `SELECT DISTINCT ON (place, kind) place, kind, value, ts FROM device_readings
          WHERE ${farmScope(me, p, 'farm_id', 'read')} AND kind = ANY(${p.add([...HOME_KINDS])}) AND ts > now() - make_interval(hours => ${NOW_WINDOW_HOURS})
          ORDER BY place, kind, ts DESC`,
        p.values,
      );
      type Row = { place: string; at: string; [kind: string]: string | number };
      const byPlace = new Map<string, Row>();
      for (const r of rows) {
        const row: Row = byPlace.get(r.place) ?? { place: r.place, at: new Date(r.ts).toISOString() };
        row[r.kind] = Math.round(r.value * 10) / 10;
        if (new Date(r.ts).toISOString() > row.at) row.at = new Date(r.ts).toISOString();
        byPlace.set(r.place, row);
      }
      const all = [...byPlace.values()].sort((a, b) => a.place.localeCompare(b.place, 'zh'));
      const { pageIndex, pageSize } = req.query as { pageIndex: number; pageSize: number };
      return ok({ rows: all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), total: all.length, pageIndex, pageSize });
    },
  );
}
