/**
 * Resolution of ValueRefs ("row.id", "route.operate", {"value": 1}) against the context
 * of a screen. A reference is a root and a dot path read with own-property lookups only;
 * nothing is evaluated.
 */
import { valueAt } from './conditions.ts';
import type { ParamMap, ValueRef } from './screen.ts';

export interface ValueContext {
  row?: unknown;
  record?: unknown;
  route?: Record<string, string | undefined>;
  query?: Record<string, string | undefined>;
  selection?: unknown[];
}

export const VALUE_ROOTS = ['row', 'record', 'route', 'query', 'selection'] as const;
export type ValueRoot = (typeof VALUE_ROOTS)[number];

/** The root and path of a string reference; null for a literal. */
export function parseRef(ref: ValueRef): { root: ValueRoot; path: string } | null {
  if (typeof ref !== 'string') return null;
  const dot = ref.indexOf('.');
  return { root: ref.slice(0, dot) as ValueRoot, path: ref.slice(dot + 1) };
}

/** The value a reference names; `selection.x` gives the list of x over the selected rows. */
export function resolveValue(ref: ValueRef, ctx: ValueContext): unknown {
  if (typeof ref !== 'string') return ref.value;
  const parsed = parseRef(ref);
  if (!parsed) return undefined;
  const { root, path } = parsed;
  if (root === 'selection') return (ctx.selection ?? []).map((row) => valueAt(row, path));
  return valueAt(ctx[root], path);
}

export function resolveParams(map: ParamMap | undefined, ctx: ValueContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, ref] of Object.entries(map ?? {})) out[name] = resolveValue(ref, ctx);
  return out;
}

/**
 * A dot path that maps over arrays on its way: "roles.id" of {roles: [{id: 1}, {id: 2}]}
 * is [1, 2], "roles.name" a list of texts. Own properties only, like `valueAt`.
 */
export function pluck(data: unknown, path: string): unknown {
  const segs = path.split('.');
  const walk = (cur: unknown, i: number): unknown => {
    if (i === segs.length) return cur;
    if (Array.isArray(cur) && !/^\d+$/.test(segs[i])) return cur.map((x) => walk(x, i)).filter((x) => x !== undefined);
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, segs[i])) return undefined;
    return walk((cur as Record<string, unknown>)[segs[i]], i + 1);
  };
  return walk(data, 0);
}
