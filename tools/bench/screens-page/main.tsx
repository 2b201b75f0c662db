/**
 * The benchmark page (built by tools/bench/browser-screens.ts, run in headless Chromium):
 * renders the real runtime components with generated data and reports timings taken
 * with performance.now() in `window.__bench`. Each figure names its phase: "request +
 * parse" is the HTTP client reading the 10,000 × 50 reply (~6 MB of JSON) from an in-page
 * transport, "data in memory" starts from the parsed reply, and "painted" ends when the
 * frame showing the result has been produced (see `painted`).
 */
import { Provider as JotaiProvider } from 'jotai';
import { type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { AntdFrame } from '../../../runtime/shell/frame/antd-frame.tsx';
import { ServicesContext } from '../../../runtime/services/context.ts';
import { createConsoleServices, type ConsoleServices } from '../../../runtime/app/services.ts';
import { createDataProvider } from '../../../runtime/app/data-provider.ts';
import { registerDefaultFeatures } from '../../../runtime/app/default-features.ts';
import { schemaScreenRoutes } from '../../../runtime/app/schema-screens.ts';
import { createHttpClient, type Envelope } from '../../../runtime/http/client.ts';
import { buildRouteTable } from '../../../runtime/routing/route-table.ts';
import { bundledRegistry } from '../../../runtime/app/bundled-screens.ts';
import { bundledSource } from '../../../runtime/schema/bundled.ts';
import { assembleRegistry, gatherDocuments } from '../../../runtime/schema/registry-core.ts';
import { buildRegistry, loadRegistry, type SchemaRegistry } from '../../../runtime/schema/registry.ts';
import type { TableParts } from '../../../runtime/schema/screen.ts';
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

/** Numbers are milliseconds; counts are strings. */
type Results = Record<string, number | string>;
declare global {
  interface Window {
    __bench?: { done: boolean; results: Results; error?: string };
  }
}

const results: Results = {};
/** `?profile=table|memory|selection|form`: that phase runs under console.profile (read by BENCH_PROFILE). */
const profiled = new URLSearchParams(location.search).get('profile');
function profileStart(phase: string): void {
  if (profiled === phase) console.profile(phase);
}
function profileEnd(phase: string): void {
  if (profiled === phase) console.profileEnd(phase);
}
window.__bench = { done: false, results };

/**
 * When the frame holding the current DOM has been produced: a requestAnimationFrame
 * callback runs before that frame's style, layout and paint; a message posted from it
 * is handled after them. Returns that moment (performance.now()).
 */
function painted(): Promise<number> {
  return new Promise((r) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => r(performance.now());
      ch.port2.postMessage(0);
    }),
  );
}

