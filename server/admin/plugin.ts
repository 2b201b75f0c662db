import type { FastifyPluginAsync } from 'fastify';
import { registerContentReadRoutes } from './content-public.ts';
import { registerMenuAdminRoutes } from './menus-admin.ts';
import { RouteRegistry, registerMonitorRoutes } from './monitor.ts';
import { registerOrganisationAdminRoutes } from './organisations-admin.ts';
import { registerRoleAdminRoutes } from './roles-admin.ts';
import { RequestTrace } from './trace.ts';

export const TRACE_CAPACITY = 1000;

/**
 * Platform administration (issue 6; docs/admin-api.md). Registered first under /api and
 * without encapsulation, because two of its parts watch every other module: the route
 * registry (onRoute, so it must exist before the other modules register their routes) and
 * the request trace (onResponse on every /api route). Its rules on the engine's resources
 * are hooks handed to the engine (resource-extensions.ts, wired in server/modules.ts).
 */
export const adminRoutes: FastifyPluginAsync = async (app) => {
  const registry = new RouteRegistry();
  app.addHook('onRoute', registry.onRoute);

  const trace = new RequestTrace(TRACE_CAPACITY);
  app.addHook('onResponse', async (req, reply) => {
    trace.record({
      at: new Date().toISOString(),
      method: req.method,
      route: req.routeOptions.url ?? req.url.split('?')[0],
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
    });
  });

  registerMonitorRoutes(app, { registry, trace });
  registerMenuAdminRoutes(app);
  registerRoleAdminRoutes(app);
  await registerContentReadRoutes(app);
  await registerOrganisationAdminRoutes(app);
};

// Hooks land in the /api context itself (what fastify-plugin does), not in a child of it.
(adminRoutes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
