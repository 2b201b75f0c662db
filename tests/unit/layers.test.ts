/**
 * The runtime's layers (docs/architecture.md, "Runtime layers"): screens, shell and
 * everything below them reach the console through the services contract
 * (runtime/services/), never through the app that implements it. Only runtime/app/ and
 * the entry point (runtime/main.tsx) import runtime/app/. And the runtime never imports
 * a widget's internals: of widgets/ it knows the manifest only. Only the data provider
 * knows URLs: no module of the shell, the screens, the session or the widgets writes an
 * /api path (they name resource operations, document endpoints or the protocol's named
 * calls, runtime/protocol/calls.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const RUNTIME = join(ROOT, 'runtime');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every module specifier a file imports, statically or dynamically, resolved to a path under the repository. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(dirname(file), s)));
}

describe('runtime layers', () => {
  const files = sourceFiles(RUNTIME).map((f) => ({ file: relative(ROOT, f), imports: importsOf(f) }));

  it('sees the imports it checks', () => {
    // The scan itself must work: the app and the entry point do import runtime/app/.
    const main = files.find((f) => f.file === 'runtime/main.tsx');
    expect(main?.imports.some((i) => i.startsWith('runtime/app/'))).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it('no module outside runtime/app/ and runtime/main.tsx imports runtime/app/', () => {
    const offenders = files
      .filter((f) => !f.file.startsWith('runtime/app/') && f.file !== 'runtime/main.tsx')
      .flatMap((f) => f.imports.filter((i) => i.startsWith('runtime/app/')).map((i) => `${f.file} → ${i}`));
    expect(offenders).toEqual([]);
  });

  it('the services contract depends on nothing above it (screens, shell, app)', () => {
    const offenders = files
      .filter((f) => f.file.startsWith('runtime/services/'))
      .flatMap((f) => f.imports.filter((i) => /^runtime\/(app|screens|shell)\//.test(i)).map((i) => `${f.file} → ${i}`));
    expect(offenders).toEqual([]);
  });

  it('the runtime knows of widgets/ only its manifest, and of the product nothing but what the app hands in', () => {
    const offenders = files
      .filter((f) => !f.file.startsWith('runtime/app/'))
      .flatMap((f) => f.imports.filter((i) => (i.startsWith('widgets/') && i !== 'widgets/manifest.ts') || i.startsWith('product/')).map((i) => `${f.file} → ${i}`));
    expect(offenders).toEqual([]);
  });

  it('no module of the shell, the screens, the session or the widgets writes an /api path', () => {
    const below = [...sourceFiles(RUNTIME), ...sourceFiles(join(ROOT, 'widgets'))]
      .map((f) => relative(ROOT, f))
      .filter((f) => /^(runtime\/(shell|screens|session|widgets)|widgets)\//.test(f));
    expect(below.length).toBeGreaterThan(50);
    // A string or template literal that starts with /api/ (comments may name URLs).
    const offenders = below.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/['"`]\/api\//.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('the check above sees a literal /api path', () => {
    // The data locator (runtime/app/) does write one: the pattern must find it there.
    expect(/['"`]\/api\//.test(readFileSync(join(RUNTIME, 'app/data-locator.ts'), 'utf8'))).toBe(true);
  });

  it('widgets depend on the runtime\'s widget API and services contract only', () => {
    // The schema studio is the runtime's own tooling shown through the widget interface
    // (docs/studio.md, "Why a widget"): it renders previews with the runtime's renderers
    // and checks drafts with its registry, so it alone may import the runtime.
    const widgets = sourceFiles(join(ROOT, 'widgets'))
      .map((f) => ({ file: relative(ROOT, f), imports: importsOf(f) }))
      .filter((w) => !w.file.startsWith('widgets/schema-studio/'));
    expect(widgets.map((w) => w.file)).toContain('widgets/manifest.ts');
    const offenders = widgets.flatMap((w) =>
      w.imports.filter((i) => i.startsWith('runtime/') && i !== 'runtime/widgets/api.ts' && !i.startsWith('runtime/services/')).map((i) => `${w.file} → ${i}`),
    );
    expect(offenders).toEqual([]);
  });
});
