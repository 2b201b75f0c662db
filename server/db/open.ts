import { mkdir } from 'node:fs/promises';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * A PostgreSQL server when DATABASE_URL is set, else embedded PGlite under dataDir, held
 * by this process alone until it closes (see data-dir-lock.ts).
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres({ connectionString: opts.databaseUrl });
  if (!opts.dataDir) return openPglite();
  await mkdir(opts.dataDir, { recursive: true });
  const release = lockDataDir(opts.dataDir);
  let db: Database;
  try {
    db = await openPglite(opts.dataDir);
  } catch (err) {
    release();
    throw err;
  }
  const close = db.close;
  return Object.assign(db, {
    close: async () => {
      try {
        await close.call(db);
      } finally {
        release();
      }
    },
  });
}
