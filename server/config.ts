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
  /**
   * The embedded broker's MQTTS listener (MQTT_TLS_PORT, on MQTT_HOST) with the PEM files
   * MQTT_TLS_CERT and MQTT_TLS_KEY: real gateways over a network should use this one.
   */
  mqttTls?: { port: number; certFile: string; keyFile: string };
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
  /** Uploaded files (docs/resources.md, "Files"): where their bytes live. */
  fileStorage: FileStorageConfig;
  /** One uploaded file at most (FILE_MAX_BYTES, default 10 MiB): caps every file field's own maxBytes. */
  fileMaxBytes: number;
}

/**
 * FILE_STORAGE=folder (default: FILE_DIR, else <DATA_DIR>/files) or FILE_STORAGE=s3 with
 * S3_ENDPOINT, S3_REGION (default us-east-1), S3_BUCKET, S3_ACCESS_KEY_ID,
 * S3_SECRET_ACCESS_KEY, S3_PREFIX (default ''), S3_PATH_STYLE (default 1; 0 for
 * virtual-hosted addressing). An s3 configuration missing a value stops the server at start.
 */
export type FileStorageConfig =
  | { kind: 'folder'; dir?: string }
  | { kind: 's3'; endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string; prefix: string; pathStyle: boolean };

export function fileStorageOf(env: NodeJS.ProcessEnv): FileStorageConfig {
  const kind = env.FILE_STORAGE || 'folder';
  if (kind === 'folder') return { kind, dir: env.FILE_DIR ? resolve(env.FILE_DIR) : undefined };
  if (kind !== 's3') throw new Error(`FILE_STORAGE must be folder or s3: ${kind}`);
  const need = (name: string) => {
    const v = env[name];
    if (!v) throw new Error(`FILE_STORAGE=s3 needs ${name}`);
    return v;
  };
  const endpoint = need('S3_ENDPOINT');
  if (!/^https?:\/\/[^/?#]+/.test(endpoint)) throw new Error(`S3_ENDPOINT must be an http(s) address: ${endpoint}`);
  return {
    kind,
    endpoint,
    region: env.S3_REGION || 'us-east-1',
    bucket: need('S3_BUCKET'),
    accessKeyId: need('S3_ACCESS_KEY_ID'),
    secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
    prefix: env.S3_PREFIX ?? '',
    pathStyle: env.S3_PATH_STYLE !== '0',
  };
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
    mqttTls: mqttTlsOf(env),
    deviceSimulator: simulatorOn(env),
    commandTimeoutMs: Number(env.DEVICE_COMMAND_TIMEOUT_MS ?? 15_000),
    deviceOfflineAfterS: Number(env.DEVICE_OFFLINE_AFTER_S ?? 180),
    readingsRetentionDays: Number(env.READINGS_RETENTION_DAYS ?? 400),
    forecastUrl: env.FORECAST_URL || undefined,
    importConcurrency: Math.max(1, Number(env.IMPORT_CONCURRENCY ?? 2) || 2),
    importReadTimeoutMs: Number(env.IMPORT_READ_TIMEOUT_MS ?? 30_000),
    publicBaseUrl: publicBaseUrlOf(env.PUBLIC_BASE_URL),
    fileStorage: fileStorageOf(env),
    fileMaxBytes: Math.max(1024, Number(env.FILE_MAX_BYTES ?? 10 * 1024 * 1024) || 10 * 1024 * 1024),
  };
}

/** DEVICE_SIMULATOR=on|off decides; unset, the simulator runs only when no real gateway can connect. */
export function simulatorOn(env: NodeJS.ProcessEnv): boolean {
  if (env.DEVICE_SIMULATOR === 'on') return true;
  if (env.DEVICE_SIMULATOR === 'off') return false;
  return !env.MQTT_URL && !env.MQTT_PORT && !env.MQTT_TLS_PORT;
}

/**
 * MQTT_TLS_PORT with its certificate and key files; a port without both files (or files
 * without a port) stops the server at start rather than listening in plain text or not at all.
 */
function mqttTlsOf(env: NodeJS.ProcessEnv): ServerConfig['mqttTls'] {
  const { MQTT_TLS_PORT: port, MQTT_TLS_CERT: cert, MQTT_TLS_KEY: key } = env;
  if (!port && !cert && !key) return undefined;
  if (!port || !cert || !key) {
    throw new Error('MQTT_TLS_PORT, MQTT_TLS_CERT and MQTT_TLS_KEY go together: set all three (the port and the PEM certificate and key files) or none');
  }
  const n = Number(port);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`MQTT_TLS_PORT must be a port number, not "${port}"`);
  return { port: n, certFile: resolve(cert), keyFile: resolve(key) };
}
