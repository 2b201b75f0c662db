/**
 * The services contract's data provider over the HTTP client: the only module that turns
 * what a renderer asks for (a document's endpoint reference, a resource operation) into a
 * method and a URL.
 */
import type { HttpClient } from '../http/client.ts';
import { resolveEndpoint, resourceOperation, type ResolvedEndpoint } from '../screens/endpoints.ts';
import type { DataProvider, DataRequest } from '../services/contract.ts';

function locate({ registry, source }: Pick<DataRequest, 'registry' | 'source'>): ResolvedEndpoint | null {
  if ('endpoint' in source) return resolveEndpoint(source.endpoint, source.ctx, registry, source.screenResource);
  if ('dictionary' in source) return { method: 'GET', url: `/api/dict/${encodeURIComponent(source.dictionary)}/items` };
  const doc = registry.resource(source.resource);
  return doc ? resourceOperation(doc, source.operation, source.id) : null;
}

export function createDataProvider(http: HttpClient): DataProvider {
  const send = <T>(request: DataRequest) => {
    const at = locate(request);
    if (!at) return Promise.reject(new Error('data source cannot be resolved (a parameter is missing)'));
    return http.request<T>({ method: at.method, url: at.url, query: request.params, body: request.body, quiet: request.quiet });
  };
  return {
    key(request) {
      const at = locate(request);
      return at ? `${at.method} ${at.url}` : null;
    },
    query: async <T>(request: DataRequest) => (await send<T>(request)).data as T,
    mutate: send,
  };
}
