import type { FastifyInstance } from 'fastify';
import { Params } from '../db/params.ts';
import { notFound, ok } from '../http/envelope.ts';
import { caller } from '../http/guard.ts';
import * as s from '../legacy/schemas.ts';
import { id, offsetOf, okArray, okObject, okPage, page, pagedQuery, strictObject } from './schemas.ts';

interface ArticleRow {
  id: number;
  data: { title: string; summary?: string; category: string; coverUrl?: string; content?: string; publishedAt?: string; author?: string };
}

/**
 * Reads of the content the administration screens write, for the rest of the product:
 * published articles without a token (the pages before login), dictionary items for any
 * signed-in user's selects, and the newest published app version for the mobile app.
 * Drafts and unpublished versions never leave through these calls.
 */
export function registerContentReadRoutes(app: FastifyInstance): void {
  const db = app.db;

  const articleView = (r: ArticleRow, withContent: boolean) => ({
    id: Number(r.id),
    title: r.data.title,
    summary: r.data.summary ?? null,
    category: r.data.category,
    coverUrl: r.data.coverUrl ?? null,
    author: r.data.author ?? null,
    publishedAt: r.data.publishedAt ?? null,
    ...(withContent ? { content: r.data.content ?? '' } : {}),
  });

  app.get<{ Params: { id: number } }>(
    '/articles/public/:id',
    {
      config: { public: true },
      schema: {
        tags: ['articles'],
        summary: 'A published article, without a token (/articleDetailBeforeLogin/:id); drafts answer 40401',
        params: strictObject({ id }, ['id']),
        response: okObject(),
      },
    },
    async (req) => {
      const { rows } = await db.query<ArticleRow>(
        `SELECT id, data FROM resource_records WHERE resource = 'articles' AND id = $1 AND data->>'status' = '1'`,
        [req.params.id],
      );
      if (!rows[0]) throw notFound();
      return ok(articleView(rows[0], true));
    },
  );

  app.get<{ Querystring: s.PageParams & { keyword?: string; category?: string } }>(
    '/articles/public/search',
    {
      config: { public: true },
      schema: {
        tags: ['articles'],
        summary: 'Published articles whose title, summary or body contains the keyword, newest first, without a token (/searchArticleBeforeLogin/:keyword)',
        querystring: pagedQuery({
          keyword: { type: 'string', maxLength: 64 },
          category: { type: 'string', enum: ['news', 'policy', 'technique', 'market', 'case'] },
        }),
        response: okPage(),
      },
    },
    async (req) => {
      const q = req.query;
      const p = new Params();
      const where = [`resource = 'articles'`, `data->>'status' = '1'`];
      const keyword = q.keyword?.trim().toLowerCase();
      if (keyword) {
        const k = p.add(keyword);
        // position() keeps % and _ literal; the body is searched as stored (tags included).
        where.push(`(position(${k} in lower(data->>'title')) > 0 OR position(${k} in lower(coalesce(data->>'summary', ''))) > 0
          OR position(${k} in lower(data->>'content')) > 0)`);
      }
      if (q.category) where.push(`data->>'category' = ${p.add(q.category)}`);
      const cond = where.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE ${cond}`, p.values)).rows[0].n;
      const { rows } = await db.query<ArticleRow>(
        `SELECT id, data FROM resource_records WHERE ${cond} ORDER BY data->>'publishedAt' DESC, id DESC LIMIT ${p.add(q.pageSize)} OFFSET ${p.add(offsetOf(q))}`,
        p.values,
      );
      return ok(page(rows.map((r) => articleView(r, false)), total, q));
    },
  );

  app.get<{ Params: { code: string } }>(
    '/dict/:code/items',
    {
      schema: {
        tags: ['dicts'],
        summary: 'The enabled items of an enabled dictionary as select options [{value, label{zh,en,es}, color?}], in item order; the screen language’s `dict` source',
        description: 'Any signed-in user. An unknown or disabled dictionary answers 40401.',
        params: strictObject({ code: { type: 'string', minLength: 2, maxLength: 40, pattern: '^[a-z][A-Za-z0-9_]{1,39}$' } }, ['code']),
        response: okArray(),
      },
    },
    async (req) => {
      caller(req);
      const { rows } = await db.query<{ data: { status: number; items?: { value: string; label: unknown; sort: number; enabled: boolean; color?: string }[] } }>(
        `SELECT data FROM resource_records WHERE resource = 'dicts' AND lower(data->>'code') = lower($1)`,
        [req.params.code],
      );
      const dict = rows[0]?.data;
      if (!dict || dict.status !== 1) throw notFound();
      const items = (dict.items ?? [])
        .filter((i) => i.enabled)
        .sort((a, b) => a.sort - b.sort || String(a.value).localeCompare(String(b.value)))
        .map((i) => ({ value: i.value, label: i.label, ...(i.color ? { color: i.color } : {}) }));
      return ok(items);
    },
  );

  app.get<{ Querystring: { platform: 'android' | 'ios' } }>(
    '/app/version/latest',
    {
      config: { public: true },
      schema: {
        tags: ['appVersions'],
        summary: 'The newest published version of the mobile app for a platform, without a token (the app’s update check); 40401 when none',
        querystring: strictObject({ platform: { type: 'string', enum: ['android', 'ios'] } }, ['platform']),
        response: okObject(),
      },
    },
    async (req) => {
      const { rows } = await db.query<{ id: number; data: Record<string, unknown> }>(
        `SELECT id, data FROM resource_records WHERE resource = 'appVersions' AND data->>'platform' = $1 AND (data->>'published')::boolean
          ORDER BY (data->>'versionCode')::numeric DESC LIMIT 1`,
        [req.query.platform],
      );
      if (!rows[0]) throw notFound();
      const d = rows[0].data;
      return ok({
        id: Number(rows[0].id),
        platform: d.platform,
        versionCode: d.versionCode,
        versionName: d.versionName,
        downloadUrl: d.downloadUrl,
        fileSizeMb: d.fileSizeMb ?? null,
        minOsVersion: d.minOsVersion ?? null,
        releaseNotes: d.releaseNotes ?? null,
        forceUpdate: d.forceUpdate === true,
      });
    },
  );
}
