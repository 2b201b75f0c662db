/**
 * Where a resource's operations are served, apart from lint.ts so that the console's
 * screens resolve endpoints without loading the cross-document rules.
 */
import type { ResourceDocument } from './resource.ts';
import type { HttpMethod } from './screen.ts';

/** The path an operation of a resource resolves to. */
export function operationEndpoint(r: Pick<ResourceDocument, 'basePath'>, op: string): { method: HttpMethod; path: string } {
  const b = r.basePath;
  switch (op) {
    case 'page':
      return { method: 'GET', path: `${b}/page` };
    case 'read':
      return { method: 'GET', path: `${b}/:id` };
    case 'create':
      return { method: 'POST', path: b };
    case 'update':
      return { method: 'PUT', path: `${b}/:id` };
    case 'delete':
      return { method: 'DELETE', path: `${b}/:id` };
    default:
      return { method: 'DELETE', path: `${b}/batch` };
  }
}
