/**
 * The studio's coverage report (issue 14, "a coverage report"): what the effective set of
 * documents and the roles of the database leave uncovered. Pure over its inputs (a
 * registry, the roles, the server's routes), so the API test and the route share it.
 *
 * - authority keys no screen uses: menu codes of entries (not sections, which only group
 *   entries) that no screen claims as its authority or an alias's;
 * - screens no role can reach: routed screens none of whose routes' menu codes any role of
 *   the database holds (roles reserved to the platform listed apart: they hold every code);
 * - element codes no action uses: element codes of the menu tree that no action of any
 *   screen needs (runtime/screens/gating.ts requiredElementCodes, the function the console
 *   gates with) and no screen names in its props (a widget's `editElement`);
 * - endpoints shown by a screen but not guarded by the server: literal endpoints of screens
 *   (resource operations are always guarded by the engine, docs/resources.md) that no
 *   route of the server serves, or that a public route serves while the screen needs a
 *   session and a menu code.
 */
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { MenuDocument } from '../../runtime/schema/menus.ts';
import type { LocalizedText } from '../../runtime/protocol/texts.ts';
import { describePlace, placeOf } from '../../runtime/schema/places.ts';
import type { Lang } from '../../runtime/schema/texts.ts';
import { ACTION_KINDS, isResourceEndpoint, resolveElementCode, screenRoutes, type Action, type Screen } from '../../runtime/schema/screen.ts';
import { requiredElementCodes } from '../../runtime/screens/gating.ts';

export interface RoleGrants {
  code: string;
  name: LocalizedText;
  menus: readonly string[];
  elements: readonly string[];
  platform: boolean;
}

export interface ServedRoute {
  method: string;
  /** Fastify's pattern, `:param` segments. */
  path: string;
  /** Served without a session (route config `public`). */
  public: boolean;
}

export interface CoverageReport {
  unusedAuthorities: { code: string; title: LocalizedText | null; section: string }[];
  unreachableScreens: { id: string; title: LocalizedText | null; file: string; routes: string[]; authorities: string[]; onlyPlatformRoles: boolean }[];
  unusedElements: { code: string; title: LocalizedText | null; menu: string }[];
  /** `screenTitle` and `place` (the block showing the endpoint: «列「…」（/columns/2）», in each language) name it for a configurer. */
  unguardedEndpoints: {
    screen: string;
    screenTitle: LocalizedText | null;
    file: string;
    pointer: string;
    place: LocalizedText;
    method: string;
    path: string;
    reason: 'notServed' | 'public';
  }[];
  counts: { screens: number; authorities: number; elements: number; roles: number; endpoints: number };
}

/** The block holding `pointer` in each language («列「状态」（/columns/2）»; the screen itself when none). */
function placeTexts(screen: Screen, pointer: string, registry: SchemaRegistry): LocalizedText {
  const resources = (name: string) => registry.resource(name) ?? undefined;
  const say = (lang: Lang) => describePlace(placeOf(screen, pointer, resources, lang), lang);
  return { zh: say('zh'), en: say('en'), es: say('es') };
}

