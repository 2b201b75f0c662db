/**
 * The devices area as one service per API instance: the embedded broker (no MQTT_URL) or
 * none, the gateway boundary (hub), commands, scenarios, the simulator, the forecast
 * provider and the retention sweep. Started with the app, closed with it (every broker,
 * client and timer), so tests leave nothing running.
 */
import type { Database } from '../db/database.ts';
import type { ServerConfig } from '../config.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';
import { Commands } from './commands.ts';
import { httpForecast, noForecast, type ForecastProvider } from './forecast.ts';
import { DeviceHub } from './hub.ts';
import { Scenarios } from './scenarios.ts';
import { Alarms } from './alarms.ts';
import type { SmsSender } from '../sms/sender.ts';
import { DeviceSimulator } from './simulator.ts';

export interface DeviceServiceOptions {
  /** Simulator period (readings every …); 10 s by default. */
  simulatorPeriodMs?: number;
  simulatorAckDelayMs?: number;
  /** How often the simulated devices say they are online; a third of the offline limit, at most a minute. */
  simulatorHeartbeatMs?: number;
  /** How often silent devices are marked offline; a sixth of the offline limit (1–15 s) by default. */
  offlineSweepMs?: number;
  /** How often pending stops of run-for durations are looked for; every second by default. */
  stopSweepMs?: number;
}

export class DeviceService {
  broker: EmbeddedBroker | null = null;
  readonly hub: DeviceHub;
  readonly commands: Commands;
  readonly scenarios: Scenarios;
  readonly alarms: Alarms;
  simulator: DeviceSimulator | null = null;
  forecast: ForecastProvider = noForecast;
  /** Open event streams' closers (ended on close, so the server can stop). */
  readonly streams = new Set<() => void>();
  private retention: NodeJS.Timeout | null = null;
  private offlineSweep: NodeJS.Timeout | null = null;
  private stopSweep: NodeJS.Timeout | null = null;
  private stopping: Promise<number> | null = null;

  constructor(
    private readonly db: Database,
    private readonly config: ServerConfig,
    private readonly log: (msg: string) => void,
    sms: SmsSender | null = null,
  ) {
    this.hub = new DeviceHub(db, config, log);
    this.alarms = new Alarms(db, this.hub.events, sms, log);
    this.hub.onOffline((devices, gateways) => this.alarms.wentOffline(devices, gateways));
    this.commands = new Commands(db, this.hub, config, this.alarms);
    this.scenarios = new Scenarios(db, this.hub, this.commands, this.alarms);
    if (config.forecastUrl) {
      // Where the farm is: the mean of its placed devices (system build), else nothing.
      this.forecast = httpForecast(config.forecastUrl, async (farmId) => {
        if (farmId == null) return null;
        const { rows } = await db.query<{ lng: number | null; lat: number | null }>('SELECT avg(lng) AS lng, avg(lat) AS lat FROM devices WHERE farm_id = $1 AND lng IS NOT NULL', [farmId]);
        return rows[0]?.lng != null && rows[0]?.lat != null ? { lng: Number(rows[0].lng), lat: Number(rows[0].lat) } : null;
      });
    }
  }

