/**
 * The bundle budget's arithmetic (tools/bundle-budget.ts) on a small made-up build: a
 * route counts its chunks and their static imports once each, and a budget naming a
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
  it('sums each chunk a route loads once, static imports followed, CSS left out', () => {
    const [login, table] = routeSizes(dist, [
      { route: '/login', description: '', loads: [], budget: 1_000_000 },
      { route: 'table', description: '', loads: ['src/Table.tsx'], budget: 10 },
    ]);
    expect(login.files.sort()).toEqual(['assets/index.js', 'assets/vendor.js']);
    expect(login.gzip).toBe(gz('assets/index.js') + gz('assets/vendor.js'));
    expect(table.files.sort()).toEqual(['assets/grid.js', 'assets/index.js', 'assets/table.js', 'assets/vendor.js']);
    expect(table.gzip).toBe(['assets/index.js', 'assets/vendor.js', 'assets/table.js', 'assets/grid.js'].reduce((n, f) => n + gz(f), 0));
    expect(table.gzip > table.budget).toBe(true);
  });

  it('a budget naming a module that is no chunk is an error', () => {
    expect(() => routeSizes(dist, [{ route: 'x', description: '', loads: ['src/Gone.tsx'], budget: 1 }])).toThrow(/no longer imported dynamically/);
  });
});
