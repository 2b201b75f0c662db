/**
 * Alarms with a lifecycle (docs/devices.md, "Alarms"): raised by a threshold rule, a device
 * or gateway going offline, a stale sensor, a command that failed or timed out, or a rule's
 * command refused by an interlock; acknowledged (who, when, a note); cleared automatically
 * when the condition ends, or by hand with a reason; escalated after the farm's delay while
 * nobody acknowledges it. One open alarm per (farm, source, condition): raising it again
 * counts an occurrence. Every change is pushed to the open consoles (the device event
 * stream); a major or critical alarm goes by SMS to the farm's on-duty contact and rings
 * the shell's bell. Every transition is a conditional UPDATE, so of several API instances
 * exactly one reports it (and sends its text).
 */
import type { Database, Queryable } from '../db/database.ts';
import type { Lang } from '../i18n/lang.ts';
import { defineMessages, t } from '../i18n/catalog.ts';
import type { SmsSender } from '../sms/sender.ts';
import type { DeviceEvents } from './events.ts';

export const CONDITIONS = ['threshold', 'offline', 'stale', 'commandFailed', 'commandTimedOut', 'interlock'] as const;
export type AlarmCondition = (typeof CONDITIONS)[number];
export const SEVERITIES = ['critical', 'major', 'minor'] as const;
export type Severity = (typeof SEVERITIES)[number];
export type AlarmState = 'open' | 'acknowledged' | 'cleared';

/** An unacknowledged alarm escalates at most this many times. */
export const MAX_ESCALATION = 3;

export const alarmMsg = defineMessages({
  'alarms.threshold': { zh: '{rule}（{value}）', en: '{rule} ({value})', es: '{rule} ({value})' },
  'alarms.offline': { zh: '设备「{device}」离线', en: 'The device “{device}” is offline', es: 'El dispositivo «{device}» está desconectado' },
  'alarms.gatewayOffline': {
    zh: '网关「{device}」离线，接在它上面的设备都已离线',
    en: 'The gateway “{device}” is offline, and every device wired to it',
    es: 'La pasarela «{device}» está desconectada, y todos sus dispositivos',
  },
  'alarms.stale': {
    zh: '传感器「{device}」在线但已 {minutes} 分钟没有读数',
    en: 'The sensor “{device}” is online but sent no reading for {minutes} min',
    es: 'El sensor «{device}» está conectado pero no envía lecturas desde hace {minutes} min',
  },
  'alarms.commandFailed': {
    zh: '设备「{device}」拒绝执行命令：{reason}',
    en: 'The device “{device}” refused a command: {reason}',
    es: 'El dispositivo «{device}» rechazó una orden: {reason}',
  },
  'alarms.commandTimedOut': {
    zh: '设备「{device}」没有回应命令（{seconds} 秒内）',
    en: 'The device “{device}” did not answer a command (within {seconds} s)',
    es: 'El dispositivo «{device}» no respondió a una orden (en {seconds} s)',
  },
  'alarms.interlock': {
    zh: '方案「{rule}」的命令被联锁拒绝：{reason}',
    en: 'The rule “{rule}” was refused by an interlock: {reason}',
    es: 'La regla «{rule}» fue rechazada por un enclavamiento: {reason}',
  },
  'alarms.sms.raised': { zh: '【{farm}】告警：{text}', en: '[{farm}] Alarm: {text}', es: '[{farm}] Alarma: {text}' },
  'alarms.sms.escalated': {
    zh: '【{farm}】告警 {minutes} 分钟无人确认（第 {level} 次升级）：{text}',
    en: '[{farm}] Alarm unacknowledged for {minutes} min (escalation {level}): {text}',
    es: '[{farm}] Alarma sin confirmar desde hace {minutes} min (escalado {level}): {text}',
  },
  'alarms.notice.raised': { zh: '告警：{text}', en: 'Alarm: {text}', es: 'Alarma: {text}' },
  'alarms.notice.cleared': { zh: '告警解除：{text}', en: 'Alarm cleared: {text}', es: 'Alarma resuelta: {text}' },
  'alarms.missing': { zh: '告警不存在', en: 'The alarm does not exist', es: 'La alarma no existe' },
  'alarms.alreadyCleared': { zh: '告警已解除，无需再处理', en: 'The alarm is already cleared', es: 'La alarma ya está resuelta' },
  'alarms.alreadyAcknowledged': {
    zh: '告警已由 {who} 于 {at} 确认',
    en: 'The alarm was already acknowledged by {who} at {at}',
    es: 'La alarma ya fue confirmada por {who} a las {at}',
  },
  'alarms.noFarm': {
    zh: '只有农场账号有告警值班联系人（平台、集团与区域账号只能查看）',
    en: 'Only a farm account has an alarm on-duty contact (platform, bloc and region accounts can only view)',
    es: 'Solo una cuenta de granja tiene contacto de guardia (las cuentas de plataforma, grupo y región solo pueden ver)',
  },
  'alarms.clearedAutomatically': { zh: '自动解除', en: 'Cleared automatically', es: 'Resuelta automáticamente' },
  'alarms.badTimeZone': { zh: '不认识的时区（例如 Asia/Shanghai）', en: 'Unknown time zone (e.g. Asia/Shanghai)', es: 'Zona horaria desconocida (p. ej. Asia/Shanghai)' },
  'alarms.reasonRequired': { zh: '请填写手动解除的原因', en: 'Give the reason for clearing it by hand', es: 'Indique el motivo para resolverla a mano' },
  'alarms.notYourFarm': {
    zh: '只有告警所属农场的账号可以确认或解除告警',
    en: 'Only an account of the alarm’s own farm can acknowledge or clear it',
    es: 'Solo una cuenta de la granja de la alarma puede confirmarla o resolverla',
  },
});

