import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { buildApp } from './app.ts';
import { seedIfEmpty, DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/seed.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import type { AddressInfo } from 'node:net';

const config = loadConfig();
const db = await openDatabase(config).catch((err: unknown) => {
  if (!(err instanceof DataDirLockedError)) throw err;
  // The reason and what to do, without a stack trace.
  console.error(`[db] refusing to start: ${err.message}`);
  process.exit(1);
});
const applied = await migrate(db);
if (applied.length) console.log(`[db] applied migrations: ${applied.join(', ')}`);
// A PostgreSQL server is seeded on purpose with `npm run seed`; the embedded database on first start.
if (!config.databaseUrl && (await seedIfEmpty(db))) console.log('[db] seeded demo data');

const app = await buildApp({ db, config, logger: process.env.LOG !== '0' });
const close = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', close);
process.on('SIGTERM', close);

await app.listen({ port: config.port, host: config.host });
const { port } = app.server.address() as AddressInfo;
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
console.log(`
  Farm back-office running at http://localhost:${port}  (database: ${where})

  Demo accounts (password ${DEMO_PASSWORD}):
${DEMO_ACCOUNTS.map((a) => `    ${a.username.padEnd(9)} ${a.description}`).join('\n')}

  Development SMS mailbox: ${config.smsMailbox}
`);
