import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/migrate.ts';

export interface Engine {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database of its own (a schema of its own on PostgreSQL). */
  open(): Promise<Database>;
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function engines(): Engine[] {
  const list: Engine[] = [
    {
      name: 'pglite',
      async open() {
        const db = await openPglite();
        await migrate(db);
        return db;
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    list.push({
      name: 'postgres',
      async open() {
        const schema = `t_${randomBytes(6).toString('hex')}`;
        const admin = await openPostgres({ connectionString: url, max: 1 });
        await admin.exec(`CREATE SCHEMA ${schema}`);
        await admin.close();
        const db = await openPostgres({ connectionString: url, searchPath: schema, max: 5 });
        await migrate(db);
        const close = db.close;
        // Dropping the schema on close keeps the shared test database clean.
        return Object.assign(db, {
          close: async () => {
            await close.call(db);
            const cleanup = await openPostgres({ connectionString: url, max: 1 });
            await cleanup.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
            await cleanup.close();
          },
        });
      },
    });
  }
  return list;
}
