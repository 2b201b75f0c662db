import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import type { AddressInfo } from 'node:net';

const config = loadConfig();
// The data folder is locked before the application's modules load: a second server on the
// same folder is refused in the time it takes to read the lock, not after loading everything.
const db = await openDatabase(config).catch((err: unknown) => {
  if (!(err instanceof DataDirLockedError)) throw err;
  // The reason and what to do, without a stack trace.
  console.error(`[db] refusing to start: ${err.message}`);
  process.exit(1);
});
const [{ migrate }, { buildApp }, { seedIfEmpty, DEMO_ACCOUNTS, DEMO_PASSWORD }, { demoGatewaySecrets }] = await Promise.all([
  import('./db/migrate.ts'),
  import('./app.ts'),
  import('./seed/seed.ts'),
  import('./devices/seed.ts'),
]);
const applied = await migrate(db);
if (applied.length) console.log(`[db] applied migrations: ${applied.join(', ')}`);
// A PostgreSQL server is seeded on purpose with `npm run seed`; the embedded database on first start.
const seeded = !config.databaseUrl && (await seedIfEmpty(db));
if (seeded) console.log('[db] seeded demo data');
// The demo gateways' secrets exist only in this database; with a broker port open they are
// shown once, on the start that made them (they connect from this machine only).
if (seeded && (config.mqttPort !== undefined || config.mqttTls)) {
  const lines = (await demoGatewaySecrets(db)).map((g) => `    ${g.code.padEnd(10)} ${g.secret}`);
  console.log(`[mqtt] demo (simulated) gateway secrets, made for this installation; they connect from this machine only:\n${lines.join('\n')}`);
}

const app = await buildApp({ db, config, logger: process.env.LOG !== '0' });
/**
 * What a stopping server gives the requests in flight before it cuts their connections: a
 * client that stops reading a large reply (the OpenAPI document, an export) would otherwise
 * hold the process until the keep-alive timeout, 72 s.
 */
const SHUTDOWN_GRACE_MS = 5_000;
const close = async () => {
  setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
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
