import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../../server/db/data-dir-lock.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { seededImage } from '../support/engines.ts';

/**
 * Issue 11 item 3: one server per embedded data folder. Real server processes
 * (node --import tsx server/main.ts: one process, so that kill -9 kills the server itself) on a temporary DATA_DIR; no console build is needed (DIST_DIR is empty).
 * The folders hold the tests' seeded image already: a server's first start would otherwise
 * migrate and seed the demo farm, which is not what these tests are about and costs a minute.
 */
interface Server {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the port once listening, or rejects with the output when the process exits. */
  listening: Promise<number>;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

function startServer(dataDir: string): Server {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DIST_DIR: join(dataDir, 'no-dist'), LOG: '0', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<number>((resolve, reject) => {
    const check = () => {
      const m = /running at http:\/\/localhost:(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${text}`)));
  });
  listening.catch(() => {});
  return { child, output: () => text, listening, exited };
}

const lockOwner = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number };

describe('one server per data folder', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'farm-lock-'));
    dirs.push(dir);
    return dir;
  };
  /** A data folder holding the migrated, seeded demo database (what a server left behind). */
  const seededDir = async () => {
    const dir = tempDir();
    const db = await openPglite(dir, await seededImage());
    await db.close();
    return dir;
  };
  afterAll(() => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  // One story, so that the folder is opened by three server processes rather than four
  // (each start costs seconds): refused while the owner lives, taken over after a crash,
  // released on a clean exit.
  it('refuses a second server on the same DATA_DIR with a clear message, takes over the lock a crashed server left behind, and releases the folder on exit', async () => {
    const dir = await seededDir();
    const first = startServer(dir);
    const port = await first.listening;
    expect((await fetch(`http://127.0.0.1:${port}/api/openapi.json`)).status).toBe(200);
    const firstPid = lockOwner(dir).pid;
    expect(firstPid).toBeGreaterThan(0);

    const second = startServer(dir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The data folder ${dir} is in use by another server (pid ${firstPid}`);
    expect(second.output()).toContain('PostgreSQL (DATABASE_URL)');
    expect(second.output()).not.toMatch(/\bat \S+\.ts:\d+/);
    // The first one still answers, alone.
    expect((await fetch(`http://127.0.0.1:${port}/api/openapi.json`)).status).toBe(200);

    first.child.kill('SIGKILL');
    await first.exited;
    // kill -9 leaves the lock file behind.
    expect(lockOwner(dir).pid).toBe(firstPid);

    const next = startServer(dir);
    const nextPort = await next.listening;
    expect(lockOwner(dir).pid).not.toBe(firstPid);
    // A reply its client never reads (the OpenAPI document, megabytes) does not hold the
    // stopping server past its grace (server/main.ts), where it used to wait 72 s.
    expect((await fetch(`http://127.0.0.1:${nextPort}/api/openapi.json`)).status).toBe(200);
    const stopping = Date.now();
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(30_000);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 240_000);

  it('in one process: a live owner refuses, a dead or unreadable one is taken over, release frees it', () => {
    const dir = tempDir();
    const file = join(dir, LOCK_FILE);
    // A live owner: this very process.
    writeFileSync(file, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: 'now' }));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    // A dead one (a pid far beyond pid_max), and garbage, are stale.
    for (const stale of [JSON.stringify({ pid: 2 ** 30, host: hostname(), startedAt: 'then' }), 'not json']) {
      writeFileSync(file, stale);
      const release = lockDataDir(dir);
      expect(lockOwner(dir).pid).toBe(process.pid);
      expect(() => lockDataDir(dir)).toThrow(/in use by another server/);
      release();
      expect(existsSync(file)).toBe(false);
    }
  });
});