export interface AlarmRow {
  id: number;
  farm_id: number;
  scenario_id: number | null;
  device_id: number | null;
  place: string;
  kind: string;
  message: string;
  source: string;
  condition: AlarmCondition;
  severity: Severity;
  params: Record<string, string | number>;
  occurrences: number;
  raised_at: Date;
  last_raised_at: Date | null;
  acknowledged_at: Date | null;
  acknowledged_by: number | null;
  ack_note: string;
  cleared_at: Date | null;
  cleared_by: number | null;
  clear_reason: string;
  escalation_level: number;
  escalated_at: Date | null;
}

export interface RaiseInput {
  farmId: number;
  /** `scenario:<id>`, `device:<id>`, `gateway:<id>`. */
  source: string;
  condition: AlarmCondition;
  severity: Severity;
  deviceId?: number | null;
  scenarioId?: number | null;
  place?: string;
  kind?: string;
  /** What the sentence is made of (see alarmText). */
  params: Record<string, string | number>;
}

export function alarmState(r: Pick<AlarmRow, 'cleared_at' | 'acknowledged_at'>): AlarmState {
  return r.cleared_at ? 'cleared' : r.acknowledged_at ? 'acknowledged' : 'open';
}

/** The alarm's sentence in `lang`. */
export function alarmText(r: Pick<AlarmRow, 'condition' | 'params' | 'message' | 'source'>, lang: Lang): string {
  const p = r.params ?? {};
  if (typeof p.text === 'string' && Object.keys(p).length === 1) return p.text; // an alarm stored before the lifecycle
  if (r.condition === 'offline' && r.source.startsWith('gateway:')) return t(lang, 'alarms.gatewayOffline', p);
  // An interlock's refusal keeps its sentence's key and parts: said again in the reader's language.
  const reason = typeof p.reasonKey === 'string' ? t(lang, p.reasonKey, p) : (p.reason ?? '');
  return t(lang, `alarms.${r.condition}`, { ...p, reason });
}

