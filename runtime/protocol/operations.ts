/**
 * The resource engine's operations and where each is served, below a resource's base
 * path. The server registers its routes from this table and the console resolves screen
 * endpoints from it, so the two cannot disagree about a URL.
 */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const RESOURCE_OPERATIONS = ['page', 'read', 'create', 'update', 'delete', 'batchDelete'] as const;
export type ResourceOperation = (typeof RESOURCE_OPERATIONS)[number];

/** Method and path suffix of each operation; `:id` is the record id. */
export const OPERATION_ROUTES: Readonly<Record<ResourceOperation, { method: HttpMethod; suffix: string }>> = {
  page: { method: 'GET', suffix: '/page' },
  read: { method: 'GET', suffix: '/:id' },
  create: { method: 'POST', suffix: '' },
  update: { method: 'PUT', suffix: '/:id' },
  delete: { method: 'DELETE', suffix: '/:id' },
  batchDelete: { method: 'DELETE', suffix: '/batch' },
};

/** The method and path an operation of a resource resolves to. */
export function operationEndpoint(r: { basePath: string }, op: ResourceOperation): { method: HttpMethod; path: string } {
  const { method, suffix } = OPERATION_ROUTES[op];
  return { method, path: `${r.basePath}${suffix}` };
}

/** Every endpoint the resource engine serves for one resource. */
export function resourceEndpoints(r: { basePath: string }): { operation: ResourceOperation; method: HttpMethod; path: string }[] {
  return RESOURCE_OPERATIONS.map((operation) => ({ operation, ...operationEndpoint(r, operation) }));
}
