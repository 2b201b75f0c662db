import { Params } from '../db/params.ts';
import type { FastifyInstance } from 'fastify';
import { requireMenu } from '../http/guard.ts';
import { ok } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { DEFAULT_PAGE_SIZE } from '../../runtime/protocol/page.ts';
import { envelopeSchema, errorReplySchema, pageOf, pageParamsSchema, pageSchema } from './page.ts';
import { likePattern } from './sql.ts';
import { business } from '../http/envelope.ts';
import { msg } from './messages.ts';
import { refuseValidation, resourceValidatorCompiler } from './validation.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { auditCatalogue, type AuditCatalogue } from '../audit/words.ts';
import { changeLines, changeText, permissionNames, recordNames, referenceNames, withPermissionNames, withReferenceNames } from '../audit/readable.ts';

export const GATE_LOG_AUTHORITY = 'gateLogManager';

const querySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageParamsSchema,
    userId: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'Who acted.' },
    username: { type: 'string', maxLength: 64, description: 'Username contains (case-insensitive).' },
    resource: { type: 'string', maxLength: 64, description: 'Resource acted on: its name exactly (crops, users), or words of its name in any language (作物, Crops).' },
    action: { type: 'string', maxLength: 64, description: 'Action: its code exactly (crops.update, login), or words of the action or of its family in any language (用户 finds every user action).' },
    family: { type: 'string', maxLength: 64, description: 'Action family, exactly (user, role, login, crops, …; see /admin/gateLog/families).' },
    recordId: { type: 'string', maxLength: 64, description: 'Id of the record acted on.' },
    from: { type: 'string', format: 'date-time', description: 'At or after this instant.' },
    to: { type: 'string', format: 'date-time', description: 'At or before this instant.' },
  },
} as const;

const rowSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    userId: { type: ['integer', 'null'] },
    username: { type: ['string', 'null'] },
    action: { type: 'string' },
    actionName: { type: 'string', description: 'The action in words, in the request language.' },
    family: { type: 'string' },
    familyName: { type: 'string' },
    resource: { type: ['string', 'null'] },
    resourceName: { type: ['string', 'null'], description: 'The resource in words.' },
    recordId: { type: ['string', 'null'] },
    recordName: { type: ['string', 'null'], description: 'The record by its name, read now; «name (deleted)» when it no longer exists.' },
    changes: { description: 'What changed: for record writes { farmId, version: {from, to}, fields: { name: {from, to} } }.' },
    changeList: {
      type: 'array',
      description: 'The change in words: field titles, and values as text (old → new; a value alone when nothing was replaced).',
      items: { type: 'object', properties: { field: { type: 'string' }, title: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } },
    },
    changeText: { type: 'string', description: 'changeList on one line (exports).' },
    ip: { type: ['string', 'null'] },
  },
};

interface Query {
  pageIndex?: number;
  pageSize?: number;
  userId?: number;
  username?: string;
  resource?: string;
  action?: string;
  family?: string;
  recordId?: string;
  from?: string;
  to?: string;
}

/**
 * Which log rows a reader sees: platform administrators all; anyone else the actions
 * of the people of their own organisation, or of their bloc's farms and staff.
 */
function logScope(user: SessionUser, p: Params): string {
  if (user.platformAdmin) return 'TRUE';
  if (user.orgId != null) return `l.user_id IN (SELECT u.id FROM users u WHERE u.org_id = ${p.add(user.orgId)})`;
  if (user.blocId != null) {
    const bloc = p.add(user.blocId);
    return `l.user_id IN (SELECT u.id FROM users u LEFT JOIN organisations o ON o.id = u.org_id WHERE u.bloc_id = ${bloc} OR o.bloc_id = ${bloc})`;
  }
  return `l.user_id = ${p.add(user.id)}`;
}

/**
 * Exact when the value is a catalogued code, else every code whose words contain it;
 * when nothing matches, the value itself (a code older than the catalogue).
 */
function codeOrWords(value: string, known: (v: string) => boolean, matching: (v: string) => string[]): string[] {
  if (known(value)) return [value];
  const found = matching(value);
  return found.length ? found : [value];
}

/**
 * GET /api/admin/gateLog/page: the operation log behind /baseManager/gateLogManager, in
 * words; GET /api/admin/gateLog/families: the action families for its filter.
 */
