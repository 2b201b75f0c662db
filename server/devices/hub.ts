/**
 * The gateway boundary: the server's one MQTT client, on the embedded broker (in process)
 * or on MQTT_URL. It hears every device message, checks it (topic, payload, the device's
 * farm: docs/devices.md), stores readings (batched), states and acknowledgements, tells the
 * open consoles, and hands readings to the scenarios. Bad messages are dropped, counted and
 * logged with a sentence saying why; nothing of them is stored.
 */
import { MqttClient, connect, type IClientOptions } from 'mqtt';
import type { Database } from '../db/database.ts';
import type { ServerConfig } from '../config.ts';
import { SERVER_PRINCIPAL, type EmbeddedBroker } from './broker.ts';
import { DeviceEvents } from './events.ts';
import { ReadingsWriter } from './readings-writer.ts';
import { BadPayload, checkState, deviceTopic, inboundFilter, parsePayload, parseTopic, type InboundMessage } from './topics.ts';

export interface KnownDevice {
  id: number;
  farmId: number;
  code: string;
  name: string;
  kind: string;
  place: string;
  unit: string;
}

export interface HubCounters {
  received: number;
  /** Messages dropped: bad topic, bad payload, unknown device, another farm's topic. */
  dropped: number;
  lastDropReason: string;
}

type ReadingListener = (device: KnownDevice, ts: Date, values: Record<string, number>) => Promise<void>;
type AckListener = (device: KnownDevice, msg: Extract<InboundMessage, { kind: 'ack' }>) => Promise<void>;
/** Devices and gateways this instance has just marked offline (its UPDATE … WHERE online was the claim). */
type OfflineListener = (deviceIds: number[], gatewayIds: number[]) => Promise<void>;

