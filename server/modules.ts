import type { FastifyPluginAsync } from 'fastify';
import { legacyApi } from './legacy/plugin.ts';
import { platformRoutes } from './platform/plugin.ts';
import { resourceRoutes } from './resources/plugin.ts';
import { knowledgeRoutes } from './knowledge/plugin.ts';
// First: it watches the routes the others register (registry, resource guards, trace).
import { adminRoutes } from './admin/plugin.ts';

/**
 * Every API module, registered under /api by app.ts. Each module is a Fastify plugin
 * that owns its routes and its messages.
 */
export const apiModules: FastifyPluginAsync[] = [adminRoutes, platformRoutes, legacyApi, resourceRoutes, knowledgeRoutes];
