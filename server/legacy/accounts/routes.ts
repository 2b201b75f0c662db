import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { Params } from '../../db/params.ts';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../../auth/session-user.ts';
import { hashPassword } from '../../auth/password.ts';
import { endSessions } from '../../auth/end-sessions.ts';
import { audit } from '../../audit/log.ts';
import type { Queryable } from '../../db/database.ts';
import { business, forbidden, notFound, ok } from '../../http/envelope.ts';
import { caller } from '../../http/guard.ts';
import { authority, holds, requireAuthority } from '../authority.ts';
import { msg } from '../messages.ts';
import { createPerson, personHash, personProps, type PersonBody } from './persons.ts';
import { assignableRoles, replaceRoles } from './roles.ts';
import { scopeOf, visibleBloc, visibleOrg } from '../scope.ts';
import * as s from '../schemas.ts';
import { userConditions, userFilterProps, userOrder, type UserFilterQuery } from './user-filters.ts';
import { WRITABLE_KINDS, assertFree, farmIdOf, changeableUser, listUsers, refuseSelf, uniqueViolation, userById, visibleUser, type UserView } from './users.ts';

const tags = ['accounts'];

type PageQ = s.PageParams & UserFilterQuery;

/** A person's changes: `version` is the one read (optimistic concurrency); the rest are the fields to change. */
const userUpdateBody = s.strictObject(
  {
    version: { type: 'integer', minimum: 1, maximum: 2147483647 },
    name: s.name,
    mobilePhone: { ...s.phone, type: ['string', 'null'] },
    description: { ...s.text(500), type: ['string', 'null'] },
    city: { ...s.city, type: ['string', 'null'] },
    kind: { type: 'string', enum: WRITABLE_KINDS },
    status: { type: 'integer', enum: [0, 1] },
    password: s.password,
    roleIds: s.roleIds,
  },
  ['version'],
);

type UserUpdate = s.FromSchema<typeof userUpdateBody>;