export interface FarmSettings {
  farmId: number;
  farmName: string;
  dutyName: string;
  dutyPhone: string;
  escalationName: string;
  escalationPhone: string;
  escalateAfterS: number;
  staleAfterS: number;
  lang: Lang;
  timeZone: string;
}

export const DEFAULT_SETTINGS = { escalateAfterS: 900, staleAfterS: 900, lang: 'zh' as Lang, timeZone: 'Asia/Shanghai' };

/** A farm's devices settings (device_farm_settings), the defaults where it has no row. */
export async function farmSettings(db: Queryable, farmId: number): Promise<FarmSettings> {
  const { rows } = await db.query<{ name: string; duty_name: string | null; duty_phone: string | null; escalation_name: string | null; escalation_phone: string | null; escalate_after_s: number | null; stale_after_s: number | null; lang: Lang | null; time_zone: string | null }>(
    `SELECT o.name, s.duty_name, s.duty_phone, s.escalation_name, s.escalation_phone, s.escalate_after_s, s.stale_after_s, s.lang, s.time_zone
       FROM organisations o LEFT JOIN device_farm_settings s ON s.farm_id = o.id WHERE o.id = $1`,
    [farmId],
  );
  const r = rows[0];
  return {
    farmId,
    farmName: r?.name ?? '',
    dutyName: r?.duty_name ?? '',
    dutyPhone: r?.duty_phone ?? '',
    escalationName: r?.escalation_name ?? '',
    escalationPhone: r?.escalation_phone ?? '',
    escalateAfterS: r?.escalate_after_s ?? DEFAULT_SETTINGS.escalateAfterS,
    staleAfterS: r?.stale_after_s ?? DEFAULT_SETTINGS.staleAfterS,
    lang: r?.lang ?? DEFAULT_SETTINGS.lang,
    timeZone: r?.time_zone ?? DEFAULT_SETTINGS.timeZone,
  };
}

const COLUMNS = [
  'id', 'farm_id', 'scenario_id', 'device_id', 'place', 'kind', 'message', 'source', 'condition', 'severity', 'params', 'occurrences', 'raised_at', 'last_raised_at',
  'acknowledged_at', 'acknowledged_by', 'ack_note', 'cleared_at', 'cleared_by', 'clear_reason', 'escalation_level', 'escalated_at',
];
const RETURNING = COLUMNS.join(', ');
const RETURNING_A = COLUMNS.map((c) => `a.${c}`).join(', ');

export class Alarms {
  /** SMS texts sent by this instance (tests and the health page). */
  readonly sent = { raised: 0, escalated: 0, failed: 0 };

  constructor(
    private readonly db: Database,
    private readonly events: DeviceEvents,
    private readonly sms: SmsSender | null,
    private readonly log: (msg: string) => void,
  ) {}

  /**
   * Raises the alarm, or counts one more occurrence of the open one of the same source and
   * condition (a chattering condition never makes a second row). `raised` is true only for
   * a new alarm: then the consoles are told, and a major or critical one is texted to the
   * on-duty contact and rung on the bell.
   */
  async raise(a: RaiseInput): Promise<{ id: number; raised: boolean }> {
    const { rows } = await this.db.query<AlarmRow & { inserted: boolean }>(
      `INSERT INTO device_alarms(farm_id, scenario_id, device_id, place, kind, message, source, condition, severity, params, last_raised_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
       ON CONFLICT (farm_id, source, condition) WHERE cleared_at IS NULL
       DO UPDATE SET occurrences = device_alarms.occurrences + 1, last_raised_at = now()
       RETURNING ${RETURNING}, (xmax = 0) AS inserted`,
      [
        a.farmId, a.scenarioId ?? null, a.deviceId ?? null, a.place ?? '', a.kind ?? a.condition,
        // The stored sentence (zh) is what older readers show (the unit tiles, the map, the farm home).
        alarmText({ condition: a.condition, params: a.params, message: '', source: a.source }, 'zh'),
        a.source, a.condition, a.severity, JSON.stringify(a.params),
      ],
    );
    const row = rows[0];
    if (!row.inserted) return { id: row.id, raised: false };
    this.tell(row);
    if (row.severity !== 'minor') {
      const s = await farmSettings(this.db, row.farm_id);
      await this.text(s, [s.dutyPhone], t(s.lang, 'alarms.sms.raised', { farm: s.farmName, text: alarmText(row, s.lang) }), 'raised');
      await this.notify(row.farm_id, t('zh', 'alarms.notice.raised', { text: alarmText(row, 'zh') }), row.place);
    }
    return { id: row.id, raised: true };
  }

