import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ok } from '../http/envelope.ts';

const startedAt = Date.now();

export const healthRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get('/health', { config: { public: true } }, async () => {
    const t0 = performance.now();
    await app.db.query('SELECT 1');
    return ok({
      status: 'up',
      engine: app.db.engine,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      dbLatencyMs: Math.round((performance.now() - t0) * 100) / 100,
    });
  });
};
