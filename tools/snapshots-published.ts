/**
 * `npm run snapshots:published [-- -u] [--keep]`: the QA snapshots of what configurers
 * published (docs/studio.md, "Snapshots of published revisions"). Exports the latest
 * published revision of every document from a database (DATABASE_URL, or the PGlite of
 * DATA_DIR, default ./data: stop the server first, it holds that folder's lock) into a
 * temporary `schemas/` folder, then runs the snapshot suite's "published revisions" part
 * over bundled + exported, writing tests/unit/__snapshots__/published-db/. `-u` rewrites
 * snapshots that differ; without it a difference fails, as in CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/open.ts';
import { migrate } from '../server/db/migrate.ts';
import { SchemaStore, REPO_ROOT } from '../server/studio/store.ts';

const args = process.argv.slice(2);
const config = loadConfig();
const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const dir = mkdtempSync(join(tmpdir(), 'published-schemas-'));
let status = 0;
try {
  await migrate(db);
  const store = new SchemaStore();
  const published = await store.published(db);
  console.log(`snapshots:published: ${published.length} published document(s) in ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`);
  for (const p of published) {
    console.log(`  ${p.file} revision ${p.revision} by ${p.author ?? '?'} ${p.at}${p.comment ? ` (${p.comment})` : ''}`);
    const path = resolve(dir, p.file);
    // The store refuses such names; a database is still input.
    if (!path.startsWith(`${dir}${sep}`)) throw new Error(`${p.file}: not a path inside the export`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, p.text);
  }
  await db.close();
  if (!published.length) {
    console.log('nothing published: nothing to snapshot');
  } else {
    const run = spawnSync(
      'npx',
      ['vitest', 'run', '--project', 'unit', 'tests/unit/schema-snapshots.test.tsx', '-t', 'published revisions', ...args.filter((a) => a === '-u')],
      { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, SNAPSHOT_PUBLISHED_DIR: dir, SNAPSHOT_PUBLISHED_OUT: './__snapshots__/published-db' } },
    );
    status = run.status ?? 1;
  }
} finally {
  if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  else console.log(`exported set kept in ${dir}`);
}
process.exitCode = status;
