/**
 * The device simulator (docs/devices.md, "Simulator"): the gateways marked simulated (the
 * seeded demo ones; never one a farm registers, which is real equipment) connect to the embedded broker as real gateways would (in process, with their
 * codes and secrets, so the broker's identity checks apply to them), publish readings on a
 * daily curve with noise, answer commands after a short delay with the new state, and now
 * and then fail: a sensor drops out for a few minutes, the air conditioner reports a
 * high-pressure fault and refuses commands until it clears.
 */
import { MqttClient } from 'mqtt';
import type { Database } from '../db/database.ts';
import type { EmbeddedBroker } from './broker.ts';
import { deviceTopic } from './topics.ts';
import { farmClock } from './scenarios.ts';

interface SimDevice {
  id: number;
  farmId: number;
  code: string;
  kind: string;
  channels: string[];
  state: Record<string, unknown>;
  /** Silent until then (a sensor drop-out). */
  silentUntil: number;
  timers: NodeJS.Timeout[];
}

/** The value of `kind` at hour `h` (farm time) of a northern greenhouse day, before noise. */
export function curve(kind: string, h: number, seed: number): number {
  const day = Math.sin(((h - 8) / 24) * 2 * Math.PI); // peaks mid-afternoon
  const light = Math.max(0, Math.sin(((h - 5) / 14) * Math.PI));
  switch (kind) {
    case 'airTemperature': return 20 + 7 * day + seed;
    case 'airHumidity': return 68 - 15 * day - seed;
    case 'soilMoisture': return 32 + 3 * Math.cos((h / 24) * 2 * Math.PI) + seed;
    case 'soilTemperature': return 17 + 3 * day + seed / 2;
    case 'light': return 42_000 * light;
    case 'co2': return 620 - 220 * light + seed * 10;
    case 'ec': return 1.6 + seed / 20;
    case 'ph': return 6.4 + seed / 30;
    case 'rainfall': return 0;
    case 'windSpeed': return 2.5 + 1.5 * day;
    default: return 0;
  }
}

const DECIMALS: Record<string, number> = { light: 0, co2: 0, airHumidity: 1, soilMoisture: 1 };

