import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope.ts';

const startedAt = Date.now();

export const healthRoutes: FastifyPluginAsync = async (app) => {
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
