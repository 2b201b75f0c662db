/**
 * The import action of the schema language (docs/import.md): the fields a file may fill
 * and the headers naming them; the screen lint refuses an import outside a toolbar, into
 * a resource that takes no creates, or with a template field no file may fill; the
 * console's gating offers it only to holders of the resource's create code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { headerField, importableFields, importHeader } from '../../runtime/schema/resource-import.ts';
import { lintScreens } from '../../runtime/schema/lint.ts';
import type { Action, Screen } from '../../runtime/schema/screen.ts';
import { actionAllowed, requiredElementCodes, type GateContext } from '../../runtime/screens/gating.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const materials = () => read<ResourceDocument>('schemas/resources/farmMaterials.json');
const suppliers = () => read<ResourceDocument>('schemas/resources/farmMaterialsSupplier.json');
const rules = () => read<ResourceDocument>('schemas/resources/plantRules.json');
const list = () => read<Screen & { toolbar: Action[]; rowActions: Action[] }>('schemas/screens/materials/materialList.json');
const importAction: Action = { kind: 'import', label: { zh: '导入', en: 'Import', es: 'Importar' } };

describe('importable fields and headers', () => {
  it('are the scalar fields and lists of scalars, not a state only transitions change', () => {
    expect(importableFields(materials())).toEqual(Object.keys(materials().record.properties));
    expect(importableFields(suppliers())).toContain('categories');
    expect(importableFields(rules())).not.toContain('status');
    expect(importableFields(rules())).not.toContain('rejectReason');
  });

  it('names a field by its name or its title in any language, required ones marked in the template', () => {
    const doc = materials();
    expect(importHeader(doc, 'goodsCode', 'zh')).toBe('商品编码 *');
    expect(importHeader(doc, 'remark', 'en')).toBe('Remarks');
    for (const h of ['商品编码 *', 'goodsCode', 'GOODS CODE', ' Código del artículo ', '商品编码']) expect(headerField(doc, h) ?? h).toBe(headerField(doc, '商品编码'));
    expect(headerField(doc, '商品编码')).toBe('goodsCode');
    expect(headerField(doc, '所属农场')).toBeNull();
  });
});

describe('the import action', () => {
  const resources = new Map<string, ResourceDocument>([
    ['farmMaterials', materials()],
    ['farmMaterialsSupplier', suppliers()],
    ['readOnly', { ...materials(), name: 'readOnly', basePath: '/api/readOnly', operations: ['page', 'read'] }],
  ]);
  const registry = { resource: (n: string) => resources.get(n), screen: () => undefined };
  const gate = (elements: string[], authority = 'farmMaterialsList'): GateContext => ({ elements: new Set(elements), authority, registry, resource: 'farmMaterials' });

  it('needs the create code of the resource, under its authority or an alias', () => {
    expect(requiredElementCodes(importAction, gate([]))).toEqual(['farmMaterialsList:add', 'farmMaterialsManageAddEditShow:add']);
    expect(actionAllowed(importAction, gate(['farmMaterialsList:add']), {})).toBe(true);
    expect(actionAllowed(importAction, gate(['farmMaterialsList:export', 'farmMaterialsList:edit']), {})).toBe(false);
  });

  it('is refused by the lint outside a toolbar, into a resource without creates, or with a field no file fills', () => {
    const screen = list();
    screen.toolbar.push({ ...importAction, fields: ['goodsCode', 'bogus'] } as Action, { ...importAction, resource: 'readOnly' } as Action);
    screen.rowActions.push(importAction);
    const found = lintScreens({ screens: [{ screen, file: 'x.json' }], resources, menus: null, widgetNames: [] })
      .filter((p) => p.severity === 'error' && !p.message.includes('element code'))
      .map((p) => `${p.pointer} ${p.message}`)
      .filter((p) => p.includes('import') || p.includes('/fields/') || p.includes('create'));
    const n = screen.toolbar.length;
    expect(found).toContain(`/toolbar/${n - 2}/fields/1 "bogus" is no field a file may fill in resource "farmMaterials" (importable: ${importableFields(materials()).join(', ')})`);
    expect(found).toContain(`/toolbar/${n - 1}/resource resource "readOnly" serves no create, so nothing can be imported into it`);
    expect(found).toContain(`/rowActions/${screen.rowActions.length - 1}/kind import adds records to a table: put it in the toolbar`);
  });
});
