import type { FastifyPluginAsync } from 'fastify';
import { legacyApi } from './legacy/plugin.ts';
import { platformRoutes } from './platform/plugin.ts';
import { resourceEngine, type ResourceEngineOptions } from './resources/plugin.ts';
import { adminResourceExtensions } from './admin/resource-extensions.ts';
import { nurseryResourceExtensions } from './admin/nursery-extensions.ts';
import { registrationResourceExtensions } from './admin/registration-extensions.ts';
import { plantingResourceExtensions } from './planting/extensions.ts';
import { knowledgeRoutes } from './knowledge/plugin.ts';
import { knowledgeResourceExtensions } from './knowledge/extensions.ts';
import { plantingRoutes } from './planting/routes.ts';
import { materialsRoutes } from './materials/routes.ts';
import { materialsResourceExtensions } from './materials/extensions.ts';
// First: it watches the routes the others register (registry, trace).
import { adminRoutes } from './admin/plugin.ts';

/** The engine with every business module's hooks on its resources (docs/resources.md, "Extensions"). */
const engineOptions: ResourceEngineOptions = {
  extensions: [
    ...adminResourceExtensions,
    ...nurseryResourceExtensions,
    ...registrationResourceExtensions,
    ...plantingResourceExtensions,
    ...knowledgeResourceExtensions,
    ...materialsResourceExtensions,
  ],
};
const resources: FastifyPluginAsync = async (app) => {
  await app.register(resourceEngine, engineOptions);
};

/**
 * Every API module, registered under /api by app.ts. Each module is a Fastify plugin
 * that owns its routes and its messages.
 */
export const apiModules: FastifyPluginAsync[] = [adminRoutes, platformRoutes, legacyApi, resources, knowledgeRoutes, plantingRoutes, materialsRoutes];
