import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { MIGRATIONS, MigrationError, formatOf, migrateScreen } from '../../runtime/schema/migrations/index.ts';
import { buildRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import { SCREEN_FORMAT_VERSION, SCREEN_SCHEMA_ID, type DetailScreen, type FormScreen, type PageScreen, type TableScreen } from '../../runtime/schema/screen.ts';
import { validateScreenDocument } from '../../runtime/schema/validate.ts';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures/schemas-format0');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

describe('screen format migrations', () => {
  it('chain from format 0 to the current format one step at a time', () => {
    let at = 0;
    for (const m of MIGRATIONS) {
      expect(m.from).toBe(at);
      expect(m.to).toBe(at + 1);
      at = m.to;
    }
    expect(at).toBe(SCREEN_FORMAT_VERSION);
  });

  it('migrates the format 0 list: type, fields, labels, search, buttons with row parameters and showIf', () => {
    const source = fixture('cropsList.json');
    const { doc, from, steps } = migrateScreen(source);
    expect(from).toBe(0);
    expect(steps).toEqual([0, 1]);
    const t = doc as TableScreen;
    expect(t).toMatchObject({
      $schema: SCREEN_SCHEMA_ID,
      formatVersion: 1,
      revision: 1,
      kind: 'table',
      route: '/bigData-kms/legacyCrops',
      authority: 'cropsManager',
      keepAlive: true,
      resource: 'crops',
      pageSize: 20,
    });
    expect(t.title).toEqual({ zh: '作物管理（旧版）', en: '作物管理（旧版）', es: '作物管理（旧版）', untranslated: ['en', 'es'] });
    expect(t.columns.map((c) => c.field)).toEqual(['name', 'category', 'growthDaysMin', 'growthDaysMax', 'status']);
    expect(t.columns[3].title?.zh).toBe('生育期上限');
    expect(t.columns[0].title).toBeUndefined();
    expect(t.filters).toEqual([{ field: 'name' }, { field: 'status' }]);
    expect(t.toolbar?.[0]).toMatchObject({ kind: 'navigate', to: '/bigData-kms/addPlantRules/add/0', elementCode: 'plantRules:add' });
    expect(t.toolbar?.[0]).not.toHaveProperty('params');
    expect(t.rowActions?.[0]).toMatchObject({
      kind: 'navigate',
      to: '/bigData-kms/growthCycle/:id/:createdBy',
      params: { id: 'row.id', createdBy: 'row.createdBy' },
      elementCode: 'cropsManager:view',
    });
    expect(t.rowActions?.[1].when).toEqual({ field: 'status', op: 'eq', value: 0 });
    // The source is left as it was.
    expect(source.type).toBe('list');
  });

  it('migrates form, detail and tabs, keeping revision and the declared language', () => {
    const form = migrateScreen(fixture('cropsForm.json')).doc as FormScreen;
    expect(form).toMatchObject({ kind: 'form', revision: 3, hidden: true, modeParam: 'operate', idParam: 'id' });
    expect(form.title).toEqual({ zh: 'Crop', en: 'Crop', es: 'Crop', untranslated: ['zh', 'es'] });
    expect(form.sections).toHaveLength(1);
    expect(form.sections[0].columns).toBe(2);
    expect(form.sections[0].fields.map((f) => f.field)).toContain('description');

    const detail = migrateScreen(fixture('cropDetail.json')).doc as DetailScreen;
    expect(detail).toMatchObject({ kind: 'detail', idParam: 'cropId', route: '/bigData-kms/legacyCrop/:cropId' });
    expect(detail.sections[0].fields).toEqual([{ field: 'name' }, { field: 'family' }, { field: 'waterRequirement' }]);
    expect(detail.actions?.[0]).toMatchObject({ kind: 'navigate', to: '/bigData-kms/cropsManager' });

    const page = migrateScreen(fixture('knowledgeTabs.json')).doc as PageScreen;
    expect(page).toMatchObject({ kind: 'page', layout: 'tabs' });
    expect(page.children.map((c) => c.screen)).toEqual(['legacyCropsList', 'plantRulesManager']);
    expect(page.children[1].title?.zh).toBe('种植规则');
  });

  it('every fixture is valid in format 0 and, migrated, in format 1', () => {
    for (const f of readdirSync(FIXTURES)) {
      const result = validateScreenDocument(fixture(f), f);
      expect(result.problems, f).toEqual([]);
      expect(result.from).toBe(0);
      expect(result.screen?.formatVersion).toBe(1);
    }
  });

  it('migrated fixtures pass the cross-document rules next to the repository documents', () => {
    const repo = (folderSource(ROOT).documents() as SourceDocument[]).map((d) => ({ ...d, source: 'bundled' }));
    const legacy = readdirSync(FIXTURES).map((f) => ({ file: `legacy/${f}`, type: 'screen' as const, content: fixture(f), source: 'legacy' }));
    const reg = buildRegistry([...repo, ...legacy]);
    expect(reg.errors).toEqual([]);
    expect(reg.screens.get('legacyCropsList')?.from).toBe(0);
    expect(reg.match('/bigData-kms/legacyCrop/12')?.params).toEqual({ cropId: '12' });
    // The migration's copies show up as warnings, so they are translated eventually.
    expect(reg.problems.filter((p) => p.file === 'legacy/cropsList.json' && p.message.includes('untranslated')).length).toBeGreaterThan(0);
  });

  it('reads format 0 when formatVersion is absent, and refuses a newer format or a broken one', () => {
    expect(formatOf({ id: 'x' })).toBe(0);
    expect(formatOf({ formatVersion: 1 })).toBe(1);
    expect(formatOf({ formatVersion: '1' })).toBeNull();
    expect(() => migrateScreen({ formatVersion: 2 })).toThrow(MigrationError);
    const newer = validateScreenDocument({ formatVersion: 9, id: 'x' }, 'x.json');
    expect(newer.problems).toEqual([{ file: 'x.json', pointer: '/formatVersion', message: expect.stringContaining('newer'), severity: 'error' }]);
    const broken = validateScreenDocument({ ...fixture('cropsList.json'), type: 'grid' }, 'old.json');
    expect(broken.screen).toBeUndefined();
    expect(broken.problems).toEqual([
      { file: 'old.json', pointer: '/type', message: 'is "grid"; expected one of "list", "form", "detail", "tabs"', severity: 'error' },
    ]);
  });
});
