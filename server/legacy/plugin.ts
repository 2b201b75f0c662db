import type { FastifyPluginAsync } from 'fastify';
import { adminUserRoutes } from './accounts/routes.ts';
import { accountFrontRoutes } from './auth/account-front.ts';
import { authRoutes } from './auth/routes.ts';
import { businessRoutes } from './business/routes.ts';
import { noticeRoutes } from './notices/routes.ts';
import { orgTreeRoutes } from './organisations/org-tree.ts';
import { organisationRoutes } from './organisations/routes.ts';

/**
 * The spec's legacy API (sections 7.1 to 7.3), one domain per folder (docs/architecture.md,
 * "Legacy API"). Its URLs, replies and audit entries are the spec's and must not change.
 * Each domain is registered as a child, so the hooks of the modules registered before it
 * under /api (the admin module's route registry, guards and trace) see its routes too.
 */
export const legacyApi: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(accountFrontRoutes);
  await app.register(adminUserRoutes);
  await app.register(organisationRoutes);
  await app.register(orgTreeRoutes);
  await app.register(noticeRoutes);
  await app.register(businessRoutes);
};
