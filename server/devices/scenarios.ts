/**
 * Scenarios: rules that run a command when a reading crosses a threshold, or at a time of
 * day, within a window of hours (docs/devices.md, "Scenarios"). Evaluated on the server,
 * once per rule per reading. Firing is claimed in the database — a threshold rule is
 * `armed` and the UPDATE … WHERE armed that disarms it is the claim; a schedule rule claims
 * its slot (day and minute) — so several API instances hearing the same reading, or the
 * same minute, act once. A rule fires when the value crosses (not while it stays beyond the
 * threshold) and re-arms when the value comes back. A rule with `alarm` raises an alarm
 * when it fires and clears it when it re-arms; alarms reach the farm's people as notices
 * (the shell's bell).
 */
import type { Database } from '../db/database.ts';
import { t } from '../i18n/catalog.ts';
import type { Action, Commands } from './commands.ts';
import type { DeviceHub, KnownDevice } from './hub.ts';
import './messages.ts';

export interface ThresholdTrigger {
  type: 'threshold';
  place: string;
  kind: string;
  op: 'above' | 'below';
  value: number;
  /**
   * Hysteresis: having fired, the rule re-arms only once the value is back past the
   * threshold by this much (above 30 with 0.5: fires over 30, re-arms at 29.5 or below),
   * so sensor noise around the threshold fires once. 0 when absent.
   */
  deadband?: number;
  /** The least time between two firings of the rule, seconds; absent: DEFAULT_MIN_INTERVAL_S (stored with the rule since). */
  minIntervalS?: number;
}

/** A new threshold rule acts at most once a minute unless it says otherwise. */
export const DEFAULT_MIN_INTERVAL_S = 60;

/** Where a threshold rule's reading stands: beyond the threshold, back past the deadband, or in the band between. */
export function thresholdSide(trig: Pick<ThresholdTrigger, 'op' | 'value' | 'deadband'>, v: number): 'beyond' | 'back' | 'band' {
  const band = trig.deadband ?? 0;
  if (trig.op === 'above') return v > trig.value ? 'beyond' : v <= trig.value - band ? 'back' : 'band';
  return v < trig.value ? 'beyond' : v >= trig.value + band ? 'back' : 'band';
}
export interface ScheduleTrigger {
  type: 'schedule';
  /** HH:MM in the farm's time (Asia/Shanghai). */
  at: string;
}
export interface ScenarioAction {
  deviceId: number;
  action: Action;
  params: Record<string, unknown>;
}

interface ScenarioRow {
  id: number;
  farm_id: number;
  name: string;
  trigger: ThresholdTrigger | ScheduleTrigger;
  window_from: string;
  window_to: string;
  action: ScenarioAction | null;
  alarm: boolean;
}

const FARM_TZ = 'Asia/Shanghai';

/** The farm's clock: date and HH:MM:SS. */
export function farmClock(now: Date): { day: string; time: string } {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: FARM_TZ, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(now).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
}

export function inWindow(time: string, from: string, to: string): boolean {
  const hm = (s: string) => s.slice(0, 8).padEnd(8, ':00').slice(0, 8);
  const [x, a, b] = [hm(time), hm(from), hm(to)];
  return a <= b ? x >= a && x <= b : x >= a || x <= b; // a window across midnight
}

export class Scenarios {
  private timer: NodeJS.Timeout | null = null;
  /** Scenarios fired by this instance (tests and the bench). */
  fired = 0;

  constructor(
    private readonly db: Database,
    private readonly hub: DeviceHub,
    private readonly commands: Commands,
  ) {
    hub.onReading((device, ts, values) => this.onReading(device, ts, values));
  }

