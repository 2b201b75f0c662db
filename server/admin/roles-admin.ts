import { Params } from '../db/params.ts';
import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { audit } from '../audit/log.ts';
import type { Queryable } from '../db/database.ts';
import { business, forbidden, notFound, ok, type FieldError } from '../http/envelope.ts';
import { requireCan, requireElement, requireMenu } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { assignableRoles, replaceRoles } from '../legacy/accounts/roles.ts';
import { changeableUser, refuseSelf, userById } from '../legacy/accounts/users.ts';
import * as s from '../legacy/schemas.ts';
import { msg } from './messages.ts';
import { knownCodes, menuTree, type LocalText } from './menu-tree.ts';
import { endSessionsOfLostCodes } from '../auth/end-sessions.ts';
import { elementCode, id, localText, menuCode, offsetOf, okArray, okObject, okPage, page, pagedQuery, strictObject, version } from './schemas.ts';

export const ROLE_AUTHORITY = 'groupManager';
/** Screens that hand out roles and so need the role options. */
const ROLE_PICKERS = ['userManager', 'groupManager', 'farmPeopleMangement', 'multiFarm'];
const tags = ['roles'];

interface RoleRow {
  id: number;
  code: string;
  name: LocalText;
  description: string | null;
  category: string | null;
  platform: boolean;
  menus: string[];
  elements: string[];
  version: number;
  created_at: Date;
  updated_at: Date;
  user_count: number;
}

const ROLE_SELECT = `SELECT r.id, r.code, r.name, r.description, r.category, r.platform, r.menus, r.elements, r.version, r.created_at, r.updated_at,
  (SELECT count(*)::int FROM user_roles ur WHERE ur.role_id = r.id) AS user_count FROM roles r`;

