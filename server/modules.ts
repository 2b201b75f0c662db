import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './routes/health.ts';
import { authRoutes } from './routes/auth.ts';
import { accountFrontRoutes } from './routes/account-front.ts';
import { accountRoutes } from './accounts/routes.ts';
import { resourceEngine, type ResourceEngineOptions } from './resources/plugin.ts';
import { adminResourceExtensions } from './admin/resource-extensions.ts';
import { consoleConfigRoutes } from './routes/console-config.ts';
// First: it watches the routes the others register (registry, trace).
import { adminRoutes } from './admin/plugin.ts';

/** The engine with every business module's hooks on its resources (docs/resources.md, "Extensions"). */
const engineOptions: ResourceEngineOptions = { extensions: [...adminResourceExtensions] };
const resources: FastifyPluginAsync = async (app) => {
  await app.register(resourceEngine, engineOptions);
};

/**
 * Every API module, registered under /api by app.ts. Each module is a Fastify plugin
 * that owns its routes and its messages.
 */
export const apiModules: FastifyPluginAsync[] = [adminRoutes, healthRoutes, authRoutes, accountFrontRoutes, ...accountRoutes, resources, consoleConfigRoutes];
