/**
 * The MQTT contract between the server and the gateways (docs/devices.md, "Topics"):
 *
 *   {root}/{farmId}/device/{deviceCode}/reading   device → server  {deviceId, ts?, values: {kind: number}}
 *   {root}/{farmId}/device/{deviceCode}/state     device → server  {deviceId, ts?, state: {...}}
 *   {root}/{farmId}/device/{deviceCode}/status    device → server  {deviceId, online: boolean}
 *   {root}/{farmId}/device/{deviceCode}/ack       device → server  {deviceId, commandId, ok, state?, message?}
 *   {root}/{farmId}/device/{deviceCode}/command   server → device  {commandId, action, params, expiresAt}
 *
 * Every device payload names its device (`deviceId`, the device's code); a payload whose
 * device is not the topic's is refused, so that a message copied onto another device's
 * topic is not believed. Pure functions: no MQTT, no database.
 */
export const INBOUND = ['reading', 'state', 'status', 'ack'] as const;
export type Inbound = (typeof INBOUND)[number];

export const READING_KINDS = [
  'airTemperature', 'airHumidity', 'soilMoisture', 'soilTemperature', 'light', 'co2', 'ec', 'ph', 'rainfall', 'windSpeed',
] as const;
export type ReadingKind = (typeof READING_KINDS)[number];

export const READING_UNITS: Record<ReadingKind, string> = {
  airTemperature: '°C', airHumidity: '%', soilMoisture: '%', soilTemperature: '°C', light: 'lx', co2: 'ppm', ec: 'mS/cm', ph: 'pH', rainfall: 'mm', windSpeed: 'm/s',
};

const CODE = /^[A-Za-z0-9_-]{1,48}$/;

export interface TopicParts {
  farmId: number;
  deviceCode: string;
  kind: string;
}

export function deviceTopic(root: string, farmId: number, deviceCode: string, kind: Inbound | 'command'): string {
  return `${root}/${farmId}/device/${deviceCode}/${kind}`;
}

/** The server's subscription: every device message of every farm. */
export function inboundFilter(root: string): string {
  return `${root}/+/device/+/+`;
}

export function parseTopic(root: string, topic: string): TopicParts | null {
  const parts = topic.split('/');
  const rootParts = root.split('/');
  if (parts.length !== rootParts.length + 4) return null;
  if (rootParts.some((p, i) => parts[i] !== p)) return null;
  const [farm, device, code, kind] = parts.slice(rootParts.length);
  if (device !== 'device' || !/^[1-9][0-9]{0,9}$/.test(farm) || !CODE.test(code)) return null;
  return { farmId: Number(farm), deviceCode: code, kind };
}

export type InboundMessage =
  | { kind: 'reading'; deviceCode: string; ts: Date; values: Partial<Record<ReadingKind, number>> }
  | { kind: 'state'; deviceCode: string; ts: Date; state: Record<string, unknown> }
  | { kind: 'status'; deviceCode: string; online: boolean }
  | { kind: 'ack'; deviceCode: string; commandId: number; ok: boolean; state?: Record<string, unknown>; message?: string };

/** Why a payload was refused: one sentence for the log and the counters. */
export class BadPayload extends Error {}

const MAX_SKEW_MS = 10 * 60_000;
/** With READINGS_RETENTION_DAYS=0 (keep everything) a time older than this is still refused. */
const OLDEST_WITHOUT_RETENTION_DAYS = 20 * 365;

/**
 * The message of `kind` for the device of the topic, or a BadPayload saying why not.
 * Readings must be finite numbers of known kinds; a time must lie within
 * [now − retention, now + 10 min]: a gateway's clock may lag, never lead by much, and a
 * reading older than the retention would be deleted at the next sweep anyway (a 1970 time
 * is a gateway that lost its clock, not history).
 */
