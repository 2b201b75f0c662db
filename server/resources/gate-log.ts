import type { FastifyInstance } from 'fastify';
import { requireMenu } from '../http/guard.ts';
import { ok } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { DEFAULT_PAGE_SIZE } from '../../runtime/schema/resource.ts';
import { envelopeSchema, errorReplySchema, pageOf, pageParamsSchema, pageSchema } from './page.ts';
import { likePattern, Params } from './sql.ts';
import { business } from '../http/envelope.ts';
import { msg } from './messages.ts';
import { refuseValidation, resourceValidatorCompiler } from './validation.ts';

export const GATE_LOG_AUTHORITY = 'gateLogManager';

const querySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageParamsSchema,
    userId: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'Who acted.' },
    username: { type: 'string', maxLength: 64, description: 'Username contains (case-insensitive).' },
    resource: { type: 'string', maxLength: 64, description: 'Resource or table acted on, exactly.' },
    action: { type: 'string', maxLength: 64, description: 'Action, exactly (crops.update, login, …).' },
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
    resource: { type: ['string', 'null'] },
    recordId: { type: ['string', 'null'] },
    changes: { description: 'What changed: for record writes { farmId, version: {from, to}, fields: { name: {from, to} } }.' },
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

/** GET /api/admin/gateLog/page: the operation log behind /baseManager/gateLogManager. */
export function registerGateLogRoutes(app: FastifyInstance): void {
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
      if (q.resource) where.push(`l.resource = ${p.add(q.resource)}`);
      if (q.action) where.push(`l.action = ${p.add(q.action)}`);
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
      const view = rows.rows.map((r) => ({
        id: Number(r.id),
        at: new Date(r.at).toISOString(),
        userId: r.user_id,
        username: r.username,
        action: r.action,
        resource: r.resource,
        recordId: r.record_id,
        changes: r.changes,
        ip: r.ip,
      }));
      return ok(pageOf(view, count.rows[0].n, pageIndex, pageSize), t(req.lang, 'common.ok'));
    },
  );
}