function roleView(r: RoleRow, lang: Lang) {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    label: r.name[lang] ?? r.name.zh,
    description: r.description,
    category: r.category,
    platform: r.platform,
    menuCount: r.menus.length,
    elementCount: r.elements.length,
    userCount: r.user_count,
    version: r.version,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

const roleCode = { type: 'string', minLength: 2, maxLength: 40, pattern: '^[a-zA-Z][A-Za-z0-9_]{1,39}$' } as const;
const roleProps = {
  code: roleCode,
  name: localText(60),
  description: { ...s.text(500), type: ['string', 'null'] },
  category: { type: ['string', 'null'], maxLength: 40, pattern: '^[a-z][A-Za-z0-9_]{1,39}$', description: 'Code of a role category (groupTypeManager).' },
  platform: { type: 'boolean', description: 'Holders are platform administrators (every scope). Only platform administrators set it.' },
} as const;

const refusal = (key: string, params: Record<string, string | number>, field: string) =>
  business(key, params, (lang: Lang): FieldError[] => [{ field, message: t(lang, key, params) }]);

/** Roles (groupManager), their permissions through the checkbox tree, and a user's roles. */
export function registerRoleAdminRoutes(instance: FastifyInstance): void {
  const app = typedRoutes(instance);
  const db = app.db;

  app.get(
    '/admin/role/page',
    {
      schema: {
        tags,
        summary: 'Roles, paged: code, names, category, platform flag and how many codes and users each has',
        description: `Needs menu code ${ROLE_AUTHORITY}.`,
        querystring: pagedQuery({ keyword: s.keyword, category: roleProps.category, platform: { type: 'boolean' } }),
        response: okPage(),
      },
    },
    async (req) => {
      requireMenu(req, ROLE_AUTHORITY);
      const q = req.query;
      const p = new Params();
      const where: string[] = [];
      if (q.keyword) {
        const k = p.add(q.keyword.toLowerCase());
        where.push(`(position(${k} in lower(r.code)) > 0 OR position(${k} in lower(r.name::text)) > 0)`);
      }
      if (q.category) where.push(`r.category = ${p.add(q.category)}`);
      if (q.platform !== undefined) where.push(`r.platform = ${p.add(q.platform)}`);
      const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM roles r ${cond}`, p.values)).rows[0].n;
      const { rows } = await db.query<RoleRow>(`${ROLE_SELECT} ${cond} ORDER BY r.id LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(offsetOf(q))}`, p.values);
      return ok(page(rows.map((r) => roleView(r, req.lang)), total, q));
    },
  );

  app.get(
    '/admin/role/options',
    {
      schema: {
        tags,
        summary: 'Roles the caller may assign, as select options {value, label{zh,en,es}, code, platform}',
        description: `Needs one of the menu codes ${ROLE_PICKERS.join(', ')}.`,
        querystring: strictObject({}),
        response: okArray(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: ROLE_PICKERS });
      const { rows } = await db.query<RoleRow>(`${ROLE_SELECT} ORDER BY r.id`);
      return ok(rows.filter((r) => grantable(me, r)).map((r) => ({ value: r.id, label: r.name, code: r.code, platform: r.platform, category: r.category })));
    },
  );

  app.get(
    '/admin/role/:id',
    { schema: { tags, summary: 'One role with its menu and element codes', description: `Needs menu code ${ROLE_AUTHORITY}.`, params: strictObject({ id }, ['id']), response: okObject() } },
    async (req) => {
      requireMenu(req, ROLE_AUTHORITY);
      const r = await roleById(db, req.params.id);
      return ok({ ...roleView(r, req.lang), menus: [...r.menus].sort(), elements: [...r.elements].sort() });
    },
  );

  app.post(
    '/admin/role',
    {
      schema: {
        tags,
        summary: 'Adds a role (without permissions; grant them with PUT /admin/role/{id}/permissions)',
        description: `Needs ${ROLE_AUTHORITY} and ${ROLE_AUTHORITY}:add; the platform flag needs a platform administrator.`,
        body: strictObject(roleProps, ['code', 'name']),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireMenu(req, ROLE_AUTHORITY);
      requireElement(req, `${ROLE_AUTHORITY}:add`);
      const b = req.body;
      if (b.platform && !me.platformAdmin) throw forbidden();
      const row = await db.transaction(async (tx) => {
        await assertCodeFree(tx, b.code, null);
        if (b.category) await assertCategory(tx, b.category);
        const { rows } = await tx.query<{ id: number }>(
          'INSERT INTO roles(code, name, description, category, platform) VALUES ($1, $2, $3, $4, $5) RETURNING id',
          [b.code, JSON.stringify(b.name), b.description ?? null, b.category ?? null, b.platform === true],
        );
        await audit(tx, req, { action: 'role.create', resource: 'roles', recordId: rows[0].id, changes: { code: b.code, name: b.name, description: b.description ?? null, category: b.category ?? null, platform: b.platform === true } });
        return roleById(tx, rows[0].id);
      });
      return ok(roleView(row, req.lang));
    },
  );

  app.put(
    '/admin/role/:id',
    {
      schema: {
        tags,
        summary: 'Changes a role’s code, names, description, category or platform flag; `version` must be the one read',
        description: `Needs ${ROLE_AUTHORITY} and ${ROLE_AUTHORITY}:edit; platform roles and the platform flag need a platform administrator.`,
        params: strictObject({ id }, ['id']),
        body: strictObject({ version, ...roleProps }, ['version']),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireMenu(req, ROLE_AUTHORITY);
      requireElement(req, `${ROLE_AUTHORITY}:edit`);
      const b = req.body;
      const row = await db.transaction(async (tx) => {
        const before = await roleById(tx, req.params.id, true);
        if ((before.platform || b.platform) && !me.platformAdmin) throw forbidden();
        if (before.version !== b.version) throw refusal(msg['admin.stale'], { current: before.version }, 'version');
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        const next = { code: before.code, name: before.name, description: before.description, category: before.category, platform: before.platform };
        for (const key of ['code', 'name', 'description', 'category', 'platform'] as const) {
          const value = b[key];
          if (value === undefined || JSON.stringify(value) === JSON.stringify(before[key])) continue;
          changes[key] = { from: before[key], to: value };
          (next as Record<string, unknown>)[key] = value;
        }
        if (!Object.keys(changes).length) throw business(msg['admin.nothingToChange']);
        if (changes.code) await assertCodeFree(tx, next.code, before.id);
        if (changes.category && next.category) await assertCategory(tx, next.category);
        await endSessionsOfLostCodes(tx, { roleIds: [before.id] }, () =>
          tx.query(
            'UPDATE roles SET code = $2, name = $3, description = $4, category = $5, platform = $6, version = version + 1, updated_at = now() WHERE id = $1',
            [before.id, next.code, JSON.stringify(next.name), next.description, next.category, next.platform],
          ),
        );
        await audit(tx, req, { action: changes.platform ? 'role.permissions' : 'role.update', resource: 'roles', recordId: before.id, changes });
        return roleById(tx, before.id);
      });
      return ok(roleView(row, req.lang));
    },
  );

  app.delete(
    '/admin/role/:id',
    {
      schema: {
        tags,
        summary: 'Deletes a role nobody holds',
        description: `Needs ${ROLE_AUTHORITY} and ${ROLE_AUTHORITY}:delete; platform roles need a platform administrator.`,
        params: strictObject({ id }, ['id']),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireMenu(req, ROLE_AUTHORITY);
      requireElement(req, `${ROLE_AUTHORITY}:delete`);
      const id = req.params.id;
      await db.transaction(async (tx) => {
        const before = await roleById(tx, id, true);
        if (before.platform && !me.platformAdmin) throw forbidden();
        if (before.user_count > 0) throw business(msg['admin.roleInUse'], { count: before.user_count });
        await tx.query('DELETE FROM roles WHERE id = $1', [id]);
        await audit(tx, req, { action: 'role.delete', resource: 'roles', recordId: id, changes: { code: before.code, name: before.name, menus: before.menus, elements: before.elements } });
      });
      return ok({ id });
    },
  );

  app.get(
    '/admin/role/:id/permissions',
    {
      schema: {
        tags,
        summary: 'The checkbox tree (every menu entry with its element codes) and the codes the role holds',
        description: `Needs menu code ${ROLE_AUTHORITY}.`,
        params: strictObject({ id }, ['id']),
        response: okObject(),
      },
    },
    async (req) => {
      requireMenu(req, ROLE_AUTHORITY);
      const role = await roleById(db, req.params.id);
      const tree = (await menuTree(db, req.lang)).map((section) => ({
        key: section.code,
        code: section.code,
        title: section.title,
        name: section.name,
        elements: section.elements.map((e) => ({ key: e.code, code: e.code, title: e.title, name: e.title[req.lang] })),
        children: (section.children ?? []).map((child) => ({
          key: child.code,
          code: child.code,
          title: child.title,
          name: child.name,
          elements: child.elements.map((e) => ({ key: e.code, code: e.code, title: e.title, name: e.title[req.lang] })),
        })),
      }));
      return ok({ roleId: role.id, code: role.code, version: role.version, platform: role.platform, menus: [...role.menus].sort(), elements: [...role.elements].sort(), tree });
    },
  );

  app.put(
    '/admin/role/:id/permissions',
    {
      schema: {
        tags,
        summary: 'Replaces the role’s menu and element codes; its users have them from their next request',
        description:
          `Needs ${ROLE_AUTHORITY} and ${ROLE_AUTHORITY}:edit. Every code must be in the menu tree; an element's menu must be granted; ` +
          'the section of a granted child is granted with it. Outside the platform nobody grants codes they do not hold, nor changes platform roles.',
        params: strictObject({ id }, ['id']),
        body: strictObject(
          {
            version,
            menus: { type: 'array', items: menuCode, maxItems: 1000, uniqueItems: true },
            elements: { type: 'array', items: elementCode, maxItems: 5000, uniqueItems: true },
          },
          ['version', 'menus', 'elements'],
        ),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireMenu(req, ROLE_AUTHORITY);
      requireElement(req, `${ROLE_AUTHORITY}:edit`);
      const b = req.body;
      const result = await db.transaction(async (tx) => {
        const before = await roleById(tx, req.params.id, true);
        if (before.platform && !me.platformAdmin) throw forbidden();
        if (before.version !== b.version) throw refusal(msg['admin.stale'], { current: before.version }, 'version');
        const { menus, elements } = await checkedGrant(tx, me, b.menus, b.elements);
        const added = { menus: menus.filter((m) => !before.menus.includes(m)), elements: elements.filter((e) => !before.elements.includes(e)) };
        const removed = { menus: before.menus.filter((m) => !menus.includes(m)), elements: before.elements.filter((e) => !elements.includes(e)) };
        if (!added.menus.length && !added.elements.length && !removed.menus.length && !removed.elements.length) {
          throw business(msg['admin.nothingToChange']);
        }
        await endSessionsOfLostCodes(tx, { roleIds: [before.id] }, () =>
          tx.query('UPDATE roles SET menus = $2, elements = $3, version = version + 1, updated_at = now() WHERE id = $1', [before.id, menus, elements]),
        );
        await audit(tx, req, { action: 'role.permissions', resource: 'roles', recordId: before.id, changes: { added, removed, version: { from: before.version, to: before.version + 1 } } });
        return roleById(tx, before.id);
      });
      return ok({ ...roleView(result, req.lang), menus: [...result.menus].sort(), elements: [...result.elements].sort() });
    },
  );

  app.put(
    '/admin/user/:id/roles',
    {
      schema: {
        tags,
        summary: 'Replaces the roles of a user (the user manager’s role assignment); applies from the user’s next request',
        description: 'Needs userManager and userManager:edit. Outside the platform, only roles within the caller’s own codes.',
        params: strictObject({ id }, ['id']),
        body: strictObject({ roleIds: s.roleIds }, ['roleIds']),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireMenu(req, 'userManager');
      requireElement(req, 'userManager:edit');
      const userId = req.params.id;
      // Taking one's own roles away could lock the last administrator out.
      refuseSelf(me, userId);
      const user = await db.transaction(async (tx) => {
        const before = await changeableUser(tx, me, userId);
        const current = before.roles.map((r) => r.id);
        const wanted = [...new Set(req.body.roleIds)];
        const removed = current.filter((r) => !wanted.includes(r));
        const added = wanted.filter((r) => !current.includes(r));
        if (!removed.length && !added.length) throw business(msg['admin.nothingToChange']);
        await assignableRoles(tx, me, [...added, ...removed]);
        const change = await replaceRoles(tx, userId, wanted);
        await tx.query('UPDATE users SET version = version + 1, updated_at = now() WHERE id = $1', [userId]);
        await audit(tx, req, { action: 'user.roles', resource: 'users', recordId: userId, changes: { roles: { from: change.before, to: change.after } } });
        return userById(tx, userId);
      });
      return ok(user);
    },
  );
}

function grantable(me: SessionUser, r: RoleRow): boolean {
  if (me.platformAdmin) return true;
  return !r.platform && r.menus.every((m) => me.menus.has(m)) && r.elements.every((e) => me.elements.has(e));
}

async function roleById(db: Queryable, id: number, lock = false): Promise<RoleRow> {
  const { rows } = await db.query<RoleRow>(`${ROLE_SELECT} WHERE r.id = $1${lock ? ' FOR UPDATE OF r' : ''}`, [id]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

async function assertCodeFree(tx: Queryable, code: string, exceptId: number | null) {
  const { rows } = await tx.query('SELECT 1 FROM roles WHERE lower(code) = lower($1) AND ($2::int IS NULL OR id <> $2)', [code, exceptId]);
  if (rows.length) throw refusal(msg['admin.codeTaken'], { code }, 'code');
}

async function assertCategory(tx: Queryable, code: string) {
  const { rows } = await tx.query(`SELECT 1 FROM resource_records WHERE resource = 'roleCategories' AND data->>'code' = $1`, [code]);
  if (!rows.length) throw refusal(msg['admin.categoryMissing'], { code }, 'category');
}

/**
 * The grant as it will be stored: known codes only, each element under a granted
 * menu, every granted child's section added, and (outside the platform) nothing beyond
 * the caller's own codes.
 */
async function checkedGrant(tx: Queryable, me: SessionUser, menus: string[], elements: string[]): Promise<{ menus: string[]; elements: string[] }> {
  const known = await knownCodes(tx);
  const unknown = [...menus.filter((m) => !known.menus.has(m)), ...elements.filter((e) => !known.elements.has(e))];
  if (unknown.length) throw business(msg['admin.roleUnknownCodes'], { codes: unknown.slice(0, 10).join(', ') });
  const granted = new Set(menus);
  const { rows } = await tx.query<{ code: string; section: string }>(
    'SELECT c.code, p.code AS section FROM menus c JOIN menus p ON p.id = c.parent_id WHERE c.code = ANY($1::text[])',
    [menus],
  );
  for (const r of rows) granted.add(r.section);
  const orphans = elements.filter((e) => !granted.has(known.elements.get(e)!));
  if (orphans.length) throw business(msg['admin.roleElementWithoutMenu'], { codes: orphans.slice(0, 10).join(', ') });
  const all = [...granted].sort();
  const els = [...elements].sort();
  if (!me.platformAdmin) {
    const beyond = [...all.filter((m) => !me.menus.has(m)), ...els.filter((e) => !me.elements.has(e))];
    if (beyond.length) throw business(msg['admin.roleBeyondOwn'], { codes: beyond.slice(0, 10).join(', ') });
  }
  return { menus: all, elements: els };
}
