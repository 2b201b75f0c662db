import type { FastifyPluginAsync } from 'fastify';
import { registerTemplateCopy } from './copy.ts';

/**
 * The planting knowledge base beyond its generic resources (docs/planting.md, "Knowledge
 * base and templates"): copying a system template into a farm's own templates.
 */
export const knowledgeRoutes: FastifyPluginAsync<{ dir?: string }> = async (app, opts) => {
  await registerTemplateCopy(app, opts.dir);
};
