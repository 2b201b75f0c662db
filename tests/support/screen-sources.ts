/** Where a table screen reads its rows, as the console computes it (shared by the API walks). */
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { TableParts } from '../../runtime/schema/screen.ts';
import type { ValueContext } from '../../runtime/schema/values.ts';
import { resolveEndpoint } from '../../runtime/screens/endpoints.ts';
import { fixedQuery } from '../../runtime/screens/filters.ts';

export type EndpointRef = Parameters<typeof resolveEndpoint>[0];

/** The URL a table reads its rows from, or null when a fixed filter has no value yet. */
export function tableSource(registry: SchemaRegistry, parts: TableParts & { endpoint?: EndpointRef }, ctx: ValueContext, resource: string | undefined): string | null {
  const ref = parts.endpoint ?? (resource ? { operation: 'page' as const, resource } : undefined);
  if (!ref) return null;
  const ep = resolveEndpoint(ref, ctx, registry, resource);
  const fixed = fixedQuery(parts.fixedFilters, ctx);
  if (!ep || !fixed) return null;
  return withQuery(ep.url, fixed);
}

export function withQuery(url: string, q: Record<string, unknown>): string {
  const [path, search] = url.split('?');
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(q)) {
    if (Array.isArray(v)) for (const x of v) params.append(k, String(x));
    else if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
