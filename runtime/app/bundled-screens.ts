/**
 * The console's screens from the documents bundled with it. A chunk of its own (main.tsx
 * imports it dynamically): the documents themselves are the bulk of it, and the login
 * page does not need them, so it renders while this loads.
 *
 * The bundled documents were checked when the console was built (bundled.ts), so the
 * registry takes them as they are: no meta-schema validation and no ajv at start. Only a
 * screen in an older format, which must go through the migrations, brings in the checks.
 */
import { bundledSource } from '../schema/bundled.ts';
import { assembleRegistry, formatProblems, gatherDocuments, type SchemaRegistry } from '../schema/registry-core.ts';
import { SCREEN_FORMAT_VERSION } from '../schema/screen.ts';
import { schemaScreenRoutes } from './schema-screens.ts';
import type { ScreenRoute } from '../shell/screen-route.ts';

export async function bundledRegistry(): Promise<SchemaRegistry> {
  const docs = await gatherDocuments([bundledSource]);
  const needsChecks = docs.some((d) => !d.trusted || (d.type === 'screen' && (d.content as { formatVersion?: unknown } | null)?.formatVersion !== SCREEN_FORMAT_VERSION));
  const checks = needsChecks ? (await import('../schema/registry.ts')).FULL_CHECKS : null;
  return assembleRegistry(docs, checks);
}

export async function bundledScreens(): Promise<ScreenRoute[]> {
  // An invalid document becomes its error panel at its routes, and the console starts
  // with every other screen.
  const registry = await bundledRegistry();
  if (registry.errors.length) console.error(`[schemas] ${registry.errors.length} problem(s)\n${formatProblems(registry.errors)}`);
  return schemaScreenRoutes(registry);
}
