/**
 * The studio's own reads beside the schema store (studio-core's routes): GET
 * /api/studio/coverage (menu studioCoverage) and GET /api/studio/view-as (menu
 * studioDocuments). Registered as its own entry of server/modules.ts.
 *
 * The documents are the store's effective set (bundled overlaid by published revisions,
 * server/studio/store.ts): the report describes what consoles are shown, not only what
 * the repository holds. Its registry is built once per generation.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { requireCan } from '../http/guard.ts';
import { ok } from '../http/envelope.ts';
import { buildRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import { WIDGET_NAMES } from '../../runtime/schema/widget-names.ts';
import type { LocalizedText } from '../../runtime/protocol/texts.ts';
import { SchemaStore } from './store.ts';
import { coverageReport, viewAsRoles, type RoleGrants, type ServedRoute } from './coverage.ts';

export interface StudioCoverageOptions {
  store?: SchemaStore;
}

export const studioCoverageRoutes: FastifyPluginAsync<StudioCoverageOptions> = async (app, opts) => {
  const store = opts.store ?? new SchemaStore();
  let cached: { generation: number; registry: SchemaRegistry } | null = null;
  const effectiveRegistry = async () => {
    const set = await store.effective(app.db);
    if (cached?.generation !== set.generation) {
      // Every document of the set passed the gate (bundled: schemas:check; published: the publish gate).
      const docs = set.documents.map((d) => ({ file: d.file, type: d.type, content: d.content, trusted: true, source: 'effective' }));
      cached = { generation: set.generation, registry: buildRegistry(docs, { widgetNames: WIDGET_NAMES }) };
    }
    return cached.registry;
  };

  app.get('/studio/coverage', { schema: { tags: ['studio'], summary: 'What the documents and roles leave uncovered (menu studioCoverage)' } }, async (req) => {
    requireCan(req, 'studioCoverage');
    return ok(coverageReport(await effectiveRegistry(), await readRoles(app), servedRoutes(app)));
  });

  app.get('/studio/view-as', { schema: { tags: ['studio'], summary: 'Roles to preview as, each intersected with the caller’s own codes (menu studioDocuments)' } }, async (req) => {
    const user = requireCan(req, 'studioDocuments');
    return ok(viewAsRoles(await readRoles(app), user));
  });
};

async function readRoles(app: FastifyInstance): Promise<RoleGrants[]> {
  const { rows } = await app.db.query<{ code: string; name: LocalizedText; menus: string[]; elements: string[]; platform: boolean }>(
    'SELECT code, name, menus, elements, platform FROM roles ORDER BY id',
  );
  return rows.map((r) => ({ code: r.code, name: r.name, menus: r.menus ?? [], elements: r.elements ?? [], platform: r.platform }));
}

/** The server's routes from its OpenAPI document (every /api route but the hidden ones). */
function servedRoutes(app: FastifyInstance): ServedRoute[] {
  const doc = app.swagger() as { paths?: Record<string, Record<string, { security?: unknown[] }>> };
  const out: ServedRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const m = method.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) continue;
      out.push({ method: m, path: path.replace(/\{([^}]+)\}/g, ':$1'), public: Array.isArray(op.security) && op.security.length === 0 });
    }
  }
  return out;
}
