/**
 * Alarms under /api/devices/alarms (docs/devices.md, "Alarms"): the list with filters
 * (state, severity, condition, device, raised between), acknowledge and clear by hand,
 * and the farm's on-duty contact. Reading needs any devices screen; acknowledging needs
 * `deviceAlarms:acknowledge`, clearing by hand `deviceAlarms:clear` (with a reason), the
 * contact `deviceAlarms:settings`; all three only by an account of the alarm's own farm.
 * Each row says what the caller may do (`_can`), so the console shows only those buttons.
 */
import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { business, forbidden, notFound, ok } from '../http/envelope.ts';
import { can } from '../../runtime/access/can.ts';
import { requireCan } from '../http/guard.ts';
import { audit } from '../audit/log.ts';
import { t } from '../i18n/catalog.ts';
import { invalidInput } from '../resources/validation.ts';
import { Params } from '../db/params.ts';
import { farmScope } from '../materials/ledger.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { alarmState, alarmText, CONDITIONS, DEFAULT_SETTINGS, farmSettings, SEVERITIES, type AlarmRow } from './alarms.ts';
import { DEVICE_MENUS } from './routes.ts';
import type { DeviceService } from './service.ts';

const tags = ['devices'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
export const ALARM_MENU = 'deviceAlarms';
const phone = { type: 'string', maxLength: 21, pattern: '^(\\+?[0-9]{6,20})?$' } as const;

type ListRow = AlarmRow & { farm_name: string; device_name: string | null; acknowledged_by_name: string | null; cleared_by_name: string | null };

function view(r: ListRow, me: SessionUser, lang: 'zh' | 'en' | 'es') {
  const state = alarmState(r);
  const own = me.orgId != null && me.orgId === Number(r.farm_id);
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: r.id,
    farmId: Number(r.farm_id),
    farmName: r.farm_name,
    place: r.place,
    deviceId: r.device_id,
    deviceName: r.device_name,
    scenarioId: r.scenario_id,
    source: r.source,
    condition: r.condition,
    severity: r.severity,
    state,
    message: alarmText(r, lang),
    occurrences: r.occurrences,
    raisedAt: iso(r.raised_at),
    lastRaisedAt: iso(r.last_raised_at),
    acknowledgedAt: iso(r.acknowledged_at),
    acknowledgedBy: r.acknowledged_by_name,
    ackNote: r.ack_note,
    clearedAt: iso(r.cleared_at),
    // Cleared with nobody named: the condition ended by itself.
    clearedBy: r.cleared_at ? (r.cleared_by_name ?? t(lang, 'alarms.clearedAutomatically')) : null,
    clearReason: r.clear_reason,
    escalationLevel: r.escalation_level,
    escalatedAt: iso(r.escalated_at),
    _can: {
      acknowledge: own && state === 'open' && can(me, ALARM_MENU, 'acknowledge'),
      clear: own && state !== 'cleared' && can(me, ALARM_MENU, 'clear'),
    },
  };
}

const LIST = `SELECT a.*, o.name AS farm_name, d.name AS device_name, ua.name AS acknowledged_by_name, uc.name AS cleared_by_name
  FROM device_alarms a JOIN organisations o ON o.id = a.farm_id LEFT JOIN devices d ON d.id = a.device_id
  LEFT JOIN users ua ON ua.id = a.acknowledged_by LEFT JOIN users uc ON uc.id = a.cleared_by`;

