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
import { libraryResourceExtensions } from './knowledge/library-extensions.ts';
import { plantingRoutes } from './planting/routes.ts';
import { materialsRoutes } from './materials/routes.ts';
import { materialsResourceExtensions } from './materials/extensions.ts';
import { studioRoutes } from './studio/routes.ts';
import { geometryFieldType } from './land/extensions.ts';
import { fileFieldType } from './files/field-type.ts';
import { filesRoutes } from './files/plugin.ts';
import { landRoutes } from './land/routes.ts';
import { materialsOrderRoutes } from './materials/order-routes.ts';
import { materialsShareRoutes } from './materials/share-routes.ts';
import { materialsTraceRoutes } from './materials/trace-routes.ts';
import { articleResourceExtensions } from './materials/articles.ts';
import { studioCoverageRoutes } from './studio/coverage-routes.ts';
import { harvestRoutes } from './harvest/routes.ts';
import { harvestResourceExtensions } from './harvest/references.ts';
import { homeRoutes } from './harvest/home.ts';
import { factoryHomeRoutes } from './materials/factory-home.ts';
import { tracePages } from './harvest/trace-page.ts';
import { devicesRoutes } from './devices/plugin.ts';
// First: it watches the routes the others register (registry, trace).
import { adminRoutes } from './admin/plugin.ts';

/** The engine with every business module's hooks on its resources (docs/resources.md, "Extensions"). */
export const engineOptions: ResourceEngineOptions = {
  extensions: [
    ...adminResourceExtensions,
    ...nurseryResourceExtensions,
    ...registrationResourceExtensions,
    ...plantingResourceExtensions,
    ...knowledgeResourceExtensions,
    ...materialsResourceExtensions,
    ...libraryResourceExtensions,
    ...articleResourceExtensions,
    ...harvestResourceExtensions,
  ],
  // Field types (docs/schema-language.md): checked on every resource declaring them.
  fieldTypes: [geometryFieldType, fileFieldType],
};
const resources: FastifyPluginAsync = async (app) => {
  await app.register(resourceEngine, engineOptions);
};

/**
 * Every API module, registered under /api by app.ts. Each module is a Fastify plugin
 * that owns its routes and its messages.
 */
export const apiModules: FastifyPluginAsync[] = [adminRoutes, platformRoutes, legacyApi, resources, knowledgeRoutes, plantingRoutes, materialsRoutes, materialsOrderRoutes, materialsShareRoutes, materialsTraceRoutes, landRoutes, harvestRoutes, homeRoutes, factoryHomeRoutes, devicesRoutes, filesRoutes, studioRoutes, studioCoverageRoutes];

/** Pages served outside /api and outside the console, without a session (the consumer's trace page). */
export const pageModules: FastifyPluginAsync[] = [tracePages];
