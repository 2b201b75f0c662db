import { Provider as JotaiProvider } from 'jotai';
import { useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, useLocation, useNavigate } from 'react-router-dom';
import { LOGIN_PATH, normalisePath, START_PATH } from '../routing/access.ts';
import { AppRoutes } from '../shell/AppRoutes.tsx';
import { ServicesContext, useServices } from '../services/context.ts';
import type { ScreenRoute } from '../shell/screen-route.ts';
import type { ConsoleServices } from './services.ts';

export interface ConsoleAppProps {
  services: ConsoleServices;
  /**
   * Gated screens (from the schema runtime), or the promise of them while the documents
   * load; none means only the built-in pages.
   */
  screens?: readonly ScreenRoute[] | Promise<readonly ScreenRoute[]>;
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

const NO_SCREENS: readonly ScreenRoute[] = [];
/** Pages that depend on no screen (normalised, lower case): shown before the screens have loaded. */
const WITHOUT_SCREENS = new Set(['/', LOGIN_PATH, START_PATH, '/404', '/401'].map((p) => p.toLowerCase()));

/**
 * The routes once the screens are known. Until then only the pages that need none render
 * (the login page first of all); any other path shows nothing yet, as the console did when
 * it waited for its documents before the first render, so no route is judged 404 or 401
 * against a table that is still missing its screens.
 */
function RoutesWhenReady({ screens }: { screens: readonly ScreenRoute[] | Promise<readonly ScreenRoute[]> }) {
  const location = useLocation();
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
  // The same element in both branches, so the login page keeps its state when the screens arrive.
  if (ready) return <AppRoutes screens={ready} />;
  if (WITHOUT_SCREENS.has(normalisePath(location.pathname).toLowerCase())) return <AppRoutes screens={NO_SCREENS} />;
  return null;
}

/** Lets code outside React (the client's "go to /login") navigate without a page load. */
function NavigatorBridge() {
  const services = useServices();
  const navigate = useNavigate();
  useEffect(() => services.setNavigator((path) => void navigate(path)), [services, navigate]);
  return null;
}
