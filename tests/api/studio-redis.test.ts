/**
 * The studio's push between instances through Redis (server/studio/push.ts): with
 * REDIS_URL, a publish on one instance reaches another instance's listeners through pub/sub
 * at once, without waiting for the database poll (here slowed to a minute). Runs when a
 * `redis-server` binary is on the PATH (started on a free port for this file), else skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishHub, type PublishedEvent } from '../../server/studio/push.ts';
import { engines } from '../support/engines.ts';
import type { Database } from '../../server/db/database.ts';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe.skipIf(!hasRedis)('studio push through Redis', () => {
  let redis: ChildProcess;
  let url: string;
  let db: Database;

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    url = `redis://127.0.0.1:${port}`;
    // Until it answers.
    const { Redis } = await import('ioredis');
    for (let i = 0; i < 50; i++) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        break;
      } catch {
        probe.disconnect();
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    db = await engines()[0].open();
  }, 30_000);
  afterAll(async () => {
    await db?.close();
    if (redis?.pid) process.kill(redis.pid);
  });

  it('tells the other instance at once, once', async () => {
    const a = new PublishHub(db, { pollMs: 60_000, redisUrl: url });
    const b = new PublishHub(db, { pollMs: 60_000, redisUrl: url });
    await a.start();
    await b.start();
    try {
      const heard: PublishedEvent[] = [];
      b.listen((e) => heard.push(e));
      const started = Date.now();
      a.published({ generation: 7, file: 'schemas/menus.json', revision: 1 });
      await expect.poll(() => heard.length, { timeout: 2_000, interval: 10 }).toBe(1);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(heard[0]).toEqual({ generation: 7, file: 'schemas/menus.json', revision: 1 });
      // The same generation again (Redis redelivering, the poll catching up) is not told twice.
      a.published({ generation: 7, file: 'schemas/menus.json', revision: 1 });
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toHaveLength(1);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
