/**
 * Which menu and element codes grant what on a resource. Kept apart from checks.ts (the
 * document checks, which carry the meta-schema validator): the console's action gating
 * needs these few lines on every table screen, not the validator.
 */
import type { ResourceDocument } from './types.ts';
import { servesOperation, type ResourceOperation } from '../../protocol/operations.ts';

export type WriteAction = 'create' | 'update' | 'delete';

/** The plain operations that carry out each write. */
export const WRITE_OPERATIONS: Readonly<Record<WriteAction, readonly ResourceOperation[]>> = {
  create: ['create'],
  update: ['update'],
  delete: ['delete', 'batchDelete'],
};

/**
 * Whether a write is served at all: a document that lists its `operations` grants no
 * write it does not serve, so the console offers none. Other keys (transitions) always are.
 */
export function writeServed(doc: Pick<ResourceDocument, 'operations'>, action: string): boolean {
  const ops = WRITE_OPERATIONS[action as WriteAction];
  return !ops || ops.some((op) => servesOperation(doc, op));
}

/** Menu codes that grant reading the resource. */
export function authorityKeys(doc: Pick<ResourceDocument, 'authority' | 'authorityAliases'>): string[] {
  return [doc.authority, ...(doc.authorityAliases ?? [])];
}

/** Menu codes that grant reading: the authority, its aliases and the read-only grants. */
export function readKeys(doc: Pick<ResourceDocument, 'authority' | 'authorityAliases' | 'readAuthorities'>): string[] {
  return [...authorityKeys(doc), ...(doc.readAuthorities ?? [])];
}

/**
 * Menu code → element code of `action` under it, for the authority and each alias.
 * `action` is a write or another key of `elements` (a transition's element); an
 * undeclared key is granted by nothing.
 */
export function accessKeys(
  doc: Pick<ResourceDocument, 'authority' | 'authorityAliases' | 'elements' | 'operations'>,
  action: WriteAction | (string & {}),
): { menu: string; element: string }[] {
  const code = doc.elements[action] as string | undefined;
  if (code === undefined || !writeServed(doc, action)) return [];
  const suffix = code.slice(doc.authority.length);
  return authorityKeys(doc).map((menu) => ({ menu, element: `${menu}${suffix}` }));
}
