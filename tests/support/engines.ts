import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedIfEmpty } from '../../server/seed/seed.ts';

export interface Engine {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database of its own (a schema of its own on PostgreSQL). */
  open(): Promise<Database>;
  /** A fresh, migrated database holding the demo seed, of its own. */
  openSeeded(): Promise<Database>;
}

/** Every file the seeded database depends on: the server's code and SQL, the schemas. */
function seedInputsKey(): string {
  const root = resolve(import.meta.dirname, '../..');
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|sql|json)$/.test(name)) hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(root, 'server'));
  walk(join(root, 'schemas'));
  // Seeds may place records relative to today (tasks due today, last season).
  hash.update(new Date().toISOString().slice(0, 10));
  return hash.digest('hex').slice(0, 16);
}

/**
 * PGlite databases are migrated and seeded once, and every test file clones that image:
 * migrating and seeding costs seconds, loading the image a fraction of it. The image is
 * kept in the temporary folder under a hash of the server's code, the schemas and the date,
 * so a change to a migration, the seed or a resource (or a new day) makes a new one.
 */
let seededPgliteImage: Promise<Blob> | undefined;
export function seededImage(): Promise<Blob> {
  seededPgliteImage ??= (async () => {
    const file = join(tmpdir(), `farm-seeded-pglite-${seedInputsKey()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const db = await openPglite();
    await migrate(db);
    await seedIfEmpty(db);
    const image = await db.dump();
    await db.close();
    // Written under a name of its own, then renamed: parallel workers never read half a file.
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await image.arrayBuffer()));
    renameSync(part, file);
    return image;
  })();
  return seededPgliteImage;
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
      async openSeeded() {
        return openPglite(undefined, await seededImage());
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const postgres: Engine = {
      name: 'postgres',
      async openSeeded() {
        const db = await postgres.open();
        await seedIfEmpty(db);
        return db;
      },
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
    };
    list.push(postgres);
  }
  return list;
}
