/**
 * Commands to devices (docs/devices.md, "Commands"). A command is stored pending, audited,
 * published on the device's command topic, and ends acknowledged (or failed) when the
 * device answers, or timed out after the configured time. An offline device refuses at
 * once. Two commands on one device: the later supersedes a pending earlier one (its row
 * says so), and the device's state is what it last acknowledged — so the console shows
 * the later command's outcome and the state the device really has.
 */
import type { Database, Queryable } from '../db/database.ts';
import type { ServerConfig } from '../config.ts';
import type { Lang } from '../i18n/lang.ts';
import { t } from '../i18n/catalog.ts';
import type { DeviceHub, KnownDevice } from './hub.ts';
import type { Alarms } from './alarms.ts';
import { checkInterlocks, isInterlockRefusal } from './interlocks.ts';
import { ACTION_OF_KIND, DEVICE_ACTIONS, type CommandStatus, type DeviceAction } from '../../runtime/protocol/devices.ts';
import './messages.ts';

/** Run for a while (a switch, pump or fan switched on with `runForS`): the bounds, seconds. */
export const RUN_FOR_MIN_S = 10;
export const RUN_FOR_MAX_S = 86_400;

/** The run-for duration a command carries: a switch turned on with `runForS`; null otherwise. */
export function runForOf(action: string, params: Record<string, unknown>): number | null {
  return action === 'switch' && params.on === true && typeof params.runForS === 'number' ? params.runForS : null;
}

/** Who sends a command: a person, a rule, or the server's timer ending a run-for duration. */
export type CommandSource = 'user' | 'scenario' | 'timer';

/** The actions and which one each kind takes: the wire's (runtime/protocol/devices.ts). */
export const ACTIONS = DEVICE_ACTIONS;
export type Action = DeviceAction;
export { ACTION_OF_KIND };

export interface CommandRow {
  id: number;
  farm_id: number;
  device_id: number;
  device_name: string;
  /** The device's unit (where its alarms show). */
  device_unit?: string;
  action: string;
  params: Record<string, unknown>;
  status: CommandStatus;
  message: string;
  source: string;
  requested_at: Date;
  expires_at: Date;
  finished_at: Date | null;
}

