/**
 * What a lint rule is handed: the documents of one check (screens, resources, menus,
 * widget names, served endpoints) with the look-ups every rule would otherwise rebuild,
 * and, for a screen rule, the screen's routes, authorities and resource. Rules are plain
 * `{ id, description, check }` objects (rules/index.ts lists them), so the registry,
 * schemas:check, the server's publish step and a studio run the same checks.
 */
import type { PublicPaths } from '../../routing/access.ts';
import { childLink, elementCodes as menuElementCodes, menuCodes, type MenuChild, type MenuDocument } from '../menus.ts';
import type { ResourceDocument } from '../resource/types.ts';
import { routeShape } from '../route-shape.ts';
import { screenRoutes, type HttpMethod, type Screen } from '../screen.ts';
import type { SchemaProblem, Severity } from '../validate.ts';

/** Resource documents as the resource engine reads them (aliases are optional there). */
export type Resource = ResourceDocument & { authorityAliases?: string[] };

export interface LintedScreen {
  screen: Screen;
  file: string;
}

export interface LintInput {
  screens: LintedScreen[];
  resources: ReadonlyMap<string, Resource>;
  menus: MenuDocument | null;
  widgetNames: readonly string[];
  /** The product's public paths (ProductProfile); absent, public screens' routes are not checked against them. */
  publicPaths?: PublicPaths;
  /** Names of resource documents that exist but are invalid (so a screen naming one is not blamed twice). */
  invalidResources?: ReadonlySet<string>;
  /**
   * Whether the server serves `method path` (from its OpenAPI document).
   * `'resources-only'`: the server's routes could not be read, so only the resources' own
   * endpoints are known and any other literal endpoint is an error (schemas:check without
   * the server). Absent: the server's routes are unknown here (the console, the snapshot
   * tests), so literal endpoints are taken on trust; schemas:check is where they are verified.
   */
  served?: ((method: HttpMethod, path: string) => boolean) | 'resources-only';
}

/** The documents of one check and the look-ups built from them once. */
export interface LintContext {
  input: LintInput;
  resources: ReadonlyMap<string, Resource>;
  menus: MenuDocument | null;
  menuCodes: ReadonlySet<string>;
  elementCodes: ReadonlySet<string>;
  screensById: ReadonlyMap<string, LintedScreen>;
  /** Every screen route by its shape (parameters renamed alike). */
  routeShapes: ReadonlyMap<string, string>;
  widgets: ReadonlySet<string>;
  /** Menu entries by the lower-cased link they open. */
  menuEntries: ReadonlyMap<string, MenuChild>;
  /** The message for a screen naming a resource that is not loaded. */
  missingResource(name: string): string;
}

/** One screen under check, with the context of the whole check. */
export interface ScreenLintContext extends LintContext {
  screen: Screen;
  file: string;
  routes: ReturnType<typeof screenRoutes>;
  /** The authority keys the screen is opened with (each route's, or the screen's own). */
  authorities: string[];
  /** The screen's resource document, when it names one that is loaded. */
  resource: Resource | undefined;
}

/** One resource document under check, with the context of the whole check. */
export interface ResourceLintContext {
  doc: Resource;
  file: string;
  menus: MenuDocument;
  menuCodes: ReadonlySet<string>;
  elementCodes: ReadonlySet<string>;
}

export interface ScreenRule {
  id: string;
  description: string;
  check(ctx: ScreenLintContext): SchemaProblem[];
}

export interface ResourceRule {
  id: string;
  description: string;
  check(ctx: ResourceLintContext): SchemaProblem[];
}

export type AddProblem = (pointer: string, message: string, severity?: Severity) => void;

/** A rule's problem list and the function that adds to it, for `file`. */
export function collector(file: string): { problems: SchemaProblem[]; add: AddProblem } {
  const problems: SchemaProblem[] = [];
  return { problems, add: (pointer, message, severity = 'error') => problems.push({ file, pointer, message, severity }) };
}

export function lintContext(input: LintInput): LintContext {
  const routeShapes = new Map<string, string>();
  for (const { screen } of input.screens) for (const r of screenRoutes(screen)) routeShapes.set(routeShape(r.route), r.route);
  const menuEntries = new Map<string, MenuChild>();
  for (const section of input.menus?.menus ?? []) for (const child of section.children) menuEntries.set(childLink(section, child).toLowerCase(), child);
  return {
    input,
    resources: input.resources,
    menus: input.menus,
    menuCodes: new Set(input.menus ? menuCodes(input.menus) : []),
    elementCodes: new Set(input.menus ? menuElementCodes(input.menus) : []),
    screensById: new Map(input.screens.map((s) => [s.screen.id, s])),
    routeShapes,
    widgets: new Set(input.widgetNames),
    menuEntries,
    missingResource: (name: string) =>
      input.invalidResources?.has(name) ? `names "${name}", whose resource document is invalid (see its problems)` : `names "${name}", which is no resource document`,
  };
}

export function screenLintContext(ctx: LintContext, { screen, file }: LintedScreen): ScreenLintContext {
  const routes = screenRoutes(screen);
  return {
    ...ctx,
    screen,
    file,
    routes,
    authorities: routes.length ? [...new Set(routes.map((r) => r.authority))] : [screen.authority],
    resource: screen.resource ? ctx.resources.get(screen.resource) : undefined,
  };
}

/** The menus' codes, built once for every resource document of a check. */
export function resourceLintBase(menus: MenuDocument): Omit<ResourceLintContext, 'doc' | 'file'> {
  return { menus, menuCodes: new Set(menuCodes(menus)), elementCodes: new Set(menuElementCodes(menus)) };
}
