/**
 * Renders screens in jsdom the way the console does (services, jotai session, i18next,
 * antd theme and App, a router) with the HTTP client's transport replaced by the
 * deterministic fixtures. For the schema snapshots and the renderer tests.
 */
import { resolve } from 'node:path';
import { render, waitFor, type RenderResult } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ServicesContext } from '../../runtime/services/context.ts';
import { createConsoleServices, type ConsoleServices } from '../../runtime/app/services.ts';
import { createDataProvider } from '../../runtime/app/data-provider.ts';
import { registerDefaultFeatures } from '../../runtime/app/default-features.ts';
import { createHttpClient } from '../../runtime/http/client.ts';
import { elementCodes, menuCodes } from '../../runtime/schema/menus.ts';
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import { preloadScreenViews, ScreenFrame } from '../../runtime/screens/ScreenView.tsx';
import { preloadIcons } from '../../runtime/icons/by-name.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import type { ScreenHost } from '../../runtime/screens/host.ts';
import { memoryStore } from '../../runtime/session/key-value.ts';
import { userInfoAtom } from '../../runtime/session/atoms.ts';
import type { Language } from '../../runtime/i18n/languages.ts';
import { fixtureTransport, type FixtureTransport } from './fixtures.ts';
import { viewOf } from '../../runtime/screens/widget-view.ts';
import { WIDGET_MANIFEST } from '../../widgets/manifest.ts';
import { LazyStepsView } from '../../runtime/screens/steps-view.ts';

// The renderers are chunks loaded on first use (ScreenView.tsx). Loaded here once, they
// render synchronously as before: a suspension inside testing-library's synchronous act()
// is never retried, and the snapshots describe the screens, not the loading skeleton.
await preloadScreenViews();
// Widgets are chunks too (widgets/manifest.ts, loaded through WidgetHost's lazy view): the
// same reason. The studio's widget loads its views in an effect, which act does flush. A
// widget that cannot load here (the render check's plain Node cannot import a widget's CSS)
// is left to fail where it is rendered, as before.
// A wizard's steps view is a chunk as well: a step that suspends inside it (a map) would never
// settle, and the render check would time out on every steps page (farmInitialization).
await Promise.all([
  ...Object.values(WIDGET_MANIFEST).flatMap((load) => (load ? [viewOf(load).preload().catch(() => undefined)] : [])),
  LazyStepsView.preload(),
]);
// Icons are files loaded by name on first use (runtime/icons/by-name.ts): those the
// bundled documents name are loaded here, so they render at once as they did before.
await preloadIcons(iconNamesIn((await folderSource(resolve(import.meta.dirname, '../..')).documents()).map((d) => JSON.parse(String(d.content)) as unknown)));

function iconNamesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) iconNamesIn(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === 'icon' && typeof v === 'string') out.push(v);
      else iconNamesIn(v, out);
    }
  return out;
}

/** What jsdom lacks and antd needs. */
export function stubBrowserApis(): void {
  if (!window.matchMedia)
    window.matchMedia = ((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    })) as typeof window.matchMedia;
  if (!globalThis.ResizeObserver)
    globalThis.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
  // jsdom lays nothing out; CodeMirror (the studio's editor) measures text ranges.
  const empty = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) } as DOMRect;
  if (typeof Range !== 'undefined' && !Range.prototype.getClientRects) {
    Range.prototype.getClientRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
    Range.prototype.getBoundingClientRect = () => empty;
  }
}

export interface Harness {
  services: ConsoleServices;
  transport: FixtureTransport;
}

/** Services whose client answers from fixtures, logged in as a user holding `codes` (default: every code of the menus). */
export function createHarness(
  registry: SchemaRegistry,
  opts: { language?: Language; menus?: string[]; elements?: string[]; pageExtra?: Record<string, unknown> } = {},
): Harness {
  registerDefaultFeatures();
  const transport = fixtureTransport(registry, { pageExtra: opts.pageExtra });
  const base = createConsoleServices({ cookies: memoryStore({ language: opts.language ?? 'zh', token: 'fixture' }), local: memoryStore() });
  const http = createHttpClient({
    baseUrl: '',
    getToken: () => 'fixture',
    getLanguage: () => (base.i18n.language as Language) ?? 'zh',
    notifier: base.notifier,
    translate: (k) => base.i18n.t(k),
    endSession: () => {},
    fetch: transport.fetch,
    log: () => {},
  });
  const services: ConsoleServices = { ...base, http, data: createDataProvider(http) };
  const menus = registry.menus?.doc;
  services.store.set(userInfoAtom, {
    id: 1,
    name: 'QA',
    description: null,
    farmId: null,
    farmName: null,
    farmType: null,
    groupId: null,
    groupName: null,
    menus: opts.menus ?? (menus ? menuCodes(menus) : []),
    elements: opts.elements ?? (menus ? elementCodes(menus) : []),
    roles: [],
    city: null,
    chiefFarmId: null,
  });
  return { services, transport };
}

export function Providers({ services, children, path = '/' }: { services: ConsoleServices; children: ReactNode; path?: string }) {
  return (
    <ServicesContext.Provider value={services}>
      <JotaiProvider store={services.store}>
        <I18nextProvider i18n={services.i18n}>
          <ConfigProvider button={{ autoInsertSpace: false }} theme={{ token: { colorPrimary: '#2f8f4e' } }}>
            <AntApp>
              <MemoryRouter initialEntries={[path]}>
                <Routes>
                  <Route path="*" element={children} />
                </Routes>
              </MemoryRouter>
            </AntApp>
          </ConfigProvider>
        </I18nextProvider>
      </JotaiProvider>
    </ServicesContext.Provider>
  );
}

export function renderScreen(h: Harness, registry: SchemaRegistry, screenId: string, host: Partial<ScreenHost> = {}): RenderResult {
  const screen = registry.screen(screenId);
  if (!screen) throw new Error(`no screen ${screenId}`);
  const full: ScreenHost = { registry, authority: screen.authority, routePattern: screen.route, params: {}, query: {}, ...host };
  return render(
    <Providers services={h.services}>
      <ScreenFrame screen={screen} host={full} />
    </Providers>,
  );
}

/** Until every fixture request is answered and nothing shows a skeleton or a busy grid. */
export async function settled(h: Harness, container: HTMLElement): Promise<void> {
  await waitFor(
    () => {
      if (h.transport.pending() > 0) throw new Error('requests pending');
      if (container.querySelector('.ant-skeleton, [aria-busy="true"], .sg-overlay')) throw new Error('still loading');
    },
    { timeout: 30_000 },
  );
  await new Promise((r) => setTimeout(r, 20));
  if (h.transport.pending() > 0) return settled(h, container);
}

/** The DOM as text without what changes from run to run (generated ids). */
export function stableHtml(container: HTMLElement, pretty: (el: HTMLElement) => string): string {
  return pretty(container)
    .replace(/«r[0-9a-z]+»/g, '«r»')
    .replace(/_r_[0-9a-z]+_/g, '_r_')
    .replace(/:r[0-9a-z]+:/g, ':r:')
    .replace(/rc_select_\d+/g, 'rc_select')
    .replace(/rc-tabs-\d+/g, 'rc-tabs');
}
