import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, useLocation, useNavigate } from 'react-router-dom';
import { tokenAtom, userInfoAtom } from '../session/atoms.ts';
// Types only: the module (bundled documents, the checks) loads after login, not with the login page.
import type { LiveScreens } from './published-screens.ts';
import { LOGIN_PATH, normalisePath, START_PATH } from '../routing/access.ts';
import { AppRoutes } from '../shell/AppRoutes.tsx';
import { ServicesContext, useServices } from '../services/context.ts';
import type { ScreenRoute } from '../shell/screen-route.ts';
import type { ConsoleServices } from './services.ts';

export interface ConsoleAppProps {
  services: ConsoleServices;
  /**
   * Gated screens (from the schema runtime), the promise of them while the documents
   * load, or the function that loads them, called the first time a page needs them (a
   * gated path, or a session: the page after sign-in), so that `/login` loads none
   * (console-loading.ts); none means only the built-in pages.
   */
  screens?: ScreenSupply;
}

/**
 * The whole console: providers, the router and the routes. antd's providers (locale,
 * size, theme, message and Modal) are not here: they load with antd around the pages
 * that use it (AppRoutes, lazy-antd.tsx), so that /login renders without antd.
 */
export function ConsoleApp({ services, screens = [] }: ConsoleAppProps) {
  return (
    <ServicesContext.Provider value={services}>
      <JotaiProvider store={services.store}>
        <I18nextProvider i18n={services.i18n}>
          <BrowserRouter>
            <NavigatorBridge />
            <RoutesWhenReady screens={screens} />
          </BrowserRouter>
        </I18nextProvider>
      </JotaiProvider>
    </ServicesContext.Provider>
  );
}

type ScreenSupply = readonly ScreenRoute[] | Promise<readonly ScreenRoute[]> | (() => Promise<readonly ScreenRoute[]>);

const NO_SCREENS: readonly ScreenRoute[] = [];
/** Pages that depend on no screen (normalised, lower case): shown before the screens have loaded. */
const WITHOUT_SCREENS = new Set(['/', LOGIN_PATH, START_PATH, '/404', '/401'].map((p) => p.toLowerCase()));

/**
 * The routes once the screens are known. Until then only the pages that need none render
 * (the login page first of all); any other path shows nothing yet, as the console did when
 * it waited for its documents before the first render, so no route is judged 404 or 401
 * against a table that is still missing its screens.
 */
function RoutesWhenReady({ screens: supply }: { screens: ScreenSupply }) {
  const location = useLocation();
  const token = useAtomValue(tokenAtom);
  const needed = !!token || !WITHOUT_SCREENS.has(normalisePath(location.pathname).toLowerCase());
  // A loader is called once, the first time a page needs the screens.
  const [requested, setRequested] = useState<Promise<readonly ScreenRoute[]> | null>(null);
  useEffect(() => {
    if (typeof supply === 'function' && needed && !requested) setRequested(supply());
  }, [supply, needed, requested]);
  const screens = typeof supply === 'function' ? requested : supply;
  const [loaded, setLoaded] = useState<{ from: unknown; routes: readonly ScreenRoute[] } | null>(null);
  useEffect(() => {
    if (!(screens instanceof Promise)) return;
    let alive = true;
    void screens.then((routes) => alive && setLoaded({ from: screens, routes }));
    return () => {
      alive = false;
    };
  }, [screens]);
  const ready = screens instanceof Promise ? (loaded?.from === screens ? loaded.routes : null) : screens;
  const live = useLiveScreens(ready !== null && ready !== NO_SCREENS && ready.length > 0);
  // The same element in both branches, so the login page keeps its state when the screens arrive.
  if (ready)
    return (
      <>
        <AppRoutes screens={live.routes ?? ready} />
        {live.notice ? <NewerVersionNotice onReload={live.apply} /> : null}
      </>
    );
  if (WITHOUT_SCREENS.has(normalisePath(location.pathname).toLowerCase())) return <AppRoutes screens={NO_SCREENS} />;
  return null;
}

