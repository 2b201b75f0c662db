import { Params } from '../db/params.ts';
import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { notFound, ok } from '../http/envelope.ts';
import { requireAnyMenu } from '../http/guard.ts';
import * as s from '../legacy/schemas.ts';
import { ORG_COLUMNS, orgReadScopeSql, orgView, visibleOrg, type OrgRow } from '../legacy/scope.ts';
import { readResourceDocuments } from '../resources/load.ts';
import { pageQuerySchema } from '../resources/routes.ts';
import { ResourceStore } from '../resources/store.ts';
import { refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { id, offsetOf, okArray, okPage, page, pagedQuery, strictObject } from './schemas.ts';

const tags = ['organisations'];

/** Who reaches the multi-farm screens (a provider's farms, the platform's). */
export const MULTI_FARM_MENUS = ['multiFarm', 'multiFarmIndex'];
/** Who edits the seedling bases (schemas/resources/nurseries.json). */
const NURSERY_MENUS = ['nurseryManage', 'nurseryManageIndex'];

interface FarmSummaryRow extends OrgRow {
  people: number;
  plant_groups: number;
  fields: number;
  field_area: string | number | null;
}

/**
 * The provider's and the platform's view over many farms (/multiFarm/index and
 * /multiFarm/showplantgroup/:farmId). The seedling bases (/nurseryManage/index) are the
 * resource engine's: schemas/resources/nurseries.json and nursery-extensions.ts.
 */
export async function registerOrganisationAdminRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;
  const docs = await readResourceDocuments();
  const byName = new Map(docs.map((d) => [d.name, d]));
  const plantGroups = byName.get('plantGroups');
  if (!plantGroups) throw new Error('schemas/resources/plantGroups.json is missing');
  const plantGroupStore = new ResourceStore(plantGroups, byName);
  // The multi-farm routes are typed by their schemas (http/typed-routes.ts).
  const typed = typedRoutes(app);

  typed.get(
    '/admin/multiFarm/page',
    {
      schema: {
        tags,
        summary: 'Farms in the caller’s scope with their people, planting groups, plots and plot area',
        description: `Needs one of the menu codes ${MULTI_FARM_MENUS.join(', ')}. A provider sees its bloc's farms, a regional center the farms of its region, a farm itself, the platform every farm.`,
        querystring: pagedQuery({ keyword: s.keyword, city: s.city }),
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, MULTI_FARM_MENUS);
      const q = req.query;
      const p = new Params();
      const where = ['o.type = 0', orgReadScopeSql(me, p)];
      if (q.keyword) where.push(`position(${p.add(q.keyword.toLowerCase())} in lower(o.name)) > 0`);
      if (q.city) where.push(`o.city = ${p.add(q.city)}`);
      const cond = where.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organisations o WHERE ${cond}`, p.values)).rows[0].n;
      const { rows } = await db.query<FarmSummaryRow>(
        `SELECT ${ORG_COLUMNS},
            (SELECT count(*)::int FROM users u WHERE u.org_id = o.id) AS people,
            (SELECT count(*)::int FROM resource_records r WHERE r.resource = 'plantGroups' AND r.farm_id = o.id) AS plant_groups,
            (SELECT count(*)::int FROM resource_records r WHERE r.resource = 'farmFields' AND r.farm_id = o.id) AS fields,
            (SELECT sum((r.data->>'areaMu')::numeric) FROM resource_records r WHERE r.resource = 'farmFields' AND r.farm_id = o.id) AS field_area
           FROM organisations o LEFT JOIN blocs b ON b.id = o.bloc_id WHERE ${cond}
          ORDER BY o.id LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(offsetOf(q))}`,
        p.values,
      );
      return ok(
        page(
          rows.map((r) => ({ ...orgView(r), people: r.people, plantGroups: r.plant_groups, fields: r.fields, fieldAreaMu: r.field_area === null ? 0 : Number(r.field_area) })),
          total,
          q,
        ),
      );
    },
  );

  typed.get(
    '/admin/organisations/centers',
    {
      schema: {
        tags,
        summary: 'The regional management centers (organisations of type 3) as options {value, label}: the center select of the farm and seedling base forms',
        description: `Needs one of the menu codes ${[...MULTI_FARM_MENUS, ...NURSERY_MENUS].join(', ')}.`,
        response: okArray(),
      },
    },
    async (req) => {
      requireAnyMenu(req, [...MULTI_FARM_MENUS, ...NURSERY_MENUS]);
      const { rows } = await db.query<{ id: number; name: string }>('SELECT id, name FROM organisations WHERE type = 3 ORDER BY name, id');
      return ok(rows.map((r) => ({ value: Number(r.id), label: r.name })));
    },
  );

  typed.get(
    '/admin/multiFarm/:farmId/plantGroups',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The planting groups of one farm in the caller’s scope, in the resource engine’s row and page shape (same filters as /api/farmPlantGroup/groups/page)',
        description: `Needs one of the menu codes ${MULTI_FARM_MENUS.join(', ')}; a farm outside the caller's scope answers 40401.`,
        params: strictObject({ farmId: id }, ['farmId']),
        querystring: pageQuerySchema(plantGroups),
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, MULTI_FARM_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const farm = await visibleOrg(db, me, req.params.farmId, { mode: 'read' });
      if (farm.type !== 0) throw notFound();
      // The engine's own page query, with the caller's scope narrowed to that one farm (as a
      // member of it, so that a center's region does not widen it again).
      const narrowed: SessionUser = { ...me, platformAdmin: false, orgId: farm.id, orgType: farm.type };
      return ok(await plantGroupStore.page(db, narrowed, req.query));
    },
  );
}
