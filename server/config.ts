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
  };
}