/** The user administration calls of spec 7.2 under /api/admin/user. */
export const adminUserRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const db = app.db;

  const pageOf = async (req: FastifyRequest, q: PageQ, extra: (p: Params) => string[]) => {
    const p = new Params();
    const where = [...userConditions(q, p), ...extra(p)];
    const { rows, total } = await listUsers(db, caller(req), {
      where,
      params: p,
      orderBy: userOrder(q),
      limit: q.pageSize,
      offset: s.offsetOf(q),
    });
    // Per-record hints for the console's gating (runtime/screens/gating.ts): nobody disables or deletes their own account,
    // nor resets their own password here (that ends their own session; the password dialog of spec 2.7 is the way).
    const me = caller(req);
    return ok(s.page(rows.map((r) => ({ ...r, _can: { status: r.id !== me.id, delete: r.id !== me.id, resetPassword: r.id !== me.id } })), total, q));
  };

  app.get(
    '/admin/user/page',
    {
      schema: {
        tags,
        summary: 'Users in the caller’s scope, paged and filtered',
        querystring: s.pagedQuery({ ...userFilterProps, orgId: s.id, blocId: s.id }),
      },
    },
    async (req) => {
      requireAuthority(req, authority.users);
      const q = req.query;
      return pageOf(req, q, (p) => [
        ...(q.orgId ? [`u.org_id = ${p.add(q.orgId)}`] : []),
        ...(q.blocId ? [`COALESCE(u.bloc_id, o.bloc_id) = ${p.add(q.blocId)}`] : []),
      ]);
    },
  );

  app.put(
    '/admin/user/updateUserStatus',
    {
      schema: {
        tags,
        summary: 'Enables (1) or disables (0) an account',
        querystring: s.strictObject({ id: s.id, status: { type: 'integer', enum: [0, 1] } }, ['id', 'status']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.userWrite('status'));
      const { id, status } = req.query;
      refuseSelf(me, id);
      const user = await db.transaction(async (tx) => {
        const before = await changeableUser(tx, me, id);
        if (before.status !== status) {
          await tx.query('UPDATE users SET status = $2, version = version + 1, updated_at = now() WHERE id = $1', [id, status]);
          if (status === 0) await endSessions(tx, [id]);
          await audit(tx, req, { action: 'user.status', resource: 'users', recordId: id, changes: { status: { from: before.status, to: status } } });
        }
        return userById(tx, id);
      });
      return ok(user);
    },
  );

  const byFarmQuery = s.pagedQuery({ ...userFilterProps, farmId: s.id });

  app.get(
    '/admin/user/page/byFarmId',
    { schema: { tags, summary: 'People of one organisation (default: the caller’s own)', querystring: byFarmQuery } },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeople);
      const farm = await visibleOrg(db, me, farmIdOf(me, req.query.farmId));
      return pageOf(req, req.query, (p) => [`u.org_id = ${p.add(farm.id)}`]);
    },
  );

  app.get(
    '/admin/user/page/byFarmId/forFertilizerFactory',
    { schema: { tags, summary: 'People of one fertilizer manufacturer (default: the caller’s own)', querystring: byFarmQuery } },
    async (req) => {
      const me = requireAuthority(req, authority.manufacturers);
      const farm = await visibleOrg(db, me, farmIdOf(me, req.query.farmId));
      if (farm.type !== 1) throw notFound();
      return pageOf(req, req.query, (p) => [`u.org_id = ${p.add(farm.id)}`]);
    },
  );

  app.get(
    '/admin/user/page/customerAgents',
    { schema: { tags, summary: 'Customer agents in the caller’s scope', querystring: s.pagedQuery(withoutKind()) } },
    async (req) => {
      requireAuthority(req, authority.customerAgents);
      return pageOf(req, req.query, (p) => [`u.kind = ${p.add('agent')}`]);
    },
  );

  app.get(
    '/admin/user/page/groupCustomers',
    { schema: { tags, summary: 'Group customers (service providers) in the caller’s scope', querystring: s.pagedQuery(withoutKind()) } },
    async (req) => {
      requireAuthority(req, authority.groupCustomers);
      return pageOf(req, req.query, (p) => [`u.kind = ${p.add('provider')}`]);
    },
  );

  app.get(
    '/admin/user/front/baseInfo/getById',
    { schema: { tags, summary: 'Base information of one person', querystring: s.strictObject({ id: s.id }, ['id']) } },
    async (req) => {
      const me = caller(req);
      const id = req.query.id;
      if (id !== me.id && !holds(me, authority.farmPeople)) throw forbidden();
      return ok(baseInfo(await (id === me.id ? userById(db, id) : visibleUser(db, me, id)), await logoOf(db, id)));
    },
  );

  app.get(
    '/admin/user/baseInfo',
    { schema: { tags, summary: 'Base information of the caller', querystring: s.strictObject({}) } },
    async (req) => {
      const me = caller(req);
      return ok(baseInfo(await userById(db, me.id), await logoOf(db, me.id)));
    },
  );

  app.get(
    '/admin/user/getByUserName',
    {
      schema: {
        tags,
        summary: 'A person by username: one in scope, or one belonging to no organisation (to add them to one)',
        querystring: s.strictObject({ username: s.username }, ['username']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeople);
      const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE lower(username) = lower($1)', [req.query.username]);
      if (!rows[0]) throw notFound();
      const inScope = await visibleUser(db, me, rows[0].id).catch(() => null);
      if (inScope) return ok(inScope);
      const user = await userById(db, rows[0].id);
      if (user.orgId != null || user.blocId != null || user.platformAdmin) throw notFound();
      // Someone nobody manages yet: enough to recognise and add them, not their contact data.
      return ok({ ...user, mobilePhone: null, description: null, city: null });
    },
  );

  // Adding people to an organisation: the call decides the kind of person.
  const farmPersonBody = (passwordRequired: boolean) =>
    s.strictObject({ farmId: s.id, ...personProps }, passwordRequired ? ['username', 'password', 'name'] : ['username', 'name']);

  const addToFarm = (path: string, kind: string, passwordRequired: boolean, summary: string) =>
    app.post(path, { schema: { tags, summary, body: farmPersonBody(passwordRequired) } }, async (req) => {
      const me = requireAuthority(req, authority.farmPeopleWrite('add'));
      const farmId = farmIdOf(me, req.body.farmId);
      const hash = await personHash(req.body);
      const user = await db.transaction(async (tx) => {
        const farm = await visibleOrg(tx, me, farmId);
        return createPerson(tx, req, me, req.body, { kind, orgId: farm.id, blocId: null }, hash);
      });
      return ok(user);
    });

  addToFarm('/admin/user/addPerson/byFarmId', 'member', false, 'Adds a person (farm staff) to an organisation; without a password they cannot log in');
  addToFarm('/admin/user/add/byFarmId', 'operator', true, 'Adds an account to an organisation');
  addToFarm('/admin/user/add/deviceManager', 'device', true, 'Adds a device manager to an organisation');
  addToFarm('/admin/user/add/inspector', 'inspector', true, 'Adds an inspector to an organisation');

  app.post(
    '/admin/user/add/customerAgent',
    {
      schema: {
        tags,
        summary: 'Adds a customer agent to the caller’s organisation or bloc (platform: the one named)',
        body: s.strictObject({ orgId: s.id, blocId: s.id, ...personProps }, ['username', 'password', 'name']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.customerAgentWrite('add'));
      const hash = await personHash(req.body);
      const user = await db.transaction(async (tx) => {
        const at = await agentPlacement(tx, me, req.body.orgId, req.body.blocId);
        return createPerson(tx, req, me, req.body, { kind: 'agent', ...at }, hash);
      });
      return ok(user);
    },
  );

  app.post(
    '/admin/user/add/groupCustomer',
    {
      schema: {
        tags,
        summary: 'Adds a group customer (service provider account) to a bloc; a platform administrator may found a new bloc with blocName',
        body: s.strictObject({ blocId: s.id, blocName: s.name, ...personProps }, ['username', 'password', 'name']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.groupCustomerWrite('add'));
      const { blocId, blocName } = req.body;
      if (blocId && blocName) throw business('common.invalidInput', { detail: 'blocId, blocName' });
      const hash = await personHash(req.body);
      const user = await db.transaction(async (tx) => {
        let bloc: number;
        if (blocName) {
          if (!me.platformAdmin) throw forbidden();
          bloc = (await tx.query<{ id: number }>('INSERT INTO blocs(name, city) VALUES ($1, $2) RETURNING id', [blocName, req.body.city ?? null])).rows[0].id;
          await audit(tx, req, { action: 'bloc.create', resource: 'blocs', recordId: bloc, changes: { name: blocName, city: req.body.city ?? null } });
        } else {
          const wanted = blocId ?? me.blocId;
          if (wanted == null) throw business(msg['accounts.blocRequired']);
          bloc = (await visibleBloc(tx, me, wanted)).id;
        }
        return createPerson(tx, req, me, req.body, { kind: 'provider', orgId: null, blocId: bloc }, hash);
      });
      return ok(user);
    },
  );

  const idParams = s.strictObject({ id: s.id }, ['id']);

  app.get(
    '/admin/user/:id',
    { schema: { tags, summary: 'One person in the caller’s scope', params: idParams } },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeople);
      return ok(await visibleUser(db, me, req.params.id));
    },
  );

  app.put(
    '/admin/user/:id',
    {
      schema: {
        tags,
        summary: 'Changes a person; `version` must be the one read, otherwise 40001 and nothing changes',
        params: idParams,
        body: userUpdateBody,
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeopleWrite('edit'));
      const id = req.params.id;
      const body = req.body;
      if (body.status !== undefined) {
        if (!holds(me, authority.userWrite('status'))) throw forbidden();
        refuseSelf(me, id);
      }
      if (body.password !== undefined && !holds(me, authority.userWrite('resetPassword'))) throw forbidden();
      const hash = body.password !== undefined ? await hashPassword(body.password) : undefined;
      const user = await db.transaction((tx) => updateUser(tx, req, me, id, body, hash));
      return ok(user);
    },
  );

  app.delete(
    '/admin/user/:id',
    { schema: { tags, summary: 'Deletes a person', params: idParams } },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeopleWrite('delete'));
      const id = req.params.id;
      refuseSelf(me, id);
      await db.transaction(async (tx) => {
        const before = await changeableUser(tx, me, id);
        await tx.query('DELETE FROM users WHERE id = $1', [id]);
        await audit(tx, req, {
          action: 'user.delete',
          resource: 'users',
          recordId: id,
          changes: { username: before.username, name: before.name, orgId: before.orgId, blocId: before.blocId, roles: before.roles.map((r) => r.id) },
        });
      });
      return ok({ id });
    },
  );
};

