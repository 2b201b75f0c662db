/**
 * Endpoint references of a screen turned into requests: a resource operation becomes the
 * resource engine's path (docs/schema-language.md, "Endpoints"), a literal path has its
 * `:name` segments filled from the context. A missing parameter yields null, so the
 * caller disables what it cannot call instead of calling a wrong URL.
 */
import { operationEndpoint, transitionPath, type IMPORT_OPERATION, type ResourceOperation } from '../protocol/operations.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { ResourceDocument } from '../schema/resource.ts';
import type { TransitionDeclaration } from '../schema/transitions.ts';
import { fillRoute, isResourceEndpoint, type EndpointRef, type HttpMethod } from '../schema/screen.ts';
import { resolveParams, type ValueContext } from '../schema/values.ts';

export interface ResolvedEndpoint {
  method: HttpMethod;
  url: string;
}

export function resolveEndpoint(
  ref: EndpointRef,
  ctx: ValueContext,
  registry: SchemaRegistry,
  screenResource: string | undefined,
): ResolvedEndpoint | null {
  const params = resolveParams(ref.params, ctx);
  if (isResourceEndpoint(ref)) {
    const name = ref.resource ?? screenResource;
    const doc = name ? registry.resource(name) : undefined;
    if (!doc) return null;
    const op = operationEndpoint(doc, ref.operation);
    const url = fillRoute(op.path, params);
    return url ? { method: op.method, url } : null;
  }
  const url = fillRoute(ref.path, params);
  if (!url) return null;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(resolveParams(ref.query, ctx))) if (v !== undefined && v !== null && v !== '') search.append(k, String(v));
  const qs = search.toString();
  return { method: ref.method ?? 'GET', url: qs ? `${url}?${qs}` : url };
}

/** The resource's operation with an id, e.g. read / update / delete of record 7. */
export function resourceOperation(doc: ResourceDocument, op: ResourceOperation | typeof IMPORT_OPERATION, id?: unknown): ResolvedEndpoint {
  const e = operationEndpoint(doc, op);
  return { method: e.method, url: e.path.replace(':id', encodeURIComponent(String(id ?? ''))) };
}

/**
 * The request of a transition action over a row or record: its transition's route and
 * the version read. Null when the resource or the transition is unknown, or the data
 * carries no id or version (the action is then not offered).
 */
export function transitionRequest(
  action: { transition: string; resource?: string },
  data: Record<string, unknown> | undefined,
  registry: SchemaRegistry,
  screenResource: string | undefined,
): (ResolvedEndpoint & { body: { version: number }; declared: TransitionDeclaration }) | null {
  const name = action.resource ?? screenResource;
  const doc = name ? registry.resource(name) : undefined;
  const declared = doc?.transitions?.[action.transition];
  if (!doc || !declared || data?.id == null || typeof data.version !== 'number') return null;
  return { method: operationEndpoint(doc, 'transition').method, url: transitionPath(doc, String(data.id), action.transition), body: { version: data.version }, declared };
}
