/**
 * Scenarios: rules that run a command when a reading crosses a threshold, or at a time of
 * day, within a window of hours (docs/devices.md, "Scenarios"). Evaluated on the server,
 * once per rule per reading. Firing is claimed in the database — a threshold rule is
 * `armed` and the UPDATE … WHERE armed that disarms it is the claim; a schedule rule claims
 * its slot (day and minute) — so several API instances hearing the same reading, or the
 * same minute, act once. A rule fires when the value crosses (not while it stays beyond the
 * threshold) and re-arms when the value comes back. A rule with `alarm` raises an alarm
 * when it fires and clears it when it re-arms (alarms.ts: the lifecycle, SMS, the bell);
 * a rule's command refused by an interlock is a failed command and an alarm. A threshold
 * rule may hold several conditions combined by all / any (`combinedSide`), and its action
 * may carry a run-for duration (the server's timer switches the device off: commands.ts).
 */
import type { Database } from '../db/database.ts';
import { t } from '../i18n/catalog.ts';
import type { Action, Commands } from './commands.ts';
import type { DeviceHub, KnownDevice } from './hub.ts';
import type { Alarms } from './alarms.ts';
import type { ApiError } from '../http/envelope.ts';
import { isInterlockRefusal } from './interlocks.ts';
import './messages.ts';

/** One condition of a threshold rule: a place's measure above or below a value, with its deadband. */
export interface ThresholdCondition {
  place: string;
  kind: string;
  op: 'above' | 'below';
  value: number;
  deadband?: number;
}

/**
 * A threshold rule: one condition (`place`, `kind`, `op`, `value`, `deadband`: the first
 * shape, kept), or several (`conditions`, combined by `match`: `all` or `any`).
 */
export interface ThresholdTrigger {
  type: 'threshold';
  place?: string;
  kind?: string;
  op?: 'above' | 'below';
  value?: number;
  /** Several conditions (1–8), each with its own deadband; `match` says how they combine (default all). */
  conditions?: ThresholdCondition[];
  match?: 'all' | 'any';
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

/** A threshold rule's conditions, whichever shape it is stored in. */
export function conditionsOf(trig: ThresholdTrigger): ThresholdCondition[] {
  if (Array.isArray(trig.conditions) && trig.conditions.length) return trig.conditions;
  return [{ place: trig.place ?? '', kind: trig.kind ?? '', op: trig.op ?? 'above', value: trig.value ?? 0, deadband: trig.deadband }];
}

/**
 * Where several conditions stand together, each `beyond`, `back` or `band` (or unknown:
 * `band`, no fresh value): with `all`, beyond when every one is beyond and back as soon as
 * one is back; with `any`, beyond when one is beyond and back only when every one is back;
 * otherwise in the band (neither fires nor re-arms). One condition is itself.
 */
export function combinedSide(match: 'all' | 'any', sides: ('beyond' | 'back' | 'band')[]): 'beyond' | 'back' | 'band' {
  const [yes, no] = match === 'any' ? ['back', 'beyond'] as const : ['beyond', 'back'] as const;
  if (sides.every((x) => x === yes)) return yes;
  if (sides.some((x) => x === no)) return no;
  return 'band';
}

/** Where a threshold rule's reading stands: beyond the threshold, back past the deadband, or in the band between. */
export function thresholdSide(trig: Pick<ThresholdCondition, 'op' | 'value' | 'deadband'>, v: number): 'beyond' | 'back' | 'band' {
  const band = trig.deadband ?? 0;
  if (trig.op === 'above') return v > trig.value ? 'beyond' : v <= trig.value - band ? 'back' : 'band';
  return v < trig.value ? 'beyond' : v >= trig.value + band ? 'back' : 'band';
}
export interface ScheduleTrigger {
  type: 'schedule';
  /** HH:MM in the farm's own time (its time zone, Asia/Shanghai by default). */
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
  /** What to do when the value comes back (the rule re-arms): the fan off again. */
  back_action: ScenarioAction | null;
  alarm: boolean;
}

/** A farm's time zone when it has none of its own (device_farm_settings.time_zone): the demo regions are all in China. */
export const DEFAULT_FARM_TZ = 'Asia/Shanghai';
/** How old a condition's last value may be and still count (the farm's stale_after_s when it has settings). */
const DEFAULT_STALE_S = 900;

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The clock of a farm in `timeZone`: date and HH:MM:SS. */
export function farmClock(now: Date, timeZone = DEFAULT_FARM_TZ): { day: string; time: string } {
  let f = clocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    clocks.set(timeZone, f);
  }
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
    hub: DeviceHub,
    private readonly commands: Commands,
    private readonly alarms: Alarms,
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
  private readonly rules = new Map<number, { rows: ScenarioRow[]; tz: string; staleS: number; at: number }>();

