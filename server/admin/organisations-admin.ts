import { Params } from '../db/params.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { audit } from '../audit/log.ts';
import { business, forbidden, notFound, ok } from '../http/envelope.ts';
import { requireAnyMenu, requireCan } from '../http/guard.ts';
import { orgProps } from '../legacy/organisations/routes.ts';
import * as s from '../legacy/schemas.ts';
import { ORG_COLUMNS, orgScopeSql, orgView, scopeOf, visibleOrg, type OrgRow } from '../legacy/scope.ts';
import { readResourceDocuments } from '../resources/load.ts';
import { pageQuerySchema } from '../resources/routes.ts';
import { ResourceStore } from '../resources/store.ts';
import { refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { msg } from './messages.ts';
import { id, offsetOf, okObject, okPage, page, pagedQuery, strictObject } from './schemas.ts';

const tags = ['organisations'];

/**
 * Per-record permission hints for the console (runtime/screens/gating.ts): nobody deletes
 * the organisation they belong to, so that row offers no deletion.
 */
function nurseryCan(me: SessionUser, org: OrgRow): Record<string, boolean> {
  return { edit: true, delete: org.id !== me.orgId };
}

/** Who reaches the multi-farm screens (a provider's farms, the platform's). */
export const MULTI_FARM_MENUS = ['multiFarm', 'multiFarmIndex'];
/** Who reaches the seedling-base screen; writes need the element of its index entry. */
export const NURSERY_MENUS = ['nurseryManage', 'nurseryManageIndex'];

const orgBodyProps = { ...orgProps, status: { type: 'integer', enum: [0, 1] } } as const;
type OrgBody = Partial<Record<'name' | 'city' | 'address' | 'contact' | 'phone' | 'logoUrl', string>> & { status?: 0 | 1 };
const ORG_COLUMN_OF = { name: 'name', city: 'city', address: 'address', contact: 'contact', phone: 'phone', logoUrl: 'logo_url', status: 'status' } as const;

interface FarmSummaryRow extends OrgRow {
  people: number;
  plant_groups: number;
  fields: number;
  field_area: string | number | null;
}

/**
 * The provider's and the platform's view over many farms (/multiFarm/index and
 * /multiFarm/showplantgroup/:farmId) and the seedling bases (/nurseryManage/index).
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
        description: `Needs one of the menu codes ${MULTI_FARM_MENUS.join(', ')}. A provider sees its bloc's farms, a farm itself, the platform every farm.`,
        querystring: pagedQuery({ keyword: s.keyword, city: s.city }),
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, MULTI_FARM_MENUS);
      const q = req.query;
      const p = new Params();
      const where = ['o.type = 0', orgScopeSql(scopeOf(me), p)];
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
      const farm = await visibleOrg(db, me, req.params.farmId);
      if (farm.type !== 0) throw notFound();
      // The engine's own page query, with the caller's scope narrowed to that one farm.
      const narrowed: SessionUser = { ...me, platformAdmin: false, orgId: farm.id };
      return ok(await plantGroupStore.page(db, narrowed, req.query));
    },
  );

  app.get<{ Querystring: s.PageParams & { keyword?: string; status?: number } }>(
    '/admin/nursery/page',
    {
      schema: {
        tags,
        summary: 'Seedling bases (organisation type 4) in the caller’s scope, with their people',
        description: `Needs one of the menu codes ${NURSERY_MENUS.join(', ')}.`,
        querystring: pagedQuery({ keyword: s.keyword, status: { type: 'integer', enum: [0, 1] } }),
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, NURSERY_MENUS);
      const q = req.query;
      const p = new Params();
      const where = ['o.type = 4', orgScopeSql(scopeOf(me), p)];
      if (q.keyword) where.push(`(position(${p.add(q.keyword.toLowerCase())} in lower(o.name)) > 0 OR position(${p.add(q.keyword.toLowerCase())} in lower(coalesce(o.city, ''))) > 0)`);
      if (q.status !== undefined) where.push(`o.status = ${p.add(q.status)}`);
      const cond = where.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organisations o WHERE ${cond}`, p.values)).rows[0].n;
      const { rows } = await db.query<OrgRow & { people: number }>(
        `SELECT ${ORG_COLUMNS}, (SELECT count(*)::int FROM users u WHERE u.org_id = o.id) AS people
           FROM organisations o LEFT JOIN blocs b ON b.id = o.bloc_id WHERE ${cond}
          ORDER BY o.id LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(offsetOf(q))}`,
        p.values,
      );
      return ok(page(rows.map((r) => ({ ...orgView(r), people: r.people, _can: nurseryCan(me, r) })), total, q));
    },
  );

  const requireNurseryWrite = (req: FastifyRequest, action: 'add' | 'edit' | 'delete') => {
    return requireCan(req, { menus: NURSERY_MENUS, elements: [`nurseryManageIndex:${action}`] });
  };

  app.get<{ Params: { id: number } }>(
    '/admin/nursery/:id',
    { schema: { tags, summary: 'One seedling base', description: `Needs one of the menu codes ${NURSERY_MENUS.join(', ')}.`, params: strictObject({ id }, ['id']), response: okObject() } },
    async (req) => {
      const me = requireAnyMenu(req, NURSERY_MENUS);
      const org = await visibleOrg(db, me, req.params.id);
      if (org.type !== 4) throw notFound();
      return ok({ ...orgView(org), _can: nurseryCan(me, org) });
    },
  );

  app.post<{ Body: OrgBody & { name: string } }>(
    '/admin/nursery',
    {
      schema: {
        tags,
        summary: 'Adds a seedling base (platform administrators; a provider into its own bloc)',
        description: 'Needs nurseryManage and nurseryManageIndex:add; a member of an organisation cannot add organisations (40301).',
        body: strictObject(orgBodyProps, ['name']),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireNurseryWrite(req, 'add');
      const scope = scopeOf(me);
      if (scope.kind !== 'platform' && scope.kind !== 'bloc') throw forbidden();
      const b = req.body;
      const org = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO organisations(name, type, bloc_id, city, address, contact, phone, logo_url, status) VALUES ($1, 4, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
          [b.name, scope.kind === 'bloc' ? scope.blocId : null, b.city ?? null, b.address ?? null, b.contact ?? null, b.phone ?? null, b.logoUrl ?? null, b.status ?? 1],
        );
        await audit(tx, req, { action: 'org.create', resource: 'organisations', recordId: rows[0].id, changes: { ...b, type: 4 } });
        return visibleOrg(tx, me, rows[0].id);
      });
      return ok(orgView(org));
    },
  );

  app.put<{ Params: { id: number }; Body: OrgBody }>(
    '/admin/nursery/:id',
    {
      schema: {
        tags,
        summary: 'Changes a seedling base (the fields sent)',
        description: 'Needs nurseryManage and nurseryManageIndex:edit; the base must be in the caller’s scope.',
        params: strictObject({ id }, ['id']),
        body: { ...strictObject(orgBodyProps), minProperties: 1 },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireNurseryWrite(req, 'edit');
      const org = await db.transaction(async (tx) => {
        const before = await visibleOrg(tx, me, req.params.id, { forUpdate: true });
        if (before.type !== 4) throw notFound();
        // A form sends the status it showed: only a change of one's own base's status is refused.
        if (req.body.status !== undefined && req.body.status !== before.status && before.id === me.orgId) throw forbidden();
        const p = new Params();
        const sets: string[] = [];
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        const beforeView = orgView(before) as Record<string, unknown>;
        for (const [field, column] of Object.entries(ORG_COLUMN_OF)) {
          const value = (req.body as Record<string, unknown>)[field];
          if (value === undefined || value === beforeView[field]) continue;
          sets.push(`${column} = ${p.add(value)}`);
          changes[field] = { from: beforeView[field], to: value };
        }
        if (!sets.length) throw business(msg['admin.nothingToChange']);
        await tx.query(`UPDATE organisations SET ${sets.join(', ')} WHERE id = ${p.add(before.id)}`, p.values);
        await audit(tx, req, { action: 'org.update', resource: 'organisations', recordId: before.id, changes });
        return visibleOrg(tx, me, before.id);
      });
      return ok(orgView(org));
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/nursery/:id',
    {
      schema: {
        tags,
        summary: 'Deletes a seedling base nobody belongs to any more',
        description: 'Needs nurseryManage and nurseryManageIndex:delete. Refused (40001) while people remain; nobody deletes their own organisation.',
        params: strictObject({ id }, ['id']),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireNurseryWrite(req, 'delete');
      await db.transaction(async (tx) => {
        const before = await visibleOrg(tx, me, req.params.id, { forUpdate: true });
        if (before.type !== 4) throw notFound();
        if (before.id === me.orgId) throw forbidden();
        const people = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE org_id = $1', [before.id])).rows[0].n;
        if (people > 0) throw business(msg['admin.orgHasPeople'], { count: people });
        await tx.query('DELETE FROM organisations WHERE id = $1', [before.id]);
        await audit(tx, req, { action: 'org.delete', resource: 'organisations', recordId: before.id, changes: orgView(before) });
      });
      return ok({ id: req.params.id });
    },
  );
}