export class DeviceHub {
  readonly events = new DeviceEvents();
  readonly writer: ReadingsWriter;
  readonly counters: HubCounters = { received: 0, dropped: 0, lastDropReason: '' };
  private client: MqttClient | null = null;
  private readonly cache = new Map<string, { device: KnownDevice | null; at: number }>();
  private readonly readingListeners: ReadingListener[] = [];
  private readonly ackListeners: AckListener[] = [];
  private readonly offlineListeners: OfflineListener[] = [];
  /** Work started by messages, awaited by `idle()` (tests) and close. */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Database,
    private readonly config: ServerConfig,
    private readonly log: (msg: string) => void,
  ) {
    this.writer = new ReadingsWriter(db, { intervalMs: 200, maxRows: 1000, log });
  }

  get root(): string {
    return this.config.mqttTopicRoot;
  }

  get connected(): boolean {
    return !!this.client?.connected;
  }

  onReading(fn: ReadingListener): void {
    this.readingListeners.push(fn);
  }
  onAck(fn: AckListener): void {
    this.ackListeners.push(fn);
  }
  onOffline(fn: OfflineListener): void {
    this.offlineListeners.push(fn);
  }

  private async reportOffline(deviceIds: number[], gatewayIds: number[]): Promise<void> {
    if (!deviceIds.length && !gatewayIds.length) return;
    for (const fn of this.offlineListeners) {
      try {
        await fn(deviceIds, gatewayIds);
      } catch (e) {
        this.log(`[devices] offline not reported: ${String(e)}`);
      }
    }
  }

  /** Connects to the embedded broker (in process) or to MQTT_URL, and subscribes. */
  async start(broker: EmbeddedBroker | null): Promise<void> {
    const base: IClientOptions = { clientId: `farm-api-${process.pid}-${Math.random().toString(36).slice(2, 8)}`, reconnectPeriod: 1000, connectTimeout: 5000, clean: true };
    let client: MqttClient;
    if (broker) {
      client = new MqttClient(() => broker.connectInProcess(), { ...base, username: SERVER_PRINCIPAL, password: broker.serverPassword, protocolVersion: 4 });
    } else {
      client = connect(this.config.mqttUrl as string, { ...base, username: this.config.mqttUsername, password: this.config.mqttPassword });
    }
    this.client = client;
    client.on('message', (topic, payload) => this.track(this.receive(topic, payload)));
    client.on('error', (e) => this.log(`[mqtt] ${e.message}`));
    const filter = this.config.mqttSharedGroup ? `$share/${this.config.mqttSharedGroup}/${inboundFilter(this.root)}` : inboundFilter(this.root);
    // Subscribed again after every reconnection (clean sessions).
    client.on('connect', () => {
      client.subscribe(filter, { qos: 1 }, (e) => e && this.log(`[mqtt] subscribe failed: ${e.message}`));
    });
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        // The embedded broker is in process: not connecting is a bug. An external broker may be
        // down at start: the server starts anyway, keeps trying, and refuses commands meanwhile.
        if (broker) reject(new Error('[mqtt] could not connect to the embedded broker'));
        else {
          this.log(`[mqtt] ${this.config.mqttUrl} not reachable yet; retrying every second`);
          resolve();
        }
      }, 8000);
      client.once('connect', () => {
        clearTimeout(t);
        client.subscribe(filter, { qos: 1 }, () => resolve());
      });
    });
  }

  /** Publishes a command to a device; false when the broker is not reachable. */
  async publishCommand(farmId: number, deviceCode: string, payload: unknown): Promise<boolean> {
    if (!this.client?.connected) return false;
    await this.client.publishAsync(deviceTopic(this.root, farmId, deviceCode, 'command'), JSON.stringify(payload), { qos: 1 });
    return true;
  }

  /** Resolves when every message received so far is handled and its readings are stored. */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
    await this.writer.flush();
  }

  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.endAsync(true).catch(() => undefined);
    this.client = null;
    await this.idle();
  }

  /** Forget cached devices (after the system-build screens change one). */
  forget(): void {
    this.cache.clear();
  }

  async device(code: string): Promise<KnownDevice | null> {
    const hit = this.cache.get(code);
    if (hit && Date.now() - hit.at < 30_000) return hit.device;
    const { rows } = await this.db.query<{ id: number; farm_id: number; code: string; name: string; kind: string; place: string; unit: string }>(
      'SELECT id, farm_id, code, name, kind, place, unit FROM devices WHERE code = $1',
      [code],
    );
    const r = rows[0];
    const device = r ? { id: r.id, farmId: Number(r.farm_id), code: r.code, name: r.name, kind: r.kind, place: r.place, unit: r.unit || r.place } : null;
    this.cache.set(code, { device, at: Date.now() });
    return device;
  }

  private track(p: Promise<unknown>): void {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  private drop(topic: string, reason: string): void {
    this.counters.dropped++;
    this.counters.lastDropReason = reason;
    this.log(`[mqtt] ignored a message on ${topic}: ${reason}`);
  }

  private async receive(topic: string, payload: Buffer): Promise<void> {
    this.counters.received++;
    const parts = parseTopic(this.root, topic);
    if (!parts) return this.drop(topic, 'the topic is not {root}/{farmId}/device/{deviceCode}/{kind}');
    if (parts.kind === 'command') return; // our own commands, when a broker echoes them
    let message: InboundMessage;
    try {
      message = parsePayload(parts, payload, this.now(), this.config.readingsRetentionDays);
    } catch (e) {
      if (e instanceof BadPayload) return this.drop(topic, e.message);
      throw e;
    }
    const device = await this.device(parts.deviceCode);
    if (!device) {
      // A gateway's own status (its birth message or its last will) stands for it and its devices.
      if (message.kind === 'status') {
        const gateway = await this.gatewayByCode(parts.deviceCode);
        if (gateway && gateway.farmId === parts.farmId) return this.setGatewayOnline(gateway, message.online);
        if (gateway) return this.drop(topic, `gateway "${parts.deviceCode}" is not of farm ${parts.farmId}`);
      }
      return this.drop(topic, `no device "${parts.deviceCode}" is registered`);
    }
    // An external broker does not know our farms: a device speaks only under its own farm.
    if (device.farmId !== parts.farmId) return this.drop(topic, `device "${parts.deviceCode}" is not of farm ${parts.farmId}`);
    const state = message.kind === 'state' ? message.state : message.kind === 'ack' ? message.state : undefined;
    if (state) {
      try {
        checkState(device.kind, state);
      } catch (e) {
        if (e instanceof BadPayload) return this.drop(topic, e.message);
        throw e;
      }
    }
    try {
      await this.handle(device, message);
    } catch (e) {
      this.log(`[devices] message on ${topic} not handled: ${String(e)}`);
    }
  }

  /** The clock messages are judged by (tests set it). */
  now: () => number = () => Date.now();

  private async gatewayByCode(code: string): Promise<{ id: number; farmId: number; code: string } | null> {
    const { rows } = await this.db.query<{ id: number; farm_id: number; code: string }>('SELECT id, farm_id, code FROM device_gateways WHERE code = $1', [code]);
    return rows[0] ? { id: rows[0].id, farmId: Number(rows[0].farm_id), code: rows[0].code } : null;
  }

  /**
   * A gateway connected or went away (its `status` topic, its last will, or the embedded
   * broker seeing it connect and disconnect). Gone, it takes every device wired to it
   * offline at once, and the open consoles are told.
   */
  async setGatewayOnline(gateway: { id: number; farmId: number }, online: boolean): Promise<void> {
    if (online) {
      await this.db.query(`UPDATE device_gateways SET online = true, last_seen = now() WHERE id = $1`, [gateway.id]);
      this.events.publish({ type: 'gateway', farmId: gateway.farmId, gatewayId: gateway.id, online });
      return;
    }
    // The conditional update is the claim: of several instances (or a will and a disconnection) one reports it.
    const went = await this.db.query<{ id: number }>(`UPDATE device_gateways SET online = false WHERE id = $1 AND online RETURNING id`, [gateway.id]);
    this.events.publish({ type: 'gateway', farmId: gateway.farmId, gatewayId: gateway.id, online });
    const { rows } = await this.db.query<{ id: number; farm_id: number; state: Record<string, unknown>; last_seen: Date | null }>(
      `UPDATE devices SET online = false WHERE gateway_id = $1 AND online RETURNING id, farm_id, state, last_seen`,
      [gateway.id],
    );
    this.toldOffline(rows);
    // The gateway's alarm stands for the devices it took with it.
    if (went.rows[0]) await this.reportOffline([], [gateway.id]);
  }

  /** The embedded broker saw a gateway (by its code, the MQTT username) connect or disconnect. */
  gatewayPresence(code: string, online: boolean): void {
    if (this.closed) return;
    this.track(
      this.gatewayByCode(code)
        .then((g) => (g ? this.setGatewayOnline(g, online) : undefined))
        .catch((e) => this.log(`[devices] gateway ${code} presence not stored: ${String(e)}`)),
    );
  }

  /**
   * Devices silent for longer than DEVICE_OFFLINE_AFTER_S (and gateways none of whose
   * devices spoke) are marked offline, and the open consoles told: a console left open
   * sees a device go offline without a reload. `now` is the sweep's clock (tests fix it).
   * The UPDATE … WHERE online is the claim: of several instances one reports each change.
   */
  async sweepOffline(now = new Date(this.now())): Promise<number> {
    const limit = this.config.deviceOfflineAfterS;
    const { rows } = await this.db.query<{ id: number; farm_id: number; state: Record<string, unknown>; last_seen: Date | null }>(
      `UPDATE devices SET online = false
        WHERE online AND (last_seen IS NULL OR last_seen < $1::timestamptz - make_interval(secs => $2))
        RETURNING id, farm_id, state, last_seen`,
      [now.toISOString(), limit],
    );
    this.toldOffline(rows);
    const gateways = await this.db.query<{ id: number; farm_id: number }>(
      `UPDATE device_gateways SET online = false
        WHERE online AND (last_seen IS NULL OR last_seen < $1::timestamptz - make_interval(secs => $2))
        RETURNING id, farm_id`,
      [now.toISOString(), limit],
    );
    for (const g of gateways.rows) this.events.publish({ type: 'gateway', farmId: Number(g.farm_id), gatewayId: g.id, online: false });
    await this.reportOffline(rows.map((r) => r.id), gateways.rows.map((g) => g.id));
    return rows.length;
  }

  private toldOffline(rows: { id: number; farm_id: number; state: Record<string, unknown>; last_seen: Date | null }[]): void {
    for (const r of rows) {
      this.touched.delete(r.id);
      this.events.publish({ type: 'state', farmId: Number(r.farm_id), deviceId: r.id, online: false, state: r.state, lastSeen: r.last_seen ? new Date(r.last_seen).toISOString() : null });
    }
  }

  private async handle(device: KnownDevice, m: InboundMessage): Promise<void> {
    switch (m.kind) {
      case 'reading': {
        this.writer.add(Object.entries(m.values).map(([kind, value]) => ({ farmId: device.farmId, deviceId: device.id, place: device.unit, kind, ts: m.ts, value: value as number })));
        await this.markSeen(device, null, true);
        this.events.publish({ type: 'reading', farmId: device.farmId, deviceId: device.id, place: device.unit, ts: m.ts.toISOString(), values: m.values as Record<string, number> });
        for (const fn of this.readingListeners) await fn(device, m.ts, m.values as Record<string, number>);
        return;
      }
      case 'state':
        await this.markSeen(device, m.state);
        return;
      case 'status':
        await this.setOnline(device, m.online);
        return;
      case 'ack':
        for (const fn of this.ackListeners) await fn(device, m);
        await this.markSeen(device, m.state ?? null);
        return;
    }
  }

  /** When each device was last marked seen in the database (a reading a second must not cost an UPDATE each). */
  private readonly touched = new Map<number, number>();

  /** The device spoke: online, seen now, and its state merged when given. */
  async markSeen(device: KnownDevice, state: Record<string, unknown> | null, reading = false): Promise<void> {
    const last = this.touched.get(device.id);
    // Seen a moment ago and nothing new to store: last_seen may lag by that much, a
    // quarter of the offline limit at most (15 s with the default 3 minutes).
    const lag = Math.min(15_000, (this.config.deviceOfflineAfterS * 1000) / 4);
    if (!state && last !== undefined && Date.now() - last < lag) return;
    this.touched.set(device.id, Date.now());
    const { rows } = await this.db.query<{ online: boolean; state: Record<string, unknown>; last_seen: Date; was_online: boolean }>(
      `UPDATE devices d SET online = true, last_seen = now(), state = CASE WHEN $2::jsonb IS NULL THEN d.state ELSE d.state || $2::jsonb END,
              last_reading_at = CASE WHEN $3 THEN now() ELSE d.last_reading_at END
         FROM (SELECT online AS was_online FROM devices WHERE id = $1) w
        WHERE d.id = $1 RETURNING d.online, d.state, d.last_seen, w.was_online`,
      [device.id, state ? JSON.stringify(state) : null, reading],
    );
    // Its gateway is alive too (a gateway may say nothing of itself between its devices' messages).
    await this.db.query(`UPDATE device_gateways SET online = true, last_seen = now() WHERE id = (SELECT gateway_id FROM devices WHERE id = $1)`, [device.id]);
    const r = rows[0];
    if (r && (state || !r.was_online)) {
      this.events.publish({ type: 'state', farmId: device.farmId, deviceId: device.id, online: true, state: r.state, lastSeen: new Date(r.last_seen).toISOString() });
    }
  }

  async setOnline(device: KnownDevice, online: boolean): Promise<void> {
    this.touched.delete(device.id);
    const { rows } = await this.db.query<{ state: Record<string, unknown>; last_seen: Date | null; was_online: boolean }>(
      `UPDATE devices d SET online = $2, last_seen = CASE WHEN $2 THEN now() ELSE d.last_seen END
         FROM (SELECT online AS was_online FROM devices WHERE id = $1) w
        WHERE d.id = $1 RETURNING d.state, d.last_seen, w.was_online`,
      [device.id, online],
    );
    // A gateway's own status stands for the devices wired to it (its last will says it is gone).
    await this.db.query(`UPDATE device_gateways SET online = $2, last_seen = CASE WHEN $2 THEN now() ELSE last_seen END WHERE code = $1`, [device.code, online]);
    // A device saying it is online is its gateway speaking too.
    if (online) await this.db.query(`UPDATE device_gateways SET online = true, last_seen = now() WHERE id = (SELECT gateway_id FROM devices WHERE id = $1)`, [device.id]);
    const r = rows[0];
    if (r) this.events.publish({ type: 'state', farmId: device.farmId, deviceId: device.id, online, state: r.state, lastSeen: r.last_seen ? new Date(r.last_seen).toISOString() : null });
    if (r && !online && r.was_online) await this.reportOffline([device.id], []);
  }
}