export function coverageReport(registry: SchemaRegistry, roles: readonly RoleGrants[], served: readonly ServedRoute[]): CoverageReport {
  const menus: MenuDocument | null = registry.menus?.doc ?? null;
  const entries = (menus?.menus ?? []).flatMap((s) => s.children.map((c) => ({ section: s.code, entry: c })));
  const sections = new Set((menus?.menus ?? []).map((s) => s.code));
  const screens = [...registry.screens.values()];

  const usedAuthorities = new Set<string>();
  const usedElements = new Set<string>();
  const knownElements = new Set(entries.flatMap(({ entry }) => (entry.elements ?? []).map((e) => e.code)));
  for (const s of (menus?.menus ?? [])) for (const e of s.elements ?? []) knownElements.add(e.code);
  const endpoints: CoverageReport['unguardedEndpoints'] = [];
  let endpointCount = 0;

  for (const { screen, file } of screens) {
    const authorities = [...new Set([screen.authority, ...(screen.aliases ?? []).map((a) => a.authority ?? screen.authority)])];
    for (const a of authorities) usedAuthorities.add(a);
    walk(screen, '', (node, pointer) => {
      if (isAction(node)) {
        for (const authority of authorities) {
          const gc = { elements: new Set<string>(), authority, registry, resource: screen.resource };
          for (const code of requiredElementCodes(node, gc)) usedElements.add(code);
        }
      }
      if (typeof node === 'string') {
        // A prop naming an element code (a widget's editElement ":edit", a column's element).
        if (knownElements.has(node)) usedElements.add(node);
        else if (/^:[A-Za-z][\w-]*$/.test(node)) for (const a of authorities) usedElements.add(resolveElementCode(node, a));
      }
      if (isLiteralEndpoint(node)) {
        endpointCount++;
        const method = (node.method ?? 'GET').toUpperCase();
        const route = served.find((r) => r.method === method && samePath(r.path, node.path));
        const named = { screen: screen.id, screenTitle: (screen.title as LocalizedText | undefined) ?? null, file, pointer, place: placeTexts(screen, pointer, registry), method, path: node.path };
        if (!route) endpoints.push({ ...named, reason: 'notServed' });
        else if (route.public && !screen.public) endpoints.push({ ...named, reason: 'public' });
      }
    });
  }

  const unusedAuthorities = entries
    .filter(({ entry }) => !usedAuthorities.has(entry.code) && !sections.has(entry.code))
    .map(({ section, entry }) => ({ code: entry.code, title: entry.title ?? null, section }));

  const unusedElements = entries.flatMap(({ entry }) =>
    (entry.elements ?? []).filter((e) => !usedElements.has(e.code)).map((e) => ({ code: e.code, title: e.title ?? null, menu: entry.code })),
  );

  const held = (rs: readonly RoleGrants[]) => new Set(rs.flatMap((r) => r.menus));
  const heldByAny = held(roles);
  const heldByOrdinary = held(roles.filter((r) => !r.platform));
  const unreachableScreens: CoverageReport['unreachableScreens'] = [];
  for (const { screen, file } of screens) {
    const routes = screenRoutes(screen);
    if (!routes.length || screen.public) continue;
    const authorities = [...new Set(routes.map((r) => r.authority))];
    if (authorities.some((a) => heldByOrdinary.has(a))) continue;
    unreachableScreens.push({
      id: screen.id,
      title: (screen.title as LocalizedText | undefined) ?? null,
      file,
      routes: routes.map((r) => r.route),
      authorities,
      onlyPlatformRoles: authorities.some((a) => heldByAny.has(a)),
    });
  }

  return {
    unusedAuthorities,
    unreachableScreens,
    unusedElements,
    unguardedEndpoints: endpoints,
    counts: { screens: screens.length, authorities: entries.length, elements: knownElements.size, roles: roles.length, endpoints: endpointCount },
  };
}

function isAction(node: unknown): node is Action {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return false;
  const kind = (node as { kind?: unknown }).kind;
  if (!(ACTION_KINDS as readonly unknown[]).includes(kind)) return false;
  // Screens have kinds too ("table", "form"): an action always has a label.
  return 'label' in node;
}

function isLiteralEndpoint(node: unknown): node is { method?: string; path: string } {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return false;
  const e = node as { path?: unknown };
  return typeof e.path === 'string' && e.path.startsWith('/') && !isResourceEndpoint(node as never) && ('method' in node || 'params' in node || 'query' in node || Object.keys(node).length === 1);
}

/** Fastify's `:param` and the schema's `:param` (or a literal where the server has a parameter) match. */
function samePath(serverPath: string, schemaPath: string): boolean {
  const a = serverPath.replace(/^\/api/, '').split('/');
  const b = schemaPath.replace(/^\/api/, '').split('/');
  return a.length === b.length && a.every((x, i) => x === b[i] || x.startsWith(':') || b[i].startsWith(':'));
}

function walk(node: unknown, pointer: string, visit: (node: unknown, pointer: string) => void): void {
  visit(node, pointer);
  if (Array.isArray(node)) node.forEach((x, i) => walk(x, `${pointer}/${i}`, visit));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit);
}

/** Roles as the view-as picker shows them: each role's codes intersected with the caller's own. */
export function viewAsRoles(roles: readonly RoleGrants[], caller: { menus: ReadonlySet<string>; elements: ReadonlySet<string> }) {
  return roles.map((r) => ({
    role: r.code,
    name: r.name,
    menus: r.menus.filter((m) => caller.menus.has(m)),
    elements: r.elements.filter((e) => caller.elements.has(e)),
  }));
}

export type { Screen };
