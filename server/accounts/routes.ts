import type { FastifyPluginAsync } from 'fastify';
import { adminUserRoutes } from '../routes/admin-users.ts';
import { businessRoutes } from '../routes/business.ts';
import { noticeRoutes } from '../routes/notices.ts';
import { organisationRoutes } from '../routes/organisations.ts';
import { orgTreeRoutes } from '../routes/org-tree.ts';

/** The account, organisation, notice and business calls of spec 7.2 and 7.3. */
export const accountRoutes: FastifyPluginAsync[] = [adminUserRoutes, organisationRoutes, orgTreeRoutes, noticeRoutes, businessRoutes];
