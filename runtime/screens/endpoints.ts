/**
 * Endpoint references of a screen turned into requests: a resource operation becomes the
 * resource engine's path (docs/schema-language.md, "Endpoints"), a literal path has its
 * `:name` segments filled from the context. A missing parameter yields null, so the
 * caller disables what it cannot call instead of calling a wrong URL.
 */
import { operationEndpoint, type ResourceOperation } from '../protocol/operations.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { ResourceDocument } from '../schema/resource.ts';
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
export function resourceOperation(doc: ResourceDocument, op: ResourceOperation, id?: unknown): ResolvedEndpoint {
  const e = operationEndpoint(doc, op);
  return { method: e.method, url: e.path.replace(':id', encodeURIComponent(String(id ?? ''))) };
}
