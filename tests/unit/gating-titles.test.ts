import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../runtime/i18n/i18n.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { buildRegistry, loadRegistry, type SchemaRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import type { Action, Screen } from '../../runtime/schema/screen.ts';
import { actionAllowed, elementAllowed, recordAllows, requiredElementCodes, type GateContext } from '../../runtime/screens/gating.ts';
import { composeTitle, opensWithAddWord, recordName, recordNames, recordTemplate, titleMode } from '../../runtime/screens/screen-title.ts';
import { documentTitle, routeTitle, type RouteMatch } from '../../runtime/shell/route-meta.ts';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  registry = await loadRegistry([folderSource(root)], { lint: false });
});

const label = { zh: '删除', en: 'Delete', es: 'Eliminar' };

describe('action gating (runtime/screens/gating.ts)', () => {
  const gate = (elements: string[], authority: string, resource?: string): GateContext => ({ elements: new Set(elements), authority, registry, resource });

  it('an explicit element code resolves against the route authority', () => {
    const del: Action = { kind: 'call', label, elementCode: ':delete', endpoint: { path: '/api/admin/nursery/:id', method: 'DELETE', params: { id: 'row.id' } } };
    expect(requiredElementCodes(del, gate([], 'nurseryManageIndex'))).toEqual(['nurseryManageIndex:delete']);
    expect(actionAllowed(del, gate(['nurseryManageIndex:delete'], 'nurseryManageIndex'), { id: 5 })).toBe(true);
    expect(actionAllowed(del, gate(['nurseryManageIndex:edit'], 'nurseryManageIndex'), { id: 5 })).toBe(false);
  });

  it('a record whose _can says false for the verb hides that action only', () => {
    const g = gate(['nurseryManageIndex:delete', 'nurseryManageIndex:edit'], 'nurseryManageIndex');
    const del: Action = { kind: 'call', label, elementCode: ':delete', endpoint: { path: '/api/admin/nursery/:id', method: 'DELETE', params: { id: 'row.id' } } };
    const edit: Action = { kind: 'openForm', label, elementCode: ':edit', screen: 'nurseryForm', mode: 'edit', params: { id: 'row.id' } };
    const own = { id: 5, _can: { edit: true, delete: false } };
    expect(recordAllows(del, g, own)).toBe(false);
    expect(actionAllowed(del, g, own)).toBe(false);
    expect(actionAllowed(edit, g, own)).toBe(true);
    expect(actionAllowed(del, g, { id: 6, _can: { delete: true } })).toBe(true);
    expect(actionAllowed(del, g, { id: 7 })).toBe(true);
  });

  it('without an element code, a resource write needs the code the server checks (authority or alias)', () => {
    const del: Action = { kind: 'call', label, endpoint: { operation: 'delete', params: { id: 'row.id' } } };
    const g = (codes: string[]) => gate(codes, 'cropsManager', 'crops');
    expect(requiredElementCodes(del, g([]))).toEqual(['cropsManager:delete', 'agricultureKnowledgeCropsManager:delete']);
    expect(elementAllowed(del, g([]))).toBe(false);
    expect(elementAllowed(del, g(['agricultureKnowledgeCropsManager:delete']))).toBe(true);
    const add: Action = { kind: 'openForm', label, screen: 'cropsForm', mode: 'add' };
    expect(requiredElementCodes(add, g([]))).toEqual(['cropsManager:add', 'agricultureKnowledgeCropsManager:add']);
    expect(elementAllowed(add, g(['cropsManager:edit']))).toBe(false);
    // Reading and navigating need nothing.
    expect(requiredElementCodes({ kind: 'openForm', label, screen: 'cropsForm', mode: 'show' }, g([]))).toEqual([]);
    expect(requiredElementCodes({ kind: 'navigate', label, to: '/x' }, g([]))).toEqual([]);
    // A batch delete is a delete.
    expect(requiredElementCodes({ kind: 'call', label, endpoint: { operation: 'batchDelete' } }, g([]))).toEqual(['cropsManager:delete', 'agricultureKnowledgeCropsManager:delete']);
  });

  it('the condition must hold; one that cannot be evaluated hides the action', () => {
    const g = gate([], 'x');
    const a: Action = { kind: 'navigate', label, to: '/x', when: { field: 'status', op: 'eq', value: 1 } };
    expect(actionAllowed(a, g, { status: 1 })).toBe(true);
    expect(actionAllowed(a, g, { status: 0 })).toBe(false);
    expect(actionAllowed({ ...a, when: { bogus: true } as never }, g, { status: 1 })).toBe(false);
  });
});

