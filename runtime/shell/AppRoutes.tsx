import { useAtomValue, useStore } from 'jotai';
import { useEffect, useMemo } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { LazyAntdFrame } from './frame/lazy-antd.tsx';
import type { ScreenRoute } from './screen-route.ts';
import { ADMIN_ENTRY_PATH, AUTH_REDIRECT_PATH, decideAccess, HOME_PATH, LOGIN_PATH, normalisePath, START_PATH } from '../routing/access.ts';
import { buildRouteTable } from '../routing/route-table.ts';
import { menuCodesAtom, tokenAtom } from '../session/atoms.ts';
import { useServices } from '../services/context.ts';
import { ErrorBoundary } from '../errors/ErrorBoundary.tsx';
import { installGlobalErrorCapture } from '../errors/error-log.ts';
import { ERROR_LOG_PATH } from './route-meta.ts';
// Only the login page is in the first chunk; the rest of the shell loads on demand.
import { AdminEntryPage, AuthRedirectPage, ConsoleLayout, DashboardPage, ErrorLogPage, NotFoundPage, RedirectPage, SessionGate, StartPage, StartPage2, UnauthorizedPage } from './lazy-shell.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { FullScreenFrame } from './frame/FullScreenFrame.tsx';

/**
 * The access rules of spec 2.1 first, then the route table: public pages, and behind
 * the session gate the dashboard and the screens the user's menu codes permit. Because
 * the table is rebuilt from the menu codes, the navigation that waited for user info is
 * matched again as soon as the info arrives (step 5 of the session flow).
 */
export function AppRoutes({ screens }: { screens: readonly ScreenRoute[] }) {
  const location = useLocation();
  const token = useAtomValue(tokenAtom);
  const menuCodes = useAtomValue(menuCodesAtom);
  const store = useStore();
  const { profile } = useServices();

  // Uncaught errors and unhandled rejections anywhere in the console go to the error log.
  useEffect(() => installGlobalErrorCapture(store), [store]);

  const routes = useMemo<RouteObject[]>(() => {
    // Public screens (articles before login) need no session and sit outside the gate.
    const table = buildRouteTable(screens.filter((s) => !s.public && !s.fullScreen), menuCodes);
    // Full-screen screens (the full-screen maps, the regional big screen /qiqihaer) need a
    // session but stand outside the console layout, in a frame of their own (title, way back).
    const full = buildRouteTable(screens.filter((s) => !s.public && s.fullScreen), menuCodes);
    return [
      ...screens.filter((s) => s.public).map((s) => ({ path: absolute(s.path), element: s.element })),
      { path: LOGIN_PATH, element: <LoginPage /> },
      { path: START_PATH, element: <StartPage /> },
      // The rest of spec 2.2. /auth-redirect and /adminManagement need no token (spec 2.1);
      // /startpage2 and /redirect/* do (decideAccess sends a visitor without one to /login).
      { path: AUTH_REDIRECT_PATH, element: <AuthRedirectPage /> },
      { path: ADMIN_ENTRY_PATH, element: <AdminEntryPage /> },
      { path: '/startpage2', element: <StartPage2 /> },
      { path: '/redirect/*', element: <RedirectPage /> },
      { path: '/404', element: <NotFoundPage /> },
      { path: '/401', element: <UnauthorizedPage /> },
      {
        element: <SessionGate />,
        children: [
          ...full.permitted.map((s) => ({ path: absolute(s.path), element: <FullScreenFrame meta={s.meta}>{s.element}</FullScreenFrame> })),
          ...full.forbidden.map((s) => ({ path: absolute(s.path), element: <UnauthorizedPage /> })),
          {
            element: <ConsoleLayout screens={screens} />,
            children: [
              { path: HOME_PATH, element: <DashboardPage /> },
              { path: ERROR_LOG_PATH, element: <ErrorLogPage /> },
              ...table.permitted.map((s) => ({ path: absolute(s.path), element: s.element })),
              ...table.forbidden.map((s) => ({ path: absolute(s.path), element: <UnauthorizedPage embedded /> })),
              { path: '*', element: <NotFoundPage embedded /> },
            ],
          },
        ],
      },
    ];
  }, [screens, menuCodes]);

  const element = useRoutes(routes, location);
  const decision = decideAccess({ pathname: location.pathname, search: location.search, hasToken: !!token, product: profile });
  const page = <ErrorBoundary>{decision.kind === 'redirect' ? <Navigate to={decision.to} replace /> : element}</ErrorBoundary>;
  // The login page is plain React (its own CSS): /login loads no antd. Every other page
  // stands in antd's frame (theme, locale, the global size of spec 2.6, message and
  // Modal), fetched with antd. Both keep their place in the tree, so the login page keeps
  // what was typed when antd arrives, and the frame's messages outlive the page that
  // showed them.
  const plain = decision.kind !== 'redirect' && normalisePath(location.pathname).toLowerCase() === LOGIN_PATH.toLowerCase();
  return (
    <>
      <LazyAntdFrame needed={!plain}>{plain ? null : page}</LazyAntdFrame>
      {plain ? page : null}
    </>
  );
}

function absolute(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}
