/**
 * The console's screens from the documents bundled with it. A chunk of its own (main.tsx
 * imports it dynamically): validating the documents needs ajv and the documents
 * themselves, which the login page does not, so it renders while this loads.
 */
import { bundledSource } from '../schema/bundled.ts';
import { formatProblems, loadRegistry } from '../schema/registry.ts';
import { schemaScreenRoutes } from './schema-screens.ts';
import type { ScreenRoute } from './screens.ts';

export async function bundledScreens(): Promise<ScreenRoute[]> {
  // Validated here as on the server: an invalid document becomes its error panel at its
  // routes, and the console starts with every other screen.
  const registry = await loadRegistry([bundledSource]);
  if (registry.errors.length) console.error(`[schemas] ${registry.errors.length} problem(s)\n${formatProblems(registry.errors)}`);
  return schemaScreenRoutes(registry);
}
