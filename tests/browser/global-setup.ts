import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from 'vite';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openDatabase } from '../../server/db/open.ts';
import { seedIfEmpty } from '../../server/seed/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the console under test, e.g. http://127.0.0.1:40123. */
    baseUrl: string;
    /** The development SMS mailbox of that server (codes sent are appended there). */
    smsMailbox: string;
  }
}

/**
 * Once for the browser project: build the console (vite build, into a temporary folder
 * so that a developer's dist/ is left alone) and serve it with the real API server on a
 * free port, over a fresh, seeded PGlite. BROWSER_BASE_URL points the tests at a server
 * that is already running instead.
 */
export default async function setup(project: TestProject) {
  if (process.env.BROWSER_BASE_URL) {
    project.provide('baseUrl', process.env.BROWSER_BASE_URL.replace(/\/$/, ''));
    project.provide('smsMailbox', loadConfig().smsMailbox);
    return;
  }
  const root = resolve(import.meta.dirname, '../..');
  const dir = mkdtempSync(join(tmpdir(), 'farm-browser-'));
  const distDir = join(dir, 'dist');
  // Vitest sets NODE_ENV=test, which Vite would bake into the bundle (React's development
  // build, antd's fixed test ids): the browser tests must see what `npm start` serves.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, mode: 'production', configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }

  const config = { ...loadConfig({ DATA_DIR: join(dir, 'data') }), distDir, host: '127.0.0.1', port: 0 };
  const db = await openDatabase({ dataDir: config.dataDir });
  await migrate(db);
  await seedIfEmpty(db);
  const app = await buildApp({ db, config });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no port');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}`);
  project.provide('smsMailbox', config.smsMailbox);

  return async () => {
    await app.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