export function registerAlarmRoutes(plain: FastifyInstance, service: DeviceService): void {
  const app = typedRoutes(plain);
  const { db } = plain;

  app.get(
    '/devices/alarms/page',
    {
      schema: {
        tags,
        summary: 'Alarms of the caller’s farms, open first, newest first: state, severity, what, who acknowledged or cleared them, escalation; `_can` says what the caller may do with each',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            open: { type: 'boolean' },
            state: { type: 'string', enum: ['open', 'acknowledged', 'cleared', 'active'] },
            severity: { type: 'string', enum: [...SEVERITIES] },
            condition: { type: 'string', enum: [...CONDITIONS] },
            deviceId: id,
            from: { type: 'string', format: 'date' },
            to: { type: 'string', format: 'date' },
            pageIndex: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
            pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
          },
        },
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const q = req.query;
      const p = new Params();
      const conds = [farmScope(me, p, 'a.farm_id', 'read')];
      const state = q.state ?? (q.open ? 'active' : undefined);
      if (state === 'open') conds.push('a.cleared_at IS NULL AND a.acknowledged_at IS NULL');
      else if (state === 'acknowledged') conds.push('a.cleared_at IS NULL AND a.acknowledged_at IS NOT NULL');
      else if (state === 'cleared') conds.push('a.cleared_at IS NOT NULL');
      else if (state === 'active') conds.push('a.cleared_at IS NULL');
      if (q.severity) conds.push(`a.severity = ${p.add(q.severity)}`);
      if (q.condition) conds.push(`a.condition = ${p.add(q.condition)}`);
      if (q.deviceId) conds.push(`a.device_id = ${p.add(q.deviceId)}`);
      // Dates are the farm's days (Asia/Shanghai by default: the list's farms share a zone in the demo).
      if (q.from) conds.push(`a.raised_at >= (${p.add(q.from)}::date)::timestamp AT TIME ZONE 'Asia/Shanghai'`);
      if (q.to) conds.push(`a.raised_at < ((${p.add(q.to)}::date + 1)::timestamp) AT TIME ZONE 'Asia/Shanghai'`);
      if (q.from && q.to && q.from > q.to) throw invalidInput([{ field: 'to', message: t(req.lang, 'devices.rangeOrder') }], req.lang);
      const where = conds.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device_alarms a WHERE ${where}`, p.values)).rows[0].n;
      const { rows } = await db.query<ListRow>(
        `${LIST} WHERE ${where} ORDER BY a.cleared_at IS NULL DESC, a.raised_at DESC, a.id DESC LIMIT ${q.pageSize} OFFSET ${(q.pageIndex - 1) * q.pageSize}`,
        p.values,
      );
      return ok({ rows: rows.map((r) => view(r, me, req.lang)), total, pageIndex: q.pageIndex, pageSize: q.pageSize });
    },
  );

  app.get(
    '/devices/alarms/devices',
    { schema: { tags, summary: 'The devices and gateways of the caller’s farms as options (value, label) for the alarm list’s filter' } },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const p = new Params();
      const { rows } = await db.query<{ id: number; name: string; unit: string }>(
        `SELECT id, name, unit FROM devices WHERE ${farmScope(me, p, 'farm_id', 'read')} ORDER BY unit, name LIMIT 2000`,
        p.values,
      );
      return ok(rows.map((r) => ({ value: r.id, label: r.unit ? `${r.unit} · ${r.name}` : r.name })));
    },
  );

  /** The alarm, if the caller may act on it: its element code, and an account of its farm. */
  async function actionable(req: Parameters<typeof requireCan>[0], alarmId: number, action: 'acknowledge' | 'clear') {
    const me = requireCan(req, ALARM_MENU, action);
    const p = new Params();
    const { rows } = await db.query<ListRow>(`${LIST} WHERE a.id = ${p.add(alarmId)} AND ${farmScope(me, p, 'a.farm_id', 'read')}`, p.values);
    const alarm = rows[0];
    if (!alarm) throw notFound('alarms.missing');
    if (me.orgId == null || me.orgId !== Number(alarm.farm_id)) throw forbidden('alarms.notYourFarm');
    return { me, alarm };
  }

  async function answer(alarmId: number, me: SessionUser, lang: 'zh' | 'en' | 'es') {
    const { rows } = await db.query<ListRow>(`${LIST} WHERE a.id = $1`, [alarmId]);
    return view(rows[0], me, lang);
  }

  app.post(
    '/devices/alarms/acknowledge',
    {
      schema: {
        tags,
        summary: 'Acknowledge an open alarm (needs deviceAlarms:acknowledge, an account of the alarm’s farm): who and when are kept with the note; escalation stops',
        body: { type: 'object', additionalProperties: false, required: ['id'], properties: { id, note: { type: 'string', maxLength: 500 } } },
      },
    },
    async (req) => {
      const { me, alarm } = await actionable(req, req.body.id, 'acknowledge');
      if (alarm.cleared_at) throw business('alarms.alreadyCleared');
      if (alarm.acknowledged_at) {
        throw business('alarms.alreadyAcknowledged', { who: alarm.acknowledged_by_name ?? '—', at: new Date(alarm.acknowledged_at).toISOString().slice(0, 16).replace('T', ' ') });
      }
      const note = (req.body.note ?? '').trim();
      const done = await service.alarms.acknowledge(alarm.id, me.id, note);
      if (!done) throw business('alarms.alreadyCleared');
      await audit(db, req, { action: 'devices.alarm.acknowledge', resource: 'deviceAlarms', recordId: alarm.id, changes: { note } });
      return ok(await answer(alarm.id, me, req.lang));
    },
  );

  app.post(
    '/devices/alarms/clear',
    {
      schema: {
        tags,
        summary: 'Clear an alarm by hand with the reason (needs deviceAlarms:clear, an account of the alarm’s farm); an alarm whose condition ends clears itself',
        body: { type: 'object', additionalProperties: false, required: ['id', 'reason'], properties: { id, reason: { type: 'string', maxLength: 500 } } },
      },
    },
    async (req) => {
      const { me, alarm } = await actionable(req, req.body.id, 'clear');
      const reason = req.body.reason.trim();
      if (!reason) throw invalidInput([{ field: 'reason', message: t(req.lang, 'alarms.reasonRequired') }], req.lang);
      if (alarm.cleared_at) throw business('alarms.alreadyCleared');
      const done = await service.alarms.clearByHand(alarm.id, me.id, reason);
      if (!done) throw business('alarms.alreadyCleared');
      await audit(db, req, { action: 'devices.alarm.clear', resource: 'deviceAlarms', recordId: alarm.id, changes: { reason } });
      return ok(await answer(alarm.id, me, req.lang));
    },
  );

  app.get(
    '/devices/alarms/settings',
    { schema: { tags, summary: 'The caller’s farm’s alarm contacts: who is on duty (texted when an alarm is raised), who an unacknowledged alarm escalates to and after how long, when a sensor is stale, the farm’s time zone' } },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      // A platform, bloc or region account has no farm of its own: the defaults, and saving says why not.
      const s = me.orgId != null ? await farmSettings(db, me.orgId) : { ...DEFAULT_SETTINGS, dutyName: '', dutyPhone: '', escalationName: '', escalationPhone: '' };
      return ok({ dutyName: s.dutyName, dutyPhone: s.dutyPhone, escalationName: s.escalationName, escalationPhone: s.escalationPhone, escalateAfterMin: Math.round(s.escalateAfterS / 60), staleAfterMin: Math.round(s.staleAfterS / 60), lang: s.lang, timeZone: s.timeZone });
    },
  );

  app.put(
    '/devices/alarms/settings',
    {
      schema: {
        tags,
        summary: 'Change the caller’s farm’s alarm contacts and delays (needs deviceAlarms:settings)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['dutyName', 'dutyPhone'],
          properties: {
            dutyName: { type: 'string', maxLength: 40 },
            dutyPhone: phone,
            escalationName: { type: 'string', maxLength: 40 },
            escalationPhone: phone,
            escalateAfterMin: { type: 'integer', minimum: 1, maximum: 1440 },
            staleAfterMin: { type: 'integer', minimum: 1, maximum: 10080 },
            lang: { type: 'string', enum: ['zh', 'en', 'es'] },
            timeZone: { type: 'string', maxLength: 60 },
          },
        },
      },
    },
    async (req) => {
      const me = requireCan(req, ALARM_MENU, 'settings');
      if (me.orgId == null) throw business('alarms.noFarm');
      const b = req.body;
      if (b.timeZone !== undefined && !validZone(b.timeZone)) throw invalidInput([{ field: 'timeZone', message: t(req.lang, 'alarms.badTimeZone') }], req.lang);
      const cur = await farmSettings(db, me.orgId);
      await db.query(
        `INSERT INTO device_farm_settings(farm_id, duty_name, duty_phone, escalation_name, escalation_phone, escalate_after_s, stale_after_s, lang, time_zone)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (farm_id) DO UPDATE SET duty_name = $2, duty_phone = $3, escalation_name = $4, escalation_phone = $5, escalate_after_s = $6, stale_after_s = $7, lang = $8, time_zone = $9`,
        [
          me.orgId, b.dutyName.trim(), b.dutyPhone, (b.escalationName ?? cur.escalationName).trim(), b.escalationPhone ?? cur.escalationPhone,
          b.escalateAfterMin !== undefined ? b.escalateAfterMin * 60 : cur.escalateAfterS, b.staleAfterMin !== undefined ? b.staleAfterMin * 60 : cur.staleAfterS,
          b.lang ?? cur.lang, b.timeZone ?? cur.timeZone,
        ],
      );
      await audit(db, req, { action: 'devices.alarm.settings', resource: 'deviceAlarms', recordId: me.orgId, changes: { ...b } });
      service.scenarios.forget();
      const s = await farmSettings(db, me.orgId);
      return ok({ dutyName: s.dutyName, dutyPhone: s.dutyPhone, escalationName: s.escalationName, escalationPhone: s.escalationPhone, escalateAfterMin: Math.round(s.escalateAfterS / 60), staleAfterMin: Math.round(s.staleAfterS / 60), lang: s.lang, timeZone: s.timeZone });
    },
  );
}

/** Whether Intl knows the zone (an IANA name such as Asia/Shanghai). */
export function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