export function registerGateLogRoutes(app: FastifyInstance, docs: readonly ResourceDocument[] = []): void {
  const cat: AuditCatalogue = auditCatalogue(docs);
  app.get(
    '/admin/gateLog/families',
    {
      schema: {
        tags: ['operation log'],
        summary: 'Operation log: the action families with their names in zh, en and es',
        description: `Needs menu code ${GATE_LOG_AUTHORITY}.`,
        response: { 401: errorReplySchema, 403: errorReplySchema },
      },
    },
    async (req) => {
      requireMenu(req, GATE_LOG_AUTHORITY);
      return ok(cat.families(), t(req.lang, 'common.ok'));
    },
  );
  app.get(
    '/admin/gateLog/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags: ['operation log'],
        summary: 'Operation log: page query, newest first',
        description: `Needs menu code ${GATE_LOG_AUTHORITY}. Every write, login, logout, password and permission change.`,
        querystring: querySchema,
        response: { 200: envelopeSchema(pageSchema(rowSchema)), 400: errorReplySchema, 401: errorReplySchema, 403: errorReplySchema },
      },
    },
    async (req) => {
      const user = requireMenu(req, GATE_LOG_AUTHORITY);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query as Query;
      const pageIndex = q.pageIndex ?? 1;
      const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
      if (q.from && q.to && Date.parse(q.from) > Date.parse(q.to)) {
        throw business(msg['resource.rangeReversed'], {}, (lang) => [{ field: 'from', message: t(lang, msg['resource.rangeReversed']) }]);
      }
      const p = new Params();
      const where = [logScope(user, p)];
      if (q.userId !== undefined) where.push(`l.user_id = ${p.add(q.userId)}`);
      if (q.username) where.push(`l.username ILIKE ${p.add(likePattern(q.username))}`);
      if (q.resource) {
        const names = codeOrWords(q.resource, cat.knowsResource, cat.resourcesMatching);
        where.push(`l.resource = ANY(${p.add(names)}::text[])`);
      }
      if (q.action) {
        const codes = codeOrWords(q.action, cat.knowsAction, cat.actionsMatching);
        where.push(`l.action = ANY(${p.add(codes)}::text[])`);
      }
      if (q.family) {
        where.push(`l.action = ANY(${p.add(cat.actionsOf(q.family))}::text[])`);
      }
      if (q.recordId) where.push(`l.record_id = ${p.add(q.recordId)}`);
      if (q.from) where.push(`l.at >= ${p.add(q.from)}::timestamptz`);
      if (q.to) where.push(`l.at <= ${p.add(q.to)}::timestamptz`);
      const whereSql = where.join(' AND ');
      const countParams = [...p.values];
      const [rows, count] = await Promise.all([
        req.server.db.query<{ id: number; at: Date; user_id: number | null; username: string | null; action: string; resource: string | null; record_id: string | null; changes: unknown; ip: string | null }>(
          `SELECT l.id, l.at, l.user_id, l.username, l.action, l.resource, l.record_id, l.changes, l.ip
             FROM operation_log l WHERE ${whereSql} ORDER BY l.at DESC, l.id DESC LIMIT ${p.add(pageSize)} OFFSET ${p.add((pageIndex - 1) * pageSize)}`,
          p.values,
        ),
        req.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log l WHERE ${whereSql}`, countParams),
      ]);
      const lang = req.lang;
      const names = await recordNames(req.server.db, cat, rows.rows, lang);
      // Reference ids in the changes (a line's materialId) read as the records' names.
      const refs = await referenceNames(req.server.db, cat, rows.rows);
      // Role changes hold menu and element codes: they read by name.
      const codes = rows.rows.some((r) => r.resource === 'roles') ? await permissionNames(req.server.db, lang) : null;
      const view = rows.rows.map((r) => {
        const lines = changeLines(cat, r.resource, withReferenceNames(codes && r.resource === 'roles' ? withPermissionNames(r.changes, codes) : r.changes, cat, r.resource, refs), lang);
        const family = cat.family(r.action);
        return {
          id: Number(r.id),
          at: new Date(r.at).toISOString(),
          userId: r.user_id,
          username: r.username,
          action: r.action,
          actionName: cat.action(r.action, lang),
          family,
          familyName: cat.familyWords(family)?.[lang] ?? family,
          resource: r.resource,
          resourceName: cat.resource(r.resource, lang),
          recordId: r.record_id,
          recordName: r.record_id == null ? null : (names.get(`${r.resource}:${r.record_id}`) ?? `#${r.record_id}`),
          changes: r.changes,
          changeList: lines,
          changeText: changeText(lines),
          ip: r.ip,
        };
      });
      return ok(pageOf(view, count.rows[0].n, pageIndex, pageSize), t(req.lang, 'common.ok'));
    },
  );
}
