/**
 * Whether the console offers an action (docs/schema-language.md, "Action gating"). Three
 * tests, all of which must pass:
 *
 * 1. Element codes. The action's `elementCode`, resolved against the route's authority;
 *    without one, an action that writes a resource (a call of its create / update /
 *    delete / batchDelete, or an add / edit form bound to it) needs the element code the
 *    server checks for that write (the resource's `elements`, under its authority or an
 *    alias). An action that only reads or navigates needs none.
 * 2. The record's scope. A server may put `_can` on a row or record: a map from an
 *    element code's action part ("edit", "delete", …) to false when that record is outside
 *    what the caller may do with it (a seedling base cannot delete itself). Absent or true
 *    means allowed; the server keeps enforcing either way.
 * 3. The action's `when` condition over the row, record or selected rows.
 *
 * A `transition` action needs its transition's element code (test 1), and the record's
 * `_transitions` hint must list it (test 2): the server puts there the transitions the
 * record's state allows to the caller, so a row without the hint offers none.
 *
 * Pure and React-free: the renderer (host.ts) and the walk test (tests/api/action-walk)
 * call the same function.
 */
import { can } from '../access/can.ts';
import { evaluate } from '../schema/conditions.ts';
import type { ResourceDocument } from '../schema/resource.ts';
import { accessKeys, type WriteAction } from '../schema/resource-access.ts';
import { TRANSITIONS_FIELD, type TransitionDeclaration } from '../schema/transitions.ts';
import { isResourceEndpoint, resolveElementCode, type Action, type Screen } from '../schema/screen.ts';

/** The row or record property carrying per-record permission hints. */
export const CAN_FIELD = '_can';

export interface GateContext {
  /** The element codes the user holds. */
  elements: ReadonlySet<string>;
  /** The menu code of the route the screen is shown at (`:edit` resolves against it). */
  authority: string;
  /** Documents, to find the resource an action writes. */
  registry?: { resource(name: string): ResourceDocument | undefined; screen(id: string): Screen | undefined };
  /** The screen's resource (resource endpoints without `resource` name it). */
  resource?: string;
}

const OPERATION_WRITE: Partial<Record<string, WriteAction>> = { create: 'create', update: 'update', delete: 'delete', batchDelete: 'delete' };

/** The resource write an action performs, when it performs one the resource engine guards. */
export function impliedWrite(action: Action, gc: GateContext): { doc: ResourceDocument; write: WriteAction } | null {
  if (!gc.registry) return null;
  if (action.kind === 'call' && isResourceEndpoint(action.endpoint)) {
    const write = OPERATION_WRITE[action.endpoint.operation];
    const name = action.endpoint.resource ?? gc.resource;
    const doc = write && name ? gc.registry.resource(name) : undefined;
    return doc && write ? { doc, write } : null;
  }
  if (action.kind === 'import') {
    // An import creates records: the create's code, as the server checks it.
    const name = action.resource ?? gc.resource;
    const doc = name ? gc.registry.resource(name) : undefined;
    return doc ? { doc, write: 'create' } : null;
  }
  if (action.kind === 'openForm' && action.mode !== 'show') {
    const form = gc.registry.screen(action.screen);
    if (form?.kind !== 'form' || !form.resource) return null;
    const write: WriteAction = action.mode === 'add' ? 'create' : 'update';
    // A form saving through endpoints of its own is guarded by those calls, not the resource's.
    if (form.endpoints?.[write === 'create' ? 'create' : 'update']) return null;
    const doc = gc.registry.resource(form.resource);
    return doc ? { doc, write } : null;
  }
  return null;
}

/** The resource and declaration of a transition action, when the documents know them. */
export function transitionOf(action: Action, gc: Pick<GateContext, 'registry' | 'resource'>): { doc: ResourceDocument; declared: TransitionDeclaration } | null {
  if (action.kind !== 'transition') return null;
  const name = action.resource ?? gc.resource;
  const doc = name ? gc.registry?.resource(name) : undefined;
  const declared = doc?.transitions?.[action.transition];
  return doc && declared ? { doc, declared } : null;
}

/** Granted by no one: a transition the documents do not declare is never offered. */
const UNKNOWN_TRANSITION = ':unknown-transition';

/** The element codes of which the user must hold one; empty when the action needs none. */
export function requiredElementCodes(action: Action, gc: GateContext): string[] {
  if (action.elementCode) return [resolveElementCode(action.elementCode, gc.authority)];
  if (action.kind === 'transition') {
    const found = transitionOf(action, gc);
    return found ? accessKeys(found.doc, found.declared.element).map((k) => k.element) : [UNKNOWN_TRANSITION];
  }
  const w = impliedWrite(action, gc);
  return w ? accessKeys(w.doc, w.write).map((k) => k.element) : [];
}

/** The action part of the element codes the action needs ("delete" of "nurseryManageIndex:delete"). */
export function actionVerb(action: Action, gc: GateContext): string | null {
  const codes = requiredElementCodes(action, gc);
  if (!codes.length) return null;
  const code = codes[0];
  return code.slice(code.lastIndexOf(':') + 1) || null;
}

/** Test 1: the user holds the element code (or needs none). */
export function elementAllowed(action: Action, gc: GateContext): boolean {
  const codes = requiredElementCodes(action, gc);
  return !codes.length || can({ elements: gc.elements }, { elements: codes });
}

/** Test 2: the record's `_can` hints do not rule the action out. */
export function recordAllows(action: Action, gc: GateContext, data: unknown): boolean {
  if (action.kind === 'transition') {
    const allowed = data && typeof data === 'object' ? (data as Record<string, unknown>)[TRANSITIONS_FIELD] : undefined;
    return Array.isArray(allowed) && allowed.includes(action.transition);
  }
  if (!data || typeof data !== 'object') return true;
  const can = (data as Record<string, unknown>)[CAN_FIELD];
  if (!can || typeof can !== 'object') return true;
  const verb = actionVerb(action, gc);
  return !verb || (can as Record<string, unknown>)[verb] !== false;
}

/** Test 3: the `when` condition holds (a condition that cannot be evaluated hides the action). */
export function conditionHolds(action: Action, data: unknown): boolean {
  try {
    return evaluate(action.when, data ?? {});
  } catch {
    return false;
  }
}

/** All three: whether the action is offered over `data` (a row, a record, or `{}` for a toolbar). */
export function actionAllowed(action: Action, gc: GateContext, data: unknown): boolean {
  return elementAllowed(action, gc) && recordAllows(action, gc, data) && conditionHolds(action, data);
}