export class DeviceSimulator {
  private readonly clients: MqttClient[] = [];
  private readonly devices = new Map<string, SimDevice>();
  private readonly clientOfCode = new Map<string, MqttClient>();
  private tick: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly broker: EmbeddedBroker,
    private readonly opts: {
      root: string;
      periodMs: number;
      ackDelayMs: number;
      faults: boolean;
      /** How often every device says it is alive (a gateway's heartbeat); a third of the offline limit by default. */
      heartbeatMs?: number;
      log?: (msg: string) => void;
    },
  ) {}

  /** Gateways played, by id: the client and the secret it connected with. */
  private readonly gateways = new Map<number, { client: MqttClient; secret: string; codes: Set<string> }>();

  private async load() {
    const { rows: gateways } = await this.db.query<{ id: number; farm_id: number; code: string; secret: string }>('SELECT id, farm_id, code, secret FROM device_gateways WHERE simulated ORDER BY id');
    const { rows: devices } = await this.db.query<{ id: number; farm_id: number; gateway_id: number; code: string; kind: string; channels: string[]; state: Record<string, unknown> }>(
      'SELECT d.id, d.farm_id, d.gateway_id, d.code, d.kind, d.channels, d.state FROM devices d JOIN device_gateways g ON g.id = d.gateway_id WHERE g.simulated ORDER BY d.id',
    );
    return { gateways, devices };
  }

  async start(): Promise<void> {
    const { gateways, devices } = await this.load();
    for (const g of gateways) this.addGateway(g, devices.filter((d) => d.gateway_id === g.id));
    this.tick = setInterval(() => this.onTick(), this.opts.periodMs);
    this.tick.unref();
    // Actuators publish nothing between commands: without a heartbeat they read offline
    // once DEVICE_OFFLINE_AFTER_S has passed since the simulator started (the defect the
    // browser tests met in a long-running server). A real gateway does the same.
    this.heartbeat = setInterval(() => this.beat(), this.opts.heartbeatMs ?? 60_000);
    this.heartbeat.unref();
  }

  /** Every connected device that is not dropped out says it is online. */
  beat(): void {
    if (this.closed) return;
    for (const d of this.devices.values()) {
      if (Date.now() < d.silentUntil) continue;
      this.publishVia(d, 'status', { online: true });
    }
  }

  private addGateway(
    g: { id: number; farm_id: number; code: string; secret: string },
    mine: { id: number; farm_id: number; code: string; kind: string; channels: string[]; state: Record<string, unknown> }[],
  ): void {
    const client = new MqttClient(() => this.broker.connectInProcess(), {
      clientId: `sim-${g.code}`,
      username: g.code,
      password: g.secret,
      protocolVersion: 4,
      reconnectPeriod: 2000,
    });
    client.on('error', () => undefined);
    this.clients.push(client);
    const codes = new Set<string>();
    this.gateways.set(g.id, { client, secret: g.secret, codes });
    for (const d of mine) this.addDevice(client, codes, d, false);
    client.on('message', (topic, payload) => {
      const code = topic.split('/').at(-2) ?? '';
      const sim = this.devices.get(code);
      if (sim && codes.has(code)) this.onCommand(client, sim, payload.toString('utf8'));
    });
    client.on('connect', () => {
      for (const code of codes) this.announce(client, this.devices.get(code) as SimDevice);
      this.readAll(client, [...codes]);
    });
  }

  private addDevice(client: MqttClient, codes: Set<string>, d: { id: number; farm_id: number; code: string; kind: string; channels: string[]; state: Record<string, unknown> }, announce: boolean): void {
    const sim: SimDevice = { id: d.id, farmId: Number(d.farm_id), code: d.code, kind: d.kind, channels: d.channels, state: { ...d.state }, silentUntil: 0, timers: [] };
    this.devices.set(d.code, sim);
    this.clientOfCode.set(d.code, client);
    codes.add(d.code);
    if (announce && client.connected) {
      this.announce(client, sim);
      this.readAll(client, [d.code]);
    }
  }

  private announce(client: MqttClient, sim: SimDevice): void {
    client.subscribe(deviceTopic(this.opts.root, sim.farmId, sim.code, 'command'), { qos: 1 });
    this.publish(client, sim, 'status', { online: true });
    if (sim.kind !== 'sensor' && sim.kind !== 'camera') this.publish(client, sim, 'state', { state: sim.state });
  }

  private removeDevice(code: string): void {
    const d = this.devices.get(code);
    if (d) for (const t of d.timers) clearTimeout(t);
    this.devices.delete(code);
    this.clientOfCode.delete(code);
    for (const g of this.gateways.values()) g.codes.delete(code);
  }

  /**
   * After the system-build screens change gateways or devices, in two steps around the
   * broker's refresh: `removed` stops playing devices deleted, moved or unwired (and
   * gateways deleted or given a new secret) before the broker forgets them; `added` plays
   * the new ones once the broker lets them speak.
   */
  async sync(step: 'removed' | 'added'): Promise<void> {
    if (this.closed) return;
    const { gateways, devices } = await this.load();
    const byId = new Map(gateways.map((g) => [g.id, g]));
    if (step === 'removed') {
      for (const [id, g] of [...this.gateways]) {
        const now = byId.get(id);
        if (!now || now.secret !== g.secret) {
          for (const code of [...g.codes]) this.removeDevice(code);
          this.gateways.delete(id);
          this.clients.splice(this.clients.indexOf(g.client), 1);
          await g.client.endAsync(true).catch(() => undefined);
          continue;
        }
        for (const code of [...g.codes]) {
          const d = devices.find((x) => x.code === code);
          if (!d || d.gateway_id !== id) this.removeDevice(code);
        }
      }
      return;
    }
    for (const g of gateways) {
      const mine = devices.filter((d) => d.gateway_id === g.id);
      const played = this.gateways.get(g.id);
      if (!played) {
        this.addGateway(g, mine);
        continue;
      }
      for (const d of mine) if (!played.codes.has(d.code)) this.addDevice(played.client, played.codes, d, true);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.tick) clearInterval(this.tick);
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const d of this.devices.values()) for (const t of d.timers) clearTimeout(t);
    await Promise.all(this.clients.map((c) => c.endAsync(true).catch(() => undefined)));
  }

  /** Readings of every sensor now (tests call it to make a reading arrive). */
  readNow(): void {
    for (const d of this.devices.values()) {
      const c = this.clientOfCode.get(d.code);
      if (c) this.readAll(c, [d.code]);
    }
  }

  private onTick(): void {
    if (this.closed) return;
    this.readNow();
    if (!this.opts.faults) return;
    // Now and then a sensor drops out for a few minutes; the air conditioner's fault clears by itself.
    for (const d of this.devices.values()) {
      if (d.kind === 'sensor' && Math.random() < 0.003) d.silentUntil = Date.now() + 3 * 60_000;
      if (d.kind === 'airConditioner' && Math.random() < 0.002 && !d.state.fault) {
        d.state = { ...d.state, fault: 'E4 高压保护' };
        this.publishVia(d, 'state', { state: d.state });
        d.timers.push(setTimeout(() => {
          d.state = { ...d.state, fault: null };
          this.publishVia(d, 'state', { state: d.state });
        }, 5 * 60_000));
      }
    }
  }

  private readAll(client: MqttClient, codes: string[]): void {
    const hour = this.hourNow();
    for (const code of codes) {
      const d = this.devices.get(code);
      if (!d || d.kind !== 'sensor' || !d.channels.length || Date.now() < d.silentUntil) continue;
      const values: Record<string, number> = {};
      for (const kind of d.channels) {
        const v = curve(kind, hour, (d.id % 5) - 2) * (1 + (Math.random() - 0.5) * 0.04);
        const dec = DECIMALS[kind] ?? 2;
        values[kind] = Math.round(v * 10 ** dec) / 10 ** dec;
      }
      this.publish(client, d, 'reading', { ts: Date.now(), values });
    }
  }

  private hourNow(): number {
    const [h, m] = farmClock(new Date()).time.split(':').map(Number);
    return h + m / 60;
  }

  private publishVia(d: SimDevice, kind: 'state' | 'status', body: Record<string, unknown>): void {
    const c = this.clientOfCode.get(d.code);
    if (c) this.publish(c, d, kind, body);
  }

  private publish(client: MqttClient, d: SimDevice, kind: 'reading' | 'state' | 'status' | 'ack', body: Record<string, unknown>): void {
    if (this.closed || !client.connected) return;
    client.publish(deviceTopic(this.opts.root, d.farmId, d.code, kind), JSON.stringify({ deviceId: d.code, ...body }), { qos: 0 });
  }

  private onCommand(client: MqttClient, d: SimDevice, text: string): void {
    let cmd: { commandId?: number; action?: string; params?: Record<string, unknown> };
    try {
      cmd = JSON.parse(text);
    } catch {
      return;
    }
    const id = cmd.commandId;
    if (!Number.isInteger(id)) return;
    const p = cmd.params ?? {};
    const answer = () => {
      if (this.closed) return;
      if (d.state.fault) return this.publish(client, d, 'ack', { commandId: id, ok: false, message: String(d.state.fault) });
      switch (cmd.action) {
        case 'switch':
          d.state = { ...d.state, on: p.on === true };
          break;
        case 'valve': {
          const open = p.open === true;
          d.state = { ...d.state, open, until: open && typeof p.minutes === 'number' ? new Date(Date.now() + p.minutes * 60_000).toISOString() : null };
          if (open && typeof p.minutes === 'number') {
            d.timers.push(setTimeout(() => {
              d.state = { ...d.state, open: false, until: null };
              this.publish(client, d, 'state', { state: d.state });
            }, p.minutes * 60_000));
          }
          break;
        }
        case 'airConditioner':
          d.state = { ...d.state, ...p };
          break;
        case 'fertigation':
          d.state = { ...d.state, running: p.run === true, recipe: p.run === true ? (p.recipe ?? null) : null };
          break;
        default:
          return this.publish(client, d, 'ack', { commandId: id, ok: false, message: `unknown action ${String(cmd.action)}` });
      }
      this.publish(client, d, 'ack', { commandId: id, ok: true, state: d.state });
    };
    d.timers.push(setTimeout(answer, this.opts.ackDelayMs));
  }
}
