import type { FastifyInstance } from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type ServerConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import type { Engine } from './engines.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: ServerConfig;
  close(): Promise<void>;
  /** Logs in a demo account and returns its token. */
  login(username: string, password?: string): Promise<string>;
}

/**
 * A server on a fresh, migrated and seeded database of `engine`, for inject() calls. The
 * device simulator is off (the embedded broker, in process, costs nothing); a test that
 * wants it passes `{ deviceSimulator: true }`.
 */
export async function createTestApp(engine: Engine, overrides: Partial<ServerConfig> = {}): Promise<TestApp> {
  const db = await engine.openSeeded();
  const dir = mkdtempSync(join(tmpdir(), 'farm-test-'));
  const config: ServerConfig = { ...loadConfig({ DATA_DIR: dir, DEVICE_SIMULATOR: 'off', PUBLIC_BASE_URL: 'https://trace.farm.test' }), distDir: join(dir, 'no-dist'), ...overrides };
  const app = await buildApp({ db, config });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.close();
    },
    async login(username, password = DEMO_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: { username, password } });
      const body = res.json();
      if (body.status !== 200) throw new Error(`login ${username} failed: ${res.body}`);
      return body.data as string;
    },
  };
}
