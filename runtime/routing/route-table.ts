/**
 * Gated routes from menu codes (spec sections 2.1, 2.3, 2.4 and 6). A route carries an
 * authority key; it is permitted when the user holds that menu code, or when its
 * authority is empty (spec 2.4 has such routes). Routes the user may not open are kept
 * apart so that the router shows the 401 screen for them rather than the 404 one.
 *
 * The screens come from outside (the screen registry of the schema runtime); this
 * module knows nothing of them beyond path and authority.
 */
import { can } from '../access/can.ts';
export interface GatedRoute {
  /** React Router path relative to the root, parameters included (`farmPlantGroup/list`, `detail/:id`). */
  path: string;
  /** Menu code that grants the route; empty, absent or `*` means any logged-in user. */
  authority?: string;
}

export interface RouteTable<R extends GatedRoute> {
  permitted: R[];
  forbidden: R[];
}

export function buildRouteTable<R extends GatedRoute>(routes: readonly R[], menuCodes: ReadonlySet<string>): RouteTable<R> {
  const table: RouteTable<R> = { permitted: [], forbidden: [] };
  for (const route of routes) {
    // `*`: a screen for any signed-in user (runtime/schema/screen.ts SIGNED_IN).
    if (!route.authority || route.authority === '*' || can({ menus: menuCodes }, route.authority)) table.permitted.push(route);
    else table.forbidden.push(route);
  }
  return table;
}

/** `/{parent path}/{child path}`: the link of a menu entry (spec section 2.6). */
export function menuLink(...segments: string[]): string {
  return '/' + segments.map((s) => s.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
}
