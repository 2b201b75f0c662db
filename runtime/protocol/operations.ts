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
/** Records created from a spreadsheet (docs/import.md), served with `create`. */
export const IMPORT_OPERATION = 'import' as const;
export type EngineOperation = ResourceOperation | typeof TRANSITION_OPERATION | typeof IMPORT_OPERATION;

/** Method and path suffix of each operation; `:id` is the record id. */
export const OPERATION_ROUTES: Readonly<Record<EngineOperation, { method: HttpMethod; suffix: string }>> = {
  page: { method: 'GET', suffix: '/page' },
  read: { method: 'GET', suffix: '/:id' },
  create: { method: 'POST', suffix: '' },
  update: { method: 'PUT', suffix: '/:id' },
  delete: { method: 'DELETE', suffix: '/:id' },
  batchDelete: { method: 'DELETE', suffix: '/batch' },
  transition: { method: 'POST', suffix: '/:id/transitions/:name' },
  import: { method: 'POST', suffix: '/import' },
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

/** Whether a resource serves one of the plain operations: all of them unless its `operations` lists the ones it does. */
export function servesOperation(r: { operations?: readonly ResourceOperation[] }, op: ResourceOperation): boolean {
  return !r.operations || r.operations.includes(op);
}

/** A transition also served at a path of its own (a legacy URL): `{method} {basePath}/:id/{segment}`. */
export interface TransitionPath {
  method: 'PUT' | 'POST';
  segment: string;
}

/** Where a transition declared with a legacy `path` is also served. */
export function transitionLegacyEndpoint(r: { basePath: string }, path: TransitionPath): { method: HttpMethod; path: string } {
  return { method: path.method, path: `${r.basePath}/:id/${path.segment}` };
}

/**
 * Every endpoint the resource engine serves for one resource: the plain operations it
 * serves, the import with `create`, the transition route when it declares transitions, and each legacy transition path.
 */
export function resourceEndpoints(r: {
  basePath: string;
  operations?: readonly ResourceOperation[];
  transitions?: Record<string, { path?: TransitionPath }>;
}): { operation: EngineOperation; method: HttpMethod; path: string }[] {
  const ops: EngineOperation[] = [
    ...RESOURCE_OPERATIONS.filter((op) => servesOperation(r, op)),
    ...(servesOperation(r, 'create') ? [IMPORT_OPERATION] : []),
    ...(r.transitions ? [TRANSITION_OPERATION] : []),
  ];
  const legacy = Object.values(r.transitions ?? {}).flatMap((t) => (t.path ? [{ operation: TRANSITION_OPERATION, ...transitionLegacyEndpoint(r, t.path) }] : []));
  return [...ops.map((operation) => ({ operation, ...operationEndpoint(r, operation) })), ...legacy];
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
