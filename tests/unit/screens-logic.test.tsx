// @vitest-environment jsdom
/**
 * The renderer's pure parts (routes from the registry, section roots, the search query,
 * what a form submits and how server errors land) and a few behaviours in jsdom
 * (element codes and conditions gating actions, a widget without implementation).
 */
import { cleanup, fireEvent, screen as dom, waitFor } from '@testing-library/react';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schemaScreenRoutes } from '../../runtime/app/schema-screens.ts';
import { buildRouteTable } from '../../runtime/routing/route-table.ts';
import { sectionRoots, sectionTarget } from '../../runtime/routing/section-roots.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { buildRegistry, loadRegistry, type SchemaRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import { filterQuery, filterSpec } from '../../runtime/screens/filters.ts';
import { conditionsKey, serverErrors, submitBody } from '../../runtime/screens/form-schema.ts';
import { notifyResourceChanged } from '../../runtime/screens/data-events.ts';
import { createHarness, renderScreen, settled, stubBrowserApis } from './screens-harness.tsx';
import { installWidgets } from '../../runtime/widgets/api.ts';
import { WIDGET_MANIFEST } from '../../widgets/manifest.ts';

const root = resolve(import.meta.dirname, '../..');
let registry: SchemaRegistry;
beforeAll(async () => {
  stubBrowserApis();
  registry = await loadRegistry([folderSource(root)]);
});
afterEach(() => cleanup());

describe('routes from the registry', () => {
  it('gives every route of every screen, aliases with their own authority, and section roots', () => {
    const routes = schemaScreenRoutes(registry);
    const crops = routes.filter((r) => r.meta.id === 'cropsManager');
    expect(crops.map((r) => [r.path, r.authority])).toEqual([
      ['/agricultureKnowledge/cropsManager', 'agricultureKnowledgeCropsManager'],
      ['/bigData-kms/cropsManager', 'cropsManager'],
    ]);
    expect(crops[0].meta).toMatchObject({ keepAlive: true, hidden: false, icon: 'AppstoreOutlined' });
    expect(routes.find((r) => r.path === '/bigData-kms')).toMatchObject({ authority: 'bigData-kms', meta: { hidden: true } });
    const table = buildRouteTable(routes, new Set(['agricultureKnowledge', 'agricultureKnowledgeCropsManager']));
    expect(table.permitted.map((r) => r.path)).toContain('/agricultureKnowledge/cropsManager');
    expect(table.forbidden.map((r) => r.path)).toContain('/bigData-kms/cropsManager');
  });

  it('puts an invalid screen at its routes with its problems, and keeps the others', () => {
    const docs = folderSource(root).documents() as SourceDocument[];
    const broken = { file: 'schemas/screens/knowledge/brokenCrops.json', type: 'screen' as const, content: { formatVersion: 1, revision: 1, id: 'brokenCrops', kind: 'table', route: '/bigData-kms/brokenCrops', authority: 'cropsManager', title: { zh: 'x', en: 'x', es: 'x' }, columns: [{ field: 'name', render: 'sparkline' }] } };
    const reg = buildRegistry([...docs, broken].map((d) => ({ ...d, source: 'bundled' })));
    const routes = schemaScreenRoutes(reg);
    const panel = routes.find((r) => r.path === '/bigData-kms/brokenCrops');
    expect(panel?.meta).toMatchObject({ id: 'brokenCrops', title: { zh: '无效的页面', en: 'Invalid screen', es: 'Pantalla no válida' } });
    expect(routes.some((r) => r.meta.id === 'cropsManager')).toBe(true);
  });

  it('a section root goes to its default child when held, else the first child held in menu order, else nowhere', () => {
    const kms = sectionRoots(registry.menus!.doc).find((s) => s.path === '/bigData-kms')!;
    expect(sectionTarget(kms, new Set(['bigData-kms', 'cropsManager', 'cropSubtype']))).toBe('/bigData-kms/cropsManager');
    expect(sectionTarget(kms, new Set(['bigData-kms', 'plantRules', 'cropSubtype']))).toBe('/bigData-kms/cropSubtype');
    expect(sectionTarget(kms, new Set(['bigData-kms']))).toBeNull();
  });
});

describe('queries and submissions', () => {
  it('turns search values into the resource engine parameters, empty values sending nothing', () => {
    const doc = registry.resource('crops');
    const specs = ['name', 'category', 'status', 'growthDaysMax'].map((field) => filterSpec({ field }, doc));
    expect(specs.map((s) => [s.op, s.widget])).toEqual([['like', 'input'], ['in', 'multiSelect'], ['eq', 'select'], ['range', 'number']]);
    expect(filterQuery(specs, { name: '  稻 ', category: ['grain', 'oil'], status: undefined, growthDaysMax: [100, null] })).toEqual({
      name: '稻',
      category: ['grain', 'oil'],
      growthDaysMaxFrom: 100,
    });
  });

  it('submits the shown fields (plus the version read on edit) and puts server errors on their fields', () => {
    expect(submitBody(['name', 'status'], { name: 'a', status: 1, hidden: 'x', id: 3 }, 'edit', { version: 4 })).toEqual({ name: 'a', status: 1, version: 4 });
    expect(submitBody(['name'], { name: 'a' }, 'add', { version: 4 })).toEqual({ name: 'a' });
    expect(serverErrors([{ field: 'cropId', message: 'gone' }, { field: 'sowingMonths.1', message: 'bad' }, { field: 'version', message: 'stale' }], ['cropId', 'sowingMonths'])).toEqual({
      extra: { cropId: { __errors: ['gone'] }, sowingMonths: { 1: { __errors: ['bad'] } } },
      other: ['stale'],
    });
  });

  it('rebuilds a form only when a condition changes outcome', () => {
    const form = registry.screen('plantRulesForm');
    if (form?.kind !== 'form') throw new Error('plantRulesForm');
    expect(conditionsKey(form, { name: 'a' })).toBe(conditionsKey(form, { name: 'b' }));
    expect(conditionsKey(form, { cropId: 1 })).not.toBe(conditionsKey(form, {}));
  });
});

