import { prepareSeededEngines } from '../support/engines.ts';

/**
 * Once for the API project, before its files start: the seeded PGlite image and PostgreSQL
 * template that every file's databases are cloned from (tests/support/engines.ts).
 */
export default async function setup(): Promise<void> {
  await prepareSeededEngines();
}
