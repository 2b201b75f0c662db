import type { FastifyPluginAsync } from 'fastify';
import { consoleConfigRoutes } from './console-config.ts';
import { healthRoutes } from './health.ts';

/**
 * The server's own calls, neither legacy API nor resource engine: GET /api/health (for
 * probes) and GET /api/console/config (the console's settings from the server
 * configuration). Both public.
 */
export const platformRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(consoleConfigRoutes);
};
