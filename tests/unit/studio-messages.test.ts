/**
 * The publish gate's sentences in the configurer's language (issue 31, item 2): the
 * meta-schema's, the lint's and the gate's own, in zh, en and es, each starting with the
 * place — the block's kind, its label (its title, else its resource field's title) and its
 * JSON pointer. The table of lint sentences (runtime/schema/lint-i18n.ts) is checked to
 * match every sentence a broken document provokes here, so that no English is left in the
 * Chinese studio unframed.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { baselineProblems, gateCandidate, type EffectiveDocument, type GateProblem } from '../../runtime/schema/gate.ts';
import { lintSentenceKnown, localizeLint } from '../../runtime/schema/lint-i18n.ts';
import { describePlace, placeOf, screenBlocks, withoutBlocks } from '../../runtime/schema/places.ts';
import { documentTypeOfPath } from '../../runtime/schema/registry-core.ts';
import type { ResourceDocument } from '../../runtime/schema/resource/types.ts';
import type { Lang } from '../../runtime/schema/texts.ts';
import { assembleRegistry } from '../../runtime/schema/registry-core.ts';
import { FULL_CHECKS } from '../../runtime/schema/registry.ts';
import { coverageReport } from '../../server/studio/coverage.ts';

const CROPS = 'schemas/screens/knowledge/cropsManager.json';
const CROPS_RESOURCE = 'schemas/resources/crops.json';
type Doc = Record<string, unknown> & { columns: Record<string, unknown>[]; filters: Record<string, unknown>[]; toolbar: Record<string, unknown>[] };

let effective: EffectiveDocument[];
let baseline: GateProblem[];
const crops = () => structuredClone(effective.find((d) => d.file === CROPS)!.content) as Doc;
const resources = (name: string) => effective.find((d) => d.type === 'resource' && (d.content as ResourceDocument).name === name)?.content as ResourceDocument | undefined;
const gate = (content: unknown, lang: Lang, file = CROPS) => gateCandidate({ file, content: JSON.stringify(content), effective, lang, baseline }).problems;
const at = (problems: GateProblem[], pointer: string) => problems.find((p) => p.pointer === pointer);

beforeAll(async () => {
  effective = (await folderSource(resolve(import.meta.dirname, '../..')).documents()).map((d) => ({
    file: d.file,
    type: documentTypeOfPath(d.file)!,
    content: JSON.parse(String(d.content)) as unknown,
  }));
  baseline = baselineProblems({ effective });
}, 120_000);

describe('places: the block holding a pointer, named by its label', () => {
  it('names columns, filters and actions by their title or their resource field’s title', () => {
    const doc = crops();
    expect(placeOf(doc, '/columns/0/width', resources, 'zh')).toEqual({ kind: 'column', pointer: '/columns/0', label: '作物名称' });
    expect(describePlace(placeOf(doc, '/columns/0/width', resources, 'zh'), 'zh')).toBe('列「作物名称」（/columns/0）');
    expect(describePlace(placeOf(doc, '/columns/0', resources, 'en'), 'en')).toBe('column "Crop name" (/columns/0)');
    expect(describePlace(placeOf(doc, '/columns/0', resources, 'es'), 'es')).toBe('columna «Nombre del cultivo» (/columns/0)');
    expect(describePlace(placeOf(doc, '/toolbar/0/label/zh', resources, 'zh'), 'zh')).toBe('工具栏操作「新增」（/toolbar/0）');
    expect(placeOf(doc, '/filters/1/op', resources, 'en')).toMatchObject({ kind: 'filter', pointer: '/filters/1' });
    expect(placeOf(doc, '/title', resources, 'zh')).toBeNull();
    expect(describePlace(null, 'zh')).toBe('页面');
  });

  it('names a resource field and a menu entry', () => {
    const resource = effective.find((d) => d.file === CROPS_RESOURCE)!.content;
    expect(describePlace(placeOf(resource, '/record/properties/name/maxLength', resources, 'zh'), 'zh')).toBe('资源字段「作物名称」（/record/properties/name）');
    const menus = effective.find((d) => d.type === 'menus')!.content as { menus: { title: Record<Lang, string>; children: { title: Record<Lang, string> }[] }[] };
    const entry = menus.menus[0].children[0];
    expect(placeOf(menus, '/menus/0/children/0/code', resources, 'en')).toEqual({ kind: 'menuEntry', pointer: '/menus/0/children/0', label: entry.title.en });
  });

  it('lists the blocks a render can leave out, and leaves them out', () => {
    const doc = crops();
    const blocks = screenBlocks(doc);
    expect(blocks).toContain('/columns/0');
    expect(blocks).toContain('/filters/0');
    expect(blocks).toContain('/toolbar/0');
    const without = withoutBlocks(doc, ['/columns/0', '/columns/2', '/filters/1']) as Doc;
    expect(without.columns.map((c) => c.field)).toEqual(doc.columns.filter((_, i) => i !== 0 && i !== 2).map((c) => c.field));
    expect(without.filters).toHaveLength(doc.filters.length - 1);
    expect(doc.columns).toHaveLength(crops().columns.length);
  });
});

describe('the gate speaks the configurer’s language', { timeout: 120_000 }, () => {
  it('a meta-schema problem (a width that is no number), in zh, en and es', () => {
    const doc = crops();
    doc.columns[1].width = 'wide';
    const said = Object.fromEntries((['zh', 'en', 'es'] as const).map((l) => [l, at(gate(doc, l), '/columns/1/width')?.message]));
    expect(said.zh).toBe('列「英文名称」（/columns/1）：值为 "wide"，类型应为 integer');
    expect(said.en).toBe('column "English name" (/columns/1): is "wide"; expected integer');
    expect(said.es).toBe('columna «Nombre en inglés» (/columns/1): vale "wide"; se espera el tipo integer');
  });

  it('a lint problem (a column of no field of the resource), naming the resource by its title', () => {
    const doc = crops();
    doc.columns[2].field = 'latinNam';
    const zh = at(gate(doc, 'zh'), '/columns/2/field');
    expect(zh?.message).toBe('列「latinNam」（/columns/2）：「latinNam」不是资源「作物」（crops）的字段');
    expect(zh?.place).toEqual({ kind: 'column', pointer: '/columns/2', label: 'latinNam' });
    expect(at(gate(doc, 'en'), '/columns/2/field')?.message).toMatch(/^column "latinNam" \(\/columns\/2\): "latinNam" is not a field of resource "crops"/);
    expect(at(gate(doc, 'es'), '/columns/2/field')?.message).toBe('columna «latinNam» (/columns/2): «latinNam» no es un campo del recurso «Cultivos» (crops)');
  });

  it('a lint problem on an action (an element code the menus lack)', () => {
    const doc = crops();
    doc.toolbar[0].elementCode = 'noSuchCode:add';
    const zh = gate(doc, 'zh').find((p) => p.pointer.startsWith('/toolbar/0'));
    expect(zh?.message).toBe('工具栏操作「新增」（/toolbar/0）：「noSuchCode:add」不是菜单中的按钮权限码');
    const es = gate(doc, 'es').find((p) => p.pointer.startsWith('/toolbar/0'));
    expect(es?.message).toBe('acción de la barra «Añadir» (/toolbar/0): «noSuchCode:add» no es un código de elemento del documento de menús');
  });

  it('the gate’s own sentences (a missing translation, a changed id), with the place', () => {
    const doc = crops();
    doc.columns[0].title = { zh: '名称', en: 'Name' };
    // The meta-schema requires the three languages of a title: said once, at the missing one
    // (the label falls back to the zh title when the language asked for is the one missing).
    expect(at(gate(doc, 'zh'), '/columns/0/title/es')?.message).toBe('列「名称」（/columns/0）：缺少必填项');
    expect(at(gate(doc, 'es'), '/columns/0/title/es')?.message).toBe('columna «名称» (/columns/0): falta este dato obligatorio');
    const renamed = { ...crops(), id: 'cropsManager2' };
    expect(at(gate(renamed, 'zh'), '/id')?.message).toBe('页面 id 不能修改：此文件的页面是「cropsManager」');
    expect(at(gate(renamed, 'en'), '/id')?.message).toBe('a screen keeps its id: the screen of this file is "cropsManager"');
  });

  it('a resource change outside presentation, on the resource field by its title', () => {
    const resource = structuredClone(effective.find((d) => d.file === CROPS_RESOURCE)!.content) as { record: { properties: Record<string, Record<string, unknown>> } };
    resource.record.properties.name.maxLength = 7;
    expect(at(gate(resource, 'zh', CROPS_RESOURCE), '/record/properties/name/maxLength')?.message).toMatch(/^资源字段「作物名称」（\/record\/properties\/name）：会改变服务器存储的数据/);
    expect(at(gate(resource, 'es', CROPS_RESOURCE), '/record/properties/name/maxLength')?.message).toMatch(/^campo del recurso «Nombre del cultivo» \(\/record\/properties\/name\): cambia lo que guarda el servidor/);
  });

  it('leaves no sentence of the rules unmatched for the broken documents above and more', () => {
    const broken: Doc[] = [];
    const add = (f: (d: Doc) => void) => {
      const d = crops();
      f(d);
      broken.push(d);
    };
    add((d) => (d.columns[0].field = 'nope'));
    add((d) => (d.columns[0].sortable = true) && (d.columns[0].field = 'latinName'));
    add((d) => (d.filters[0].field = 'latinName'));
    add((d) => (d.toolbar[0].elementCode = 'x:y'));
    add((d) => (d.authority = 'nope'));
    add((d) => (d.columns[1].width = 'wide'));
    add((d) => (d.columns[1].bogus = 1));
    add((d) => (d.pageSize = 50_000));
    add((d) => (d.pageSize = 5_000));
    add((d) => (d.columns = []));
    add((d) => (d.resource = 'nothing'));
    add((d) => (d.toolbar[0] = { kind: 'navigate', label: { zh: '去', en: 'Go', es: 'Ir' }, to: '/nowhere/at/all' }));
    const sentences = new Set<string>();
    for (const d of broken) {
      const found = gateCandidate({ file: CROPS, content: d, effective, baseline }).problems;
      expect(found.length, JSON.stringify(d).slice(0, 80)).toBeGreaterThan(0);
      for (const p of found) sentences.add(p.message.replace(/^[^:]+ \(\/[^)]*\): /, ''));
    }
    const unmatched = [...sentences].filter((s) => !lintSentenceKnown(s) && !/^(a screen keeps|text lacks|the route)/.test(s));
    expect(unmatched).toEqual([]);
    // An unmatched sentence is framed, never bare English in the Chinese studio.
    expect(localizeLint('something new happened', 'zh')).toBe('规则检查（英文原文）：something new happened');
    expect(localizeLint('something new happened', 'en')).toBe('something new happened');
  });
});

describe('the coverage report names screens by their title and blocks by their label', () => {
  it('an endpoint the server does not serve, on an action, in zh, en and es', () => {
    const registry = assembleRegistry(
      effective.map((d) => ({ ...d, source: 'effective', trusted: true })),
      FULL_CHECKS,
      { lint: false },
    );
    // A server serving nothing: every literal endpoint is reported, each with its place.
    const report = coverageReport(registry, [], []);
    const onAction = report.unguardedEndpoints.find((e) => /^\/(toolbar|rowActions|actions)\/\d+\//.test(e.pointer));
    expect(onAction).toBeDefined();
    const index = onAction!.pointer.split('/')[2];
    for (const lang of ['zh', 'en', 'es'] as const) {
      expect(onAction!.place[lang]).toMatch(new RegExp(`/${onAction!.pointer.split('/')[1]}/${index}[)）]$`));
      expect(onAction!.place[lang]).not.toMatch(/undefined|null/);
    }
    expect(onAction!.place.zh).toMatch(/操作「.+」/);
    expect(onAction!.screenTitle?.zh).toBeTruthy();
    for (const s of report.unreachableScreens) expect(s.title?.en, s.id).toBeTruthy();
  });
});
