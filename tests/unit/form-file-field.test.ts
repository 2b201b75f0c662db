/**
 * Field types in forms (docs/schema-language.md, "Field types of records"): the pest report
 * form gives its photo field the upload box, with the resource, field, types, size and count
 * the server will hold the upload to, and its map point the longitude / latitude widget; the
 * show mode lists the photos with the files render and the point as text.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { buildForm, formModel } from '../../runtime/screens/form-schema.ts';
import { readSections } from '../../runtime/screens/ReadView.tsx';
import { importableFields } from '../../runtime/schema/resource-import.ts';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  registry = await loadRegistry([folderSource(root)]);
});

describe('file and point fields in forms', { timeout: 60_000 }, () => {
  it('gives the photos the upload box with the field declaration, and the location the point widget', () => {
    const screen = registry.screen('insectReportForm') as FormScreen;
    const model = formModel(screen, registry.resource('insectReports'))!;
    const built = buildForm(screen, model, 'add', {}, 'en', new Map());
    expect(built.uiSchema.photos).toMatchObject({
      'ui:widget': 'fileUpload',
      'ui:options': { resource: 'insectReports', field: 'photos', accept: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 5242880, maxFiles: 6 },
    });
    expect(built.uiSchema.location['ui:widget']).toBe('geoPoint');
    expect(built.schema.properties?.photos).toMatchObject({ type: 'array', maxItems: 6, title: 'Photos' });
    expect(importableFields(registry.resource('insectReports')!)).not.toContain('photos');
    expect(importableFields(registry.resource('insectReports')!)).not.toContain('location');
  });

  it('shows the photos with the files render and the point as coordinates', () => {
    const screen = registry.screen('insectReportForm') as FormScreen;
    const model = formModel(screen, registry.resource('insectReports'))!;
    const items = readSections(screen, model, { photos: [3, 4], location: '{"type":"Point","coordinates":[126.6355,45.7562]}' }, 'zh', new Map()).flatMap((s) => s.items);
    expect(items.find((i) => i.field === 'photos')).toMatchObject({ render: 'files', value: [3, 4], label: '照片' });
    expect(items.find((i) => i.field === 'location')).toMatchObject({ value: '126.63550, 45.75620' });
  });
});
