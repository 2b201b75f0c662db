/**
 * The benchmark page (built by tools/bench/browser-screens.ts, run in headless Chromium):
 * renders the real runtime components with generated data and reports timings taken
 * with performance.now() in `window.__bench`. Data comes from an in-page transport at the
 * HTTP client's boundary, so the table's figures include parsing the page reply.
 */
import { App as AntApp, ConfigProvider } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import { type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { ServicesContext } from '../../../runtime/app/context.ts';
import { createConsoleServices, type ConsoleServices } from '../../../runtime/app/services.ts';
import { schemaScreenRoutes } from '../../../runtime/app/schema-screens.ts';
import { createHttpClient } from '../../../runtime/http/client.ts';
import { buildRouteTable } from '../../../runtime/routing/route-table.ts';
import { bundledSource } from '../../../runtime/schema/bundled.ts';
import { buildRegistry, loadRegistry, type SchemaRegistry } from '../../../runtime/schema/registry.ts';
import { ScreenHostContext, type ScreenHost } from '../../../runtime/screens/host.ts';
import { FormView } from '../../../runtime/screens/FormView.tsx';
import { TableView } from '../../../runtime/screens/TableView.tsx';
import { DataGrid, type GridColumn } from '../../../runtime/screens/DataGrid.tsx';
import { memoryStore } from '../../../runtime/session/key-value.ts';
import { userInfoAtom } from '../../../runtime/session/atoms.ts';
import { bigForm, bigMenus, rows, wideResource, wideTable } from './generate.ts';

const ROWS = 10_000;
const COLUMNS = 50;
const FORM_FIELDS = 200;
const MENU_ENTRIES = 1_000;

type Results = Record<string, number | string>;
declare global {
  interface Window {
    __bench?: { done: boolean; results: Results; error?: string };
  }
}

const results: Results = {};
window.__bench = { done: false, results };

function nextFrame(): Promise<void> {
  return new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
}

/** Resolves when `test` holds after a DOM change under `root` (checked at once too). */
function when(root: Element, test: () => boolean): Promise<number> {
  return new Promise((resolve) => {
    if (test()) return resolve(performance.now());
    const mo = new MutationObserver(() => {
      if (test()) {
        mo.disconnect();
        resolve(performance.now());
      }
    });
    mo.observe(root, { childList: true, subtree: true, attributes: true });
  });
}

function services(pages: Map<number, string>): ConsoleServices {
  const base = createConsoleServices({ cookies: memoryStore({ language: 'zh', token: 'bench' }), local: memoryStore() });
  const http = createHttpClient({
    baseUrl: '',
    getToken: () => 'bench',
    getLanguage: () => 'zh',
    notifier: base.notifier,
    translate: (k) => base.i18n.t(k),
    endSession: () => {},
    fetch: async (input) => {
      const url = new URL(String(input), location.origin);
      const body = pages.get(Number(url.searchParams.get('pageIndex') ?? 1)) ?? JSON.stringify({ status: 200, message: 'ok', data: {} });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  const s = { ...base, http };
  s.store.set(userInfoAtom, {
    id: 1, name: 'bench', description: null, farmId: null, farmName: null, farmType: null, groupId: null, groupName: null,
    menus: ['bench'], elements: ['bench:add', 'bench:edit', 'bench:delete'], roles: [], city: null, chiefFarmId: null,
  });
  return s;
}

function Providers({ s, host, children }: { s: ConsoleServices; host: ScreenHost; children: ReactNode }) {
  return (
    <ServicesContext.Provider value={s}>
      <JotaiProvider store={s.store}>
        <I18nextProvider i18n={s.i18n}>
          <ConfigProvider button={{ autoInsertSpace: false }}>
            <AntApp>
              <MemoryRouter>
                <ScreenHostContext.Provider value={host}>{children}</ScreenHostContext.Provider>
              </MemoryRouter>
            </AntApp>
          </ConfigProvider>
        </I18nextProvider>
      </JotaiProvider>
    </ServicesContext.Provider>
  );
}

function mount(): { el: HTMLElement; root: ReturnType<typeof createRoot>; dispose: () => void } {
  const el = document.createElement('div');
  document.getElementById('root')!.appendChild(el);
  const root = createRoot(el);
  return { el, root, dispose: () => (root.unmount(), el.remove()) };
}

async function tableBench(registry: SchemaRegistry) {
  const doc = registry.resource(`bench${COLUMNS}`)!;
  const screen = registry.screen('benchTable')!;
  if (screen.kind !== 'table') throw new Error('benchTable');
  const page = (n: number) => JSON.stringify({ status: 200, message: 'ok', data: { rows: rows(ROWS, COLUMNS, n), total: ROWS * 2, pageIndex: n, pageSize: ROWS } });
  const s = services(new Map([[1, page(1)], [2, page(2)]]));
  const host: ScreenHost = { registry, authority: 'bench', params: {}, query: {} };
  void doc;

  // Warm-up: the first mount of antd components injects their styles.
  {
    const m = mount();
    flushSync(() => m.root.render(<Providers s={s} host={host}><TableView id="warm" parts={{ ...screen, pageSize: 10 }} resource={screen.resource} title={screen.title} ctx={{}} /></Providers>));
    await when(m.el, () => !!m.el.querySelector('tbody tr[data-row-key]'));
    m.dispose();
  }

  const m = mount();
  const t0 = performance.now();
  m.root.render(<Providers s={s} host={host}><TableView id="bench" parts={screen} resource={screen.resource} title={screen.title} ctx={{}} /></Providers>);
  const tRows = await when(m.el, () => !!m.el.querySelector('tbody tr[data-row-key="1"]'));
  await nextFrame();
  const tPaint = performance.now();
  results['table first render, 10,000 × 50 (request, parse, render)'] = tRows - t0;
  results['table first render, to next frame'] = tPaint - t0;
  results['table rows in the DOM (virtualised)'] = m.el.querySelectorAll('tbody tr[data-row-key]').length;

  // Row selection: click the first row's checkbox until the row says it is selected.
  const box = m.el.querySelector<HTMLInputElement>('tbody tr[data-row-key="3"] input[type=checkbox]')!;
  const s0 = performance.now();
  box.click();
  const s1 = await when(m.el, () => m.el.querySelector('tbody tr[data-row-key="3"]')?.getAttribute('aria-selected') === 'true');
  await nextFrame();
  results['row selection (commit)'] = s1 - s0;
  results['row selection (to next frame)'] = performance.now() - s0;

  // Change page: the pagination's page 2 until its first row is in the DOM.
  const next = m.el.querySelector<HTMLElement>('.ant-pagination-item-2')!;
  const p0 = performance.now();
  next.click();
  const p1 = await when(m.el, () => !!m.el.querySelector(`tbody tr[data-row-key="${ROWS + 1}"]`));
  await nextFrame();
  results['change page (request, parse, render)'] = p1 - p0;
  results['change page (to next frame)'] = performance.now() - p0;
  m.dispose();

  // The grid alone, data already in memory.
  const data = rows(ROWS, COLUMNS, 3);
  const cols: GridColumn[] = Array.from({ length: COLUMNS }, (_, i) => ({ id: `f${i}`, title: `列 ${i}`, width: 120, text: (r) => String(r[`f${i}`] ?? '') }));
  const g = mount();
  const g0 = performance.now();
  flushSync(() => g.root.render(<Providers s={s} host={host}><DataGrid columns={cols} rows={data} rowKey={(r) => String(r.id)} selection="multiple" selected={{}} /></Providers>));
  results['grid render of a 10,000-row page already in memory'] = performance.now() - g0;
  g.dispose();
}

async function formBench(registry: SchemaRegistry) {
  const screen = registry.screen('benchForm')!;
  if (screen.kind !== 'form') throw new Error('benchForm');
  const s = services(new Map());
  const host: ScreenHost = { registry, authority: 'bench', params: {}, query: {} };
  const warm = mount();
  flushSync(() => warm.root.render(<Providers s={s} host={host}><FormView screen={{ ...screen, sections: screen.sections.slice(0, 1) }} mode="add" onDone={() => {}} /></Providers>));
  warm.dispose();
  const m = mount();
  const t0 = performance.now();
  flushSync(() => m.root.render(<Providers s={s} host={host}><FormView screen={screen} mode="add" onDone={() => {}} /></Providers>));
  const t1 = performance.now();
  await nextFrame();
  results['form first render, 200 fields'] = t1 - t0;
  results['form first render, to next frame'] = performance.now() - t0;
  results['form fields in the DOM'] = m.el.querySelectorAll('.ant-form-item').length;
  m.dispose();
}

function routeBench() {
  const resource = wideResource(1);
  const { menus, screens, codes } = bigMenus(MENU_ENTRIES, resource);
  const registry = buildRegistry(
    [
      { file: 'schemas/menus.json', type: 'menus', content: menus, source: 'bench' },
      { file: 'schemas/resources/bench1.json', type: 'resource', content: resource, source: 'bench' },
      ...screens.map((sc) => ({ file: `schemas/screens/bench/${sc.id}.json`, type: 'screen' as const, content: sc, source: 'bench' })),
    ],
    { lint: false },
  );
  const codeSet = new Set(codes);
  const runs = 50;
  let routes = 0;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const all = schemaScreenRoutes(registry);
    routes = all.length;
    buildRouteTable(all, codeSet);
  }
  results['route building, 1,000 menu entries (screens → routes → permitted/401)'] = (performance.now() - t0) / runs;
  results['routes built'] = routes;
}

async function validationBench() {
  const t0 = performance.now();
  const reg = await loadRegistry([bundledSource]);
  results['validating every bundled schema (first load, compiles meta-schemas)'] = performance.now() - t0;
  const t1 = performance.now();
  await loadRegistry([bundledSource]);
  results['validating every bundled schema (again)'] = performance.now() - t1;
  results['documents validated'] = (bundledSource.documents() as unknown[]).length;
  results['documents with errors'] = reg.broken.length;
}

async function main() {
  const resource = wideResource(COLUMNS);
  const formResource = wideResource(FORM_FIELDS);
  const registry = buildRegistry(
    [
      { file: 'schemas/resources/a.json', type: 'resource', content: resource, source: 'bench' },
      { file: 'schemas/screens/bench/table.json', type: 'screen', content: wideTable(resource, COLUMNS), source: 'bench' },
      { file: 'schemas/screens/bench/form.json', type: 'screen', content: bigForm(formResource, FORM_FIELDS), source: 'bench' },
    ],
    { lint: false },
  );
  // Resource documents allow at most 100 properties; the 200-field form's resource goes
  // straight into the index (the bench measures rendering, not the document rules).
  registry.resources.set(formResource.name, { doc: formResource, file: 'schemas/resources/b.json', source: 'bench' });
  if (registry.errors.length) throw new Error(registry.errors.map((e) => `${e.file}#${e.pointer} ${e.message}`).join('\n'));
  await validationBench();
  routeBench();
  await tableBench(registry);
  await formBench(registry);
}

main()
  .then(() => (window.__bench!.done = true))
  .catch((e: unknown) => {
    window.__bench!.error = e instanceof Error ? `${e.message}\n${e.stack}` : String(e);
    window.__bench!.done = true;
  });
