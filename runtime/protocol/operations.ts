/**
 * The resource engine's operations and where each is served, below a resource's base
 * path. The server registers its routes from this table and the console resolves screen
 * endpoints from it, so the two cannot disagree about a URL.
 */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The operations every resource has (a screen's `{operation}` endpoints name these). */
export const RESOURCE_OPERATIONS = ['page', 'read', 'create', 'update', 'delete', 'batchDelete'] as const;
export type ResourceOperation = (typeof RESOURCE_OPERATIONS)[number];

/** The operations of resources declaring transitions; `:name` is the transition's name. */
export const TRANSITION_OPERATION = 'transition' as const;
export type EngineOperation = ResourceOperation | typeof TRANSITION_OPERATION;

/** Method and path suffix of each operation; `:id` is the record id. */
export const OPERATION_ROUTES: Readonly<Record<EngineOperation, { method: HttpMethod; suffix: string }>> = {
  page: { method: 'GET', suffix: '/page' },
  read: { method: 'GET', suffix: '/:id' },
  create: { method: 'POST', suffix: '' },
  update: { method: 'PUT', suffix: '/:id' },
  delete: { method: 'DELETE', suffix: '/:id' },
  batchDelete: { method: 'DELETE', suffix: '/batch' },
  transition: { method: 'POST', suffix: '/:id/transitions/:name' },
};

/** The method and path an operation of a resource resolves to. */
export function operationEndpoint(r: { basePath: string }, op: EngineOperation): { method: HttpMethod; path: string } {
  const { method, suffix } = OPERATION_ROUTES[op];
  return { method, path: `${r.basePath}${suffix}` };
}

/** Where one transition of one record is asked for. */
export function transitionPath(r: { basePath: string }, id: number | string, name: string): string {
  return operationEndpoint(r, TRANSITION_OPERATION)
    .path.replace(':id', encodeURIComponent(String(id)))
    .replace(':name', encodeURIComponent(name));
}

/** Every endpoint the resource engine serves for one resource (the transition route when it declares transitions). */
export function resourceEndpoints(r: { basePath: string; transitions?: object }): { operation: EngineOperation; method: HttpMethod; path: string }[] {
  const ops: EngineOperation[] = [...RESOURCE_OPERATIONS, ...(r.transitions ? [TRANSITION_OPERATION] : [])];
  return ops.map((operation) => ({ operation, ...operationEndpoint(r, operation) }));
}

/** The reads of a resource's public part, below its `publicRead.basePath` (no token). */
export const PUBLIC_OPERATIONS = ['publicRead', 'publicSearch'] as const;
export type PublicOperation = (typeof PUBLIC_OPERATIONS)[number];

export const PUBLIC_OPERATION_ROUTES: Readonly<Record<PublicOperation, { method: HttpMethod; suffix: string }>> = {
  publicRead: { method: 'GET', suffix: '/:id' },
  publicSearch: { method: 'GET', suffix: '/search' },
};

/** The method and path of a public read of a resource declaring one. */
export function publicEndpoint(pub: { basePath: string }, op: PublicOperation): { method: HttpMethod; path: string } {
  const { method, suffix } = PUBLIC_OPERATION_ROUTES[op];
  return { method, path: `${pub.basePath}${suffix}` };
}