  async start(opts: DeviceServiceOptions = {}): Promise<void> {
    if (!this.config.mqttUrl) {
      this.broker = await startEmbeddedBroker(this.db, {
        root: this.config.mqttTopicRoot,
        port: this.config.mqttPort,
        host: this.config.mqttHost,
        tls: this.config.mqttTls,
        log: this.log,
        onPresence: (code, online) => this.hub.gatewayPresence(code, online),
      });
      if (this.broker.port != null) this.log(`[mqtt] embedded broker listening on ${this.config.mqttHost}:${this.broker.port}`);
      if (this.broker.tlsPort != null) this.log(`[mqtt] embedded broker listening for MQTTS on ${this.config.mqttHost}:${this.broker.tlsPort}`);
    }
    await this.hub.start(this.broker);
    this.scenarios.startSchedule();
    if (this.config.deviceSimulator && this.broker) {
      this.simulator = new DeviceSimulator(this.db, this.broker, {
        root: this.config.mqttTopicRoot,
        periodMs: opts.simulatorPeriodMs ?? Number(process.env.DEVICE_SIMULATOR_PERIOD_MS ?? 10_000),
        ackDelayMs: opts.simulatorAckDelayMs ?? 300,
        // DEVICE_SIMULATOR_FAULTS=off: no random drop-outs and faults (tests watching one sensor).
        faults: process.env.DEVICE_SIMULATOR_FAULTS !== 'off',
        heartbeatMs: opts.simulatorHeartbeatMs ?? Math.max(1000, Math.min(60_000, (this.config.deviceOfflineAfterS * 1000) / 3)),
        log: this.log,
      });
      await this.simulator.start();
    }
    // Silent devices go offline on the open consoles without a reload; on the same timer,
    // alarms: stale sensors, conditions that ended, escalation of the unacknowledged.
    const every = opts.offlineSweepMs ?? Math.max(1000, Math.min(15_000, (this.config.deviceOfflineAfterS * 1000) / 6));
    this.offlineSweep = setInterval(() => {
      // A turn still running (a slow database): skip this tick rather than queue behind it.
      if (!this.sweeping && this.autoSweep) void this.sweep().catch(() => undefined);
    }, every);
    this.offlineSweep.unref();
    // Run for a while: the offs due are sent now (a stop whose time passed while the server
    // was down goes out at start) and then every second.
    const stops = () => {
      if (!this.stopping && this.autoSweep) this.stopping = this.commands.stopDue(new Date()).catch(() => 0).finally(() => (this.stopping = null));
    };
    stops();
    this.stopSweep = setInterval(stops, opts.stopSweepMs ?? 1000);
    this.stopSweep.unref();
    if (this.config.readingsRetentionDays > 0) {
      const sweep = () => void this.deleteOldReadings().catch(() => undefined);
      this.retention = setInterval(sweep, 6 * 3_600_000);
      this.retention.unref();
    }
  }

  /** One turn of the sweep: offline first (its alarms), then the alarms' own sweep. */
  sweep(now = new Date(this.hub.now())): Promise<void> {
    const run = async () => {
      await this.hub.sweepOffline(now);
      await this.alarms.sweep(now);
    };
    // One at a time: a call during a turn runs after it.
    const turn = (this.sweeping ?? Promise.resolve()).then(run, run);
    this.sweeping = turn;
    void turn.finally(() => {
      if (this.sweeping === turn) this.sweeping = null;
    }).catch(() => undefined);
    return turn;
  }
  private sweeping: Promise<void> | null = null;
  /** False stops the timer's turns (tests that move the sweep's clock call `sweep(now)` themselves, undisturbed). */
  autoSweep = true;

  /**
   * After the system-build screens change gateways or devices: the hub and the scenarios
   * read devices again, the embedded broker's identities follow (a deleted device may no
   * longer speak), and the simulator plays new devices and stops playing deleted ones.
   */
  async buildChanged(): Promise<void> {
    this.hub.forget();
    this.scenarios.forget();
    await this.simulator?.sync('removed');
    await this.broker?.refresh();
    await this.simulator?.sync('added');
  }

  /** Deletes readings older than the retention (READINGS_RETENTION_DAYS), in slices. */
  async deleteOldReadings(): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM device_readings WHERE ctid = ANY(ARRAY(SELECT ctid FROM device_readings WHERE ts < now() - make_interval(days => $1) LIMIT 50000))`,
      [this.config.readingsRetentionDays],
    );
    await this.db.query(`DELETE FROM device_readings_hourly WHERE hour < now() - make_interval(days => $1)`, [this.config.readingsRetentionDays]);
    return rowCount;
  }

  async close(): Promise<void> {
    if (this.retention) clearInterval(this.retention);
    if (this.offlineSweep) clearInterval(this.offlineSweep);
    if (this.stopSweep) clearInterval(this.stopSweep);
    await this.stopping;
    for (const end of [...this.streams]) end();
    this.scenarios.close();
    this.commands.close();
    await this.simulator?.close();
    await this.hub.close();
    await this.broker?.close();
  }
}
