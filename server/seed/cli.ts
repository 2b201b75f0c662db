/**
 * `npm run seed`: migrates and seeds the database named by DATABASE_URL (else the
 * embedded one under DATA_DIR). Safe to run again: demo data is created only in a
 * database without users, while the menu tree is brought up to date with
 * schemas/menus.json every time and the platform administrator role keeps every code.
 */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { migrate } from '../db/migrate.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedIfEmpty } from './seed.ts';
import { readMenusFile, syncMenus } from './menus.ts';
import { ROLE_SPECS, resolveGrants } from './roles.ts';

const config = loadConfig();
const db = await openDatabase(config);
try {
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const applied = await migrate(db);
  console.log(`[seed] ${where}: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}`);
  const doc = await readMenusFile();
  if (await seedIfEmpty(db, doc)) {
    console.log(`[seed] demo data created; accounts (password ${DEMO_PASSWORD}):`);
    for (const a of DEMO_ACCOUNTS) console.log(`    ${a.username.padEnd(9)} ${a.description}`);
  } else {
    const admin = ROLE_SPECS.find((r) => r.platform)!;
    const { menus, elements } = resolveGrants(admin, doc);
    const count = await db.transaction(async (tx) => {
      const n = await syncMenus(tx, doc);
      await tx.query('UPDATE roles SET menus = $2, elements = $3 WHERE code = $1', [admin.code, menus, elements]);
      return n;
    });
    console.log(`[seed] users exist, demo data left alone; ${count} menu entries synchronised from schemas/menus.json`);
  }
} catch (err) {
  console.error(`[seed] failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
