import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { audit } from '../../audit/log.ts';
import type { Queryable } from '../../db/database.ts';
import { notFound, ok } from '../../http/envelope.ts';
import { caller } from '../../http/guard.ts';
import type { Lang } from '../../i18n/lang.ts';
import { t } from '../../i18n/catalog.ts';
import * as s from '../schemas.ts';

const tags = ['notices'];

interface NoticeRow {
  id: number;
  title: string;
  content: string;
  kind: 'message' | 'authRequest' | 'authResult';
  sender_id: number | null;
  sender_name: string | null;
  business_id: number | null;
  business_status: number | null;
  created_at: Date;
  read_at: Date | null;
  responded_at: Date | null;
}

const NOTICE_SELECT = `SELECT n.id, n.title, n.content, n.kind, n.sender_id, su.name AS sender_name, n.business_id,
    bz.status AS business_status, n.created_at, r.read_at, r.responded_at
  FROM notice_receipts r
  JOIN notices n ON n.id = r.notice_id
  LEFT JOIN users su ON su.id = n.sender_id
  LEFT JOIN business bz ON bz.id = n.business_id`;

/** A notice as its recipient sees it. System notices keep a message key as title, shown in the reader's language. */
export function noticeView(r: NoticeRow, lang: Lang) {
  return {
    id: r.id,
    // A title that is a message key (an authorisation's answer, a plan's review) reads in the
    // reader's language; any other title is returned as written (t leaves unknown keys alone).
    title: t(lang, r.title),
    content: r.content,
    kind: r.kind,
    senderId: r.sender_id,
    senderName: r.sender_name,
    businessId: r.business_id,
    businessStatus: r.business_status,
    read: r.read_at != null,
    readAt: r.read_at,
    respondedAt: r.responded_at,
    needsResponse: r.kind === 'authRequest' && r.responded_at == null && r.business_status === 0,
    createdAt: r.created_at,
  };
}

/** The notice `id` as received by `userId`; 40401 when they did not receive it. */
export async function receivedNotice(db: Queryable, userId: number, id: number, forUpdate = false): Promise<NoticeRow> {
  const { rows } = await db.query<NoticeRow>(`${NOTICE_SELECT} WHERE r.user_id = $1 AND r.notice_id = $2${forUpdate ? ' FOR UPDATE OF r' : ''}`, [userId, id]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

export async function unreadCount(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notice_receipts WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return rows[0].n;
}

/**
 * Notices (spec 7.3). Everyone signed in reads their own notices only: a userId naming
 * someone else gets what a user without notices gets (an empty page, a count of 0),
 * so the calls never reveal whether another person has notices.
 */
export const noticeRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const db = app.db;

  app.get(
    '/coverfield/notice/page/receiveNotice',
    {
      schema: {
        tags,
        summary: 'The caller’s received notices, newest first; read=0 or 1 filters unread or read ones',
        querystring: s.pagedQuery({ userId: s.id, read: { type: 'integer', enum: [0, 1] } }),
      },
    },
    async (req) => {
      const me = caller(req);
      const q = req.query;
      if (q.userId !== undefined && q.userId !== me.id) return ok(s.page([], 0, q));
      const readCond = q.read === undefined ? '' : q.read === 1 ? ' AND r.read_at IS NOT NULL' : ' AND r.read_at IS NULL';
      const total = (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notice_receipts r WHERE r.user_id = $1${readCond}`, [me.id])
      ).rows[0].n;
      const { rows } = await db.query<NoticeRow>(
        `${NOTICE_SELECT} WHERE r.user_id = $1${readCond} ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
        [me.id, q.pageSize, s.offsetOf(q)],
      );
      return ok(s.page(rows.map((r) => noticeView(r, req.lang)), total, q));
    },
  );

  app.get(
    '/coverfield/notice/setSelfNoticeRead',
    {
      schema: {
        tags,
        summary: 'Marks one of the caller’s notices read (again: no change); replies with the notice and the new unread count',
        querystring: s.strictObject({ id: s.id }, ['id']),
      },
    },
    async (req) => {
      const me = caller(req);
      const id = req.query.id;
      const result = await db.transaction(async (tx) => {
        const before = await receivedNotice(tx, me.id, id, true);
        if (before.read_at == null) {
          await tx.query('UPDATE notice_receipts SET read_at = now() WHERE notice_id = $1 AND user_id = $2', [id, me.id]);
          await audit(tx, req, { action: 'notice.read', resource: 'notices', recordId: id, changes: { read: { from: false, to: true } } });
        }
        return { notice: noticeView(await receivedNotice(tx, me.id, id), req.lang), notReadNumber: await unreadCount(tx, me.id) };
      });
      return ok(result);
    },
  );

  app.get(
    '/coverfield/notice/notReadNumber',
    {
      schema: {
        tags,
        summary: 'The caller’s unread notice count: a number in data (the console caps the badge at 10)',
        querystring: s.strictObject({ userId: s.id }),
      },
    },
    async (req) => {
      const me = caller(req);
      const userId = req.query.userId ?? me.id;
      return ok(userId === me.id ? await unreadCount(db, me.id) : 0);
    },
  );
};
