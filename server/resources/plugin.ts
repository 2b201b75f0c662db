import type { FastifyPluginAsync } from 'fastify';
import { ensureIndexes } from './indexes.ts';
import { readResourceDocuments } from './load.ts';
import { registerResourceRoutes } from './routes.ts';
import { ResourceStore } from './store.ts';
import { registerGateLogRoutes } from './gate-log.ts';

/**
 * The generic resource engine: every document of schemas/resources becomes six
 * endpoints under its base path, with its indexes ensured at start; plus the operation
 * log reader. An invalid document makes registration (and so the server's start) fail.
 */
export const resourceRoutes: FastifyPluginAsync<{ dir?: string }> = async (app, opts) => {
  const docs = await readResourceDocuments(opts.dir);
  await ensureIndexes(app.db, docs);
  const byName = new Map(docs.map((d) => [d.name, d]));
  for (const doc of docs) registerResourceRoutes(app, doc, new ResourceStore(doc, byName));
  registerGateLogRoutes(app);
};