describe('titles from the record (runtime/screens/screen-title.ts)', () => {
  const zh = createI18n('zh');
  const en = createI18n('en');
  const es = createI18n('es');
  const tz = (k: string, v?: Record<string, string>) => zh.t(k, v);
  const te = (k: string, v?: Record<string, string>) => en.t(k, v);
  const ts = (k: string, v?: Record<string, string>) => es.t(k, v);

  it('composes add, edit, show and detail titles in every language', () => {
    expect(composeTitle('种植规则', 'add', null, tz)).toBe('新增种植规则');
    expect(composeTitle('种植规则', 'edit', '东北水稻规范', tz)).toBe('编辑种植规则 · 东北水稻规范');
    expect(composeTitle('种植规则', 'edit', null, tz)).toBe('编辑种植规则');
    expect(composeTitle('种植规则', 'show', '东北水稻规范', tz)).toBe('种植规则 · 东北水稻规范');
    expect(composeTitle('作物详情', 'detail', '水稻', tz)).toBe('作物详情 · 水稻');
    expect(composeTitle('作物详情', 'detail', null, tz)).toBe('作物详情');
    expect(composeTitle('Crops', null, 'Rice', te)).toBe('Crops');
    expect(composeTitle('Planting rule', 'add', null, te)).toBe('New Planting rule');
    expect(composeTitle('Planting rule', 'edit', 'Rice NE', te)).toBe('Edit Planting rule · Rice NE');
    expect(composeTitle('Regla', 'edit', 'Arroz', ts)).toBe('Editar: Regla · Arroz');
  });

  it('does not prefix an add title that already says add, create or new in its language', () => {
    expect(composeTitle('新建种植群组', 'add', null, tz)).toBe('新建种植群组');
    expect(composeTitle('新增地块', 'add', null, tz)).toBe('新增地块');
    expect(composeTitle('添加计划条目', 'add', null, tz)).toBe('添加计划条目');
    expect(composeTitle('创建农场', 'add', null, tz)).toBe('创建农场');
    expect(composeTitle('新品种', 'add', null, tz)).toBe('新增新品种');
    expect(composeTitle('New planting group', 'add', null, te)).toBe('New planting group');
    expect(composeTitle('Add plan item', 'add', null, te)).toBe('Add plan item');
    expect(composeTitle('create farm', 'add', null, te)).toBe('create farm');
    expect(composeTitle('Newsletter', 'add', null, te)).toBe('New Newsletter');
    expect(composeTitle('Additive', 'add', null, te)).toBe('New Additive');
    expect(composeTitle('Nuevo grupo de cultivo', 'add', null, ts)).toBe('Nuevo grupo de cultivo');
    expect(composeTitle('Nueva parcela', 'add', null, ts)).toBe('Nueva parcela');
    expect(composeTitle('Añadir elemento', 'add', null, ts)).toBe('Añadir elemento');
    expect(composeTitle('Crear granja', 'add', null, ts)).toBe('Crear granja');
    expect(composeTitle('Grupo de cultivo', 'add', null, ts)).toBe('Nuevo: Grupo de cultivo');
    // Only the add mode drops its prefix; the words of another language do not count.
    expect(composeTitle('新建种植群组', 'edit', '秋茬', tz)).toBe('编辑新建种植群组 · 秋茬');
    expect(composeTitle('Nuevo grupo', 'add', null, te)).toBe('New Nuevo grupo');
    expect(opensWithAddWord('  New plot', 'New|Add')).toBe(true);
    expect(opensWithAddWord('New', 'New|Add')).toBe(true);
    expect(opensWithAddWord('Renew plot', 'New|Add')).toBe(false);
    expect(opensWithAddWord('新建', '')).toBe(false);
  });

  it('the title of the planting group add form and its tab read the menu title once', () => {
    const add = registry.screen('plantGroupAdd') as Screen;
    expect(titleMode(add, {})).toBe('add');
    for (const [lang, t] of [['zh', tz], ['en', te], ['es', ts]] as const) expect(composeTitle(add.title[lang], 'add', null, t)).toBe(add.title[lang]);
    const match: RouteMatch = { meta: { id: 'plantGroupAdd', title: { text: add.title }, keepAlive: false }, params: [] };
    expect(routeTitle(match, tz, 'zh', { mode: 'add', names: {} })).toBe('新建种植群组');
  });

  it('an alias route with a mode opens the form in it; the screen\'s own routes keep the default', () => {
    const form = registry.screen('seasonWorkTemplateForm') as Screen;
    expect(titleMode(form, { id: '3', createrId: '1' }, '/agricultureKnowledge/AllSeasonFarming/:id/:createrId')).toBe('edit');
    expect(titleMode(form, { id: '3', createrId: '1' }, '/farmPlantGroup/AllSeasonFarming/:id/:createrId')).toBe('show');
  });

  it('names the record from the template or the display field, texts in the language, nothing when empty', () => {
    const crops = registry.screen('cropDetail') as Screen;
    const template = recordTemplate(crops, registry.resource('crops'));
    expect(template?.zh).toBe('{name}');
    expect(recordName(template, { name: '水稻' }, 'zh')).toBe('水稻');
    expect(recordName(template, { name: '' }, 'zh')).toBeNull();
    expect(recordName(template, null, 'zh')).toBeNull();
    const role = registry.screen('roleForm') as Screen;
    expect(recordNames(recordTemplate(role, undefined), { name: { zh: '农场主', en: 'Farm owner', es: 'Dueño' } })).toEqual({ zh: '农场主', en: 'Farm owner', es: 'Dueño' });
    expect(recordName({ zh: '{a.b}（{c}）', en: '', es: '' }, { a: { b: 'x' } }, 'zh')).toBe('x（）');
  });

  it('the mode comes from the route: a form’s mode parameter, a detail, else none', () => {
    const form = registry.screen('plantRulesForm') as Screen;
    expect(titleMode(form, { operate: 'show', id: '14' })).toBe('show');
    expect(titleMode(registry.screen('cropDetail') as Screen, { id: '52' })).toBe('detail');
    expect(titleMode(registry.screen('cropsManager') as Screen, {})).toBeNull();
  });

  it('a route title never shows parameters; with the reported record it names it; the browser title follows', () => {
    const match: RouteMatch = { meta: { id: 'cropDetail', title: { text: { zh: '作物详情', en: 'Crop detail', es: 'Detalle' } }, keepAlive: false }, params: ['52', '1'] };
    expect(routeTitle(match, tz, 'zh')).toBe('作物详情');
    expect(routeTitle(match, tz, 'zh', { mode: 'detail', names: { zh: '水稻', en: 'Rice' } })).toBe('作物详情 · 水稻');
    expect(routeTitle(match, te, 'en', { mode: 'detail', names: { zh: '水稻', en: 'Rice' } })).toBe('Crop detail · Rice');
    expect(documentTitle('作物详情 · 水稻', '农场管理')).toBe('作物详情 · 水稻 - 农场管理');
    expect(documentTitle(null, '农场管理')).toBe('农场管理');
  });
});

