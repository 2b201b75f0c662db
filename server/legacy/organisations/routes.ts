import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { Params } from '../../db/params.ts';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../../auth/session-user.ts';
import { audit } from '../../audit/log.ts';
import type { Queryable } from '../../db/database.ts';
import { Status, business, forbidden, notFound, ok } from '../../http/envelope.ts';
import { caller } from '../../http/guard.ts';
import { authority, holds, requireAuthority, type Authority } from '../authority.ts';
import { msg } from '../messages.ts';
import { createPerson, personHash, personProps, type PersonBody } from '../accounts/persons.ts';
import { assignableRoles, replaceRoles } from '../accounts/roles.ts';
import { ORG_COLUMNS, orgView, scopeOf, visibleBloc, visibleOrg, type OrgRow } from '../scope.ts';
import * as s from '../schemas.ts';
import { checkCenterChange, REGION_CODES } from '../../admin/region-center.ts';
import { WRITABLE_KINDS, changeableUser, farmIdOf, refuseSelf, userById } from '../accounts/users.ts';

const tags = ['organisations'];

const orgType = { type: 'integer', enum: [0, 1, 3, 4] } as const;

/** The fields of an organisation a caller may write. */
export const orgProps = {
  name: s.name,
  city: s.city,
  address: s.text(200),
  contact: s.text(64),
  phone: { type: 'string', minLength: 5, maxLength: 20, pattern: '^[0-9+\\- ]+$' },
  logoUrl: s.logoUrl,
  /** The regional center (an organisation of type 3) whose region it joins; null leaves every region (admin/region-center.ts). */
  centerId: { ...s.id, type: ['integer', 'null'] },
} as const;

/** The organisation fields of a body, each optional; the calls add what they require. */
type OrgBody = s.FromSchema<ReturnType<typeof s.strictObject<typeof orgProps>>>;

const ORG_WRITABLE = { name: 'name', city: 'city', address: 'address', contact: 'contact', phone: 'phone', logoUrl: 'logo_url' } as const;

