/**
 * The bundle budget's arithmetic (tools/bundle-budget.ts) on a small made-up build: a
 * route counts its chunks, their static imports and their CSS once each, the login page's
 * targets fail the check when missed, and a budget naming a
 * module that is no chunk fails loudly instead of counting nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { routeSizes } from '../../tools/bundle-budget.ts';

const dist = mkdtempSync(join(tmpdir(), 'budget-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const files: Record<string, string> = {
  'assets/index.js': 'import "./vendor.js";'.repeat(50),
  'assets/vendor.js': 'export const v = 1;'.repeat(500),
  'assets/table.js': 'import "./vendor.js"; import "./grid.js";'.repeat(20),
  'assets/grid.js': 'export const g = 2;'.repeat(300),
  'assets/index.css': 'body{}',
};
mkdirSync(join(dist, 'assets'), { recursive: true });
mkdirSync(join(dist, '.vite'), { recursive: true });
for (const [f, text] of Object.entries(files)) writeFileSync(join(dist, f), text);
writeFileSync(
  join(dist, '.vite/manifest.json'),
  JSON.stringify({
    'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor'], css: ['assets/index.css'], dynamicImports: ['src/Table.tsx'] },
    _vendor: { file: 'assets/vendor.js' },
    'src/Table.tsx': { file: 'assets/table.js', isDynamicEntry: true, imports: ['_vendor', '_grid'] },
    _grid: { file: 'assets/grid.js', imports: ['_vendor'] },
  }),
);
const gz = (f: string) => gzipSync(Buffer.from(files[f]), { level: 9 }).length;

describe('bundle budget', () => {
  it('sums each chunk a route loads once, static imports followed, CSS counted apart', () => {
    const [login, table] = routeSizes(dist, [
      { route: '/login', description: '', loads: [], budget: 1_000_000 },
      { route: 'table', description: '', loads: ['src/Table.tsx'], budget: 10 },
    ]);
    expect(login.files.sort()).toEqual(['assets/index.css', 'assets/index.js', 'assets/vendor.js']);
    expect(login.js).toBe(gz('assets/index.js') + gz('assets/vendor.js'));
    expect(login.css).toBe(gz('assets/index.css'));
    expect(login.gzip).toBe(login.js + login.css);
    expect(login.failures).toEqual([]);
    expect(table.files.sort()).toEqual(['assets/grid.js', 'assets/index.css', 'assets/index.js', 'assets/table.js', 'assets/vendor.js']);
    expect(table.js).toBe(['assets/index.js', 'assets/vendor.js', 'assets/table.js', 'assets/grid.js'].reduce((n, f) => n + gz(f), 0));
    expect(table.failures).toEqual([expect.stringMatching(/over its budget/)]);
  });

  it('an enforced target fails the route when missed, a printed one does not', () => {
    const [enforced, printed] = routeSizes(dist, [
      { route: '/login', description: '', loads: [], budget: 1_000_000, targetJs: 10, targetCss: 1_000, enforceTarget: true },
      { route: 'table', description: '', loads: ['src/Table.tsx'], budget: 1_000_000, target: 10 },
    ]);
    expect(enforced.failures).toEqual([expect.stringMatching(/JavaScript misses its target/)]);
    expect(printed.failures).toEqual([]);
  });

  it('a budget naming a module that is no chunk is an error', () => {
    expect(() => routeSizes(dist, [{ route: 'x', description: '', loads: ['src/Gone.tsx'], budget: 1 }])).toThrow(/no longer imported dynamically/);
  });
});
