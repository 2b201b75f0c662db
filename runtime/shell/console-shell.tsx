/**
 * Everything of the shell the login page does not need, as one chunk: the session gate,
 * the layout (sidebar, tabs, top bar) and the pages behind it, and the other built-in
 * pages. AppRoutes imports it on demand (lazy-shell.tsx), so `/login` loads only the login
 * form and what it stands on (issue 10: ≤ 150 kB gzip before the form is usable).
 */
export { SessionGate } from './SessionGate.tsx';
export { ConsoleLayout } from './layout/ConsoleLayout.tsx';
export { DashboardPage } from './pages/DashboardPage.tsx';
export { ErrorLogPage } from './pages/ErrorLogPage.tsx';
export { NotFoundPage } from './pages/NotFoundPage.tsx';
export { StartPage } from './pages/StartPage.tsx';
export { StartPage2 } from './pages/StartPage2.tsx';
export { AuthRedirectPage } from './pages/AuthRedirectPage.tsx';
export { AdminEntryPage } from './pages/AdminEntryPage.tsx';
export { RedirectPage } from './pages/RedirectPage.tsx';
export { UnauthorizedPage } from './pages/UnauthorizedPage.tsx';