/** Farms, blocs and organisation membership (spec 7.2). */
export const organisationRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const db = app.db;

  app.get(
    '/admin/user/front/getfertilizers',
    {
      schema: {
        tags,
        summary: 'Fertilizer manufacturers (every signed-in user may pick one)',
        querystring: s.pagedQuery({ keyword: s.keyword }),
      },
    },
    async (req) => {
      caller(req);
      const q = req.query;
      const p = new Params();
      const where = ['o.type = 1', 'o.status = 1'];
      if (q.keyword) where.push(`position(${p.add(q.keyword.toLowerCase())} in lower(o.name)) > 0`);
      const cond = where.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organisations o WHERE ${cond}`, p.values)).rows[0].n;
      const { rows } = await db.query<OrgRow>(
        `SELECT ${ORG_COLUMNS} FROM organisations o LEFT JOIN blocs b ON b.id = o.bloc_id WHERE ${cond}
          ORDER BY o.id LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(s.offsetOf(q))}`,
        p.values,
      );
      return ok(s.page(rows.map(orgView), total, q));
    },
  );

  app.post(
    '/admin/user/front/regist/fertilizer',
    {
      schema: {
        tags,
        summary: 'Registers a fertilizer manufacturer with its first account',
        body: s.strictObject({ ...orgProps, blocId: s.id, account: accountBody() }, ['name', 'account']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.userWrite('add'));
      const hash = await personHash(req.body.account);
      const result = await db.transaction(async (tx) => {
        const org = await createOrg(tx, req, me, { ...req.body, type: 1 });
        const account = await createPerson(tx, req, me, req.body.account, { kind: 'operator', orgId: org.id, blocId: null }, hash);
        return { organisation: org, account };
      });
      return ok(result);
    },
  );

  app.get(
    '/admin/user/getBlocChildrenByType',
    {
      schema: {
        tags,
        summary: 'The organisations of a bloc, optionally of one type (an array, not a page)',
        querystring: s.strictObject({ id: s.id, type: orgType }, ['id']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farms);
      const bloc = await visibleBloc(db, me, req.query.id);
      const type = req.query.type;
      const { rows } = await db.query<OrgRow>(
        `SELECT ${ORG_COLUMNS} FROM organisations o LEFT JOIN blocs b ON b.id = o.bloc_id
          WHERE o.bloc_id = $1 AND ($2::smallint IS NULL OR o.type = $2) ORDER BY o.id`,
        [bloc.id, type ?? null],
      );
      return ok(rows.map(orgView));
    },
  );

  app.delete(
    '/admin/user/front/deleteFarm',
    {
      schema: {
        tags,
        summary: 'Deletes a farm together with its account; refused while other people remain in it',
        querystring: s.strictObject({ farmId: s.id, userId: s.id }, ['farmId', 'userId']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmWrite('delete'));
      const { farmId, userId } = req.query;
      refuseSelf(me, userId);
      await db.transaction(async (tx) => {
        const farm = await visibleOrg(tx, me, farmId, { forUpdate: true });
        if (me.orgId === farm.id) throw business(msg['accounts.notSelf']);
        const account = await changeableUser(tx, me, userId);
        if (account.orgId !== farm.id) throw business(msg['accounts.userNotInFarm']);
        await assertNoOtherPeople(tx, farm.id, userId);
        await tx.query('DELETE FROM users WHERE id = $1', [userId]);
        await audit(tx, req, { action: 'user.delete', resource: 'users', recordId: userId, changes: { username: account.username, orgId: farm.id } });
        await tx.query('DELETE FROM organisations WHERE id = $1', [farm.id]);
        await audit(tx, req, { action: 'org.delete', resource: 'organisations', recordId: farm.id, changes: orgView(farm) });
      });
      return ok({ farmId, userId });
    },
  );

  app.get(
    '/admin/user/getFarmInfo',
    { schema: { tags, summary: 'One organisation in scope (default: the caller’s own)', querystring: s.strictObject({ farmId: s.id }) } },
    async (req) => {
      const me = caller(req);
      const farm = await visibleOrg(db, me, farmIdOf(me, req.query.farmId));
      const people = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE org_id = $1', [farm.id])).rows[0].n;
      return ok({ ...orgView(farm), userCount: people });
    },
  );

  app.post(
    '/admin/user/updateFarmInfo',
    {
      schema: {
        tags,
        summary: 'Changes an organisation’s own information (default: the caller’s own)',
        body: s.strictObject({ id: s.id, ...orgProps }),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmInfoWrite);
      const id = farmIdOf(me, req.body.id);
      return ok(await db.transaction((tx) => updateOrg(tx, req, me, id, req.body)));
    },
  );

  app.post(
    '/admin/user/addGroupFarmAndFarmAccount',
    {
      schema: {
        tags,
        summary: 'Adds a farm to a bloc together with the farm’s first account',
        body: s.strictObject(
          { blocId: s.id, farm: s.strictObject({ ...orgProps, type: orgType }, ['name']), account: accountBody() },
          ['farm', 'account'],
        ),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmWrite('add'));
      const hash = await personHash(req.body.account);
      const result = await db.transaction(async (tx) => {
        const blocId = req.body.blocId ?? me.blocId ?? undefined;
        if (blocId === undefined) throw business(msg['accounts.blocRequired']);
        const org = await createOrg(tx, req, me, { ...req.body.farm, type: req.body.farm.type ?? 0, blocId });
        const account = await createPerson(tx, req, me, req.body.account, { kind: 'operator', orgId: org.id, blocId: null }, hash);
        return { organisation: org, account };
      });
      return ok(result);
    },
  );

  app.put(
    '/farmManage/bloc/updateBloc',
    {
      schema: {
        tags,
        summary: 'Changes a bloc (group of farms): the caller’s own, or any for a platform administrator',
        body: s.strictObject({ id: s.id, name: s.name, city: { ...s.city, type: ['string', 'null'] } }, ['id']),
      },
    },
    async (req) => {
      const me = caller(req);
      if (!holdsAny(me, [authority.groupCustomerWrite('edit'), authority.farmWrite('edit')])) throw forbidden();
      const { id, name, city } = req.body;
      const bloc = await db.transaction(async (tx) => {
        const before = await visibleBloc(tx, me, id);
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        if (name !== undefined && name !== before.name) changes.name = { from: before.name, to: name };
        if (city !== undefined && city !== before.city) changes.city = { from: before.city, to: city };
        if (!Object.keys(changes).length) throw business(msg['accounts.nothingToChange']);
        const { rows } = await tx.query<{ id: number; name: string; city: string | null }>(
          'UPDATE blocs SET name = COALESCE($2, name), city = CASE WHEN $3::boolean THEN $4 ELSE city END WHERE id = $1 RETURNING id, name, city',
          [id, name ?? null, city !== undefined, city ?? null],
        );
        await audit(tx, req, { action: 'bloc.update', resource: 'blocs', recordId: id, changes });
        return rows[0];
      });
      return ok(bloc);
    },
  );

  app.post(
    '/farmManage/org/addFarm',
    {
      schema: {
        tags,
        summary: 'Adds an organisation (a farm unless type says otherwise) to the caller’s bloc, or anywhere for the platform',
        body: s.strictObject({ ...orgProps, type: orgType, blocId: s.id }, ['name']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmWrite('add'));
      return ok(await db.transaction((tx) => createOrg(tx, req, me, { ...req.body, type: req.body.type ?? 0 })));
    },
  );

  app.delete(
    '/farmManage/org/deleteFarm',
    {
      schema: { tags, summary: 'Deletes an organisation that has nobody left in it', querystring: s.strictObject({ id: s.id }, ['id']) },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmWrite('delete'));
      await db.transaction(async (tx) => {
        const farm = await visibleOrg(tx, me, req.query.id, { forUpdate: true });
        if (me.orgId === farm.id) throw business(msg['accounts.notSelf']);
        await assertNoOtherPeople(tx, farm.id, null);
        await tx.query('DELETE FROM organisations WHERE id = $1', [farm.id]);
        await audit(tx, req, { action: 'org.delete', resource: 'organisations', recordId: farm.id, changes: orgView(farm) });
      });
      return ok({ id: req.query.id });
    },
  );

  app.put(
    '/farmManage/org/updateFarm',
    {
      schema: {
        tags,
        summary: 'Changes an organisation; only a platform administrator moves one between blocs or changes its type',
        body: s.strictObject(
          { id: s.id, ...orgProps, type: orgType, blocId: { ...s.id, type: ['integer', 'null'] }, status: { type: 'integer', enum: [0, 1] } },
          ['id'],
        ),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmWrite('edit'));
      return ok(await db.transaction((tx) => updateOrg(tx, req, me, req.body.id, req.body)));
    },
  );

  app.delete(
    '/admin/orgUserRole/removeOrgUser/:id',
    {
      schema: {
        tags,
        summary: 'Takes a person out of their organisation, with the roles they held there',
        params: s.strictObject({ id: s.id }, ['id']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeopleWrite('delete'));
      const id = req.params.id;
      refuseSelf(me, id);
      const user = await db.transaction(async (tx) => {
        const before = await changeableUser(tx, me, id);
        if (before.orgId == null) throw business(msg['accounts.userHasNoOrg']);
        const roleIds = before.roles.map((r) => r.id);
        await assignableRoles(tx, me, roleIds);
        const roles = await replaceRoles(tx, id, []);
        await tx.query('UPDATE users SET org_id = NULL, version = version + 1, updated_at = now() WHERE id = $1', [id]);
        await audit(tx, req, {
          action: 'orgUser.remove',
          resource: 'users',
          recordId: id,
          changes: { orgId: { from: before.orgId, to: null }, roles: { from: roles.before, to: [] } },
        });
        return userById(tx, id);
      });
      return ok(user);
    },
  );

  app.post(
    '/admin/orgUserRole/user/organizationUser',
    {
      schema: {
        tags,
        summary: 'Puts a person (in scope, or belonging to no organisation) into an organisation with the given roles',
        body: s.strictObject({ userId: s.id, orgId: s.id, roleIds: s.roleIds }, ['userId', 'roleIds']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeopleWrite('add'));
      const { userId, roleIds } = req.body;
      const orgId = farmIdOf(me, req.body.orgId);
      const user = await db.transaction(async (tx) => {
        const org = await visibleOrg(tx, me, orgId);
        const before = await assignableUser(tx, me, userId);
        if (before.orgId != null && before.orgId !== org.id) throw business(msg['accounts.userInOtherOrg']);
        const removed = before.roles.map((r) => r.id).filter((r) => !roleIds.includes(r));
        await assignableRoles(tx, me, [...roleIds, ...removed]);
        const roles = await replaceRoles(tx, userId, roleIds);
        await tx.query('UPDATE users SET org_id = $2, version = version + 1, updated_at = now() WHERE id = $1', [userId, org.id]);
        await audit(tx, req, {
          action: 'orgUser.assign',
          resource: 'users',
          recordId: userId,
          changes: { orgId: { from: before.orgId, to: org.id }, roles: { from: roles.before, to: roles.after } },
        });
        return userById(tx, userId);
      });
      return ok(user);
    },
  );

  app.post(
    '/admin/user/front/regist/organizationUser',
    {
      schema: {
        tags,
        summary: 'Creates an account inside an organisation of any type (default: the caller’s own)',
        body: s.strictObject(
          { orgId: s.id, kind: { type: 'string', enum: WRITABLE_KINDS.filter((k) => k !== 'provider') }, ...personProps },
          ['username', 'password', 'name'],
        ),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeopleWrite('add'));
      const orgId = farmIdOf(me, req.body.orgId);
      const hash = await personHash(req.body);
      const user = await db.transaction(async (tx) => {
        const org = await visibleOrg(tx, me, orgId);
        return createPerson(tx, req, me, req.body, { kind: req.body.kind ?? 'operator', orgId: org.id, blocId: null }, hash);
      });
      return ok(user);
    },
  );
};

function accountBody() {
  return s.strictObject(personProps, ['username', 'password', 'name']);
}

function holdsAny(me: SessionUser, list: Authority[]): boolean {
  return list.some((a) => holds(me, a));
}

/**
 * A new organisation goes where the caller's scope reaches: anywhere for the platform,
 * into their own bloc for a service provider. Members of an organisation create none.
 */
async function createOrg(tx: Queryable, req: FastifyRequest, me: SessionUser, o: OrgBody & { name: string; type: number; blocId?: number }) {
  const scope = scopeOf(me);
  let blocId: number | null;
  if (scope.kind === 'platform') blocId = o.blocId ? (await visibleBloc(tx, me, o.blocId)).id : null;
  else if (scope.kind === 'bloc') blocId = (await visibleBloc(tx, me, o.blocId ?? scope.blocId)).id;
  else throw forbidden();
  await checkCenterChange(tx, me, REGION_CODES.farm, null, o.centerId);
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO organisations(name, type, bloc_id, city, address, contact, phone, logo_url, center_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [o.name, o.type, blocId, o.city ?? null, o.address ?? null, o.contact ?? null, o.phone ?? null, o.logoUrl ?? null, o.centerId ?? null],
  );
  const org = orgView(await visibleOrg(tx, me, rows[0].id));
  await audit(tx, req, { action: 'org.create', resource: 'organisations', recordId: org.id, changes: org });
  return org;
}

async function updateOrg(
  tx: Queryable,
  req: FastifyRequest,
  me: SessionUser,
  id: number,
  body: OrgBody & { type?: number; blocId?: number | null; status?: number },
) {
  const before = await visibleOrg(tx, me, id, { forUpdate: true });
  const p = new Params();
  const sets: string[] = [];
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  const set = (field: string, column: string, from: unknown, to: unknown) => {
    if (to === undefined || to === from) return;
    sets.push(`${column} = ${p.add(to)}`);
    changes[field] = { from, to };
  };
  for (const [field, column] of Object.entries(ORG_WRITABLE) as [keyof typeof ORG_WRITABLE, string][]) {
    set(field, column, before[column as keyof OrgRow], body[field]);
  }
  if ((body.type !== undefined && body.type !== before.type) || (body.blocId !== undefined && body.blocId !== before.bloc_id)) {
    if (!me.platformAdmin) throw forbidden();
    if (body.blocId) await visibleBloc(tx, me, body.blocId);
  }
  await checkCenterChange(tx, me, REGION_CODES.farm, before.center_id, body.centerId);
  set('centerId', 'center_id', before.center_id, body.centerId);
  set('type', 'type', before.type, body.type);
  set('blocId', 'bloc_id', before.bloc_id, body.blocId);
  if (body.status !== undefined && body.status !== before.status && me.orgId === id) throw business(msg['accounts.notSelf']);
  set('status', 'status', before.status, body.status);
  if (!sets.length) throw business(msg['accounts.nothingToChange']);
  // The version and time are the resource engine's (schemas/resources/nurseries.json): a change here is one it must see.
  await tx.query(`UPDATE organisations SET ${sets.join(', ')}, version = version + 1, updated_at = now(), updated_by = ${p.add(me.id)} WHERE id = ${p.add(id)}`, p.values);
  await audit(tx, req, { action: 'org.update', resource: 'organisations', recordId: id, changes });
  return orgView(await visibleOrg(tx, me, id));
}

async function assertNoOtherPeople(tx: Queryable, orgId: number, except: number | null): Promise<void> {
  const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE org_id = $1 AND id IS DISTINCT FROM $2', [orgId, except]);
  if (rows[0].n > 0) throw business(msg['accounts.farmHasUsers'], { count: rows[0].n });
}

/** A person the caller may put into an organisation: one in scope, or one nobody manages yet. */
async function assignableUser(tx: Queryable, me: SessionUser, id: number) {
  const inScope = await changeableUser(tx, me, id).catch((err: unknown) => {
    if ((err as { status?: number }).status === Status.NOT_FOUND) return null;
    throw err;
  });
  if (inScope) return inScope;
  const user = await userById(tx, id).catch(() => null);
  if (!user || user.orgId != null || user.blocId != null || user.platformAdmin) throw notFound();
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [id]);
  return user;
}
