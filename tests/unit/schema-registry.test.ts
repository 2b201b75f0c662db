import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledSource } from '../../runtime/schema/bundled.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { documentTypeOfPath, loadRegistry, type DocumentSource } from '../../runtime/schema/registry.ts';
import { fillRoute, resolveElementCode, resolveRoute, type TableScreen } from '../../runtime/schema/screen.ts';
import { resolveParams } from '../../runtime/schema/values.ts';

const ROOT = join(import.meta.dirname, '../..');
const repo = folderSource(ROOT);
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown> & { columns: Record<string, unknown>[] };

/** A source standing for the server's published revisions. */
function published(docs: Record<string, unknown>): DocumentSource {
  return { name: 'published', documents: async () => Object.entries(docs).map(([file, content]) => ({ file, type: 'screen' as const, content })) };
}

describe('schema registry', () => {
  it('indexes the bundled screens by id and by every route, aliases included', async () => {
    const reg = await loadRegistry([repo]);
    expect(reg.errors).toEqual([]);
    expect(reg.broken).toEqual([]);
    expect(reg.menus?.file).toBe('schemas/menus.json');
    expect(reg.resource('crops')?.basePath).toBe('/api/kms/crops');
    const crops = reg.screen('cropsManager') as TableScreen;
    expect(crops.kind).toBe('table');
    expect(crops.keepAlive).toBe(true);
    expect(reg.routes.get('/agricultureKnowledge/cropsManager')).toMatchObject({ authority: 'agricultureKnowledgeCropsManager' });
    expect(reg.routes.get('/bigData-kms/cropsManager')).toMatchObject({ authority: 'cropsManager' });
    expect(reg.routes.get('/bigData-kms/cropsManager')?.screen.screen.id).toBe('cropsManager');
    for (const id of ['cropSubtypeManager', 'plantRulesManager']) expect(reg.screen(id)).toMatchObject({ keepAlive: true });
  });

  it('bundles the same documents for the browser as the folder holds', async () => {
    const bundled = await bundledSource.documents();
    const folder = await repo.documents();
    expect(bundled.map((d) => [d.file, d.type])).toEqual(folder.map((d) => [d.file, d.type]));
    const reg = await loadRegistry([bundledSource]);
    expect(reg.errors).toEqual([]);
    expect([...reg.screens.keys()].sort()).toEqual([...(await loadRegistry([repo])).screens.keys()].sort());
  });

  it('matches URL paths to routes with their parameters', async () => {
    const reg = await loadRegistry([repo]);
    expect(reg.match('/bigData-kms/addPlantRules/add/0')).toMatchObject({ route: '/bigData-kms/addPlantRules/:operate/:id', params: { operate: 'add', id: '0' } });
    expect(reg.match('/agricultureKnowledge/editPlantRules/show/5')?.authority).toBe('agricultureKnowledgePlantRules');
    expect(reg.match('/agricultureKnowledge/growthCycle/3/1')).toMatchObject({ params: { id: '3', createrId: '1' } });
    expect(reg.match('/bigData-kms/growthCycle/a%2Fb/1')?.params.id).toBe('a/b');
    expect(reg.match('/bigData-kms/cropsManager/extra')).toBeNull();
    expect(reg.match('/nowhere')).toBeNull();
  });

  it('reports an invalid document with file and pointer, keeps its place, and loads the others', async () => {
    const bad = { ...read('schemas/screens/knowledge/cropSubtypeManager.json'), id: 'brokenSubtypes', route: '/bigData-kms/brokenSubtypes' };
    (bad.columns as Record<string, unknown>[])[1] = { field: 'name', render: 'sparkline' };
    const reg = await loadRegistry([
      repo,
      published({
        'store:brokenSubtypes@r2': bad,
        'store:notJson@r1': '{"id": "notJson",',
      }),
    ]);
    expect(reg.errors).toEqual([
      {
        file: 'store:brokenSubtypes@r2',
        pointer: '/columns/1/render',
        message: 'is "sparkline"; expected one of "text", "tag", "date", "datetime", "number", "money", "image", "link", "boolean", "enum", "html", "changes", "duration", "bytes", "files"',
        severity: 'error',
      },
      { file: 'store:notJson@r1', pointer: '', message: expect.stringMatching(/^is not valid JSON/), severity: 'error' },
    ]);
    expect(reg.broken.find((b) => b.file === 'store:brokenSubtypes@r2')).toMatchObject({
      id: 'brokenSubtypes',
      // Its alias /bigData-kms/cropSubtype stays with the valid screen that owns it.
      routes: [{ route: '/bigData-kms/brokenSubtypes', authority: 'agricultureKnowledgeCropSubtype' }],
    });
    expect(reg.match('/bigData-kms/cropSubtype')?.screen.screen.id).toBe('cropSubtypeManager');
    expect(reg.screen('brokenSubtypes')).toBeUndefined();
    // Every repository screen still loads: the broken ones replace nothing.
    expect(reg.screens.size).toBe((await loadRegistry([repo])).screens.size);
  });

  it('lets a later source replace a document by id, and refuses a screen whose rules fail', async () => {
    const revised = { ...read('schemas/screens/knowledge/cropsManager.json'), revision: 2, pageSize: 50 };
    const unknownField = { ...read('schemas/screens/knowledge/plantRulesManager.json'), revision: 2 };
    (unknownField.columns as Record<string, unknown>[]).push({ field: 'harvestDate' });
    const reg = await loadRegistry([repo, published({ 'store:cropsManager@r2': revised, 'store:plantRulesManager@r2': unknownField })]);
    expect(reg.screens.get('cropsManager')).toMatchObject({ file: 'store:cropsManager@r2', source: 'published' });
    expect((reg.screen('cropsManager') as TableScreen).pageSize).toBe(50);
    expect(reg.errors).toEqual([
      {
        file: 'store:plantRulesManager@r2',
        pointer: '/columns/9/field',
        message: '"harvestDate" is not a field of resource "plantRules" (record properties, meta fields or labels.<reference>)',
        severity: 'error',
      },
    ]);
    // Refused, it shows an error panel at its routes instead of a half-working table.
    expect(reg.screen('plantRulesManager')).toBeUndefined();
    expect(reg.broken[0]).toMatchObject({ id: 'plantRulesManager', routes: expect.arrayContaining([{ route: '/bigData-kms/plantRules', authority: 'plantRules' }]) });
    expect(reg.match('/bigData-kms/plantRules')).toBeNull();
  });

  it('shows a published revision that fails its meta-schema as broken rather than the bundled one', async () => {
    const broken = { ...read('schemas/screens/knowledge/cropsManager.json'), revision: 3, keepAlive: 'yes' };
    const reg = await loadRegistry([repo, published({ 'store:cropsManager@r3': broken })]);
    expect(reg.errors).toEqual([{ file: 'store:cropsManager@r3', pointer: '/keepAlive', message: 'is "yes"; expected boolean', severity: 'error' }]);
    expect(reg.screen('cropsManager')).toBeUndefined();
    expect(reg.broken).toHaveLength(1);
    expect(reg.broken[0].routes.map((r) => r.route)).toEqual(['/agricultureKnowledge/cropsManager', '/bigData-kms/cropsManager']);
  });

  it('accepts page, dashboard and widget screens and checks their references', async () => {
    const t = { zh: '知识库', en: 'Knowledge base', es: 'Base de conocimiento' };
    const frame = { $schema: 'https://farm-backoffice.local/schema/screen.schema.json', formatVersion: 1, revision: 1, title: t, authority: 'cropsManager' };
    const reg = await loadRegistry([
      repo,
      published({
        'store:kmsHome': {
          ...frame, id: 'kmsHome', kind: 'page', route: '/bigData-kms/home', layout: 'blocks',
          children: [{ screen: 'kmsStats', span: 12 }, { screen: 'kmsMap', span: 12 }, { screen: 'cropsManager' }],
        },
        'store:kmsStats': {
          ...frame, id: 'kmsStats', kind: 'dashboard',
          blocks: [
            { kind: 'stat', title: t, endpoint: { operation: 'page', resource: 'crops' }, value: 'total', span: 6 },
            { kind: 'chart', chart: 'bar', title: t, endpoint: { path: '/api/kms/crops/page' }, rows: 'rows', x: 'name', series: [{ field: 'growthDaysMax', title: t }] },
          ],
        },
        'store:kmsMap': { ...frame, id: 'kmsMap', kind: 'widget', widget: 'map', props: { zoom: 8 } },
        'store:kmsLoop': { ...frame, id: 'kmsLoop', kind: 'page', layout: 'tabs', children: [{ screen: 'kmsLoop' }] },
        'store:kmsPie': {
          ...frame, id: 'kmsPie', kind: 'dashboard',
          blocks: [{ kind: 'chart', chart: 'pie', title: t, endpoint: { path: '/api/kms/crops/page' }, x: 'name', series: [{ field: 'id', title: t }] }],
        },
      }),
    ]);
    expect(reg.screen('kmsHome')?.kind).toBe('page');
    expect(reg.screen('kmsStats')?.kind).toBe('dashboard');
    expect(reg.screen('kmsMap')?.kind).toBe('widget');
    expect(reg.errors.map((p) => `${p.file}#${p.pointer} ${p.message}`)).toEqual([
      'store:kmsPie#/blocks/0/name is required: a pie chart maps name and value',
      'store:kmsPie#/blocks/0/value is required: a pie chart maps name and value',
      'store:kmsLoop#/children/0/screen "kmsLoop" contains this page again (a cycle)',
    ]);
  });

  it('classifies repository paths', () => {
    expect(documentTypeOfPath('schemas/menus.json')).toBe('menus');
    expect(documentTypeOfPath('../../schemas/resources/crops.json')).toBe('resource');
    expect(documentTypeOfPath('/schemas/screens/a/b.json')).toBe('screen');
    expect(documentTypeOfPath('schemas/screens/readme.md')).toBeNull();
    expect(documentTypeOfPath('package.json')).toBeNull();
  });

  it('resolves relative targets, element codes and value references without evaluating anything', () => {
    expect(resolveRoute('growthCycle/:id/:createrId', '/agricultureKnowledge/cropsManager')).toBe('/agricultureKnowledge/growthCycle/:id/:createrId');
    expect(resolveRoute('/bigData-kms/plantRules', '/agricultureKnowledge/cropsManager')).toBe('/bigData-kms/plantRules');
    expect(resolveElementCode(':add', 'agricultureKnowledgeCropsManager')).toBe('agricultureKnowledgeCropsManager:add');
    expect(resolveElementCode('plantRules:add', 'cropsManager')).toBe('plantRules:add');
    const params = resolveParams(
      { id: 'row.id', operate: { value: 'edit' }, ids: 'selection.id', who: 'route.createrId', evil: 'row.constructor' },
      { row: { id: 4 }, selection: [{ id: 1 }, { id: 2 }], route: { createrId: '9' } },
    );
    expect(params).toEqual({ id: 4, operate: 'edit', ids: [1, 2], who: '9', evil: undefined });
    expect(fillRoute('/bigData-kms/editPlantRules/:operate/:id', { operate: 'edit', id: 4 })).toBe('/bigData-kms/editPlantRules/edit/4');
    expect(fillRoute('/x/:id', { id: 'a/b' })).toBe('/x/a%2Fb');
    expect(fillRoute('/x/:id', { id: null })).toBeNull();
  });
});
