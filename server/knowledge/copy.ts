import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { requireCan } from '../http/guard.ts';
import { ok } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import { readResourceDocuments } from '../resources/load.ts';
import { ResourceStore } from '../resources/store.ts';
import { refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';

/** The record fields a copy takes over from its system template (the shared template shape). */
const TEMPLATE_FIELDS = ['name', 'kind', 'cropId', 'description', 'stages', 'keyNodes', 'workItems'] as const;

export const COPY_PATH = '/agricultureKnowledge/planTemplates/copy';

/**
 * POST /api/agricultureKnowledge/planTemplates/copy {systemTemplateId, farmId?}: a farm
 * takes a platform system template into its own planting templates to adapt it. Needs the
 * planTemplates create authority (a farm's own templates are what plans are made from);
 * reading the source needs nothing more, system templates being platform records that any
 * farm may read. The copy goes through the resource store, so it is validated, owned and
 * scoped exactly like a template created on the form, and its insert and audit row
 * (`planTemplates.create`, naming `sourceTemplateId`) share one transaction.
 */
export async function registerTemplateCopy(instance: FastifyInstance, resourcesDir?: string): Promise<void> {
  const app = typedRoutes(instance);
  const docs = await readResourceDocuments(resourcesDir);
  const byName = new Map<string, ResourceDocument>(docs.map((d) => [d.name, d]));
  const planDoc = byName.get('planTemplates');
  const systemDoc = byName.get('systemTemplates');
  if (!planDoc || !systemDoc) throw new Error('knowledge: the planTemplates and systemTemplates documents are required');
  const plans = new ResourceStore(planDoc, byName);
  const systems = new ResourceStore(systemDoc, byName);

  app.post(
    COPY_PATH,
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags: ['planTemplates'],
        summary: 'Planting templates: copy a system template into the farm',
        description: `Needs ${planDoc.authority} + ${planDoc.elements.create} (or an alias with its :add code). A platform administrator or a service provider names the farm in farmId.`,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['systemTemplateId'],
          properties: {
            systemTemplateId: { type: 'integer', minimum: 1, maximum: 2147483647, 'x-title': systemDoc.title },
            farmId: { type: 'integer', minimum: 1, maximum: 2147483647, 'x-title': { zh: '农场', en: 'Farm', es: 'Granja' } },
          },
        } as const,
      },
    },
    async (req) => {
      const user = requireCan(req, planDoc, 'create');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body;
      // 40401 for an id that does not exist, as for any record.
      const source = await systems.get(req.server.db, user, body.systemTemplateId);
      const record: Record<string, unknown> = { sourceTemplateId: source.id };
      for (const f of TEMPLATE_FIELDS) if (source[f] !== undefined && source[f] !== null) record[f] = source[f];
      if (body.farmId !== undefined) record.farmId = body.farmId;
      const copy = await plans.create(req.server.db, req, user, record);
      return ok(copy, t(req.lang, 'common.ok'));
    },
  );
}