  /**
   * The condition ended: clears the open alarm(s) of the source with these conditions
   * (cleared_by NULL: automatically). Answers the cleared ids.
   */
  async clear(farmId: number, source: string, conditions: readonly AlarmCondition[]): Promise<number[]> {
    const { rows } = await this.db.query<AlarmRow>(
      `UPDATE device_alarms SET cleared_at = now() WHERE farm_id = $1 AND source = $2 AND condition = ANY($3::text[]) AND cleared_at IS NULL RETURNING ${RETURNING}`,
      [farmId, source, conditions],
    );
    for (const r of rows) await this.cleared(r);
    return rows.map((r) => r.id);
  }

  /**
   * Devices and gateways the hub has just marked offline (its conditional UPDATE was the
   * claim: one instance reports each). A gateway raises one alarm for itself and the
   * devices it took with it; a device raises its own unless its gateway's offline alarm is open.
   */
  async wentOffline(deviceIds: number[], gatewayIds: number[]): Promise<void> {
    if (gatewayIds.length) {
      const { rows } = await this.db.query<{ id: number; farm_id: number; name: string; place: string }>('SELECT id, farm_id, name, place FROM device_gateways WHERE id = ANY($1::int[])', [gatewayIds]);
      for (const g of rows) await this.raise({ farmId: Number(g.farm_id), source: `gateway:${g.id}`, condition: 'offline', severity: 'major', place: g.place, params: { device: g.name } });
    }
    if (deviceIds.length) {
      const { rows } = await this.db.query<{ id: number; farm_id: number; name: string; kind: string; unit: string }>(
        `SELECT d.id, d.farm_id, d.name, d.kind, d.unit FROM devices d
          WHERE d.id = ANY($1::int[]) AND NOT d.online
            AND NOT EXISTS (SELECT 1 FROM device_alarms a WHERE a.farm_id = d.farm_id AND a.source = 'gateway:' || d.gateway_id AND a.condition = 'offline' AND a.cleared_at IS NULL)`,
        [deviceIds],
      );
      for (const d of rows) {
        await this.raise({
          farmId: Number(d.farm_id), source: `device:${d.id}`, condition: 'offline', severity: d.kind === 'sensor' || d.kind === 'camera' ? 'minor' : 'major',
          deviceId: d.id, place: d.unit, params: { device: d.name },
        });
      }
    }
  }

