import { mkdir } from 'node:fs/promises';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** A PostgreSQL server when DATABASE_URL is set, else embedded PGlite under dataDir. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres({ connectionString: opts.databaseUrl });
  if (opts.dataDir) await mkdir(opts.dataDir, { recursive: true });
  return openPglite(opts.dataDir);
}