  /** Forget the cached rules (a scenario was created, changed, enabled, disabled or deleted). */
  forget(): void {
    this.rules.clear();
  }

  private async thresholdRules(farmId: number): Promise<{ rows: ScenarioRow[]; tz: string; staleS: number }> {
    const hit = this.rules.get(farmId);
    if (hit && Date.now() - hit.at < 5000) return hit;
    const { rows } = await this.db.query<ScenarioRow>(
      `SELECT id, farm_id, name, trigger, window_from::text, window_to::text, action, back_action, alarm FROM device_scenarios
        WHERE farm_id = $1 AND enabled AND trigger->>'type' = 'threshold'`,
      [farmId],
    );
    const settings = (await this.db.query<{ tz: string; stale: number }>('SELECT time_zone AS tz, stale_after_s AS stale FROM device_farm_settings WHERE farm_id = $1', [farmId])).rows[0];
    const entry = { rows, tz: settings?.tz ?? DEFAULT_FARM_TZ, staleS: Number(settings?.stale ?? DEFAULT_STALE_S), at: Date.now() };
    this.rules.set(farmId, entry);
    return entry;
  }

  async onReading(device: KnownDevice, ts: Date, values: Record<string, number>): Promise<void> {
    const rules = await this.thresholdRules(device.farmId);
    const rows = rules.rows.filter((s) => conditionsOf(s.trigger as ThresholdTrigger).some((c) => c.place === device.unit && c.kind in values));
    if (!rows.length) return;
    const clock = farmClock(ts, rules.tz);
    for (const s of rows) {
      const trig = s.trigger as ThresholdTrigger;
      const conditions = conditionsOf(trig);
      let side: 'beyond' | 'back' | 'band';
      let why: string;
      if (conditions.length === 1) {
        const v = values[conditions[0].kind];
        side = thresholdSide(conditions[0], v);
        why = `${conditions[0].kind} ${v}`;
      } else {
        const judged = await this.judgeConditions(s, conditions, device.unit, ts, values, rules.staleS);
        side = combinedSide(trig.match ?? 'all', judged.sides);
        why = judged.why;
      }
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
        if (claimed.rows[0]) await this.fire(s, why);
      } else {
        const rearmed = await this.db.query(`UPDATE device_scenarios SET armed = true WHERE id = $1 AND NOT armed RETURNING id`, [s.id]);
        if (!rearmed.rows[0]) continue;
        // The condition ended: the rule's alarms clear (its threshold alarm, an interlock refusal),
        // and its action for the way back runs (the fan off again), within the window too.
        await this.alarms.clear(Number(s.farm_id), `scenario:${s.id}`, ['threshold', 'interlock']);
        if (s.back_action && inWindow(clock.time, s.window_from, s.window_to)) await this.act(s, s.back_action);
      }
    }
  }

  /**
   * A rule of several conditions: the values of this reading are stored with the rule
   * (`condition_values`, one atomic update, so every instance judges with the latest value
   * of each condition whoever heard it), and each condition is judged on its last value —
   * unknown (`band`) when it has none, or none newer than the farm's stale limit before
   * this reading.
   */
  private async judgeConditions(s: ScenarioRow, conditions: ThresholdCondition[], place: string, ts: Date, values: Record<string, number>, staleS: number) {
    const mine: Record<string, { v: number; ts: string }> = {};
    conditions.forEach((c, i) => {
      if (c.place === place && c.kind in values) mine[String(i)] = { v: values[c.kind], ts: ts.toISOString() };
    });
    const { rows } = await this.db.query<{ values: Record<string, { v: number; ts: string }> }>(
      `UPDATE device_scenarios SET condition_values = condition_values || $2::jsonb WHERE id = $1 RETURNING condition_values AS values`,
      [s.id, JSON.stringify(mine)],
    );
    const stored = rows[0]?.values ?? mine;
    const sides = conditions.map((c, i) => {
      const last = stored[String(i)];
      if (!last || ts.getTime() - new Date(last.ts).getTime() > staleS * 1000) return 'band' as const;
      return thresholdSide(c, Number(last.v));
    });
    const why = conditions.map((c, i) => `${c.kind} ${stored[String(i)]?.v ?? '—'}`).join(', ');
    return { sides, why };
  }

  /** Schedule rules due at `now` in their farm's own time zone. */
  async runSchedule(now: Date): Promise<void> {
    const { rows } = await this.db.query<ScenarioRow & { tz: string | null }>(
      `SELECT s.id, s.farm_id, s.name, s.trigger, s.window_from::text, s.window_to::text, s.action, s.back_action, s.alarm, f.time_zone AS tz
         FROM device_scenarios s LEFT JOIN device_farm_settings f ON f.farm_id = s.farm_id
        WHERE s.enabled AND s.trigger->>'type' = 'schedule'`,
    );
    for (const s of rows) {
      const clock = farmClock(now, s.tz ?? DEFAULT_FARM_TZ);
      const hm = clock.time.slice(0, 5);
      if ((s.trigger as ScheduleTrigger).at !== hm) continue;
      const slot = `${clock.day} ${hm}`;
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
    if (s.alarm) {
      const first = s.trigger.type === 'threshold' ? conditionsOf(s.trigger) : [];
      const kind = first.length === 1 ? first[0].kind : '';
      await this.alarms.raise({
        farmId: Number(s.farm_id), source: `scenario:${s.id}`, condition: 'threshold', severity: 'major', scenarioId: s.id, place: first[0]?.place ?? '', kind: first[0]?.kind ?? 'schedule',
        params: { rule: s.name, kind, value: why },
      });
    }
    if (s.action) await this.act(s, s.action);
  }

  /** Sends one of the rule's actions (on firing, or on the way back) as a command of the rule. */
  private async act(s: ScenarioRow, action: ScenarioAction): Promise<void> {
    const { rows } = await this.db.query<{ id: number; farm_id: number; code: string; name: string; kind: string; place: string; unit: string }>(
      'SELECT id, farm_id, code, name, kind, place, unit FROM devices WHERE id = $1 AND farm_id = $2',
      [action.deviceId, s.farm_id],
    );
    const d = rows[0];
    if (!d) return;
    const device: KnownDevice = { id: d.id, farmId: Number(d.farm_id), code: d.code, name: d.name, kind: d.kind, place: d.place, unit: d.unit };
    if (!(await this.commands.isOnline(device.id))) {
      // Recorded as a failed command, so the scenario's last runs say why nothing happened.
      await this.db.query(
        `INSERT INTO device_commands(farm_id, device_id, action, params, status, message, source, scenario_id, expires_at, finished_at)
         VALUES ($1, $2, $3, $4, 'failed', 'offline', 'scenario', $5, now(), now())`,
        [device.farmId, device.id, action.action, JSON.stringify(action.params ?? {}), s.id],
      );
      return;
    }
    try {
      await this.commands.send(device, action.action, action.params ?? {}, { userId: null, source: 'scenario', scenarioId: s.id });
    } catch (e) {
      if (isInterlockRefusal(e)) await this.refused(s, device, action, e);
      else throw e;
    }
  }

  /** The rule's refusal by an interlock: a failed command saying why, and an alarm (cleared when the rule re-arms). */
  private async refused(s: ScenarioRow, device: KnownDevice, action: ScenarioAction, e: ApiError): Promise<void> {
    await this.db.query(
      `INSERT INTO device_commands(farm_id, device_id, action, params, status, message, source, scenario_id, expires_at, finished_at)
       VALUES ($1, $2, $3, $4, 'failed', $5, 'scenario', $6, now(), now())`,
      [device.farmId, device.id, action.action, JSON.stringify(action.params ?? {}), t('zh', e.key, e.params).slice(0, 200), s.id],
    );
    await this.alarms.raise({
      farmId: Number(s.farm_id), source: `scenario:${s.id}`, condition: 'interlock', severity: 'major', scenarioId: s.id, deviceId: device.id, place: device.unit,
      params: { rule: s.name, reasonKey: e.key, ...e.params },
    });
  }
}
