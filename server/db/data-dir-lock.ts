import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * One process per embedded data folder. PGlite keeps the database in memory and writes it
 * back to the folder; a second process on the same folder would see none of the first's
 * writes, hand out the same ids, and overwrite the folder. Several servers need PostgreSQL.
 *
 * The lock is a file created exclusively (`wx`) holding the owner's pid. It is removed when
 * the database closes or the process exits; after a crash the file stays, and the next
 * start finds its pid dead and takes the folder over.
 */
export const LOCK_FILE = 'server.lock';

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: Owner,
  ) {
    super(
      `The data folder ${dir} is in use by another server (pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}).\n` +
        'An embedded database serves one server process: stop that server first, or give this one another DATA_DIR.\n' +
        'To run several servers on one database, use PostgreSQL (DATABASE_URL).\n' +
        `If no server runs there any more, delete ${join(dir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** Takes the folder for this process; returns the release function. Throws DataDirLockedError. */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  const mine: Owner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  const content = JSON.stringify(mine);
  // Two rounds: the second follows the removal of a stale lock.
  for (let round = 0; round < 2; round++) {
    try {
      writeFileSync(file, content, { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        // Remove only our own lock: never one a later owner wrote.
        if (readOwnerText(file) === content) unlinkSync(file);
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readOwner(file);
    if (owner && isAlive(owner)) throw new DataDirLockedError(dir, owner);
    // Left behind by a crash (or unreadable): take the folder over.
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  const owner = readOwner(file);
  throw new DataDirLockedError(dir, owner ?? { pid: 0, host: 'unknown', startedAt: 'unknown' });
}

function readOwnerText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function readOwner(file: string): Owner | null {
  try {
    const value = JSON.parse(readOwnerText(file) ?? '') as Partial<Owner>;
    return Number.isInteger(value.pid) && (value.pid ?? 0) > 0
      ? { pid: value.pid!, host: String(value.host ?? ''), startedAt: String(value.startedAt ?? '') }
      : null;
  } catch {
    return null;
  }
}

/** Whether the owner may still run. Another host's process cannot be checked: assume it does. */
function isAlive(owner: Owner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A reused pid (after a reboot) belongs to some other program: only a Node process counts.
  try {
    return readFileSync(`/proc/${owner.pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}