  async get(id: number, tx: Queryable = this.db): Promise<AlarmRow | null> {
    const { rows } = await tx.query<AlarmRow>(`SELECT ${RETURNING} FROM device_alarms WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** A person acknowledges an open alarm (escalation stops). Null when it is not open any more. */
  async acknowledge(id: number, userId: number, note: string): Promise<AlarmRow | null> {
    const { rows } = await this.db.query<AlarmRow>(
      `UPDATE device_alarms SET acknowledged_at = now(), acknowledged_by = $2, ack_note = $3
        WHERE id = $1 AND cleared_at IS NULL AND acknowledged_at IS NULL RETURNING ${RETURNING}`,
      [id, userId, note],
    );
    if (rows[0]) this.tell(rows[0]);
    return rows[0] ?? null;
  }

  /** A person clears an alarm by hand, with the reason. Null when it is cleared already. */
  async clearByHand(id: number, userId: number, reason: string): Promise<AlarmRow | null> {
    const { rows } = await this.db.query<AlarmRow>(
      `UPDATE device_alarms SET cleared_at = now(), cleared_by = $2, clear_reason = $3 WHERE id = $1 AND cleared_at IS NULL RETURNING ${RETURNING}`,
      [id, userId, reason],
    );
    if (rows[0]) await this.cleared(rows[0]);
    return rows[0] ?? null;
  }

  /**
   * The periodic part, on the offline sweep's timer (`now`: the sweep's clock, tests fix
   * it): offline alarms clear once their device or gateway is back; online sensors with no reading for the farm's stale limit raise a stale alarm, cleared by the
   * next reading; open alarms nobody acknowledged escalate after the farm's delay.
   */
  async sweep(now: Date): Promise<{ raised: number; cleared: number; escalated: number }> {
    const at = now.toISOString();
    let raised = 0;
    // Stale sensors: online, and no reading within the farm's limit.
    const stale = await this.db.query<{ id: number; farm_id: number; name: string; unit: string; minutes: number }>(
      `SELECT d.id, d.farm_id, d.name, d.unit,
              floor(extract(epoch FROM $1::timestamptz - coalesce(d.last_reading_at, d.last_seen)) / 60)::int AS minutes
         FROM devices d LEFT JOIN device_farm_settings s ON s.farm_id = d.farm_id
        WHERE d.kind = 'sensor' AND d.online AND coalesce(d.last_reading_at, d.last_seen) IS NOT NULL
          AND coalesce(d.last_reading_at, d.last_seen) < $1::timestamptz - make_interval(secs => coalesce(s.stale_after_s, $2))
          AND NOT EXISTS (SELECT 1 FROM device_alarms a WHERE a.farm_id = d.farm_id AND a.source = 'device:' || d.id AND a.condition = 'stale' AND a.cleared_at IS NULL)`,
      [at, DEFAULT_SETTINGS.staleAfterS],
    );
    for (const d of stale.rows) {
      const r = await this.raise({ farmId: Number(d.farm_id), source: `device:${d.id}`, condition: 'stale', severity: 'minor', deviceId: d.id, place: d.unit, params: { device: d.name, minutes: d.minutes } });
      if (r.raised) raised++;
    }
    // The conditions that ended: back online, a reading again.
    const ended = await this.db.query<AlarmRow>(
      `UPDATE device_alarms a SET cleared_at = now()
        WHERE a.cleared_at IS NULL AND (
          (a.condition = 'offline' AND a.source LIKE 'device:%' AND EXISTS (SELECT 1 FROM devices d WHERE 'device:' || d.id = a.source AND d.online))
          OR (a.condition = 'offline' AND a.source LIKE 'gateway:%' AND EXISTS (SELECT 1 FROM device_gateways g WHERE 'gateway:' || g.id = a.source AND g.online))
          OR (a.condition = 'stale' AND EXISTS (SELECT 1 FROM devices d LEFT JOIN device_farm_settings s ON s.farm_id = d.farm_id
                WHERE 'device:' || d.id = a.source AND (NOT d.online OR d.last_reading_at >= $1::timestamptz - make_interval(secs => coalesce(s.stale_after_s, $2)))))
          OR (a.condition IN ('offline', 'stale') AND a.source LIKE 'device:%' AND NOT EXISTS (SELECT 1 FROM devices d WHERE 'device:' || d.id = a.source))
        ) RETURNING ${RETURNING_A}`,
      [at, DEFAULT_SETTINGS.staleAfterS],
    );
    for (const r of ended.rows) await this.cleared(r);
    const escalated = await this.escalate(now);
    return { raised, cleared: ended.rows.length, escalated };
  }

  /**
   * Open, unacknowledged major and critical alarms older than their farm's delay since
   * raised (or since the last escalation) go one level up, at most MAX_ESCALATION: the
   * on-duty contact and the escalation contact are texted.
   */
  async escalate(now: Date): Promise<number> {
    const { rows } = await this.db.query<AlarmRow>(
      `UPDATE device_alarms a SET escalation_level = a.escalation_level + 1, escalated_at = $1::timestamptz
         FROM (SELECT a2.id, a2.escalation_level AS level FROM device_alarms a2 LEFT JOIN device_farm_settings s ON s.farm_id = a2.farm_id
                WHERE a2.cleared_at IS NULL AND a2.acknowledged_at IS NULL AND a2.severity <> 'minor' AND a2.escalation_level < $3
                  AND coalesce(a2.escalated_at, a2.raised_at) <= $1::timestamptz - make_interval(secs => coalesce(s.escalate_after_s, $2))
                LIMIT 200) due
        -- The level is the claim: of two sweeps at once (two instances), one escalates.
        WHERE a.id = due.id AND a.escalation_level = due.level AND a.cleared_at IS NULL AND a.acknowledged_at IS NULL
        RETURNING ${RETURNING_A}`,
      [now.toISOString(), DEFAULT_SETTINGS.escalateAfterS, MAX_ESCALATION],
    );
    for (const r of rows) {
      this.tell(r);
      const s = await farmSettings(this.db, r.farm_id);
      const minutes = Math.max(1, Math.round((now.getTime() - new Date(r.raised_at).getTime()) / 60_000));
      await this.text(s, [s.dutyPhone, s.escalationPhone], t(s.lang, 'alarms.sms.escalated', { farm: s.farmName, minutes, level: r.escalation_level, text: alarmText(r, s.lang) }), 'escalated');
    }
    return rows.length;
  }

  private async cleared(r: AlarmRow): Promise<void> {
    this.tell(r);
    if (r.severity !== 'minor') await this.notify(r.farm_id, t('zh', 'alarms.notice.cleared', { text: alarmText(r, 'zh') }), r.place);
  }

  /** The open consoles of the farm are told (they read the list or the units again). */
  private tell(r: AlarmRow): void {
    this.events.publish({
      type: 'alarm', farmId: Number(r.farm_id), alarmId: r.id, raised: !r.cleared_at, message: r.message,
      state: alarmState(r), severity: r.severity, condition: r.condition, escalationLevel: r.escalation_level,
    });
  }

  private async text(s: FarmSettings, phones: string[], text: string, what: 'raised' | 'escalated'): Promise<void> {
    const to = [...new Set(phones.filter(Boolean))];
    if (!to.length) {
      this.log(`[alarms] farm ${s.farmId} has no on-duty contact: an alarm was not texted (docs/devices.md, "Alarms")`);
      return;
    }
    if (!this.sms) return;
    for (const phone of to) {
      try {
        await this.sms.notify({ phone, kind: 'alarm', text });
        this.sent[what]++;
      } catch (e) {
        this.sent.failed++;
        this.log(`[alarms] the alarm text to ${phone} was not delivered: ${String(e)}`);
      }
    }
  }

  /**
   * A notice to the farm's people who run its devices (a menu of the control room or of
   * smart control): the shell's bell counts it (notice_receipts), the notice list shows it.
   */
  private async notify(farmId: number, title: string, content: string): Promise<void> {
    await this.db.query(
      `WITH n AS (INSERT INTO notices(title, content, kind) VALUES ($1, $2, 'message') RETURNING id)
       INSERT INTO notice_receipts(notice_id, user_id)
       SELECT n.id, u.id FROM n, users u
        WHERE u.org_id = $3 AND u.status = 1
          AND EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                       WHERE ur.user_id = u.id AND r.menus && ARRAY['farmControllRoomIndex', 'equipmentControllIndex']::text[])`,
      [title, content, farmId],
    );
  }
}