describe('one name per screen (schemas:check)', () => {
  const docs = () => folderSource(root).documents() as SourceDocument[];
  const withScreen = (file: string, change: (doc: Record<string, unknown>) => void) =>
    docs().map((d) => {
      if (d.file !== file) return { ...d, source: 'bundled' };
      const doc = JSON.parse(String(d.content)) as Record<string, unknown>;
      change(doc);
      return { ...d, content: doc, source: 'bundled' };
    });

  it('refuses a screen whose menu entry names it otherwise, and a record title naming no field', () => {
    const renamed = buildRegistry(withScreen('schemas/screens/admin/fieldManager.json', (d) => (d.title = { zh: '字段管理', en: 'Plots', es: 'Parcelas' })));
    const naming = renamed.errors.filter((p) => p.message.includes('one name'));
    expect(naming.map((p) => `${p.file}#${p.pointer}`)).toEqual(['schemas/screens/admin/fieldManager.json#/title']);
    expect(naming[0].message).toContain('"fieldManager"');
    const untitled = buildRegistry(withScreen('schemas/screens/admin/nurseryForm.json', (d) => (d.recordTitle = { zh: '{nom}', en: '{name}', es: '{name}' })));
    expect(untitled.errors.map((p) => `${p.pointer} ${p.message}`)).toContain('/recordTitle {nom} is not a field of the record');
    expect(buildRegistry(docs().map((d) => ({ ...d, source: 'bundled' }))).errors).toEqual([]);
  });
});
