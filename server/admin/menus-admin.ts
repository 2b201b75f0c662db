import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { audit } from '../audit/log.ts';
import type { Queryable } from '../db/database.ts';
import { business, notFound, ok, type FieldError } from '../http/envelope.ts';
import { requireElement, requireMenu } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { msg } from './messages.ts';
import { MENU_COLUMNS, menuTree, menuView, type LocalText, type MenuElement, type MenuRow } from './menu-tree.ts';
import { elementCode, errors, id, localText, menuCode, okArray, okObject, strictObject, version } from './schemas.ts';

export const MENU_AUTHORITY = 'menuManager';
const tags = ['menus'];

const elementSchema = strictObject({ code: elementCode, title: localText(60) }, ['code', 'title']);

const menuProps = {
  parentId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, description: 'The section this entry belongs to; null for a section.' },
  code: menuCode,
  path: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9-]*(/[A-Za-z][A-Za-z0-9-]*)*$', description: 'URL segment(s); default: the code.' },
  title: localText(60),
  icon: { type: ['string', 'null'], maxLength: 64, pattern: '^[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)$', description: 'An @ant-design/icons name.' },
  sort: { type: 'integer', minimum: -100000, maximum: 100000, description: 'Menus show in descending sort.' },
  hidden: { type: 'boolean' },
  defaultChild: { type: ['string', 'null'], maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9-]*(/[A-Za-z][A-Za-z0-9-]*)*$', description: 'Path of the child the section redirects to.' },
  elements: { type: 'array', maxItems: 50, items: elementSchema, description: 'Element codes under the entry: "<code>:<action>".' },
} as const;

interface MenuState {
  parentId: number | null;
  code: string;
  path: string;
  title: LocalText;
  icon: string | null;
  sort: number;
  hidden: boolean;
  defaultChild: string | null;
  elements: MenuElement[];
}

const refusal = (key: string, params: Record<string, string | number>, field: string) =>
  business(key, params, (lang: Lang): FieldError[] => [{ field, message: t(lang, key, params) }]);

