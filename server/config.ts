import { resolve } from 'node:path';

export interface ServerConfig {
  port: number;
  host: string;
  /** Embedded PGlite's folder; ignored when databaseUrl is set. */
  dataDir: string;
  databaseUrl?: string;
  /** The built console (vite build output). */
  distDir: string;
  /** Development SMS mailbox: every code sent is appended here. */
  smsMailbox: string;
  /** Address of the instruction video shown from the top bar; empty means none. */
  instructionVideoUrl: string;
  /** Map tile URL template for the map widget; empty means an offline base layer. */
  tileUrl: string;
  /** The northern city whose users see the header title (spec section 1). */
  headerTitleCity: string;
  /** Devices (docs/devices.md): an external broker (mqtt://…); empty runs the embedded one. */
  mqttUrl?: string;
  mqttUsername?: string;
  mqttPassword?: string;
  /** The embedded broker's TCP port for real gateways; undefined: in-process clients only. */
  mqttPort?: number;
  /** The address the embedded broker's TCP port binds (MQTT_HOST; loopback by default). */
  mqttHost: string;
  /** First level(s) of every device topic: {root}/{farmId}/device/{code}/… */
  mqttTopicRoot: string;
  /** Several API instances on one external broker share the device messages ($share/{group}/…). */
  mqttSharedGroup?: string;
  /**
   * The demo farms' device simulator: on by default only with the embedded broker kept in
   * process (no MQTT_PORT, no MQTT_URL), since real gateways may then be connected;
   * DEVICE_SIMULATOR=on forces it, =off turns it off.
   */
  deviceSimulator: boolean;
  /** How long a command waits for the device's acknowledgement. */
  commandTimeoutMs: number;
  /** A device silent for longer is offline. */
  deviceOfflineAfterS: number;
  /** Readings older than this are deleted (0 keeps everything). */
  readingsRetentionDays: number;
  /** A weather forecast provider's URL (docs/devices.md, "Weather"); none: the screen says none is configured. */
  forecastUrl?: string;
  /** Imports running at once (docs/import.md, "Limits"); one more is answered 42901. */
  importConcurrency: number;
  /** Time for reading one import's file in its worker. */
  importReadTimeoutMs: number;
  /**
   * The public address consumers reach the trace pages at (`https://trace.example.com`, no
   * trailing slash): every QR code and absolute link is built from it, never from a request's
   * Host or X-Forwarded-* headers. Unset: QR codes are refused with a sentence saying so.
   */
  publicBaseUrl?: string;
}

/**
 * PUBLIC_BASE_URL as an origin with an optional path prefix, without a trailing slash; a
 * value that is not an http(s) address without query, fragment or credentials stops the
 * server at start rather than printing labels that lead nowhere.
 */
export function publicBaseUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_BASE_URL is not an address: ${value}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new Error(`PUBLIC_BASE_URL must be an http(s) address without query, fragment or credentials: ${value}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    distDir: resolve(env.DIST_DIR ?? 'dist'),
    smsMailbox: resolve(env.SMS_MAILBOX ?? `${dataDir}/sms-mailbox.log`),
    instructionVideoUrl: env.INSTRUCTION_VIDEO_URL ?? '',
    tileUrl: env.MAP_TILE_URL ?? '',
    headerTitleCity: env.HEADER_TITLE_CITY ?? '齐齐哈尔市',
    mqttUrl: env.MQTT_URL || undefined,
    mqttUsername: env.MQTT_USERNAME || undefined,
    mqttPassword: env.MQTT_PASSWORD || undefined,
    mqttPort: env.MQTT_PORT ? Number(env.MQTT_PORT) : undefined,
    mqttTopicRoot: env.MQTT_TOPIC_ROOT || 'farm',
    mqttSharedGroup: env.MQTT_SHARED_GROUP || undefined,
    mqttHost: env.MQTT_HOST || '127.0.0.1',
    deviceSimulator: simulatorOn(env),
    commandTimeoutMs: Number(env.DEVICE_COMMAND_TIMEOUT_MS ?? 15_000),
    deviceOfflineAfterS: Number(env.DEVICE_OFFLINE_AFTER_S ?? 180),
    readingsRetentionDays: Number(env.READINGS_RETENTION_DAYS ?? 400),
    forecastUrl: env.FORECAST_URL || undefined,
    importConcurrency: Math.max(1, Number(env.IMPORT_CONCURRENCY ?? 2) || 2),
    importReadTimeoutMs: Number(env.IMPORT_READ_TIMEOUT_MS ?? 30_000),
    publicBaseUrl: publicBaseUrlOf(env.PUBLIC_BASE_URL),
  };
}

/** DEVICE_SIMULATOR=on|off decides; unset, the simulator runs only when no real gateway can connect. */
export function simulatorOn(env: NodeJS.ProcessEnv): boolean {
  if (env.DEVICE_SIMULATOR === 'on') return true;
  if (env.DEVICE_SIMULATOR === 'off') return false;
  return !env.MQTT_URL && !env.MQTT_PORT;
}
