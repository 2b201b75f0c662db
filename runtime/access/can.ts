/**
 * The one authority check of the product (docs/architecture.md, "Authority"): the
 * resource engine's guards, the legacy API's guards and the console's menu and action
 * checks all ask `can`. React-free and free of Node APIs, so the server imports it too.
 *
 * Menu and element codes alone decide — for platform administrators as well: the
 * platform flag widens what a caller sees (scope), never what a caller may do.
 */
import { accessKeys, readKeys, type WriteAction } from '../schema/resource-access.ts';
import type { ResourceDocument } from '../schema/resource.ts';

/** The codes a caller holds; a set left out grants nothing. */
export interface Grants {
  menus?: ReadonlySet<string>;
  elements?: ReadonlySet<string>;
}

/**
 * A requirement as a call states it: any one of `menus` (when given) and any one of
 * `elements` (when given). Where two screens lead to one call, either screen's codes do.
 * A list that is given but empty, or an authority naming no list, is granted by nothing.
 */
export interface Authority {
  menus?: readonly string[];
  elements?: readonly string[];
}

/** The codes of a resource document that grant its operations. */
export type ResourceAccess = Pick<ResourceDocument, 'authority' | 'authorityAliases' | 'readAuthorities' | 'elements' | 'operations'>;

/** Reading, a write, or another key of the document's `elements` (a transition's element). */
export type ResourceAction = 'read' | WriteAction | (string & {});

/**
 * - `can(user, menuCode)`: the user holds the menu code;
 * - `can(user, menuCode, action)`: the menu code and its element code `<menuCode>:<action>`;
 * - `can(user, {menus, elements})`: one of the menus and one of the elements (an Authority);
 * - `can(user, resource, action)`: the resource engine's rule. Reading needs one of the
 *   authority, its aliases and the read-only grants (`readAuthorities`); a write needs a
 *   menu code among the authority and its aliases together with the element code of the
 *   write under that same menu code (the resource's `elements`).
 */
export function can(user: Grants, menuCode: string, action?: string): boolean;
export function can(user: Grants, authority: Authority): boolean;
export function can(user: Grants, resource: ResourceAccess, action: ResourceAction): boolean;
export function can(user: Grants, target: string | Authority | ResourceAccess, action?: string): boolean {
  const menus = user.menus;
  const elements = user.elements;
  const hasMenu = (code: string) => menus?.has(code) ?? false;
  const hasElement = (code: string) => elements?.has(code) ?? false;
  if (typeof target === 'string') return hasMenu(target) && (action === undefined || hasElement(`${target}:${action}`));
  if (isResource(target)) {
    if (action === 'read') return readKeys(target).some(hasMenu);
    return accessKeys(target, action as string).some((k) => hasMenu(k.menu) && hasElement(k.element));
  }
  if (!target.menus && !target.elements) return false;
  return (!target.menus || target.menus.some(hasMenu)) && (!target.elements || target.elements.some(hasElement));
}

function isResource(target: Authority | ResourceAccess): target is ResourceAccess {
  return typeof (target as ResourceAccess).authority === 'string';
}