  startSchedule(periodMs = 20_000): void {
    this.timer = setInterval(() => void this.runSchedule(new Date()).catch(() => undefined), periodMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Each farm's enabled threshold rules, read at most every 5 s (and again after a change here). */
  private readonly rules = new Map<number, { rows: ScenarioRow[]; at: number }>();

  /** Forget the cached rules (a scenario was created, changed, enabled, disabled or deleted). */
  forget(): void {
    this.rules.clear();
  }

  private async thresholdRules(farmId: number): Promise<ScenarioRow[]> {
    const hit = this.rules.get(farmId);
    if (hit && Date.now() - hit.at < 5000) return hit.rows;
    const { rows } = await this.db.query<ScenarioRow>(
      `SELECT id, farm_id, name, trigger, window_from::text, window_to::text, action, alarm FROM device_scenarios
        WHERE farm_id = $1 AND enabled AND trigger->>'type' = 'threshold'`,
      [farmId],
    );
    this.rules.set(farmId, { rows, at: Date.now() });
    return rows;
  }

  async onReading(device: KnownDevice, ts: Date, values: Record<string, number>): Promise<void> {
    const rows = (await this.thresholdRules(device.farmId)).filter((s) => {
      const trig = s.trigger as ThresholdTrigger;
      return trig.place === device.unit && trig.kind in values;
    });
    if (!rows.length) return;
    const clock = farmClock(ts);
    for (const s of rows) {
      const trig = s.trigger as ThresholdTrigger;
      const v = values[trig.kind];
      const side = thresholdSide(trig, v);
      if (side === 'band') continue; // inside the deadband: neither fires nor re-arms
      if (side === 'beyond') {
        if (!inWindow(clock.time, s.window_from, s.window_to)) continue;
        // Armed, and not fired within its minimum interval: a rule crossing again too soon
        // stays armed and fires on a later reading once the interval has passed.
        const claimed = await this.db.query(
          `UPDATE device_scenarios SET armed = false, last_fired_at = now(), runs = runs + 1
            WHERE id = $1 AND armed AND enabled AND (last_fired_at IS NULL OR last_fired_at <= now() - make_interval(secs => $2)) RETURNING id`,
          [s.id, trig.minIntervalS ?? DEFAULT_MIN_INTERVAL_S],
        );
        if (claimed.rows[0]) await this.fire(s, `${trig.kind} ${v}`);
      } else {
        const rearmed = await this.db.query(`UPDATE device_scenarios SET armed = true WHERE id = $1 AND NOT armed RETURNING id`, [s.id]);
        if (rearmed.rows[0] && s.alarm) await this.clearAlarm(s);
      }
    }
  }

  async runSchedule(now: Date): Promise<void> {
    const clock = farmClock(now);
    const hm = clock.time.slice(0, 5);
    const slot = `${clock.day} ${hm}`;
    const { rows } = await this.db.query<ScenarioRow>(
      `SELECT id, farm_id, name, trigger, window_from::text, window_to::text, action, alarm FROM device_scenarios
        WHERE enabled AND trigger->>'type' = 'schedule' AND trigger->>'at' = $1`,
      [hm],
    );
    for (const s of rows) {
      if (!inWindow(clock.time, s.window_from, s.window_to)) continue;
      const claimed = await this.db.query(
        `UPDATE device_scenarios SET last_slot = $2, last_fired_at = now(), runs = runs + 1 WHERE id = $1 AND last_slot IS DISTINCT FROM $2 RETURNING id`,
        [s.id, slot],
      );
      if (claimed.rows[0]) await this.fire(s, hm);
    }
  }

  private async fire(s: ScenarioRow, why: string): Promise<void> {
    this.fired++;
    if (s.alarm) await this.raiseAlarm(s, why);
    if (!s.action) return;
    const { rows } = await this.db.query<{ id: number; farm_id: number; code: string; name: string; kind: string; place: string; unit: string }>(
      'SELECT id, farm_id, code, name, kind, place, unit FROM devices WHERE id = $1 AND farm_id = $2',
      [s.action.deviceId, s.farm_id],
    );
    const d = rows[0];
    if (!d) return;
    const device: KnownDevice = { id: d.id, farmId: Number(d.farm_id), code: d.code, name: d.name, kind: d.kind, place: d.place, unit: d.unit };
    if (!(await this.commands.isOnline(device.id))) {
      // Recorded as a failed command, so the scenario's last runs say why nothing happened.
      await this.db.query(
        `INSERT INTO device_commands(farm_id, device_id, action, params, status, message, source, scenario_id, expires_at, finished_at)
         VALUES ($1, $2, $3, $4, 'failed', 'offline', 'scenario', $5, now(), now())`,
        [device.farmId, device.id, s.action.action, JSON.stringify(s.action.params ?? {}), s.id],
      );
      return;
    }
    await this.commands.send(device, s.action.action, s.action.params ?? {}, { userId: null, source: 'scenario', scenarioId: s.id });
  }

  private async raiseAlarm(s: ScenarioRow, why: string): Promise<void> {
    const trig = s.trigger as Partial<ThresholdTrigger>;
    const { rows } = await this.db.query<{ id: number }>(
      `INSERT INTO device_alarms(farm_id, scenario_id, place, kind, message) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (scenario_id) WHERE cleared_at IS NULL DO NOTHING RETURNING id`,
      [s.farm_id, s.id, trig.place ?? '', trig.kind ?? 'schedule', `${s.name}（${why}）`],
    );
    if (!rows[0]) return;
    await this.notify(s.farm_id, t('zh', 'devices.alarmRaised', { name: s.name }), `${trig.place ?? ''} ${why}`);
    this.hub.events.publish({ type: 'alarm', farmId: Number(s.farm_id), alarmId: rows[0].id, raised: true, message: s.name });
  }

  private async clearAlarm(s: ScenarioRow): Promise<void> {
    const { rows } = await this.db.query<{ id: number }>(
      `UPDATE device_alarms SET cleared_at = now() WHERE scenario_id = $1 AND cleared_at IS NULL RETURNING id`,
      [s.id],
    );
    if (!rows[0]) return;
    await this.notify(s.farm_id, t('zh', 'devices.alarmCleared', { name: s.name }), '');
    this.hub.events.publish({ type: 'alarm', farmId: Number(s.farm_id), alarmId: rows[0].id, raised: false, message: s.name });
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
