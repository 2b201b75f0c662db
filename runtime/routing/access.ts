/**
 * The access rules of spec section 2.1, as pure functions of the path and whether a
 * token exists. The router's gate applies them before anything renders.
 */

/**
 * Reachable without a token, whatever the product: the runtime's own pages. Compared
 * case-insensitively, as the original router did. The product adds its own
 * (ProductProfile.publicPaths and publicPathFragments).
 */
export const RUNTIME_PUBLIC_PATHS: readonly string[] = ['/login', '/startpage', '/auth-redirect'];

/** The product's public paths (runtime/services/contract.ts, ProductProfile). */
export interface PublicPaths {
  publicPaths: readonly string[];
  /** Any path containing one of these is public too. */
  publicPathFragments: readonly string[];
}

export const LOGIN_PATH = '/login';
export const START_PATH = '/startPage';
export const HOME_PATH = '/dashboard';
export const AUTH_REDIRECT_PATH = '/auth-redirect';
export const ADMIN_ENTRY_PATH = '/adminManagement';
/** `/login?notice=passwordChanged`: the login page says why the user is there again. */
export const NOTICE_PARAM = 'notice';
export const PASSWORD_CHANGED = 'passwordChanged';

export type AccessDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

export function normalisePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function isPublicPath(pathname: string, product: PublicPaths): boolean {
  const path = normalisePath(pathname).toLowerCase();
  if ([...RUNTIME_PUBLIC_PATHS, ...product.publicPaths].some((p) => p.toLowerCase() === path)) return true;
  return product.publicPathFragments.some((f) => pathname.includes(f));
}

export function decideAccess(input: { pathname: string; search?: string; hasToken: boolean; product: PublicPaths }): AccessDecision {
  const path = normalisePath(input.pathname);
  if (path === '/') return { kind: 'redirect', to: START_PATH };
  // The login page's own navigation and this rule must agree: the token is set before the
  // router has moved off /login, and a rule that sent the render in between to the
  // dashboard overrode the redirect target (issue 10, item 5).
  if (input.hasToken && path.toLowerCase() === LOGIN_PATH) return { kind: 'redirect', to: afterLoginTarget(input.search ?? '') };
  if (isPublicPath(path, input.product)) return { kind: 'allow' };
  if (!input.hasToken) return { kind: 'redirect', to: loginUrl(input.pathname + (input.search ?? '')) };
  return { kind: 'allow' };
}

/** /login with the original path (and its query) in `redirect`. */
export function loginUrl(original?: string): string {
  const path = normalisePath(original?.split(/[?#]/)[0] ?? '/').toLowerCase();
  if (path === '/' || path === LOGIN_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(original!)}`;
}

/**
 * Where to go after logging in: the `redirect` parameter when it is a path of this
 * console, else the dashboard. Other origins (`//x`, `http:`, `/\x`) are refused so the
 * login page cannot be used to send users elsewhere.
 */
export function afterLoginTarget(search: string): string {
  const redirect = new URLSearchParams(search).get('redirect');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\') || /[\u0000-\u001f]/.test(redirect)) return HOME_PATH;
  if (normalisePath(redirect.split(/[?#]/)[0]).toLowerCase() === LOGIN_PATH) return HOME_PATH;
  return redirect;
}
