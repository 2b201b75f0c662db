/**
 * The schema registry: takes documents from sources (the bundled `schemas/` folder now,
 * the server's published revisions later, through the same interface), validates each
 * against its meta-schema, migrates screens to the current format, checks the rules
 * across documents, and indexes screens by id and by route. A broken document never stops
 * the others: it is reported with file, JSON pointer and message, and a broken screen is
 * kept in `broken` with whatever id and routes could be read, so the console can show an
 * error panel in its place.
 *
 * The assembling itself is registry-core.ts; this module binds it to the full checks
 * (meta-schema validators compiled ahead of time, runtime/schema/generated/, and the
 * cross-document rules of lint.ts). The console's start needs none of them for the
 * documents it ships with (bundled-screens.ts).
 */
import { assembleRegistry, gatherDocuments, type DocumentChecks, type DocumentSource, type RegistryOptions, type SchemaRegistry, type SourceDocument } from './registry-core.ts';
import { validateMenus } from './menus.ts';
import { checkResourceDocument } from './resource.ts';
import { lintResources, lintScreens } from './lint.ts';
import { validateScreenDocument } from './validate.ts';
import { WIDGET_NAMES } from './widget-names.ts';

export * from './registry-core.ts';

export const FULL_CHECKS: DocumentChecks = {
  screen: validateScreenDocument,
  resource: checkResourceDocument,
  menus: validateMenus,
  lintScreens,
  lintResources,
  widgetNames: WIDGET_NAMES,
};

/** Builds a registry from documents already gathered, each tagged with its source's name. */
export function buildRegistry(docs: (SourceDocument & { source: string })[], opts: RegistryOptions = {}): SchemaRegistry {
  return assembleRegistry(docs, FULL_CHECKS, opts);
}

/** Gathers every source's documents in order and builds the registry. */
export async function loadRegistry(sources: DocumentSource[], opts: RegistryOptions = {}): Promise<SchemaRegistry> {
  return buildRegistry(await gatherDocuments(sources), opts);
}