export function parsePayload(parts: TopicParts, payload: Buffer | string, now = Date.now(), retentionDays = 400): InboundMessage {
  if (!(INBOUND as readonly string[]).includes(parts.kind)) throw new BadPayload(`"${parts.kind}" is not a device message (reading, state, status, ack)`);
  const text = typeof payload === 'string' ? payload : payload.toString('utf8');
  if (text.length > 16_384) throw new BadPayload('payload larger than 16 KiB');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BadPayload('payload is not JSON');
  }
  if (!isObject(body)) throw new BadPayload('payload is not a JSON object');
  if (body.deviceId !== parts.deviceCode) throw new BadPayload(`payload names device "${String(body.deviceId)}" on the topic of "${parts.deviceCode}"`);
  const ts = timestampOf(body.ts, now, retentionDays > 0 ? retentionDays : OLDEST_WITHOUT_RETENTION_DAYS);
  switch (parts.kind as Inbound) {
    case 'reading': {
      if (!isObject(body.values)) throw new BadPayload('reading without "values" object');
      const values: Partial<Record<ReadingKind, number>> = {};
      for (const [k, v] of Object.entries(body.values)) {
        if (!(READING_KINDS as readonly string[]).includes(k)) throw new BadPayload(`unknown reading kind "${k}"`);
        if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 1e7) throw new BadPayload(`reading "${k}" is not a finite number`);
        values[k as ReadingKind] = v;
      }
      if (!Object.keys(values).length) throw new BadPayload('reading without values');
      return { kind: 'reading', deviceCode: parts.deviceCode, ts, values };
    }
    case 'state':
      if (!isObject(body.state)) throw new BadPayload('state without "state" object');
      return { kind: 'state', deviceCode: parts.deviceCode, ts, state: body.state };
    case 'status':
      if (typeof body.online !== 'boolean') throw new BadPayload('status without boolean "online"');
      return { kind: 'status', deviceCode: parts.deviceCode, online: body.online };
    case 'ack': {
      if (!Number.isInteger(body.commandId) || (body.commandId as number) < 1) throw new BadPayload('ack without integer "commandId"');
      if (typeof body.ok !== 'boolean') throw new BadPayload('ack without boolean "ok"');
      if (body.state !== undefined && !isObject(body.state)) throw new BadPayload('ack "state" is not an object');
      const message = typeof body.message === 'string' ? body.message.slice(0, 200) : undefined;
      return { kind: 'ack', deviceCode: parts.deviceCode, commandId: body.commandId as number, ok: body.ok, state: body.state as Record<string, unknown> | undefined, message };
    }
  }
}

function timestampOf(ts: unknown, now: number, oldestDays: number): Date {
  if (ts === undefined) return new Date(now);
  const d = typeof ts === 'number' ? new Date(ts) : typeof ts === 'string' ? new Date(ts) : null;
  if (!d || Number.isNaN(d.getTime())) throw new BadPayload('"ts" is not a time (epoch milliseconds or ISO 8601)');
  if (d.getTime() > now + MAX_SKEW_MS) throw new BadPayload(`"ts" ${d.toISOString()} is more than ten minutes in the future`);
  if (d.getTime() < now - oldestDays * 86_400_000) throw new BadPayload(`"ts" ${d.toISOString()} is older than the ${oldestDays}-day retention`);
  return d;
}

/** A state's largest size as JSON: a device says what it does, a few dozen bytes. */
export const MAX_STATE_BYTES = 1024;

type StateCheck = (v: unknown) => boolean;
const bool: StateCheck = (v) => typeof v === 'boolean';
const text = (max: number): StateCheck => (v) => typeof v === 'string' && v.length <= max;
const orNull = (c: StateCheck): StateCheck => (v) => v === null || c(v);
const oneOf = (...xs: string[]): StateCheck => (v) => typeof v === 'string' && xs.includes(v);
const between = (min: number, max: number): StateCheck => (v) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const time: StateCheck = (v) => typeof v === 'string' && v.length <= 40 && !Number.isNaN(Date.parse(v));
const recipe: StateCheck = (v) => {
  if (!isObject(v)) return false;
  const keys = Object.keys(v);
  return keys.every((k) => ['name', 'ec', 'ph', 'minutes'].includes(k)) && text(40)(v.name) && between(0, 20)(v.ec) && between(0, 14)(v.ph) && between(0, 1440)(v.minutes);
};
/** Every kind may report a fault (a sentence of the device, null when cleared). */
const fault = { fault: orNull(text(80)) };

/**
 * The state keys each device kind declares, with their types (docs/devices.md, "Payloads").
 * A state with another key, a wrong type or more than MAX_STATE_BYTES is refused whole:
 * the console and every reply carry the state, so junk must not get in.
 */
export const STATE_KEYS: Record<string, Record<string, StateCheck>> = {
  switch: { on: bool, ...fault },
  pump: { on: bool, ...fault },
  valve: { open: bool, until: orNull(time), ...fault },
  airConditioner: { power: bool, mode: oneOf('cool', 'heat', 'dry', 'fan', 'auto'), setPoint: between(5, 40), fan: oneOf('auto', 'low', 'medium', 'high'), ...fault },
  fertigation: { running: bool, recipe: orNull(recipe), ...fault },
  sensor: { ...fault },
  camera: { recording: bool, ...fault },
};

/** Throws a BadPayload unless `state` holds only the declared keys of `kind`, well typed and small. */
export function checkState(kind: string, state: Record<string, unknown>): void {
  const size = Buffer.byteLength(JSON.stringify(state));
  if (size > MAX_STATE_BYTES) throw new BadPayload(`state of ${size} bytes is larger than ${MAX_STATE_BYTES}`);
  const declared = STATE_KEYS[kind] ?? fault;
  for (const [k, v] of Object.entries(state)) {
    const check = declared[k];
    if (!check) throw new BadPayload(`state key "${k}" is not declared for a ${kind} (${Object.keys(declared).join(', ')})`);
    if (!check(v)) throw new BadPayload(`state "${k}" of a ${kind} has a wrong type or value`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
