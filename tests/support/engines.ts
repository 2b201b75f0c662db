import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedIfEmpty } from '../../server/seed/seed.ts';
import { ensureIndexes } from '../../server/resources/indexes.ts';
import { readResourceDocuments } from '../../server/resources/load.ts';
import { recomputePendingAreas } from '../../server/land/area-recompute.ts';

/**
 * Migrated and seeded, with what a server's first start adds (the resources' indexes, the
 * areas on the ellipsoid): a test's server starts from a database that a server has
 * already opened once, and spends none of its start on them.
 */
async function prepareSeeded(db: Database): Promise<void> {
  await migrate(db);
  await seedIfEmpty(db);
  await ensureIndexes(db, await readResourceDocuments());
  await recomputePendingAreas(db);
}

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
    await prepareSeeded(db);
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
      openSeeded: () => seededCopy(url),
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

/** The machine's day as YYYYMMDD, naming databases so that a later run can drop earlier ones. */
const today = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');

/** `url` with its database replaced by `name`. */
function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The seeded PostgreSQL database of this code and day, made once per machine: migrating and
 * seeding costs seconds per file, a copy of a template database a fraction of one. Several
 * workers may build it at once; each builds under a name of its own and the first rename wins.
 */
let seededTemplate: Promise<string> | undefined;
function seededTemplateName(url: string): Promise<string> {
  seededTemplate ??= (async () => {
    const name = `farm_seeded_${today()}_${seedInputsKey()}`;
    const admin = await openPostgres({ connectionString: url, max: 1 });
    try {
      const exists = async () => ((await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [name])).rows[0]?.n ?? 0) > 0;
      if (await exists()) return name;
      const building = `${name}_b${process.pid}`;
      await admin.exec(`DROP DATABASE IF EXISTS ${building}`);
      await admin.exec(`CREATE DATABASE ${building}`);
      const db = await openPostgres({ connectionString: databaseUrl(url, building), max: 2 });
      try {
        await prepareSeeded(db);
      } finally {
        await db.close();
      }
      try {
        await admin.exec(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch (e) {
        await admin.exec(`DROP DATABASE IF EXISTS ${building}`);
        if (!(await exists())) throw e;
      }
      // Templates and copies from before yesterday (a run that was killed leaves its copies)
      // go; today's may serve another checkout's run, yesterday's a run going past midnight.
      const stale = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname ~ '^farm_(seeded|t)_[0-9]{8}_' AND substring(datname from '_([0-9]{8})_') < $1", [today(-1)]);
      for (const { datname } of stale.rows) await admin.exec(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
      return name;
    } finally {
      await admin.close();
    }
  })();
  return seededTemplate;
}

/**
 * Builds what the engines clone, once, before the test files start (tests/api/global-setup.ts):
 * the seeded PGlite image, and the seeded PostgreSQL template when TEST_DATABASE_URL is set.
 * Otherwise both workers' first files would seed the same template side by side.
 */
export async function prepareSeededEngines(): Promise<void> {
  await seededImage();
  const url = process.env.TEST_DATABASE_URL;
  if (url) await seededTemplateName(url);
}

/** A database of its own copied from the seeded template, dropped on close. */
async function seededCopy(url: string): Promise<Database> {
  const template = await seededTemplateName(url);
  const name = `farm_t_${today()}_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres({ connectionString: url, max: 1 });
  try {
    await admin.exec(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.close();
  }
  const db = await openPostgres({ connectionString: databaseUrl(url, name), max: 5 });
  const close = db.close;
  return Object.assign(db, {
    close: async () => {
      await close.call(db);
      const cleanup = await openPostgres({ connectionString: url, max: 1 });
      await cleanup.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.close();
    },
  });
}
