import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkResourceDocument,
  loadResourceDocuments,
  ResourceDocumentError,
  writeJsonSchema,
  type ResourceDocument,
} from '../../runtime/schema/resource.ts';
import { createAjv } from '../../runtime/schema/ajv.ts';
import { readResourceDocuments, RESOURCES_DIR } from '../../server/resources/load.ts';
import { resourceEngine } from '../../server/resources/plugin.ts';
import { indexStatements } from '../../server/resources/indexes.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedIfEmpty } from '../../server/seed/seed.ts';

const shipped = readdirSync(RESOURCES_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, text: readFileSync(join(RESOURCES_DIR, f), 'utf8') }));
const crops = (): ResourceDocument => JSON.parse(shipped.find((s) => s.file === 'crops.json')!.text);

function problemsOf(mutate: (d: any) => void) {
  const doc = crops();
  mutate(doc);
  return checkResourceDocument(doc);
}

describe('resource documents', () => {
  it('loads every shipped document, each with zh, en and es texts and real fields', async () => {
    const docs = await readResourceDocuments();
    expect(docs.map((d) => d.name)).toEqual(expect.arrayContaining(['cropSubtype', 'crops', 'farmMaterials', 'farmMaterialsSupplier', 'plantRules']));
    expect(docs.filter((d) => d.scope === 'farm').length).toBeGreaterThanOrEqual(2);
    for (const d of docs) {
      for (const [name, field] of Object.entries(d.record.properties)) {
        for (const lang of ['zh', 'en', 'es'] as const) expect(field['x-title']?.[lang], `${d.name}.${name}`).toBeTruthy();
      }
    }
  });

  it.each([
    ['a string without maxLength', (d: any) => delete d.record.properties.name.maxLength, '/record/properties/name/maxLength', /required/],
    ['a number without bounds', (d: any) => delete d.record.properties.growthDaysMin.maximum, '/record/properties/growthDaysMin/maximum', /required/],
    ['an array without maxItems', (d: any) => delete d.record.properties.sowingMonths.maxItems, '/record/properties/sowingMonths/maxItems', /required/],
    ['a field without its label', (d: any) => delete d.record.properties.family['x-title'], '/record/properties/family/x-title', /required/],
    ['a title without Spanish', (d: any) => delete d.title.es, '/title/es', /required/],
    ['an unknown keyword', (d: any) => (d.record.properties.name.maxLenght = 3), '/record/properties/name/maxLenght', /not allowed/],
    ['a reserved property name', (d: any) => (d.record.properties.version = { type: 'integer', minimum: 0, maximum: 9, 'x-title': d.title }), '/record/properties/version', /reserved/],
    ['a searchable field that does not exist', (d: any) => (d.searchable[0].field = 'colour'), '/searchable/0/field', /not a property/],
    ['a like filter on a number', (d: any) => d.searchable.push({ field: 'growthDaysMin', filter: 'like' }), '/searchable/4/filter', /string/],
    ['a sortable array', (d: any) => d.sortable.push('sowingMonths'), '/sortable/4', /not a string, number or boolean/],
    ['a default sort on an unsortable field', (d: any) => (d.defaultSort = '-description'), '/defaultSort', /not sortable/],
    ['an element code of another menu', (d: any) => (d.elements.update = 'userManager:edit'), '/elements/update', /cropsManager:/],
    ['a base path outside /api', (d: any) => (d.basePath = '/kms/crops'), '/basePath', /pattern/],
    ['an unknown scope', (d: any) => (d.scope = 'region'), '/scope', /allowed values/],
    ['a required property that does not exist', (d: any) => d.record.required.push('colour'), '/record/required/5', /not a property/],
    ['enum titles that do not match the enum', (d: any) => d.record.properties.category['x-enumTitles'].pop(), '/record/properties/category/x-enumTitles', /one title per value/],
    ['minimum above maximum', (d: any) => (d.record.properties.growthDaysMin.minimum = 5000), '/record/properties/growthDaysMin/minimum', /greater than maximum/],
    ['an invalid pattern', (d: any) => (d.record.properties.name.pattern = '(['), '/record/properties/name/pattern', /regular expression/],
    ['a wrong format version', (d: any) => (d.formatVersion = 2), '/formatVersion', /equal to constant/],
  ])('refuses %s with its JSON pointer and reason', (_what, mutate, pointer, reason) => {
    const problems = problemsOf(mutate);
    const hit = problems.find((p) => p.pointer === pointer);
    expect(hit, JSON.stringify(problems)).toBeDefined();
    expect(hit!.message).toMatch(reason);
  });

  it('checks the set: unique names and base paths, references to loaded resources of a compatible scope', () => {
    const twin = { file: 'twin.json', text: shipped.find((s) => s.file === 'crops.json')!.text };
    expect(() => loadResourceDocuments([...shipped, twin])).toThrow(/twin\.json#\/name "crops" is also the name of crops\.json/);

    const orphan = shipped.filter((s) => s.file !== 'crops.json');
    expect(() => loadResourceDocuments(orphan)).toThrow(/cropSubtype\.json#\/references\/cropId\/resource names "crops", which is no loaded resource/);

    const farmDoc = JSON.parse(shipped.find((s) => s.file === 'farmMaterialsSupplier.json')!.text);
    const pointsDown = crops();
    pointsDown.references = { growthDaysMin: { resource: 'farmMaterialsSupplier' } };
    pointsDown.record.properties.growthDaysMin.type = 'integer';
    try {
      loadResourceDocuments([
        { file: 'crops.json', text: JSON.stringify(pointsDown) },
        { file: 'farmMaterialsSupplier.json', text: JSON.stringify(farmDoc) },
      ]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ResourceDocumentError);
      expect((err as ResourceDocumentError).problems).toEqual([
        { file: 'crops.json', pointer: '/references/growthDaysMin/resource', message: 'a platform record cannot reference farm records' },
      ]);
    }
    expect(() => loadResourceDocuments([{ file: 'broken.json', text: '{"name": ' }])).toThrow(/broken\.json# is not valid JSON/);
  });

  it('stops the server at start on an invalid document, naming file, pointer and reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resources-'));
    for (const s of shipped) writeFileSync(join(dir, s.file), s.text);
    const bad = crops();
    delete (bad.record.properties.latinName as any).maxLength;
    writeFileSync(join(dir, 'crops.json'), JSON.stringify(bad));
    const db = await openPglite();
    await migrate(db);
    const app = Fastify();
    app.decorate('db', db);
    app.register(resourceEngine, { dir });
    await expect(app.ready()).rejects.toThrow(/crops\.json#\/record\/properties\/latinName\/maxLength is required/);
    await db.close();
  });

  it('gives every searchable and sortable field an index partial on its resource', async () => {
    const docs = await readResourceDocuments();
    for (const doc of docs) {
      const sql = indexStatements(doc).join('\n');
      // A table of its own has the indexes of its migration.
      if (doc.storage) {
        expect(sql).toBe('');
        continue;
      }
      for (const field of [...doc.searchable.flatMap((s) => (s.filter === 'keyword' ? [] : [s.field])), ...doc.sortable]) expect(sql).toContain(`'${field}'`);
      expect(sql).toContain(`WHERE resource = '${doc.name}'`);
    }
  });

  it('seeds records that every document accepts', async () => {
    const db = await openPglite();
    await migrate(db);
    await seedIfEmpty(db);
    const docs = new Map((await readResourceDocuments()).filter((d) => !d.storage).map((d) => [d.name, d]));
    const { rows } = await db.query<{ resource: string; data: Record<string, unknown> }>('SELECT resource, data FROM resource_records');
    expect(new Set(rows.map((r) => r.resource))).toEqual(new Set(docs.keys()));
    const ajv = createAjv();
    for (const row of rows) {
      const validate = ajv.compile(writeJsonSchema(docs.get(row.resource)!, 'create'));
      expect(validate(row.data), `${row.resource} ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    await db.close();
  });
});