describe('in the DOM', () => {
  it('offers row actions by element code and condition; batch actions need a selection', async () => {
    const h = createHarness(registry, { menus: ['agricultureKnowledgeCropsManager'], elements: ['agricultureKnowledgeCropsManager:edit', 'agricultureKnowledgeCropsManager:delete'] });
    const { container } = renderScreen(h, registry, 'cropsManager', { routePattern: '/agricultureKnowledge/cropsManager', authority: 'agricultureKnowledgeCropsManager' });
    await settled(h, container);
    expect(dom.queryByRole('button', { name: /新增/ })).toBeNull();
    const rows = container.querySelectorAll('tbody tr[data-row-key]');
    expect(rows.length).toBe(3);
    // Fixture rows have status 1, 0, 1: delete (when status = 0) shows on the second row only.
    const deletes = [...rows].map((r) => !!r.querySelector('button.ant-btn-dangerous'));
    expect(deletes).toEqual([false, true, false]);
    const batch = dom.getByRole('button', { name: /批量删除/ }) as HTMLButtonElement;
    expect(batch.disabled).toBe(true);
    fireEvent.click(rows[0].querySelector('input[type=checkbox]')!);
    await waitFor(() => expect(rows[0].getAttribute('aria-selected')).toBe('true'));
    expect(batch.disabled).toBe(false);
    expect(h.transport.log[0]).toMatch(/^GET \/api\/kms\/crops\/page\?.*sort=category%2Cname/);
    // The same page read again (a change elsewhere, a late answer) keeps what was ticked.
    const reads = h.transport.log.length;
    notifyResourceChanged('crops');
    await waitFor(() => expect(h.transport.log.length).toBeGreaterThan(reads));
    await settled(h, container);
    expect(container.querySelector('tbody tr[data-row-key]')?.getAttribute('aria-selected')).toBe('true');
    expect((dom.getByRole('button', { name: /批量删除/ }) as HTMLButtonElement).disabled).toBe(false);
  }, 60_000);

  it('reads an inexact total as an estimate', async () => {
    const h = createHarness(registry, { language: 'en', pageExtra: { totalExact: false } });
    const { container } = renderScreen(h, registry, 'cropsManager', { routePattern: '/bigData-kms/cropsManager', authority: 'cropsManager' });
    await settled(h, container);
    expect(container.querySelector('.ant-pagination-total-text')?.textContent).toBe('about 3');
  }, 60_000);

  it('names each row’s farm in a column of its own when the reply spans farms, and not otherwise', async () => {
    const headers = (c: HTMLElement) => [...c.querySelectorAll('thead th')].map((th) => th.textContent?.trim()).filter(Boolean);
    const many = createHarness(registry, { language: 'en', pageExtra: { spansFarms: true } });
    const first = renderScreen(many, registry, 'cropsManager', { routePattern: '/bigData-kms/cropsManager', authority: 'cropsManager' });
    await settled(many, first.container);
    const shown = headers(first.container);
    expect(shown[1]).toBe('Farm');
    first.unmount();
    const one = createHarness(registry, { language: 'en' });
    const second = renderScreen(one, registry, 'cropsManager', { routePattern: '/bigData-kms/cropsManager', authority: 'cropsManager' });
    await settled(one, second.container);
    expect(headers(second.container)).not.toContain('Farm');
    expect(headers(second.container)).toEqual(shown.filter((h) => h !== 'Farm'));
  }, 60_000);

  it('shows a localised panel for a registered widget whose implementation is not provided', async () => {
    const docs = folderSource(root).documents() as SourceDocument[];
    const widget = { file: 'schemas/screens/x/controlScreen.json', type: 'screen' as const, content: { $schema: 'https://farm-backoffice.local/schema/screen.schema.json', formatVersion: 1, revision: 1, id: 'controlScreen', kind: 'widget', widget: 'equipmentControl', route: '/equipmentControll/notProvidedYet', authority: 'equipmentControllIndex', title: { zh: '智能控制', en: 'Smart control', es: 'Control inteligente' } } };
    const reg = buildRegistry([...docs, widget].map((d) => ({ ...d, source: 'bundled' })));
    expect(reg.screen('controlScreen')).toBeDefined();
    const h = createHarness(reg, { language: 'en' });
    await h.services.i18n.changeLanguage('en');
    // Every reserved widget is implemented now: this build's manifest leaves one out.
    installWidgets({ ...WIDGET_MANIFEST, equipmentControl: null });
    try {
      renderScreen(h, reg, 'controlScreen');
      await dom.findByText('The widget "equipmentControl" is not provided yet');
    } finally {
      installWidgets(WIDGET_MANIFEST);
    }
  }, 60_000);
});
