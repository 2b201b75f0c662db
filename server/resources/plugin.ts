import type { FastifyPluginAsync } from 'fastify';
import { ensureIndexes } from './indexes.ts';
import { hookChains, type ResourceExtension, type ResourceFieldType } from './extensions.ts';
import { readResourceDocuments } from './load.ts';
import { registerResourceRoutes } from './routes.ts';
import { ResourceStore } from './store.ts';
import { registerGateLogRoutes } from './gate-log.ts';
import { registerPublicReadRoutes } from './public-reads.ts';
import { checkResourceTables } from './table-check.ts';

export type { ResourceExtension, ResourceFieldType, ResourceHooks } from './extensions.ts';

export interface ResourceEngineOptions {
  /** Folder of the resource documents; schemas/resources by default. */
  dir?: string;
  /** Hooks of business modules, per resource (server/resources/extensions.ts). */
  extensions?: readonly ResourceExtension[];
  /** Hooks of field types, run on every resource declaring their keyword (extensions.ts, ResourceFieldType). */
  fieldTypes?: readonly ResourceFieldType[];
}

export const RESOURCE_ENGINE = 'resource-engine';

/**
 * The generic resource engine: every document of schemas/resources becomes the endpoints
 * of the protocol's operation table under its base path (its declared transitions and
 * public reads included), with the indexes its fields need; plus the operation log
 * reader. An invalid document, a table-backed document that does not match its table or
 * an extension naming no document makes registration (and so the server's start) fail.
 */
const INDEX_WAIT_MS = 5000;

export const resourceEngine: FastifyPluginAsync<ResourceEngineOptions> = async (app, opts) => {
  const docs = await readResourceDocuments(opts.dir);
  const chains = hookChains(docs, opts.extensions ?? [], opts.fieldTypes ?? []);
  await checkResourceTables(app.db, docs);
  // Indexes are normally ready before the first request. Building one over a large table
  // can outlast Fastify's start timeout (plugins and onReady alike), which would make the
  // server fail to start forever: past a few seconds the build goes on in the background
  // and queries use each index as soon as it exists. A quick failure still stops the start.
  let building: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    const work = ensureIndexes(app.db, docs);
    building = work.catch((err) => app.log.error({ err }, 'building resource indexes failed'));
    const finished = await Promise.race([work.then(() => true), new Promise<boolean>((r) => setTimeout(r, INDEX_WAIT_MS, false).unref())]);
    if (!finished) app.log.warn('resource indexes are still being built in the background');
  });
  app.addHook('onClose', async () => {
    await building;
  });
  const byName = new Map(docs.map((d) => [d.name, d]));
  for (const doc of docs) {
    registerResourceRoutes(app, doc, new ResourceStore(doc, byName, chains.get(doc.name)));
    registerPublicReadRoutes(app, doc);
  }
  registerGateLogRoutes(app, docs);
};

// A named plugin (what fastify-plugin's `name` does) that stays encapsulated: its hooks
// and routes live in its own context; other plugins may declare it as a dependency and
// `app.hasPlugin('resource-engine')` answers.
Object.assign(resourceEngine, {
  [Symbol.for('fastify.display-name')]: RESOURCE_ENGINE,
  [Symbol.for('plugin-meta')]: { name: RESOURCE_ENGINE },
});