/** The menu tree of spec §2.3 kept in the `menus` table; users see a change at their next menus2 call. */
export function registerMenuAdminRoutes(instance: FastifyInstance): void {
  const app = typedRoutes(instance);
  const db = app.db;

  app.get(
    '/admin/menu/tree',
    {
      schema: {
        tags,
        summary: 'The whole menu tree: sections (descending sort) with their children, each with its element codes',
        description: `Needs menu code ${MENU_AUTHORITY}.`,
        querystring: strictObject({}),
        response: okArray(),
      },
    },
    async (req) => {
      requireMenu(req, MENU_AUTHORITY);
      return ok(await menuTree(db, req.lang));
    },
  );

  app.get(
    '/admin/menu/:id',
    { schema: { tags, summary: 'One menu entry', description: `Needs menu code ${MENU_AUTHORITY}.`, params: strictObject({ id }, ['id']), response: okObject() } },
    async (req) => {
      requireMenu(req, MENU_AUTHORITY);
      return ok(menuView(await menuById(db, req.params.id), req.lang));
    },
  );

  app.post(
    '/admin/menu',
    {
      schema: {
        tags,
        summary: 'Adds a menu entry (a section, or a child of a section)',
        description: `Needs ${MENU_AUTHORITY} and ${MENU_AUTHORITY}:add. Codes are unique across the tree; element codes start with "<code>:".`,
        body: strictObject(menuProps, ['code', 'title']),
        response: okObject(),
      },
    },
    async (req) => {
      requireMenu(req, MENU_AUTHORITY);
      requireElement(req, `${MENU_AUTHORITY}:add`);
      const b = req.body;
      const state: MenuState = {
        parentId: b.parentId ?? null,
        code: b.code,
        path: b.path ?? b.code,
        title: b.title,
        icon: b.icon ?? null,
        sort: b.sort ?? 0,
        hidden: b.hidden ?? false,
        defaultChild: b.defaultChild ?? null,
        elements: b.elements ?? [],
      };
      const row = await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(74230)');
        await validate(tx, null, state);
        const { rows } = await tx.query<MenuRow>(
          `INSERT INTO menus(parent_id, code, path, title, icon, sort, hidden, default_child, elements)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${MENU_COLUMNS}`,
          [state.parentId, state.code, state.path, JSON.stringify(state.title), state.icon, state.sort, state.hidden, state.defaultChild, JSON.stringify(state.elements)],
        );
        await audit(tx, req, { action: 'menu.create', resource: 'menus', recordId: rows[0].id, changes: state });
        return rows[0];
      });
      return ok(menuView(row, req.lang));
    },
  );

  app.put(
    '/admin/menu/:id',
    {
      schema: {
        tags,
        summary: 'Changes a menu entry; `version` must be the one read. A new code is carried into every role that held the old one.',
        description: `Needs ${MENU_AUTHORITY} and ${MENU_AUTHORITY}:edit.`,
        params: strictObject({ id }, ['id']),
        body: strictObject({ version, ...menuProps }, ['version']),
        response: okObject(),
      },
    },
    async (req) => {
      requireMenu(req, MENU_AUTHORITY);
      requireElement(req, `${MENU_AUTHORITY}:edit`);
      const id = req.params.id;
      const b = req.body;
      const row = await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(74230)');
        const before = await menuById(tx, id, true);
        if (before.version !== b.version) throw refusal(msg['admin.stale'], { current: before.version }, 'version');
        const old = stateOf(before);
        const next: MenuState = {
          parentId: b.parentId !== undefined ? b.parentId : old.parentId,
          code: b.code ?? old.code,
          path: b.path ?? old.path,
          title: b.title ?? old.title,
          icon: b.icon !== undefined ? b.icon : old.icon,
          sort: b.sort ?? old.sort,
          hidden: b.hidden ?? old.hidden,
          defaultChild: b.defaultChild !== undefined ? b.defaultChild : old.defaultChild,
          elements: b.elements ?? (b.code && b.code !== old.code ? renameElements(old.elements, old.code, b.code) : old.elements),
        };
        const changes = diff(old, next);
        if (!Object.keys(changes).length) throw business(msg['admin.nothingToChange']);
        await validate(tx, id, next);
        const { rows } = await tx.query<MenuRow>(
          `UPDATE menus SET parent_id = $2, code = $3, path = $4, title = $5, icon = $6, sort = $7, hidden = $8, default_child = $9,
                  elements = $10, version = version + 1 WHERE id = $1 RETURNING ${MENU_COLUMNS}`,
          [id, next.parentId, next.code, next.path, JSON.stringify(next.title), next.icon, next.sort, next.hidden, next.defaultChild, JSON.stringify(next.elements)],
        );
        const roles = await carryCodes(tx, old, next);
        await audit(tx, req, { action: 'menu.update', resource: 'menus', recordId: id, changes: { ...changes, version: { from: before.version, to: before.version + 1 }, rolesChanged: roles } });
        return rows[0];
      });
      return ok(menuView(row, req.lang));
    },
  );

  app.delete(
    '/admin/menu/:id',
    {
      schema: {
        tags,
        summary: 'Deletes a menu entry without children, and takes its codes away from every role',
        description: `Needs ${MENU_AUTHORITY} and ${MENU_AUTHORITY}:delete.`,
        params: strictObject({ id }, ['id']),
        response: { ...errors, 200: okObject()[200] },
      },
    },
    async (req) => {
      requireMenu(req, MENU_AUTHORITY);
      requireElement(req, `${MENU_AUTHORITY}:delete`);
      const id = req.params.id;
      await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(74230)');
        const before = await menuById(tx, id, true);
        const children = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM menus WHERE parent_id = $1', [id])).rows[0].n;
        if (children > 0) throw business(msg['admin.menuHasChildren'], { count: children });
        await tx.query('DELETE FROM menus WHERE id = $1', [id]);
        const elementCodes = (before.elements ?? []).map((e) => e.code);
        const { rows } = await tx.query<{ id: number }>(
          `UPDATE roles SET menus = array_remove(menus, $1), elements = ARRAY(SELECT e FROM unnest(elements) e WHERE NOT (e = ANY($2::text[]))),
                  version = version + 1, updated_at = now()
            WHERE $1 = ANY(menus) OR elements && $2::text[] RETURNING id`,
          [before.code, elementCodes],
        );
        await audit(tx, req, { action: 'menu.delete', resource: 'menus', recordId: id, changes: { ...stateOf(before), rolesChanged: rows.map((r) => r.id) } });
      });
      return ok({ id });
    },
  );
}

