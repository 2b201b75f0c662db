import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSchemas, report, routesFromOpenApi } from '../../tools/schemas-check.ts';
import { ScaffoldError, scaffold } from '../../tools/schemas-new.ts';

const ROOT = join(import.meta.dirname, '../..');
const BROKEN = join(ROOT, 'tests/fixtures/schemas-broken');

describe('schemas:check', () => {
  it('finds no error in the repository, with endpoints checked against the server', { timeout: 120_000 }, async () => {
    const result = await checkSchemas();
    const errors = result.problems.filter((p) => p.severity === 'error');
    expect(errors, report(result)).toEqual([]);
    expect(result.endpoints).toMatch(/^the server's OpenAPI document \(\d+ operations\)$/);
    expect(result.counts.menus).toBe(1);
    expect(result.counts.screen).toBeGreaterThanOrEqual(7);
  });

  it('reports each broken fixture with file, pointer and reason', async () => {
    const result = await checkSchemas({ root: BROKEN, server: false });
    const lines = result.problems.map((p) => `${p.severity} ${p.file}#${p.pointer} ${p.message}`);
    const expected = [
      'error schemas/screens/bad-json.json# is not valid JSON',
      'error schemas/screens/unknown-kind.json#/kind is "grid"; expected one of "table", "form", "detail", "page", "dashboard", "widget"',
      'error schemas/screens/missing-text.json#/title/es is required',
      'error schemas/screens/bad-fields.json#/columns/1/field "price" is not a field of resource "things"',
      'error schemas/screens/bad-fields.json#/columns/2/sortable "colour" is not sortable on resource "things"',
      'error schemas/screens/bad-fields.json#/filters/0/field "colour" is not searchable on resource "things"',
      'error schemas/screens/bad-fields.json#/filters/1/op resource "things" filters "name" with like, not eq',
      'error schemas/screens/unknown-authority.json#/authority "nope" is not a menu code of the menus document',
      'error schemas/screens/unknown-authority.json#/toolbar/0/elementCode "things:fly" is not an element code of the menus document',
      'error schemas/screens/zz-duplicate.json#/id "thingsList" is also the id of schemas/screens/thingsList.json',
      'error schemas/screens/zz-same-route.json#/route "/demo/things" is already the route of schemas/screens/thingsList.json',
      'error schemas/screens/widget.json#/widget "weatherRadar" is not a registered widget',
      'error schemas/screens/endpoints.json#/rowActions/0/endpoint/path POST /api/nowhere/:id is served by no resource',
      'error schemas/screens/endpoints.json#/rowActions/1/to "/demo/missing/:id" is no route of any screen',
      'error schemas/screens/endpoints.json#/rowActions/2/params/id "/demo/things" has no parameter :id',
      'error schemas/screens/endpoints.json#/rowActions/3/screen "thingsList" is a table screen, not a form',
      'error schemas/screens/endpoints.json#/rowActions/4/params mode edit needs params.id',
      'error schemas/screens/wrong-schema-ref.json#/$schema "../screen.schema.json" does not lead to runtime/schema/screen.schema.json',
      'error schemas/screens/format0-broken.json#/buttons/0/to "demo/x" does not fit',
      'warning schemas/screens/untranslated.json#/title en and es still copied from another language (untranslated)',
      'warning schemas/screens/format0-valid.json#/title en and es still copied from another language (untranslated)',
    ];
    for (const e of expected) expect(lines.some((l) => l.startsWith(e)), `${e}\n--- got:\n${lines.join('\n')}`).toBe(true);
    // Nothing else: each broken fixture yields exactly its own problems.
    expect(lines.filter((l) => !expected.some((e) => l.startsWith(e)))).toEqual([
      'error schemas/screens/unknown-authority.json#/resource authority "nope" does not grant resource "things" (granted by things), so its requests would be refused',
    ]);
    // The valid documents among them load.
    expect(result.problems.filter((p) => /things(List|Form)\.json$/.test(p.file))).toEqual([]);
    expect(report(result)).toMatch(/20 errors, 2 warnings$/);
  });

  it('reads the routes of an OpenAPI document', () => {
    expect(routesFromOpenApi({ paths: { '/api/kms/crops/{id}': { get: {}, put: {}, parameters: {} }, '/api/x': { post: {} } } })).toEqual([
      { method: 'GET', path: '/api/kms/crops/:id' },
      { method: 'PUT', path: '/api/kms/crops/:id' },
      { method: 'POST', path: '/api/x' },
    ]);
  });
});

describe('schemas:new', () => {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-new-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scaffolds a resource with list, form and detail screens that pass the check', async () => {
    cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
    // The device library has screens of its own since issue 15: scaffold in a copy without them.
    for (const f of ['deviceStoreManager', 'deviceStoreForm']) rmSync(join(dir, `schemas/screens/knowledge/${f}.json`));
    const before = (await checkSchemas({ root: dir, server: false })).counts.screen;
    const files = scaffold({ root: dir, name: 'deviceStore', authority: 'deviceStore', scope: 'platform' });
    expect(files).toEqual([
      'schemas/resources/deviceStore.json',
      'schemas/screens/bigData-kms/deviceStoreManager.json',
      'schemas/screens/bigData-kms/deviceStoreForm.json',
      'schemas/screens/bigData-kms/deviceStoreDetail.json',
    ]);
    const manager = JSON.parse(readFileSync(join(dir, files[1]), 'utf8'));
    expect(manager).toMatchObject({ kind: 'table', route: '/bigData-kms/deviceStore', authority: 'deviceStore', resource: 'deviceStore' });
    const result = await checkSchemas({ root: dir, server: false });
    // Without the server, the repository's screens over server calls of their own (users,
    // menus, monitoring) cannot have their literal endpoints verified: those are the only
    // errors allowed here, and never in the scaffolded documents.
    const unverified = (p: { message: string }) => p.message.includes("the server's OpenAPI document was not available");
    expect(result.problems.filter((p) => p.severity === 'error' && (!unverified(p) || p.file.includes('deviceStore'))), report(result)).toEqual([]);
    expect(result.counts.screen).toBe(before + 3);
    expect(() => scaffold({ root: dir, name: 'deviceStore' })).toThrow(/would overwrite/);
  });

  it('refuses a bad name or an authority that is no menu entry, writing nothing', () => {
    expect(() => scaffold({ root: dir, name: 'Farm work' })).toThrow(ScaffoldError);
    expect(() => scaffold({ root: dir, name: 'zebra' })).toThrow(/not the code of a menu entry/);
    expect(existsSync(join(dir, 'schemas/resources/zebra.json'))).toBe(false);
  });
});
