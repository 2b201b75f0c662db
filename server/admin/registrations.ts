import { messageFor } from '../../runtime/schema/messages.ts';
import type { FastifyInstance } from 'fastify';
import { audit } from '../audit/log.ts';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import { business, notFound, ok } from '../http/envelope.ts';
import { requireElement, requireMenu } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import * as s from '../legacy/schemas.ts';
import { insertUser } from '../legacy/accounts/users.ts';
import { msg } from './messages.ts';
import { id, offsetOf, okObject, okPage, page, pagedQuery, strictObject } from './schemas.ts';

/** Menu code of /registRequestManage/index and its element codes. */
export const REGISTRATION_AUTHORITY = 'registRequestManageIndex';
const tags = ['registrations'];

/** The role a new organisation's first account gets, by organisation type (spec §1). */
export const ROLE_FOR_ORG_TYPE: Record<number, string> = { 0: 'farmOperator', 1: 'manufacturer', 3: 'regionalCenter', 4: 'seedlingBase' };

interface Payload {
  username: string;
  name: string;
  phone: string;
  passwordHash: string;
  orgName: string;
  orgType: number;
  city: string | null;
  address: string | null;
  contact: string | null;
  description: string | null;
}

interface RequestRow {
  id: number;
  payload: Payload;
  status: 'pending' | 'approved' | 'rejected';
  reason: string | null;
  reviewed_by: number | null;
  reviewer_name: string | null;
  reviewed_at: Date | null;
  org_id: number | null;
  user_id: number | null;
  created_at: Date;
}

const SELECT = `SELECT q.id, q.payload, q.status, q.reason, q.reviewed_by, u.name AS reviewer_name, q.reviewed_at, q.org_id, q.user_id, q.created_at
  FROM registration_requests q LEFT JOIN users u ON u.id = q.reviewed_by`;