const UPDATABLE = { name: 'name', mobilePhone: 'mobile_phone', description: 'description', city: 'city', kind: 'kind', status: 'status' } as const;

/**
 * Optimistic concurrency: the row is locked, its version compared with the one the
 * writer read, and bumped. A second writer holding the same version waits for the lock,
 * then finds the new version and is refused; no change is ever lost.
 */
async function updateUser(tx: Queryable, req: FastifyRequest, me: SessionUser, id: number, body: UserUpdate, passwordHash?: string): Promise<UserView> {
  const before = await changeableUser(tx, me, id);
  if (before.version !== body.version) throw business(msg['accounts.staleVersion'], { current: before.version });

  const p = new Params();
  const sets: string[] = [];
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, column] of Object.entries(UPDATABLE) as [keyof typeof UPDATABLE, string][]) {
    const value = body[field];
    if (value === undefined || value === before[field]) continue;
    sets.push(`${column} = ${p.add(value)}`);
    changes[field] = { from: before[field], to: value };
  }
  if (passwordHash) sets.push(`password_hash = ${p.add(passwordHash)}`);

  let roleChange: { before: number[]; after: number[] } | null = null;
  if (body.roleIds) {
    const current = before.roles.map((r) => r.id).sort((a, b) => a - b);
    const wanted = [...body.roleIds].sort((a, b) => a - b);
    if (current.join() !== wanted.join()) {
      const removed = current.filter((r) => !wanted.includes(r));
      await assignableRoles(tx, me, [...wanted, ...removed]);
      roleChange = await replaceRoles(tx, id, wanted);
    }
  }
  if (!sets.length && !roleChange) throw business(msg['accounts.nothingToChange']);
  if (body.mobilePhone) await assertFree(tx, undefined, body.mobilePhone, id);

  const version = p.add(body.version);
  let updated: number;
  try {
    const sql = `UPDATE users SET ${[...sets, 'version = version + 1', 'updated_at = now()'].join(', ')} WHERE id = ${p.add(id)} AND version = ${version}`;
    updated = (await tx.query(sql, p.values)).rowCount;
  } catch (err) {
    throw uniqueViolation(err, undefined, body.mobilePhone) ?? err;
  }
  // The row lock above makes this unreachable; the version condition stays as a second guard.
  if (updated !== 1) throw business(msg['accounts.staleVersion'], { current: body.version + 1 });
  if (passwordHash || changes.status?.to === 0) await endSessions(tx, [id]);

  const fieldChanges = Object.fromEntries(Object.entries(changes).filter(([f]) => f !== 'status'));
  if (Object.keys(fieldChanges).length) await audit(tx, req, { action: 'user.update', resource: 'users', recordId: id, changes: fieldChanges });
  if (changes.status) await audit(tx, req, { action: 'user.status', resource: 'users', recordId: id, changes: { status: changes.status } });
  if (passwordHash) await audit(tx, req, { action: 'user.resetPassword', resource: 'users', recordId: id, changes: { password: 'reset' } });
  if (roleChange) await audit(tx, req, { action: 'user.roles', resource: 'users', recordId: id, changes: { roles: { from: roleChange.before, to: roleChange.after } } });
  return userById(tx, id);
}

