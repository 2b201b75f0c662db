import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { lintResources, lintScreens, RESOURCE_RULES, SCREEN_RULES, type LintInput, type ScreenRule } from '../../runtime/schema/lint.ts';
import { collector } from '../../runtime/schema/lint/context.ts';
import { authorityRule } from '../../runtime/schema/lint/rules/authority.ts';
import { pageRule } from '../../runtime/schema/lint/rules/page.ts';
import type { MenuDocument } from '../../runtime/schema/menus.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { Screen } from '../../runtime/schema/screen.ts';
import { WIDGET_NAMES } from '../../runtime/schema/widget-names.ts';

const ROOT = join(import.meta.dirname, '../..');

/** The repository's documents, parsed, as the lint reads them. */
async function repository(): Promise<{ input: LintInput; resources: { doc: ResourceDocument; file: string }[] }> {
  const screens: LintInput['screens'] = [];
  const resources: { doc: ResourceDocument; file: string }[] = [];
  let menus: MenuDocument | null = null;
  for (const d of await folderSource(ROOT).documents()) {
    const value = JSON.parse(d.content as string);
    if (d.type === 'screen') screens.push({ screen: value as Screen, file: d.file });
    else if (d.type === 'resource') resources.push({ doc: value as ResourceDocument, file: d.file });
    else menus = value as MenuDocument;
  }
  return { input: { screens, resources: new Map(resources.map((r) => [r.doc.name, r.doc])), menus, widgetNames: WIDGET_NAMES }, resources };
}

describe('lint rules', () => {
  it('each rule has its own id and says what it checks', () => {
    const rules = [...SCREEN_RULES, ...RESOURCE_RULES];
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const r of rules) expect(r.description.length, r.id).toBeGreaterThan(20);
  });

  it('a rule added to the list reports after the built-in ones, screen by screen', async () => {
    const { input } = await repository();
    const titled: ScreenRule = {
      id: 'test-title-length',
      description: 'A test rule: English titles longer than 12 characters.',
      check({ screen, file }) {
        const { problems, add } = collector(file);
        if (screen.title.en.length > 12) add('/title/en', 'is longer than 12 characters', 'warning');
        return problems;
      },
    };
    const built = lintScreens(input);
    expect(built.filter((p) => p.severity === 'error')).toEqual([]);
    const withRule = lintScreens(input, [...SCREEN_RULES, titled]);
    const added = withRule.filter((p) => p.message === 'is longer than 12 characters');
    expect(added.length).toBeGreaterThan(0);
    expect(added.map((p) => p.file)).toEqual(input.screens.filter((s) => s.screen.title.en.length > 12).map((s) => s.file));
    // Screen by screen: each screen's problems, then its new one.
    const order = withRule.map((p) => p.file);
    expect(order).toEqual([...order].sort((a, b) => input.screens.findIndex((s) => s.file === a) - input.screens.findIndex((s) => s.file === b)));
    expect(withRule.filter((p) => p.message !== 'is longer than 12 characters')).toEqual(built);
  });

  it('a link that sets a list’s filter (query filter.<field>) needs that filter on the list it opens', async () => {
    const { input } = await repository();
    const customers = input.screens.find((s) => s.screen.id === 'agentCustomers')!;
    const table = customers.screen as Extract<Screen, { kind: 'table' }>;
    const withQuery = (query: Record<string, string>) => ({
      ...input,
      screens: input.screens.map((s) => (s === customers ? { ...s, screen: { ...table, rowActions: [{ ...table.rowActions![0], query }] } as Screen } : s)),
    });
    const problems = (query: Record<string, string>) => lintScreens(withQuery(query)).filter((p) => p.file === customers.file);
    expect(problems({ 'filter.farmId': 'row.farmId' })).toEqual([]);
    expect(problems({ 'filter.region': 'row.farmId' })).toEqual([
      { file: customers.file, pointer: '/rowActions/0/query/filter.region', message: '"/customerAgent/business" shows no list with a filter "region"', severity: 'error' },
    ]);
  });

  it('runs a subset of the rules alone, as a publish gate would', async () => {
    const { input } = await repository();
    // A screen bound to a resource, whose grant the unknown authority also breaks.
    const first = input.screens.findIndex((s) => 'resource' in s.screen && !!s.screen.resource);
    const broken = {
      ...input,
      screens: input.screens.map((s, i) => (i === first ? { ...s, screen: { ...s.screen, authority: 'noSuchMenu' } as Screen } : s)),
    };
    expect(lintScreens(broken, [authorityRule])).toEqual([
      { file: input.screens[first].file, pointer: '/authority', message: '"noSuchMenu" is not a menu code of the menus document', severity: 'error' },
    ]);
    // The full list also blames the resource grant that the unknown authority breaks.
    expect(lintScreens(broken).length).toBeGreaterThan(1);
  });

  it('a page child requires codes of the menus document: menu or element codes, nothing else', async () => {
    const { input } = await repository();
    const home = input.screens.find((s) => s.screen.id === 'farmHome')!;
    const page = home.screen as Extract<Screen, { kind: 'page' }>;
    const changed = (requires: string[]) => ({
      ...input,
      screens: input.screens.map((s) => (s === home ? { ...home, screen: { ...page, children: [{ screen: page.children[0].screen, requires }] } as Screen } : s)),
    });
    const onHome = (requires: string[]) => lintScreens(changed(requires), [pageRule]).filter((p) => p.file === home.file);
    expect(onHome(['fertilizerLists', 'fertilizerLists:edit'])).toEqual([]);
    expect(onHome(['fertilizerLists', 'noSuchCode'])).toEqual([
      { file: home.file, pointer: '/children/0/requires/1', message: '"noSuchCode" is no menu or element code of the menus document', severity: 'error' },
    ]);
  });

  it('checks resources against the menus, and nothing without them', async () => {
    const { input, resources } = await repository();
    expect(lintResources(resources, input.menus)).toEqual([]);
    const crops = resources.find((r) => r.doc.name === 'crops')!;
    const renamed = [{ ...crops, doc: { ...crops.doc, elements: { ...crops.doc.elements, delete: `${crops.doc.authority}:vanish` } } }];
    const found = lintResources(renamed, input.menus);
    expect(found.map((p) => p.pointer)).toEqual(['/elements/delete', '/elements/delete']);
    expect(found[0].message).toBe(`"${crops.doc.authority}:vanish" is not an element code of the menus document`);
    expect(lintResources(renamed, null)).toEqual([]);
  });
});
