/**
 * HTTP of the reads across the ledger for the planting side (traces.ts, docs/materials.md):
 * the trace of a planting group's materials to their batches and suppliers, and the inputs
 * applied per group and material against the production standard's limits.
 */
import type { FastifyPluginAsync } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { notFound, ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { defineMessages, t } from '../i18n/catalog.ts';
import { okObject, okPage } from '../admin/schemas.ts';
import { groupInScope, groupTrace, inputsPage } from './traces.ts';
import { comboArticle, materialArticle, productArticle } from './articles.ts';

const tags = ['materials'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const date = { type: 'string', format: 'date', maxLength: 10 } as const;
const paging = {
  pageIndex: { type: 'integer', minimum: 1, maximum: 100000 },
  pageSize: { type: 'integer', minimum: 1, maximum: 500 },
} as const;

/** Who may read a group's trace: the buyer, the stores, and the planting groups' list. */
export const TRACE_MENUS = ['farmMaterialsBuy', 'farmMaterialsStore', 'farmStorehouseIndex', 'farmPlantGroupList'];
/** The inputs applied (menu farmInputIndex, /farmInput/index). */
export const INPUT_MENUS = ['farmInputIndex'];

defineMessages({
  'inputs.periodOrder': {
    zh: '结束日期不能早于开始日期',
    en: 'The end date cannot be before the start date',
    es: 'La fecha final no puede ser anterior a la inicial',
  },
});

export const materialsTraceRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);

  app.get(
    '/farmMaterials/trace/:groupId/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The materials a planting group used: every stock-out line to the group or its tasks, with the stock-in that brought its batch in (supplier, purchase order, manufacturer, dates, quantities)',
        description: `Needs one of the menu codes ${TRACE_MENUS.join(', ')}. A group outside the caller’s farm scope is 40401.`,
        params: { type: 'object', additionalProperties: false, required: ['groupId'], properties: { groupId: id } },
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: TRACE_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const group = await groupInScope(app.db, me, req.params.groupId);
      if (!group) throw notFound();
      return ok(await groupTrace(app.db, group.id, group.farmId, req.query.pageIndex ?? 1, req.query.pageSize ?? 20));
    },
  );

  app.get(
    '/farmInput/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Inputs applied per planting group and material over a period: quantity, per mu, and the production standard’s limit for the group’s crop (over: quantity above limit × area)',
        description: `Needs the menu code ${INPUT_MENUS.join(', ')}. Rows of the caller’s farm scope; from / to bound the stock-out dates.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...paging,
            groupId: id,
            plotId: id,
            from: date,
            to: date,
            over: { type: 'string', enum: ['', 'true', 'false'] },
          },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: INPUT_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      if (q.from && q.to && q.to < q.from) throw invalidInput([{ field: 'to', message: t(req.lang, 'inputs.periodOrder') }], req.lang);
      return ok(
        await inputsPage(app.db, me, {
          groupId: q.groupId,
          plotId: q.plotId,
          from: q.from,
          to: q.to,
          over: q.over === 'true' ? true : q.over === 'false' ? false : undefined,
          pageIndex: q.pageIndex ?? 1,
          pageSize: q.pageSize ?? 20,
        }),
      );
    },
  );

  // The three article reads (articles.ts): one record each, for a detail screen.
  const articleRoutes = [
    { path: '/fertilizerFactory/articles/product/:id', menus: ['fertilizerProduct'], read: productArticle, summary: 'A product of the caller’s manufacturer with its article (article fields null when none is written yet)' },
    { path: '/fertilizerFactory/articles/combo/:id', menus: ['fertilizerProduct'], read: comboArticle, summary: 'A combination package of the caller’s manufacturer with its contents and article' },
    {
      path: '/farmMaterials/articles/:id',
      menus: ['farmMaterialsList', 'farmMaterialsStore', 'farmStorehouseIndex', 'farmMaterialsBuy'],
      read: materialArticle,
      summary: 'A catalogue material of the caller’s farm with the article of the manufacturer’s product it is (same manufacturer and registration number, else name)',
    },
  ] as const;
  for (const route of articleRoutes) {
    app.get(
      route.path,
      {
        validatorCompiler: resourceValidatorCompiler,
        attachValidation: true,
        schema: {
          tags,
          summary: route.summary,
          description: `Needs one of the menu codes ${route.menus.join(', ')}. Outside the caller’s scope: 40401.`,
          params: { type: 'object', additionalProperties: false, required: ['id'], properties: { id } },
          response: okObject(),
        },
      },
      async (req) => {
        const me = requireCan(req, { menus: [...route.menus] });
        if (req.validationError) throw refuseValidation(req.validationError, req.lang);
        const row = await route.read(app.db, me, req.params.id);
        if (!row) throw notFound();
        return ok(row);
      },
    );
  }
};
