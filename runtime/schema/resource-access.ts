/** Moved to resource/access.ts; kept so that the console's importers need not move. */
export { accessKeys, authorityKeys, readKeys, type WriteAction } from './resource/access.ts';