async function menuById(db: Queryable, id: number, lock = false): Promise<MenuRow> {
  const { rows } = await db.query<MenuRow>(`SELECT ${MENU_COLUMNS} FROM menus WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

function stateOf(r: MenuRow): MenuState {
  return {
    parentId: r.parent_id,
    code: r.code,
    path: r.path,
    title: r.title,
    icon: r.icon,
    sort: r.sort,
    hidden: r.hidden,
    defaultChild: r.default_child,
    elements: r.elements ?? [],
  };
}

function diff(a: MenuState, b: MenuState): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(a) as (keyof MenuState)[]) {
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) out[key] = { from: a[key], to: b[key] };
  }
  return out;
}

function renameElements(elements: MenuElement[], from: string, to: string): MenuElement[] {
  return elements.map((e) => (e.code.startsWith(`${from}:`) ? { ...e, code: `${to}${e.code.slice(from.length)}` } : e));
}

/**
 * The tree's rules: codes unique across the tree, two levels (a child's parent is a
 * section, an entry with children stays a section), so no entry can end up under
 * itself; paths unique among siblings; element codes "<code>:<action>", unique; a
 * section's default child is the path of one of its children.
 */
async function validate(tx: Queryable, id: number | null, s: MenuState): Promise<void> {
  const taken = await tx.query('SELECT 1 FROM menus WHERE lower(code) = lower($1) AND ($2::int IS NULL OR id <> $2)', [s.code, id]);
  if (taken.rows.length) throw refusal(msg['admin.codeTaken'], { code: s.code }, 'code');

  if (s.parentId !== null) {
    if (s.parentId === id) throw refusal(msg['admin.menuCycle'], {}, 'parentId');
    const parent = (await tx.query<{ parent_id: number | null }>('SELECT parent_id FROM menus WHERE id = $1', [s.parentId])).rows[0];
    if (!parent) throw refusal(msg['admin.menuParentMissing'], {}, 'parentId');
    if (parent.parent_id !== null) {
      throw refusal(parent.parent_id === id ? msg['admin.menuCycle'] : msg['admin.menuTooDeep'], {}, 'parentId');
    }
    if (id !== null) {
      const kids = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM menus WHERE parent_id = $1', [id])).rows[0].n;
      if (kids > 0) throw refusal(msg['admin.menuTooDeep'], {}, 'parentId');
    }
  }

  const sibling = await tx.query(
    'SELECT 1 FROM menus WHERE parent_id IS NOT DISTINCT FROM $1 AND lower(path) = lower($2) AND ($3::int IS NULL OR id <> $3)',
    [s.parentId, s.path, id],
  );
  if (sibling.rows.length) throw refusal(msg['admin.menuPathTaken'], { path: s.path }, 'path');

  const seen = new Set<string>();
  s.elements.forEach((e, i) => {
    if (!e.code.startsWith(`${s.code}:`)) throw refusal(msg['admin.menuElementPrefix'], { prefix: `${s.code}:` }, `elements.${i}.code`);
    if (seen.has(e.code)) throw refusal(msg['admin.menuElementRepeated'], { code: e.code }, `elements.${i}.code`);
    seen.add(e.code);
  });

  if (s.defaultChild !== null) {
    const child = id === null ? [] : (await tx.query('SELECT 1 FROM menus WHERE parent_id = $1 AND path = $2', [id, s.defaultChild])).rows;
    if (s.parentId !== null || !child.length) throw refusal(msg['admin.menuDefaultChild'], { path: s.defaultChild }, 'defaultChild');
  }
}

/**
 * A renamed code or element stays granted: roles holding the old code get the new one.
 * Element codes that disappeared from the entry are taken away. Returns the roles changed.
 */
async function carryCodes(tx: Queryable, old: MenuState, next: MenuState): Promise<number[]> {
  const changed = new Set<number>();
  if (old.code !== next.code) {
    const { rows } = await tx.query<{ id: number }>(
      `UPDATE roles SET menus = array_replace(menus, $1, $2), version = version + 1, updated_at = now() WHERE $1 = ANY(menus) RETURNING id`,
      [old.code, next.code],
    );
    rows.forEach((r) => changed.add(r.id));
  }
  const nextCodes = new Set(next.elements.map((e) => e.code));
  for (const e of old.elements) {
    if (nextCodes.has(e.code)) continue;
    const renamed = old.code !== next.code ? `${next.code}${e.code.slice(old.code.length)}` : null;
    const replacement = renamed && nextCodes.has(renamed) ? renamed : null;
    const { rows } = await tx.query<{ id: number }>(
      replacement
        ? `UPDATE roles SET elements = array_replace(elements, $1, $2), version = version + 1, updated_at = now() WHERE $1 = ANY(elements) RETURNING id`
        : `UPDATE roles SET elements = array_remove(elements, $1), version = version + 1, updated_at = now() WHERE $1 = ANY(elements) RETURNING id`,
      replacement ? [e.code, replacement] : [e.code],
    );
    rows.forEach((r) => changed.add(r.id));
  }
  return [...changed].sort((a, b) => a - b);
}
