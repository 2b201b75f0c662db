import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seededImage } from '../support/engines.ts';

/** The console one browser test file talks to. */
export interface FileServer {
  baseUrl: string;
  smsMailbox: string;
}

let current: FileServer | undefined;

/** This file's server (undefined when the tests point at one already running, BROWSER_BASE_URL). */
export const fileServer = (): FileServer | undefined => current;

let readOnly = false;
/**
 * Declares, at the top of a test file, that the file changes nothing on the server (it
 * reads, navigates, searches): it then uses the browser project's shared server
 * (global-setup.ts) instead of starting one of its own, which costs seconds. A file that
 * saves, deletes, imports or publishes anything keeps a server of its own.
 */
export function readsOnly(): void {
  readOnly = true;
}
export const wantsSharedServer = (): boolean => readOnly;
/** Points this file's tests at `server` (the shared one). */
export function pointAtServer(server: FileServer): void {
  current = server;
}
/** Forgets this file's server and declaration: the next file in the same worker decides anew. */
export function forgetFileServer(): void {
  current = undefined;
  readOnly = false;
}

/**
 * Serves the built console (`distDir`, built once by global-setup.ts) with the real API
 * server over a PGlite of its own, cloned from the seeded image: every browser test file
 * starts from the demo seed and changes nothing another file sees, so files run in
 * parallel with each other and with the API tests, in any order.
 */
export async function startFileServer(distDir: string): Promise<() => Promise<void>> {
  const { server, stop } = await serveSeededConsole(distDir);
  current = server;
  return async () => {
    current = undefined;
    await stop();
  };
}

/** The built console and the API over a fresh clone of the seeded image, on a free port. */
export async function serveSeededConsole(distDir: string): Promise<{ server: FileServer; stop: () => Promise<void> }> {
  // The device simulator reports every 3 s, so a reading arrives while a test watches.
  process.env.DEVICE_SIMULATOR_PERIOD_MS ??= '3000';
  // A sensor the simulator drops out now and then (0.3 % a tick) would leave a test watching it waiting.
  process.env.DEVICE_SIMULATOR_FAULTS ??= 'off';
  const dir = mkdtempSync(join(tmpdir(), 'farm-browser-'));
  const config = { ...loadConfig({ DATA_DIR: join(dir, 'data') }), distDir, host: '127.0.0.1', port: 0 };
  const db = await openPglite(undefined, await seededImage());
  await migrate(db);
  const app = await buildApp({ db, config });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no port');
  return {
    server: { baseUrl: `http://127.0.0.1:${address.port}`, smsMailbox: config.smsMailbox },
    stop: async () => {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