/** Style and layout of the committed DOM, forced now (what the next frame would do first). */
function layoutNow(el: HTMLElement): number {
  void el.getBoundingClientRect().height;
  return performance.now();
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
  registerDefaultFeatures();
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
  const s = { ...base, http, data: createDataProvider(http) };
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
          {/* The console's antd frame: its theme, locale, size and no click wave. */}
          <AntdFrame>
            <MemoryRouter>
              <ScreenHostContext.Provider value={host}>{children}</ScreenHostContext.Provider>
            </MemoryRouter>
          </AntdFrame>
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
  const screen = registry.screen('benchTable')!;
  if (screen.kind !== 'table') throw new Error('benchTable');
  const page = (n: number) => JSON.stringify({ status: 200, message: 'ok', data: { rows: rows(ROWS, COLUMNS, n), total: ROWS * 2, pageIndex: n, pageSize: ROWS } });
  const s = services(new Map([[1, page(1)], [2, page(2)]]));
  const host: ScreenHost = { registry, authority: 'bench', params: {}, query: {} };
  const view = (id: string, sv: ConsoleServices, parts: TableParts = screen) => (
    <Providers s={sv} host={host}>
      <TableView id={id} parts={parts} resource={screen.resource} title={screen.title} ctx={{}} />
    </Providers>
  );
  const firstRow = (el: HTMLElement, key: number) => () => !!el.querySelector(`tbody tr[data-row-key="${key}"]`);

  // Warm-up: the first mount of antd components generates and injects their styles, and
  // antd removes them again when the last user unmounts. A console keeps its shell and
  // other screens mounted, so a small list stays mounted (hidden) while the big one is
  // measured: the figures are a list opened in a running console, not antd's first use.
  const warm = mount();
  flushSync(() => warm.root.render(view('warm', s, { ...screen, pageSize: 10 })));
  await when(warm.el, firstRow(warm.el, 1));
  warm.el.hidden = true;
  await painted();

  // The reply alone: the HTTP client fetching and parsing one 10,000 × 50 page.
  {
    const r0 = performance.now();
    await s.http.get('/api/bench/r50/page', { pageIndex: 1, pageSize: ROWS });
    results['table: request + parse of the 10,000 × 50 reply'] = performance.now() - r0;
  }

  // The list with the page already parsed: what the renderer itself costs.
  {
    const parsed = await s.http.get('/api/bench/r50/page', { pageIndex: 1, pageSize: ROWS });
    const inMemory: ConsoleServices = { ...s, http: { ...s.http, get: async <T,>() => parsed as Envelope<T> } };
    await painted();
    const m = mount();
    profileStart('memory');
    const t0 = performance.now();
    m.root.render(view('memory', inMemory));
    const tRows = await when(m.el, firstRow(m.el, 1));
    const tLayout = layoutNow(m.el);
    const tPaint = await painted();
    profileEnd('memory');
    results['table render, 10,000 × 50, data in memory: rows committed'] = tRows - t0;
    results['table render, 10,000 × 50, data in memory: committed + layout'] = tLayout - t0;
    results['table render, 10,000 × 50, data in memory: first rows painted'] = tPaint - t0;
    m.dispose();
  }

  await painted();
  const m = mount();
  profileStart('table');
  const t0 = performance.now();
  m.root.render(view('bench', s));
  await when(m.el, firstRow(m.el, 1));
  const tPaint = await painted();
  profileEnd('table');
  results['table first render incl. request + parse: first rows painted'] = tPaint - t0;
  results['table rows in the DOM (virtualised)'] = String(m.el.querySelectorAll('tbody tr[data-row-key]').length);
  results['table cells in the first row (virtualised columns)'] = String(m.el.querySelectorAll('tbody tr[data-row-key="1"] > td').length);

  // Row selection: click a row's checkbox until the row says it is selected. React handles
  // the click as a discrete event, so the commit is done when the mutation is observed.
  const selection: number[] = [];
  const selectionPaint: number[] = [];
  profileStart('selection');
  for (const key of [3, 4, 5, 3, 4]) {
    await painted();
    const box = m.el.querySelector<HTMLInputElement>(`tbody tr[data-row-key="${key}"] input[type=checkbox]`)!;
    const want = box.checked ? 'false' : 'true';
    const s0 = performance.now();
    box.click();
    await when(m.el, () => m.el.querySelector(`tbody tr[data-row-key="${key}"]`)?.getAttribute('aria-selected') === want);
    selection.push(layoutNow(m.el) - s0);
    selectionPaint.push((await painted()) - s0);
  }
  profileEnd('selection');
  results['row selection: click → committed + layout (median of 5)'] = median(selection);
  results['row selection: click → next frame painted (median of 5, incl. wait for vsync)'] = median(selectionPaint);

  // Change page: the pagination's page 2 until its first row is painted.
  await painted();
  const next = m.el.querySelector<HTMLElement>('.ant-pagination-item-2')!;
  const p0 = performance.now();
  next.click();
  await when(m.el, firstRow(m.el, ROWS + 1));
  results['change page incl. request + parse: first rows painted'] = (await painted()) - p0;
  m.dispose();

  // The grid alone, data already in memory.
  const data = rows(ROWS, COLUMNS, 3);
  const cols: GridColumn[] = Array.from({ length: COLUMNS }, (_, i) => ({ id: `f${i}`, title: `列 ${i}`, width: 120, text: (r) => String(r[`f${i}`] ?? '') }));
  await painted();
  const g = mount();
  const g0 = performance.now();
  flushSync(() => g.root.render(<Providers s={s} host={host}><DataGrid columns={cols} rows={data} rowKey={(r) => String(r.id)} selection="multiple" /></Providers>));
  results['grid alone, 10,000 × 50 in memory: painted'] = (await painted()) - g0;
  g.dispose();
  warm.dispose();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function formBench(registry: SchemaRegistry) {
  const screen = registry.screen('benchForm')!;
  if (screen.kind !== 'form') throw new Error('benchForm');
  const s = services(new Map());
  const host: ScreenHost = { registry, authority: 'bench', params: {}, query: {} };
  // Warm-up kept mounted (hidden) for the reason given in tableBench.
  const warm = mount();
  flushSync(() => warm.root.render(<Providers s={s} host={host}><FormView screen={{ ...screen, sections: screen.sections.slice(0, 1) }} mode="add" onDone={() => {}} /></Providers>));
  await painted();
  warm.el.hidden = true;
  await painted();
  const m = mount();
  const fields = () => m.el.querySelectorAll('.ant-form-item').length;
  profileStart('form');
  const t0 = performance.now();
  flushSync(() => m.root.render(<Providers s={s} host={host}><FormView screen={screen} mode="add" onDone={() => {}} /></Providers>));
  const tCommit = layoutNow(m.el);
  const tPaint = await painted();
  results['form first render, 200 fields: committed + layout'] = tCommit - t0;
  results['form first render, 200 fields: first fields painted'] = tPaint - t0;
  results['form fields in the DOM at first paint'] = String(fields());
  const tAll = await when(m.el, () => fields() >= FORM_FIELDS);
  results['form: all 200 fields in the DOM'] = tAll - t0;
  results['form: all 200 fields painted'] = (await painted()) - t0;
  profileEnd('form');
  m.dispose();
  warm.dispose();
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
  results['routes built'] = String(routes);
}

async function validationBench() {
  // What the console does at start: the bundled documents, checked at build time, taken as they are.
  const t0 = performance.now();
  await bundledRegistry();
  results['registry of the bundled documents at start (trusted: no validation)'] = performance.now() - t0;
  // What a published revision (the studio) costs: every document through the meta-schema
  // validators compiled ahead of time and the rules across documents; nothing is compiled.
  const untrusted = { ...bundledSource, trusted: false };
  const t1 = performance.now();
  const reg = await loadRegistry([untrusted]);
  results['validating every bundled schema (first load, precompiled meta-schemas)'] = performance.now() - t1;
  const t2 = performance.now();
  await loadRegistry([untrusted]);
  results['validating every bundled schema (again)'] = performance.now() - t2;
  results['documents validated'] = String((bundledSource.documents() as unknown[]).length);
  results['documents with errors'] = String(reg.broken.length);
}

/**
 * `?cold=RxC`: a fresh page renders one table of R rows × C columns with its data already
 * in memory, timed from the renderer's start: the registry of the bundled documents (as
 * the console builds it at start) plus the table's own documents, then the table mounted
 * until its first row is painted. Nothing is warmed up: antd generates its styles here
 * too, as on a console's first table. Also timed from navigation (performance.now()'s
 * origin), which adds loading and evaluating the page's scripts.
 */
async function coldTable(spec: string) {
  const [rowCount, columnCount] = spec.split('x').map(Number);
  const resource = wideResource(columnCount);
  const table = { ...wideTable(resource, columnCount), pageSize: Math.min(rowCount, 10_000) };
  const parsed = JSON.parse(JSON.stringify({ status: 200, message: 'ok', data: { rows: rows(rowCount, columnCount, 1), total: rowCount, pageIndex: 1, pageSize: rowCount } })) as Envelope<unknown>;
  const base = services(new Map());
  const http = { ...base.http, request: async <T,>() => parsed as Envelope<T> };
  const s: ConsoleServices = { ...base, http, data: createDataProvider(http) };
  await painted();

  profileStart('cold');
  const t0 = performance.now();
  const docs = await gatherDocuments([bundledSource]);
  const registry = assembleRegistry(
    [
      ...docs,
      { file: 'schemas/resources/bench.json', type: 'resource', content: resource, source: 'bench', trusted: true },
      { file: 'schemas/screens/bench/table.json', type: 'screen', content: table, source: 'bench', trusted: true },
    ],
    null,
  );
  const tRegistry = performance.now();
  const screen = registry.screen('benchTable')!;
  if (screen.kind !== 'table') throw new Error('benchTable');
  const host: ScreenHost = { registry, authority: 'bench', params: {}, query: {} };
  const m = mount();
  m.root.render(
    <Providers s={s} host={host}>
      <TableView id="cold" parts={screen} resource={screen.resource} title={screen.title} ctx={{}} />
    </Providers>,
  );
  await when(m.el, () => !!m.el.querySelector('tbody tr[data-row-key="1"]'));
  const tPaint = await painted();
  profileEnd('cold');
  results[`cold ${rowCount} × ${columnCount}: registry built`] = tRegistry - t0;
  results[`cold ${rowCount} × ${columnCount}: first row painted, from the renderer's start`] = tPaint - t0;
  results[`cold ${rowCount} × ${columnCount}: first row painted, from navigation`] = tPaint;
}

async function main() {
  const cold = new URLSearchParams(location.search).get('cold');
  if (cold) return coldTable(cold);
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