export function commandView(r: CommandRow, lang: Lang, timeoutMs: number) {
  return {
    id: r.id,
    deviceId: r.device_id,
    deviceName: r.device_name,
    action: r.action,
    params: r.params,
    status: r.status,
    message: statusMessage(r, lang, timeoutMs),
    source: r.source,
    requestedAt: new Date(r.requested_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

export function statusMessage(r: Pick<CommandRow, 'status' | 'message' | 'device_name'>, lang: Lang, timeoutMs: number): string {
  switch (r.status) {
    case 'pending':
      return t(lang, 'devices.pending');
    case 'acknowledged':
      return t(lang, 'devices.acknowledged');
    case 'failed':
      return t(lang, 'devices.failed', { reason: r.message || '—' });
    case 'timedOut':
      return t(lang, 'devices.timedOut', { device: r.device_name, seconds: Math.round(timeoutMs / 1000) });
    case 'superseded':
      return t(lang, 'devices.superseded');
  }
}

const SELECT = `SELECT c.*, d.name AS device_name, coalesce(nullif(d.unit, ''), d.place) AS device_unit FROM device_commands c JOIN devices d ON d.id = c.device_id`;

export class Commands {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly hub: DeviceHub,
    private readonly config: ServerConfig,
    private readonly alarms: Alarms | null = null,
  ) {
    hub.onAck((device, m) => this.acknowledge(device, m.commandId, m.ok, m.message ?? ''));
    // Pending commands another instance sent (or this one before a restart) time out too.
    this.sweep = setInterval(() => void this.expireDue(), Math.max(1000, Math.min(this.config.commandTimeoutMs, 10_000)));
    this.sweep.unref();
  }

  /** Whether the device counts as online now: it said so and was heard recently. */
  async isOnline(deviceId: number, tx: Queryable = this.db): Promise<boolean> {
    const { rows } = await tx.query<{ ok: boolean }>(
      `SELECT online AND last_seen > now() - make_interval(secs => $2) AS ok FROM devices WHERE id = $1`,
      [deviceId, this.config.deviceOfflineAfterS],
    );
    return rows[0]?.ok === true;
  }

  /**
   * Checks the farm's interlocks (a refusal throws, nothing stored), stores, supersedes the
   * device's pending commands, and publishes. `audit` writes the operation-log row inside
   * the same transaction. Answers the stored row (pending).
   */
  async send(
    device: KnownDevice,
    action: Action,
    params: Record<string, unknown>,
    by: { userId: number | null; source: CommandSource; scenarioId?: number | null; stopId?: number },
    audit?: (tx: Queryable, commandId: number) => Promise<void>,
  ): Promise<CommandRow> {
    const row = await this.sendOrSkip(device, action, params, by, audit);
    if (!row) throw new Error('the timed stop was taken by another instance');
    return row;
  }

  /**
   * `send`, which for the timer's off (`by.stopId`) first claims the pending stop inside the
   * transaction, after the device's row lock: when another instance took it, or a later
   * command cancelled it, nothing is sent (null).
   */
  private async sendOrSkip(
    device: KnownDevice,
    action: Action,
    params: Record<string, unknown>,
    by: { userId: number | null; source: CommandSource; scenarioId?: number | null; stopId?: number },
    audit?: (tx: Queryable, commandId: number) => Promise<void>,
  ): Promise<CommandRow | null> {
    const timeoutMs = this.config.commandTimeoutMs;
    const row = await this.db.transaction(async (tx) => {
      // One command at a time per device: a concurrent send waits here and then supersedes.
      await tx.query('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [device.id]);
      if (by.stopId !== undefined) {
        const claimed = await tx.query('DELETE FROM device_timed_stops WHERE id = $1 AND device_id = $2 RETURNING id', [by.stopId, device.id]);
        if (!claimed.rows[0]) return null;
      }
      // The one place commands go out: a person's, a rule's and the timer's are checked alike.
      await checkInterlocks(tx, device, action, params);
      const superseded = await tx.query<{ id: number }>(
        `UPDATE device_commands SET status = 'superseded', finished_at = now() WHERE device_id = $1 AND status = 'pending' RETURNING id`,
        [device.id],
      );
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO device_commands(farm_id, device_id, action, params, source, scenario_id, requested_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8)) RETURNING id`,
        [device.farmId, device.id, action, JSON.stringify(params), by.source, by.scenarioId ?? null, by.userId, timeoutMs / 1000],
      );
      const id = rows[0].id;
      // Any later command to the device cancels its pending stop; an on with a run-for
      // duration sets a new one (docs/devices.md, "Run for a while").
      await tx.query('DELETE FROM device_timed_stops WHERE device_id = $1', [device.id]);
      const runFor = runForOf(action, params);
      if (runFor !== null) {
        await tx.query(
          `INSERT INTO device_timed_stops(device_id, farm_id, command_id, scenario_id, run_for_s, stop_at) VALUES ($1, $2, $3, $4, $5::int, now() + make_interval(secs => $5::int))`,
          [device.id, device.farmId, id, by.scenarioId ?? null, runFor],
        );
      }
      if (audit) await audit(tx, id);
      for (const s of superseded.rows) this.clear(s.id);
      return { id, superseded: superseded.rows.map((s) => s.id) };
    });
    if (!row) return null;
    for (const id of row.superseded) this.hub.events.publish({ type: 'command', farmId: device.farmId, deviceId: device.id, commandId: id, status: 'superseded', message: '' });
    const stored = await this.get(row.id);
    const sent = await this.hub.publishCommand(device.farmId, device.code, { commandId: row.id, action, params, expiresAt: new Date(stored.expires_at).toISOString() }).catch(() => false);
    if (!sent) {
      await this.finish(row.id, 'failed', 'broker unreachable');
      return this.get(row.id);
    }
    const timer = setTimeout(() => void this.timeOut(row.id), timeoutMs);
    timer.unref();
    this.timers.set(row.id, timer);
    this.hub.events.publish({ type: 'command', farmId: device.farmId, deviceId: device.id, commandId: row.id, status: 'pending', message: '' });
    return stored;
  }

  async get(id: number): Promise<CommandRow> {
    const { rows } = await this.db.query<CommandRow>(`${SELECT} WHERE c.id = $1`, [id]);
    return rows[0];
  }

  async acknowledge(device: KnownDevice, commandId: number, ok: boolean, message: string): Promise<void> {
    const { rows } = await this.db.query<{ id: number }>(
      `UPDATE device_commands SET status = $3, message = $4, finished_at = now()
        WHERE id = $1 AND device_id = $2 AND status = 'pending' RETURNING id`,
      [commandId, device.id, ok ? 'acknowledged' : 'failed', message.slice(0, 200)],
    );
    // An ack of a command of another device, a finished or a superseded one changes nothing.
    if (!rows[0]) return;
    this.clear(commandId);
    this.hub.events.publish({ type: 'command', farmId: device.farmId, deviceId: device.id, commandId, status: ok ? 'acknowledged' : 'failed', message });
    if (ok) await this.alarms?.clear(device.farmId, `device:${device.id}`, ['commandFailed', 'commandTimedOut']);
    else await this.failureAlarm(commandId, 'failed', message);
  }

  private async finish(id: number, status: 'failed' | 'timedOut', message: string): Promise<boolean> {
    const { rows } = await this.db.query<{ farm_id: number; device_id: number }>(
      `UPDATE device_commands SET status = $2, message = $3, finished_at = now() WHERE id = $1 AND status = 'pending' RETURNING farm_id, device_id`,
      [id, status, message],
    );
    this.clear(id);
    if (rows[0]) {
      this.hub.events.publish({ type: 'command', farmId: Number(rows[0].farm_id), deviceId: rows[0].device_id, commandId: id, status, message });
      await this.failureAlarm(id, status, message);
    }
    return !!rows[0];
  }

  /**
   * A command that failed or timed out raises an alarm on its device (one open per device
   * and condition): major when a rule sent it (nobody is watching), minor when a person
   * did (they saw the outcome); the timer's off counts as a rule's. Cleared by the
   * device's next acknowledged command.
   */
  private async failureAlarm(id: number, status: 'failed' | 'timedOut', message: string): Promise<void> {
    if (!this.alarms) return;
    const row = await this.get(id);
    if (!row) return;
    const timedOut = status === 'timedOut';
    await this.alarms
      .raise({
        farmId: Number(row.farm_id), source: `device:${row.device_id}`, condition: timedOut ? 'commandTimedOut' : 'commandFailed',
        severity: row.source === 'user' ? 'minor' : 'major', deviceId: row.device_id, place: row.device_unit ?? '',
        params: timedOut ? { device: row.device_name, seconds: Math.round(this.config.commandTimeoutMs / 1000) } : { device: row.device_name, reason: message || '—' },
      })
      .catch(() => undefined);
  }

  private timeOut(id: number): Promise<boolean> {
    return this.finish(id, 'timedOut', '').catch(() => false);
  }

  private async expireDue(): Promise<void> {
    try {
      const { rows } = await this.db.query<{ id: number }>(`SELECT id FROM device_commands WHERE status = 'pending' AND expires_at < now() LIMIT 100`);
      for (const r of rows) await this.timeOut(r.id);
    } catch {
      // The database is closing; the next sweep (or instance) does it.
    }
  }

  /**
   * Sends the off of every pending stop due at `now` (the server's timer for run-for
   * durations; run every second and once at start, so a stop whose time passed while the
   * server was down goes out at the next start). Each off is claimed inside its own
   * command's transaction (`sendOrSkip`): of several instances exactly one sends it. A
   * device offline keeps its stop, sent once it is online again; an off refused by an
   * interlock is a failed command of the timer and a major alarm on the device. Answers
   * the offs sent or recorded by this call.
   */
  async stopDue(now: Date): Promise<number> {
    if (!this.hub.connected) return 0;
    const { rows } = await this.db.query<{ id: number; device_id: number; scenario_id: number | null; farm_id: number; code: string; name: string; kind: string; place: string; unit: string }>(
      `SELECT s.id, s.device_id, s.scenario_id, d.farm_id, d.code, d.name, d.kind, d.place, d.unit
         FROM device_timed_stops s JOIN devices d ON d.id = s.device_id WHERE s.stop_at <= $1 ORDER BY s.stop_at LIMIT 100`,
      [now.toISOString()],
    );
    let done = 0;
    for (const r of rows) {
      const device: KnownDevice = { id: r.device_id, farmId: Number(r.farm_id), code: r.code, name: r.name, kind: r.kind, place: r.place, unit: r.unit || r.place };
      // Offline: the stop waits (the device may still run when it comes back; the off goes then).
      if (!(await this.isOnline(device.id))) continue;
      const params = { on: false };
      try {
        if (await this.sendOrSkip(device, 'switch', params, { userId: null, source: 'timer', scenarioId: r.scenario_id, stopId: r.id })) done++;
      } catch (e) {
        if (!isInterlockRefusal(e)) throw e;
        // Refused: the stop is claimed all the same (once), stored as a failed command saying why, and alarmed.
        const claimed = await this.db.query('DELETE FROM device_timed_stops WHERE id = $1 RETURNING id', [r.id]);
        if (!claimed.rows[0]) continue;
        const message = t('zh', e.key, e.params).slice(0, 200);
        const failed = await this.db.query<{ id: number }>(
          `INSERT INTO device_commands(farm_id, device_id, action, params, status, message, source, scenario_id, expires_at, finished_at)
           VALUES ($1, $2, 'switch', $3, 'failed', $4, 'timer', $5, now(), now()) RETURNING id`,
          [device.farmId, device.id, JSON.stringify(params), message, r.scenario_id],
        );
        this.hub.events.publish({ type: 'command', farmId: device.farmId, deviceId: device.id, commandId: failed.rows[0].id, status: 'failed', message });
        await this.failureAlarm(failed.rows[0].id, 'failed', message);
        done++;
      }
    }
    return done;
  }

  private clear(id: number): void {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
  }

  close(): void {
    if (this.sweep) clearInterval(this.sweep);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
