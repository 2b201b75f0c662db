/**
 * `npm run schemas:check [-- --root <dir>] [--no-server]`: validates and lints every
 * document under <root>/schemas (menus, resources, screens) and prints one line per
 * problem: file, JSON pointer, message. Exits 1 when there is any error.
 *
 * Literal endpoints are checked against the server's OpenAPI document, read from the app
 * built in-process on an in-memory PGlite; when that cannot be built, against the
 * resource documents only, and the report says which.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { folderSource } from '../runtime/schema/folder-source.ts';
import { buildRegistry, type SourceDocument } from '../runtime/schema/registry.ts';
import type { HttpMethod } from '../runtime/schema/screen.ts';
import { SCREEN_SCHEMA_ID } from '../runtime/schema/screen.ts';
import { routesFromOpenApi, servedBy, textProblems } from '../runtime/schema/gate.ts';
import type { SchemaProblem } from '../runtime/schema/validate.ts';
import { WIDGET_NAMES } from '../runtime/schema/widget-names.ts';
import { productProfile } from '../product/profile.ts';
import { staleMetaValidators } from './meta-validators.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const META_SCHEMA_FILES = {
  screen: 'runtime/schema/screen.schema.json',
  resource: 'runtime/schema/resource.schema.json',
  menus: 'runtime/schema/menus.schema.json',
} as const;

export interface ServedRoutes {
  /** Where the list came from, for the report. */
  origin: string;
  routes: { method: HttpMethod; path: string }[];
}

export interface CheckResult {
  problems: SchemaProblem[];
  counts: { menus: number; resource: number; screen: number };
  /** How literal endpoints were checked. */
  endpoints: string;
}

/** The API routes of the server's OpenAPI document (the gate's rule: runtime/schema/gate.ts). */
export { routesFromOpenApi } from '../runtime/schema/gate.ts';

/** Builds the app on an in-memory PGlite and reads /api/openapi.json; null (with why) when that fails. */
export async function serverRoutes(): Promise<ServedRoutes | { error: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-check-'));
  try {
    const { openPglite } = await import('../server/db/pglite.ts');
    const { migrate } = await import('../server/db/migrate.ts');
    const { buildApp } = await import('../server/app.ts');
    const { loadConfig } = await import('../server/config.ts');
    const db = await openPglite();
    try {
      await migrate(db);
      const config = { ...loadConfig({ DATA_DIR: dir }), distDir: join(dir, 'no-dist') };
      const app = await buildApp({ db, config });
      try {
        const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
        if (res.statusCode !== 200) return { error: `GET /api/openapi.json answered ${res.statusCode}` };
        const routes = routesFromOpenApi(res.json());
        return { origin: `the server's OpenAPI document (${routes.length} operations)`, routes };
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
    }
  } catch (err) {
    return { error: (err as Error).message.split('\n')[0] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A file's `$schema` must lead to its meta-schema (a path relative to the file, or the screen $id). */
function schemaRefProblem(root: string, doc: SourceDocument, value: unknown): SchemaProblem | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const ref = (value as { $schema?: unknown }).$schema;
  // A copy of the tree (a fixture, a scaffold's trial run) may point at its own runtime/ or at this repository's.
  const own = join(root, META_SCHEMA_FILES[doc.type]);
  const expected = existsSync(own) ? own : join(REPO_ROOT, META_SCHEMA_FILES[doc.type]);
  const fileDir = dirname(join(root, doc.file));
  const wanted = relative(fileDir, expected).split(sep).join('/');
  if (ref === undefined) return doc.type === 'screen' ? null : { file: doc.file, pointer: '/$schema', message: `is missing; editors need it: "${wanted}"`, severity: 'warning' };
  if (typeof ref !== 'string') return null;
  if (doc.type === 'screen' && ref === SCREEN_SCHEMA_ID) return null;
  if (resolve(fileDir, ref) === expected || resolve(fileDir, ref) === own) return null;
  return { file: doc.file, pointer: '/$schema', message: `"${ref}" does not lead to ${META_SCHEMA_FILES[doc.type]}; write "${wanted}"`, severity: 'error' };
}

export async function checkSchemas(opts: { root?: string; server?: boolean } = {}): Promise<CheckResult> {
  const root = opts.root ?? REPO_ROOT;
  const docs = (await folderSource(root).documents()).map((d) => ({ ...d, source: 'bundled' }));
  const counts = { menus: 0, resource: 0, screen: 0 };
  const extra: SchemaProblem[] = [];
  for (const d of docs) {
    counts[d.type]++;
    let value: unknown;
    try {
      value = JSON.parse(d.content as string);
    } catch {
      continue; // the registry reports the syntax error
    }
    const ref = schemaRefProblem(root, d, value);
    if (ref) extra.push(ref);
    textProblems(value, '', d.file, extra);
  }
  if (counts.menus === 0) extra.push({ file: 'schemas/menus.json', pointer: '', message: 'is missing: authority keys and element codes cannot be checked', severity: 'error' });

  let endpoints = 'the resource documents only (server check turned off)';
  let servedFn: ((m: HttpMethod, p: string) => boolean) | undefined;
  if (opts.server !== false) {
    const found = await serverRoutes();
    if ('error' in found) endpoints = `the resource documents only: the server's OpenAPI document was unavailable (${found.error})`;
    else {
      endpoints = found.origin;
      servedFn = servedBy(found.routes);
    }
  }
  const reg = buildRegistry(docs, { widgetNames: WIDGET_NAMES, publicPaths: productProfile, served: servedFn ?? 'resources-only' });
  // A text the meta-schema already refused need not be reported twice.
  const refusedTexts = new Set(reg.problems.map((p) => `${p.file}\u0000${p.pointer.replace(/\/(zh|en|es)$/, '')}`));
  const texts = extra.filter((p) => !(p.message.startsWith('text lacks') && refusedTexts.has(`${p.file}\u0000${p.pointer}`)));
  const seen = new Set<string>();
  const problems = [...reg.problems, ...texts].filter((p) => {
    const key = `${p.file}\u0000${p.pointer}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  problems.sort((a, b) => a.file.localeCompare(b.file) || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return { problems, counts, endpoints };
}

export function report(result: CheckResult): string {
  const lines: string[] = [];
  const { counts } = result;
  lines.push(`schemas:check: ${counts.menus} menus, ${counts.resource} resource and ${counts.screen} screen documents; endpoints checked against ${result.endpoints}`);
  let file = '';
  for (const p of result.problems) {
    if (p.file !== file) {
      file = p.file;
      lines.push('', file);
    }
    lines.push(`  ${p.severity === 'error' ? 'error  ' : 'warning'} ${p.pointer || '(document)'}  ${p.message}`);
  }
  const errors = result.problems.filter((p) => p.severity === 'error').length;
  const warnings = result.problems.length - errors;
  lines.push('', `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  return lines.join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : REPO_ROOT;
  const result = await checkSchemas({ root, server: !args.includes('--no-server') });
  console.log(report(result));
  // The console validates with meta-schemas compiled ahead of time: they must match the
  // meta-schemas they were generated from.
  const stale = staleMetaValidators();
  if (stale.length) console.log(`\nerror: stale generated validators, run \`npm run schemas:compile\`: ${stale.join(', ')}`);
  process.exitCode = result.problems.some((p) => p.severity === 'error') || stale.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