interface Pending {
  next: LiveScreens;
  changed: ReadonlySet<string>;
  /** The path open when it arrived: it is applied on the next navigation away from it. */
  at: string;
}

/**
 * The screens published from the studio (docs/studio.md, "Push"): after login the console
 * fetches the published set and builds its routes from bundled + published; it listens to
 * the server's events, and on a publish fetches the set again. The new routes wait for the
 * next navigation, so the open screen never changes under the user's hands; when the open
 * screen's own document changed, a notice says so and offers to show the new version now.
 */
function useLiveScreens(enabled: boolean): { routes: readonly ScreenRoute[] | null; notice: boolean; apply(): void } {
  const services = useServices();
  const user = useAtomValue(userInfoAtom);
  const location = useLocation();
  const [live, setLive] = useState<LiveScreens | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const pathRef = useRef(location.pathname);
  pathRef.current = location.pathname;
  const loggedIn = !!user;

  useEffect(() => {
    if (!enabled || !loggedIn) {
      setLive(null);
      setPending(null);
      return;
    }
    let alive = true;
    let loading = false;
    let again = false;
    const refresh = async () => {
      if (loading) {
        again = true;
        return;
      }
      loading = true;
      try {
        do {
          again = false;
          try {
            const { liveScreens, changedScreens } = await import('./published-screens.ts');
            const next = await liveScreens(services.data);
            if (!alive) return;
            const current = liveRef.current;
            if (!current) setLive(next);
            else if (next.generation !== (pendingRef.current?.next.generation ?? current.generation)) {
              setPending({ next, changed: changedScreens(current.registry, next.registry), at: pathRef.current });
            }
          } catch {
            // The server did not answer: the next event (or reconnection) tries again.
          }
        } while (again && alive);
      } finally {
        loading = false;
      }
    };
    void refresh();
    const subscription = services.data.subscribe?.('schemaEvents', {
      onEvent(event, data) {
        if (event !== 'published' && event !== 'hello') return;
        const generation = (data as { generation?: unknown } | null)?.generation;
        const known = pendingRef.current?.next.generation ?? liveRef.current?.generation;
        if (generation !== known) void refresh();
      },
      // A stream that dropped may have missed a publish: read the set again on reconnection.
      onOpen: () => void refresh(),
    });
    return () => {
      alive = false;
      subscription?.close();
    };
  }, [enabled, loggedIn, services]);

  // The next navigation takes the new revision.
  useEffect(() => {
    if (pending && location.pathname !== pending.at) {
      setLive(pending.next);
      setPending(null);
    }
  }, [location.pathname, pending]);

  const openId = pending && live ? live.registry.match(location.pathname)?.screen.screen.id : undefined;
  return {
    routes: live?.routes ?? null,
    notice: openId !== undefined && !!pending?.changed.has(openId),
    apply: () => {
      if (!pendingRef.current) return;
      setLive(pendingRef.current.next);
      setPending(null);
    },
  };
}

/** "A newer version of this screen was published", with the action to show it. Plain markup: it needs no antd. */
function NewerVersionNotice({ onReload }: { onReload(): void }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      data-testid="schema-update-notice"
      style={{
        position: 'fixed',
        right: 24,
        bottom: 24,
        zIndex: 1100,
        display: 'flex',
        gap: 12,
        alignItems: 'center',
        padding: '10px 16px',
        background: '#fffbe6',
        border: '1px solid #ffe58f',
        borderRadius: 8,
        boxShadow: '0 6px 16px rgba(0,0,0,0.08)',
        fontSize: 14,
      }}
    >
      <span>{t('schemaUpdate.notice')}</span>
      <button type="button" onClick={onReload} style={{ cursor: 'pointer', border: '1px solid #2f8f4e', background: '#2f8f4e', color: '#fff', borderRadius: 6, padding: '4px 12px' }}>
        {t('schemaUpdate.reload')}
      </button>
    </div>
  );
}

/** Lets code outside React (the client's "go to /login") navigate without a page load. */
function NavigatorBridge() {
  const services = useServices();
  const navigate = useNavigate();
  useEffect(() => services.setNavigator((path) => void navigate(path)), [services, navigate]);
  return null;
}
