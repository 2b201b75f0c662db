import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import type { SessionUser } from '../auth/session-user.ts';
import { can } from '../../runtime/access/can.ts';
import { operationEndpoint } from '../../runtime/protocol/operations.ts';
import { business, forbidden, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { msg } from './messages.ts';
import { sanitizeHtml } from './sanitize.ts';

/**
 * Rules of the administration resources that the generic engine's documents cannot
 * state: unique codes, unique dictionary item values, server-cleaned rich text and the
 * publishing of articles, and role categories that roles still use.
 *
 * They run as a preHandler of the engine's own routes (added when those routes are
 * registered, see `installResourceGuards`), so every write through the engine passes
 * them, whatever client sent it. A guard does its database checks only for a caller
 * holding the write authority, so that a caller without it still gets the engine's
 * 40301 and learns nothing about stored codes; body rewriting (sanitising) is harmless
 * and always runs.
 */

type Mode = 'create' | 'update' | 'delete';

interface Guard {
  basePath: string;
  /** The resource's authority and its aliases (as its document says). */
  menus: string[];
  write?: (ctx: WriteContext) => Promise<void>;
  remove?: (ctx: RemoveContext) => Promise<void>;
}

interface WriteContext {
  req: FastifyRequest;
  user: SessionUser;
  mode: 'create' | 'update';
  id: number | null;
  body: Record<string, unknown>;
  /** Whether the caller may make this write; checks that read the database run only then. */
  allowed: boolean;
}

interface RemoveContext {
  req: FastifyRequest;
  user: SessionUser;
  ids: number[];
}

function fieldRefusal(key: string, params: Record<string, string | number>, field: string) {
  return business(key, params, (lang: Lang): FieldError[] => [{ field, message: t(lang, key, params) }]);
}

async function codeTaken(req: FastifyRequest, resource: string, code: string, id: number | null): Promise<boolean> {
  const { rows } = await req.server.db.query(
    `SELECT 1 FROM resource_records WHERE resource = $1 AND lower(data->>'code') = lower($2) AND ($3::bigint IS NULL OR id <> $3)`,
    [resource, code, id],
  );
  return rows.length > 0;
}

const uniqueCode = (resource: string) => async (ctx: WriteContext) => {
  const code = ctx.body.code;
  if (ctx.allowed && typeof code === 'string' && (await codeTaken(ctx.req, resource, code, ctx.id))) {
    throw fieldRefusal(msg['admin.codeTaken'], { code }, 'code');
  }
};

export const ARTICLE_PUBLISH_ELEMENT = 'articleManageIndex:publish';
/** Article status: 0 draft, 1 published. */
export const ARTICLE_PUBLISHED = 1;

const GUARDS: Guard[] = [
  {
    basePath: '/api/admin/dicts',
    menus: ['dictManager'],
    async write(ctx) {
      await uniqueCode('dicts')(ctx);
      const items = Array.isArray(ctx.body.items) ? (ctx.body.items as { value?: unknown }[]) : [];
      const seen = new Set<string>();
      items.forEach((item, i) => {
        const value = String(item.value);
        if (seen.has(value)) throw fieldRefusal(msg['admin.itemValueRepeated'], { value }, `items.${i}.value`);
        seen.add(value);
      });
    },
  },
  {
    basePath: '/api/admin/roleCategories',
    menus: ['groupTypeManager', 'groupManager'],
    write: uniqueCode('roleCategories'),
    async remove({ req, ids }) {
      const { rows } = await req.server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM roles WHERE category IN
           (SELECT data->>'code' FROM resource_records WHERE resource = 'roleCategories' AND id = ANY($1::bigint[]))`,
        [ids],
      );
      if (rows[0].n > 0) throw business(msg['admin.categoryInUse'], { count: rows[0].n });
    },
  },
  {
    basePath: '/api/promotion/appVersions',
    menus: ['versionControl'],
    async write({ req, body, id, allowed }) {
      if (!allowed || typeof body.platform !== 'string' || typeof body.versionCode !== 'number') return;
      const { rows } = await req.server.db.query(
        `SELECT 1 FROM resource_records WHERE resource = 'appVersions' AND data->>'platform' = $1
            AND (data->>'versionCode')::numeric = $2 AND ($3::bigint IS NULL OR id <> $3)`,
        [body.platform, body.versionCode, id],
      );
      if (rows.length) throw fieldRefusal(msg['admin.versionTaken'], { platform: body.platform, versionCode: body.versionCode }, 'versionCode');
    },
  },
  {
    basePath: '/api/articleManage/articles',
    menus: ['articleManageIndex'],
    async write({ req, user, mode, id, body, allowed }) {
      if (typeof body.content === 'string') body.content = sanitizeHtml(body.content);
      if (!allowed) return;
      // What the record was: publishing is a change of status, and keeps its first date.
      let before: { status?: number; publishedAt?: string } = {};
      if (mode === 'update' && id !== null) {
        const { rows } = await req.server.db.query<{ data: { status?: number; publishedAt?: string } }>(
          `SELECT data FROM resource_records WHERE resource = 'articles' AND id = $1`,
          [id],
        );
        before = rows[0]?.data ?? {};
      }
      if (body.status === ARTICLE_PUBLISHED) {
        if (before.status !== ARTICLE_PUBLISHED) {
          if (!can(user, { elements: [ARTICLE_PUBLISH_ELEMENT] })) throw forbidden();
          body.publishedAt = new Date().toISOString();
        } else {
          body.publishedAt = before.publishedAt ?? new Date().toISOString();
        }
      } else {
        delete body.publishedAt;
      }
      if (typeof body.author !== 'string' || !body.author.trim()) body.author = user.name;
    },
  },
];

function guardFor(url: string): { guard: Guard; kind: 'collection' | 'record' | 'batch' } | null {
  for (const guard of GUARDS) {
    if (url === operationEndpoint(guard, 'create').path) return { guard, kind: 'collection' };
    if (url === operationEndpoint(guard, 'batchDelete').path) return { guard, kind: 'batch' };
    if (url === operationEndpoint(guard, 'read').path) return { guard, kind: 'record' };
  }
  return null;
}

/** The engine's own rule (accessKeys): a menu code and its element code of the action, for the authority or an alias. */
function holdsWrite(user: SessionUser, guard: Guard, mode: Mode): boolean {
  const action = mode === 'create' ? 'add' : mode === 'update' ? 'edit' : 'delete';
  return guard.menus.some((menu) => can(user, menu, action));
}

function preHandlerFor(guard: Guard, mode: Mode, kind: 'collection' | 'record' | 'batch'): preHandlerAsyncHookHandler | null {
  if (mode === 'delete') {
    if (!guard.remove) return null;
    const remove = guard.remove;
    return async (req) => {
      if (req.validationError || !req.user || !holdsWrite(req.user, guard, 'delete')) return;
      const ids = kind === 'batch' ? (req.body as { ids: number[] }).ids : [(req.params as { id: number }).id];
      await remove({ req, user: req.user, ids });
    };
  }
  if (!guard.write) return null;
  const write = guard.write;
  return async (req) => {
    if (req.validationError || !req.user || !req.body || typeof req.body !== 'object') return;
    const id = kind === 'record' ? (req.params as { id: number }).id : null;
    await write({ req, user: req.user, mode, id, body: req.body as Record<string, unknown>, allowed: holdsWrite(req.user, guard, mode) });
  };
}

/**
 * Adds the guards to the engine's routes as they are registered. Must be installed in
 * the /api context before the resource engine registers its routes (server/modules.ts
 * lists the administration module first); tests/api/admin-content.test.ts fails when
 * a guard is missing.
 */
export function installResourceGuards(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const found = guardFor(route.url ?? '');
    if (!found) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const mode: Mode | null = methods.includes('POST') ? 'create' : methods.includes('PUT') ? 'update' : methods.includes('DELETE') ? 'delete' : null;
    if (!mode) return;
    const handler = preHandlerFor(found.guard, mode, found.kind);
    if (!handler) return;
    const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [...existing, handler];
  });
}
