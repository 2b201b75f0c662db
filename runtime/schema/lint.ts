/**
 * Rules across documents: what the meta-schema cannot know on its own. A screen must name
 * authority keys and element codes of the menus, resources that exist, fields of those
 * resources' records, routes and screens that exist, endpoints that are served, widgets
 * that are registered. Pure code: the registry, schemas:check and the server's publish
 * step run the same rules.
 *
 * This module only drives the rules: each check is a module of lint/rules/, listed in
 * lint/rules/index.ts, and reports through the context of lint/context.ts.
 */
import type { MenuDocument } from './menus.ts';
import type { SchemaProblem } from './validate.ts';
import { lintContext, resourceLintBase, screenLintContext, type LintInput, type Resource, type ResourceRule, type ScreenRule } from './lint/context.ts';
import { RESOURCE_RULES, SCREEN_RULES } from './lint/rules/index.ts';
import { routeShape } from './route-shape.ts';
import { operationEndpoint, resourceEndpoints } from '../protocol/operations.ts';

export type { LintContext, LintedScreen, LintInput, ResourceLintContext, ResourceRule, ScreenLintContext, ScreenRule } from './lint/context.ts';
export { fieldKnown } from './lint/fields.ts';
export { RESOURCE_RULES, SCREEN_RULES };

/** Route patterns compare equal whatever their parameters are called. */
export { routeShape };

export { operationEndpoint, resourceEndpoints };

/** Every screen rule on every screen, screen after screen. */
export function lintScreens(input: LintInput, rules: readonly ScreenRule[] = SCREEN_RULES): SchemaProblem[] {
  const ctx = lintContext(input);
  const problems: SchemaProblem[] = [];
  for (const linted of input.screens) {
    const screen = screenLintContext(ctx, linted);
    for (const rule of rules) problems.push(...rule.check(screen));
  }
  return problems;
}

/** A resource's authority keys and element codes must be those of the menus. */
export function lintResources(resources: { doc: Resource; file: string }[], menus: MenuDocument | null, rules: readonly ResourceRule[] = RESOURCE_RULES): SchemaProblem[] {
  if (!menus) return [];
  const base = resourceLintBase(menus);
  const problems: SchemaProblem[] = [];
  for (const { doc, file } of resources) for (const rule of rules) problems.push(...rule.check({ ...base, doc, file }));
  return problems;
}
