/**
 * Where a data source is served: a document's endpoint reference through
 * runtime/screens/endpoints.ts, a resource operation through the protocol's URL table
 * (runtime/protocol/operations.ts), a dictionary at the server's dictionary route. Loaded
 * with the screens (default-features.ts installs it), not with the login page.
 */
import { resolveEndpoint, resourceOperation, type ResolvedEndpoint } from '../screens/endpoints.ts';
import type { DataRequest } from '../services/contract.ts';
import { transitionPath } from '../protocol/operations.ts';

export function locate({ registry, source }: Pick<DataRequest, 'registry' | 'source'>): ResolvedEndpoint | null {
  if ('endpoint' in source) return resolveEndpoint(source.endpoint, source.ctx, registry, source.screenResource);
  if ('dictionary' in source) return { method: 'GET', url: `/api/dict/${encodeURIComponent(source.dictionary)}/items` };
  const doc = registry.resource(source.resource);
  if (!doc) return null;
  if ('transition' in source) return doc.transitions?.[source.transition] && source.id != null ? { method: 'POST', url: transitionPath(doc, String(source.id), source.transition) } : null;
  return resourceOperation(doc, source.operation, source.id);
}
