import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { Params } from '../../db/params.ts';
import type { SessionUser } from '../../auth/session-user.ts';
import { audit } from '../../audit/log.ts';
import type { Queryable } from '../../db/database.ts';
import { Status, business, forbidden, notFound, ok } from '../../http/envelope.ts';
import { caller, requireCan } from '../../http/guard.ts';
import { likePattern } from '../../resources/sql.ts';
import { authority, holds } from '../authority.ts';
import { msg } from '../messages.ts';
import { orgScopeSql, scopeOf } from '../scope.ts';
import * as s from '../schemas.ts';
import { visibleUser } from '../accounts/users.ts';
import { receivedNotice } from '../notices/routes.ts';

const tags = ['business'];

interface BusinessRow {
  id: number;
  farm_id: number;
  farm_name: string;
  techman_id: number | null;
  techman_name: string | null;
  agent_id: number | null;
  agent_name: string | null;
  type: string;
  status: number;
  content: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const BUSINESS_SELECT = `SELECT bz.id, bz.farm_id, o.name AS farm_name, bz.techman_id, t.name AS techman_name,
    bz.agent_id, a.name AS agent_name, bz.type, bz.status, bz.content, bz.version, bz.created_at, bz.updated_at
  FROM business bz
  JOIN organisations o ON o.id = bz.farm_id
  LEFT JOIN users t ON t.id = bz.techman_id
  LEFT JOIN users a ON a.id = bz.agent_id`;

function businessView(r: BusinessRow) {
  return {
    id: r.id,
    farmId: r.farm_id,
    farmName: r.farm_name,
    techmanId: r.techman_id,
    techmanName: r.techman_name,
    agentId: r.agent_id,
    agentName: r.agent_name,
    type: r.type,
    status: r.status,
    content: r.content,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Whether the caller may read the business of person `id`: their own always; someone
 * else's with a people-managing menu and that person in their scope (everyone for the
 * platform). Otherwise 40301, the same for a person who does not exist.
 */
async function assertMayRead(db: Queryable, me: SessionUser, id: number): Promise<void> {
  if (id === me.id) return;
  if (!holds(me, authority.businessOfOthers)) throw forbidden();
  await visibleUser(db, me, id).catch((err: unknown) => {
    throw (err as { status?: number }).status === Status.NOT_FOUND ? forbidden() : err;
  });
}

/** Business of a technician and/or agent (spec 7.3). */
export const businessRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const db = app.db;

  const pageFor = async (me: SessionUser, q: s.PageParams & { techmanId?: number; agentId?: number; status?: number }) => {
    if (q.techmanId === undefined && q.agentId === undefined) throw business(msg['accounts.idsRequired']);
    for (const id of [q.techmanId, q.agentId]) if (id !== undefined) await assertMayRead(db, me, id);
    const p = new Params();
    const where: string[] = [];
    if (q.techmanId !== undefined) where.push(`bz.techman_id = ${p.add(q.techmanId)}`);
    if (q.agentId !== undefined) where.push(`bz.agent_id = ${p.add(q.agentId)}`);
    if (q.status !== undefined) where.push(`bz.status = ${p.add(q.status)}`);
    // Reading one's own business shows every farm served; someone else's only the farms in the reader's scope.
    const self = q.techmanId === me.id || q.agentId === me.id;
    if (!self) where.push(orgScopeSql(scopeOf(me), p));
    const cond = where.join(' AND ');
    const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM business bz JOIN organisations o ON o.id = bz.farm_id WHERE ${cond}`, p.values))
      .rows[0].n;
    const { rows } = await db.query<BusinessRow>(
      `${BUSINESS_SELECT} WHERE ${cond} ORDER BY bz.created_at DESC, bz.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(s.offsetOf(q))}`,
      p.values,
    );
    return ok(s.page(rows.map(businessView), total, q));
  };

  const status = { type: 'integer', enum: [0, 1, 2, 3] } as const;

  app.get(
    '/coverfield/business/pageByIds/bytechmanId',
    {
      schema: {
        tags,
        summary: 'Business of one technician, newest first',
        querystring: s.pagedQuery({ techmanId: s.id, status }, ['techmanId']),
      },
    },
    async (req) => pageFor(caller(req), req.query),
  );

  app.get(
    '/coverfield/business/pageByIds',
    {
      schema: {
        tags,
        summary: 'Business of a technician and/or a customer agent (at least one), newest first',
        querystring: s.pagedQuery({ techmanId: s.id, agentId: s.id, status }),
      },
    },
    async (req) => pageFor(caller(req), req.query),
  );

  app.get(
    '/coverfield/business/responseAuth',
    {
      schema: {
        tags,
        summary: 'Answers an authorisation request received as a notice: status 1 grants, 2 refuses',
        querystring: s.strictObject({ noticeId: s.id, status: { type: 'integer', enum: [1, 2] } }, ['noticeId', 'status']),
      },
    },
    async (req) => {
      const me = caller(req);
      const { noticeId, status: answer } = req.query;
      const result = await db.transaction(async (tx) => {
        const notice = await receivedNotice(tx, me.id, noticeId, true);
        if (notice.kind !== 'authRequest' || notice.business_id == null) throw business(msg['notices.notAuthRequest']);
        const { rows } = await tx.query<BusinessRow>(`${BUSINESS_SELECT} WHERE bz.id = $1 FOR UPDATE OF bz`, [notice.business_id]);
        const before = rows[0];
        if (!before) throw notFound();
        if (before.status !== 0 || notice.responded_at != null) throw business(msg['notices.alreadyAnswered']);
        await tx.query('UPDATE business SET status = $2, version = version + 1, updated_at = now() WHERE id = $1', [before.id, answer]);
        await tx.query('UPDATE notice_receipts SET responded_at = now(), read_at = COALESCE(read_at, now()) WHERE notice_id = $1 AND user_id = $2', [
          noticeId,
          me.id,
        ]);
        // The requester learns the answer through a notice of their own.
        const recipients = [...new Set([before.techman_id, before.agent_id].filter((x): x is number => x != null))];
        if (recipients.length) {
          const title = answer === 1 ? msg['notices.authGrantedTitle'] : msg['notices.authRefusedTitle'];
          const created = await tx.query<{ id: number }>(
            `INSERT INTO notices(title, content, kind, sender_id, business_id) VALUES ($1, $2, 'authResult', $3, $4) RETURNING id`,
            [title, `${before.farm_name}: ${before.content}`.slice(0, 2000), me.id, before.id],
          );
          await tx.query('INSERT INTO notice_receipts(notice_id, user_id) SELECT $1, unnest($2::int[])', [created.rows[0].id, recipients]);
        }
        await audit(tx, req, {
          action: 'business.responseAuth',
          resource: 'business',
          recordId: before.id,
          changes: { status: { from: before.status, to: answer }, noticeId },
        });
        const after = await tx.query<BusinessRow>(`${BUSINESS_SELECT} WHERE bz.id = $1`, [before.id]);
        return businessView(after.rows[0]);
      });
      return ok(result);
    },
  );

  // The caller's own work (issue 29 item 7): the business where they are the agent or the
  // technician, and the farms they serve. Read from the customer agent's two screens.
  const MINE_MENUS = { menus: ['customerAgentBusiness', 'customerAgentCustomers'] };
  const type = { type: 'string', enum: ['soilTest', 'fertilization', 'plantProtection', 'consultation', 'dataAccess'] } as const;

  app.get(
    '/coverfield/business/mine',
    {
      schema: {
        tags,
        summary: 'The caller’s own business (as customer agent or technician), newest first; filters: status, type, farm',
        querystring: s.pagedQuery({ status, type, farmId: s.id }),
      },
    },
    async (req) => {
      const me = requireCan(req, MINE_MENUS);
      const q = req.query;
      const p = new Params();
      const where = [`(bz.agent_id = ${p.add(me.id)} OR bz.techman_id = ${p.add(me.id)})`];
      if (q.status !== undefined) where.push(`bz.status = ${p.add(q.status)}`);
      if (q.type !== undefined) where.push(`bz.type = ${p.add(q.type)}`);
      if (q.farmId !== undefined) where.push(`bz.farm_id = ${p.add(q.farmId)}`);
      const cond = where.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM business bz WHERE ${cond}`, p.values)).rows[0].n;
      const { rows } = await db.query<BusinessRow>(
        `${BUSINESS_SELECT} WHERE ${cond} ORDER BY bz.created_at DESC, bz.id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(s.offsetOf(q))}`,
        p.values,
      );
      return ok(s.page(rows.map(businessView), total, q));
    },
  );

  app.get(
    '/coverfield/business/customers',
    {
      schema: {
        tags,
        summary: 'The farms the caller serves (business as customer agent or technician): contact, open and total business, the latest',
        querystring: s.pagedQuery({ keyword: { type: 'string', maxLength: 50 } }),
      },
    },
    async (req) => {
      const me = requireCan(req, MINE_MENUS);
      const q = req.query;
      const p = new Params();
      const mine = `(bz.agent_id = ${p.add(me.id)} OR bz.techman_id = ${p.add(me.id)})`;
      const keyword = q.keyword ? `AND (o.name ILIKE ${p.add(likePattern(q.keyword))} OR o.contact ILIKE ${p.add(likePattern(q.keyword))} OR o.phone ILIKE ${p.add(likePattern(q.keyword))})` : '';
      const from = `FROM business bz JOIN organisations o ON o.id = bz.farm_id WHERE ${mine} ${keyword}`;
      const total = (await db.query<{ n: number }>(`SELECT count(DISTINCT bz.farm_id)::int AS n ${from}`, p.values)).rows[0].n;
      const { rows } = await db.query<{ farm_id: number; name: string; city: string | null; address: string | null; contact: string | null; phone: string | null; open: number; total: number; last_at: Date }>(
        `SELECT bz.farm_id, o.name, o.city, o.address, o.contact, o.phone,
                count(*) FILTER (WHERE bz.status IN (0, 1))::int AS open, count(*)::int AS total, max(bz.created_at) AS last_at
           ${from} GROUP BY bz.farm_id, o.name, o.city, o.address, o.contact, o.phone
          ORDER BY last_at DESC, bz.farm_id LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(s.offsetOf(q))}`,
        p.values,
      );
      return ok(
        s.page(
          rows.map((r) => ({ farmId: r.farm_id, farmName: r.name, city: r.city, address: r.address, contact: r.contact, phone: r.phone, openBusiness: r.open, totalBusiness: r.total, lastAt: new Date(r.last_at).toISOString() })),
          total,
          q,
        ),
      );
    },
  );
};