/**
 * Where a new customer agent goes: the caller's own organisation or bloc; a platform
 * administrator places them where the body says (or nowhere). A caller with neither
 * has nowhere to put them.
 */
async function agentPlacement(tx: Queryable, me: SessionUser, orgId?: number, blocId?: number): Promise<{ orgId: number | null; blocId: number | null }> {
  const scope = scopeOf(me);
  if (orgId) return { orgId: (await visibleOrg(tx, me, orgId)).id, blocId: null };
  if (blocId) return { orgId: null, blocId: (await visibleBloc(tx, me, blocId)).id };
  if (scope.kind === 'org') return { orgId: scope.orgId, blocId: null };
  if (scope.kind === 'bloc') return { orgId: null, blocId: scope.blocId };
  if (scope.kind === 'platform') return { orgId: null, blocId: null };
  throw forbidden();
}

function withoutKind() {
  const { kind: _kind, ...rest } = userFilterProps;
  return rest;
}

/** The organisation's logo: the console's menu logo (attr2 in spec 2.6). */
async function logoOf(db: Queryable, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ logo_url: string | null }>(
    'SELECT o.logo_url FROM users u LEFT JOIN organisations o ON o.id = u.org_id WHERE u.id = $1',
    [userId],
  );
  return rows[0]?.logo_url ?? null;
}

function baseInfo(u: UserView, logo: string | null) {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    mobilePhone: u.mobilePhone,
    description: u.description,
    city: u.city,
    kind: u.kind,
    status: u.status,
    orgId: u.orgId,
    orgName: u.orgName,
    orgType: u.orgType,
    blocId: u.blocId,
    blocName: u.blocName,
    // The names of spec 3 (user info), as GET front/baseInfo gives them too.
    farmId: u.orgId,
    farmName: u.orgName,
    farmType: u.orgType,
    groupId: u.blocId,
    groupName: u.blocName,
    attr2: logo,
  };
}
