import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './routes/health.ts';
import { authRoutes } from './routes/auth.ts';
import { accountFrontRoutes } from './routes/account-front.ts';
import { accountRoutes } from './accounts/routes.ts';
import { resourceRoutes } from './resources/plugin.ts';
import { consoleConfigRoutes } from './routes/console-config.ts';
import { plantingRoutes } from './planting/routes.ts';
// First: it watches the routes the others register (registry, resource guards, trace).
import { adminRoutes } from './admin/plugin.ts';

/**
 * Every API module, registered under /api by app.ts. Each module is a Fastify plugin
 * that owns its routes and its messages.
 */
export const apiModules: FastifyPluginAsync[] = [adminRoutes, healthRoutes, authRoutes, accountFrontRoutes, ...accountRoutes, resourceRoutes, plantingRoutes, consoleConfigRoutes];
