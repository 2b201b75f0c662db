import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { Params } from '../../db/params.ts';
import { ok } from '../../http/envelope.ts';
import { authority, requireAuthority } from '../authority.ts';
import { visibleOrg } from '../scope.ts';
import * as s from '../schemas.ts';
import { farmIdOf, listUsers } from '../accounts/users.ts';

const tags = ['organisations'];

interface TreeUser {
  key: string;
  type: 'user';
  id: number;
  username: string;
  name: string;
  kind: string;
  status: number;
}

interface TreeRole {
  key: string;
  type: 'role';
  id: number | null;
  code: string | null;
  name: unknown;
  children: TreeUser[];
}

/** An organisation's people grouped by role, and people with their roles (spec 7.2). */
export const orgTreeRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const db = app.db;

  app.get(
    '/admin/user/page/byFarmId/orgTreebyFaId',
    {
      schema: {
        tags,
        summary: 'Tree of an organisation: organisation → roles → people (people without a role under a node with id null)',
        querystring: s.strictObject({ farmId: s.id }),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeople);
      const org = await visibleOrg(db, me, farmIdOf(me, req.query.farmId));
      const p = new Params();
      const { rows: people } = await listUsers(db, me, { where: [`u.org_id = ${p.add(org.id)}`], params: p, orderBy: 'u.id' });
      const roles = new Map<number | null, TreeRole>();
      const node = (id: number | null, code: string | null, name: unknown): TreeRole => {
        let n = roles.get(id);
        if (!n) roles.set(id, (n = { key: `role-${id ?? 'none'}`, type: 'role', id, code, name, children: [] }));
        return n;
      };
      for (const u of people) {
        const leaf: TreeUser = { key: `user-${u.id}`, type: 'user', id: u.id, username: u.username, name: u.name, kind: u.kind, status: u.status };
        if (!u.roles.length) node(null, null, null).children.push(leaf);
        for (const r of u.roles) node(r.id, r.code, r.name).children.push(leaf);
      }
      const children = [...roles.values()].sort((a, b) => (a.id ?? Infinity) - (b.id ?? Infinity));
      return ok({ key: `org-${org.id}`, type: 'org', id: org.id, name: org.name, orgType: org.type, blocId: org.bloc_id, blocName: org.bloc_name, children });
    },
  );

  app.get(
    '/admin/user/page/byFarmId/userWithRolesByRoleIds2',
    {
      schema: {
        tags,
        summary: 'People of an organisation holding any of the roles (repeat roleIds), each with their roles',
        querystring: s.pagedQuery({ farmId: s.id, roleIds: s.idList }, ['roleIds']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeople);
      const q = req.query;
      const org = await visibleOrg(db, me, farmIdOf(me, q.farmId));
      const p = new Params();
      const where = [
        `u.org_id = ${p.add(org.id)}`,
        `EXISTS (SELECT 1 FROM user_roles x WHERE x.user_id = u.id AND x.role_id = ANY(${p.add(q.roleIds)}::int[]))`,
      ];
      const { rows, total } = await listUsers(db, me, { where, params: p, orderBy: 'u.id', limit: q.pageSize, offset: s.offsetOf(q) });
      return ok(s.page(rows, total, q));
    },
  );

  app.get(
    '/admin/user/page/byFarmId/userWithRolesByIds',
    {
      schema: {
        tags,
        summary: 'People by id (repeat ids), each with their roles; ids outside the scope are left out as if missing',
        querystring: s.pagedQuery({ ids: s.idList }, ['ids']),
      },
    },
    async (req) => {
      const me = requireAuthority(req, authority.farmPeople);
      const q = req.query;
      const p = new Params();
      const where = [`u.id = ANY(${p.add(q.ids)}::int[])`];
      const { rows, total } = await listUsers(db, me, { where, params: p, orderBy: 'u.id', limit: q.pageSize, offset: s.offsetOf(q) });
      return ok(s.page(rows, total, q));
    },
  );
};