/** A request as the review screen shows it: never the password hash. */
function view(r: RequestRow) {
  const p = r.payload;
  return {
    id: r.id,
    username: p.username,
    name: p.name,
    phone: p.phone,
    orgName: p.orgName,
    orgType: p.orgType,
    city: p.city,
    address: p.address,
    contact: p.contact,
    description: p.description,
    status: r.status,
    reason: r.reason,
    reviewedBy: r.reviewed_by,
    reviewedByName: r.reviewer_name,
    reviewedAt: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null,
    orgId: r.org_id,
    userId: r.user_id,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

async function requestById(db: Queryable, id: number, lock = false): Promise<RequestRow> {
  const { rows } = await db.query<RequestRow>(`${SELECT} WHERE q.id = $1${lock ? ' FOR UPDATE OF q' : ''}`, [id]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

function statusName(status: string, lang: Lang): string {
  return t(lang, status === 'approved' ? msg['admin.regApproved'] : msg['admin.regRejected']);
}

/** Review of the registrations that POST /api/admin/user/front/regist stores as pending. */
export function registerRegistrationRoutes(app: FastifyInstance): void {
  const db = app.db;

  app.get<{ Querystring: s.PageParams & { status?: string; keyword?: string; orgType?: number } }>(
    '/admin/registration/page',
    {
      schema: {
        tags,
        summary: 'Registration requests, newest first',
        description: `Needs menu code ${REGISTRATION_AUTHORITY}.`,
        querystring: pagedQuery({
          status: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
          keyword: { ...s.keyword, description: 'Username, name, phone or organisation name contains' },
          orgType: { type: 'integer', enum: [0, 1, 3, 4] },
        }),
        response: okPage(),
      },
    },
    async (req) => {
      requireMenu(req, REGISTRATION_AUTHORITY);
      const q = req.query;
      const p = new Params();
      const where: string[] = [];
      if (q.status) where.push(`q.status = ${p.add(q.status)}`);
      if (q.orgType !== undefined) where.push(`(q.payload->>'orgType')::int = ${p.add(q.orgType)}`);
      if (q.keyword) {
        const k = p.add(q.keyword.toLowerCase());
        where.push(
          `(position(${k} in lower(q.payload->>'username')) > 0 OR position(${k} in lower(q.payload->>'name')) > 0
            OR position(${k} in (q.payload->>'phone')) > 0 OR position(${k} in lower(q.payload->>'orgName')) > 0)`,
        );
      }
      const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM registration_requests q ${cond}`, p.values)).rows[0].n;
      const { rows } = await db.query<RequestRow>(
        `${SELECT} ${cond} ORDER BY q.created_at DESC, q.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(offsetOf(q))}`,
        p.values,
      );
      return ok(page(rows.map(view), total, q));
    },
  );

  app.get<{ Params: { id: number } }>(
    '/admin/registration/:id',
    { schema: { tags, summary: 'One registration request', description: `Needs menu code ${REGISTRATION_AUTHORITY}.`, params: strictObject({ id }, ['id']), response: okObject() } },
    async (req) => {
      requireMenu(req, REGISTRATION_AUTHORITY);
      return ok(view(await requestById(db, req.params.id)));
    },
  );

  app.put<{ Params: { id: number }; Body: { roleId?: number } }>(
    '/admin/registration/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approves a pending request: creates the organisation and its account (the stored password hash, a role fitting the organisation type) in one transaction',
        description: `Needs ${REGISTRATION_AUTHORITY} and ${REGISTRATION_AUTHORITY}:approve. A request already handled is refused (40001).`,
        params: strictObject({ id }, ['id']),
        body: strictObject({ roleId: { ...id, description: 'Another role than the one for the organisation type' } }),
        response: okObject(),
      },
    },
    async (req) => {
      requireMenu(req, REGISTRATION_AUTHORITY);
      requireElement(req, `${REGISTRATION_AUTHORITY}:approve`);
      const result = await db.transaction(async (tx) => {
        const r = await requestById(tx, req.params.id, true);
        if (r.status !== 'pending') throw business(msg['admin.regNotPending'], { status: statusName(r.status, req.lang) });
        const p = r.payload;
        const roleCode = ROLE_FOR_ORG_TYPE[p.orgType];
        const role = req.body?.roleId
          ? (await tx.query<{ id: number; code: string; platform: boolean }>('SELECT id, code, platform FROM roles WHERE id = $1', [req.body.roleId])).rows[0]
          : (await tx.query<{ id: number; code: string; platform: boolean }>('SELECT id, code, platform FROM roles WHERE code = $1', [roleCode])).rows[0];
        if (!role || role.platform) throw business(msg['admin.regNoRole'], { code: req.body?.roleId ?? roleCode });
        const taken = (
          await tx.query<{ username: boolean; phone: boolean }>(
            `SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1)) AS username, EXISTS (SELECT 1 FROM users WHERE mobile_phone = $2) AS phone`,
            [p.username, p.phone],
          )
        ).rows[0];
        if (taken.username) throw business(msg['admin.regUsernameTaken'], { username: p.username });
        if (taken.phone) throw business(msg['admin.regPhoneTaken'], { phone: p.phone });

        const org = (
          await tx.query<{ id: number }>(
            `INSERT INTO organisations(name, type, city, address, contact, phone) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
            [p.orgName, p.orgType, p.city, p.address, p.contact ?? p.name, p.phone],
          )
        ).rows[0].id;
        await audit(tx, req, { action: 'org.create', resource: 'organisations', recordId: org, changes: { name: p.orgName, type: p.orgType, city: p.city, registration: r.id } });
        const userId = await insertUser(tx, {
          username: p.username,
          passwordHash: p.passwordHash,
          name: p.name,
          mobilePhone: p.phone,
          kind: 'operator',
          orgId: org,
          description: p.description,
          city: p.city,
        });
        await tx.query('INSERT INTO user_roles(user_id, role_id) VALUES ($1, $2)', [userId, role.id]);
        await audit(tx, req, {
          action: 'user.create',
          resource: 'users',
          recordId: userId,
          changes: { username: p.username, name: p.name, mobilePhone: p.phone, kind: 'operator', orgId: org, registration: r.id, roles: [role.id] },
        });
        await tx.query(
          `UPDATE registration_requests SET status = 'approved', reviewed_by = $2, reviewed_at = now(), org_id = $3, user_id = $4 WHERE id = $1`,
          [r.id, req.user!.id, org, userId],
        );
        await audit(tx, req, { action: 'registration.approve', resource: 'registration_requests', recordId: r.id, changes: { orgId: org, userId, role: role.code } });
        return requestById(tx, r.id);
      });
      return ok(view(result), t(req.lang, msg['admin.regApproved']));
    },
  );

  app.put<{ Params: { id: number }; Body: { reason: string } }>(
    '/admin/registration/:id/reject',
    {
      schema: {
        tags,
        summary: 'Rejects a pending request, recording the reason',
        description: `Needs ${REGISTRATION_AUTHORITY} and ${REGISTRATION_AUTHORITY}:reject. A request already handled is refused (40001).`,
        params: strictObject({ id }, ['id']),
        body: strictObject({ reason: s.text(500, 1) }, ['reason']),
        response: okObject(),
      },
    },
    async (req) => {
      requireMenu(req, REGISTRATION_AUTHORITY);
      requireElement(req, `${REGISTRATION_AUTHORITY}:reject`);
      const reason = req.body.reason.trim();
      if (!reason) {
        const message = messageFor({ rule: 'required', field: { type: 'string', 'x-title': { zh: '驳回理由', en: 'Reason for rejection', es: 'Motivo del rechazo' } } }, req.lang);
        throw business('common.invalidInput', { detail: message }, [{ field: 'reason', message }]);
      }
      const result = await db.transaction(async (tx) => {
        const r = await requestById(tx, req.params.id, true);
        if (r.status !== 'pending') throw business(msg['admin.regNotPending'], { status: statusName(r.status, req.lang) });
        await tx.query(`UPDATE registration_requests SET status = 'rejected', reason = $2, reviewed_by = $3, reviewed_at = now() WHERE id = $1`, [r.id, reason, req.user!.id]);
        await audit(tx, req, { action: 'registration.reject', resource: 'registration_requests', recordId: r.id, changes: { reason } });
        return requestById(tx, r.id);
      });
      return ok(view(result), t(req.lang, msg['admin.regRejected']));
    },
  );
}
