/**
 * The console built for production once per state of its sources: `npm test` measures the
 * bundle (bundle-budget.ts) and serves it to the browser tests (tests/browser/global-setup.ts)
 * from the same build, and a second run with the same sources builds nothing. The build is
 * kept under node_modules/.cache/farm-console/<hash of every file the build reads>.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What the console's build reads: its code, data, static files and build configuration. */
const SOURCES = ['runtime', 'widgets', 'schemas', 'locales', 'public', 'tools', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'farm-console');

export function consoleSourcesKey(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else {
      hash.update(path.slice(REPO_ROOT.length)).update(readFileSync(path));
    }
  };
  for (const s of SOURCES) add(join(REPO_ROOT, s));
  return hash.digest('hex').slice(0, 16);
}


/** Builds the console for production, with its manifest, into `outDir`. */
export async function buildConsole(outDir: string): Promise<void> {
  const { build } = await import('vite');
  // Vite bakes NODE_ENV into the bundle: measure what `npm start` serves.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: REPO_ROOT,
      mode: 'production',
      configFile: join(REPO_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, manifest: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/** The folder of a production build (with Vite's manifest) of the sources as they are now. */
export async function cachedConsoleBuild(): Promise<string> {
  const key = consoleSourcesKey();
  const dist = join(CACHE, key, 'dist');
  if (existsSync(join(dist, '.vite', 'manifest.json')) && existsSync(join(dist, 'index.html'))) return dist;
  mkdirSync(CACHE, { recursive: true });
  // Built beside, then renamed: a run that stops halfway leaves no build that looks whole.
  const part = join(CACHE, `${key}.${process.pid}.part`);
  rmSync(part, { recursive: true, force: true });
  await buildConsole(join(part, 'dist'));
  // Builds of earlier sources are of no further use once they are old: node_modules (and so
  // this cache) may be shared by several worktrees, whose servers and tests are serving their
  // own builds right now, so only builds untouched for a day go.
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(CACHE)) {
    if (name === key || name.endsWith('.part')) continue;
    try {
      if (statSync(join(CACHE, name)).mtimeMs < dayAgo) rmSync(join(CACHE, name), { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
  try {
    renameSync(part, join(CACHE, key));
  } catch {
    // Another process finished the same build first.
    rmSync(part, { recursive: true, force: true });
  }
  return dist;
}
