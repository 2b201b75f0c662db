/**
 * Resource documents: the data models that the generic resource engine serves and that
 * screens bind to. Pure code (no React, no node modules): the server reads the files and
 * hands their text here; the console and the tools do the same with their own sources.
 *
 * The parts live in resource/: types.ts (the types, names and limits), query.ts (scalar
 * kinds, filter parameters, sort specs), checks.ts (the meta-schema and meaning checks,
 * the loader), json-schema.ts (reply and write schemas), access.ts (which codes grant
 * what). This module gathers them so importers name one module; a module on the console's
 * screen path should import the light part it needs, not this one (checks.ts carries the
 * meta-schema validator).
 */
export * from './resource/types.ts';
export * from './resource/query.ts';
export * from './resource/checks.ts';
export * from './resource/json-schema.ts';
export { accessKeys, authorityKeys, readKeys, type WriteAction } from './resource/access.ts';
