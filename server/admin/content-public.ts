import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { notFound, ok } from '../http/envelope.ts';
import { caller } from '../http/guard.ts';
import { okArray, okObject, strictObject } from './schemas.ts';

/**
 * Reads of the content the administration screens write, for the rest of the product:
 * dictionary items for any signed-in user's selects, and the newest published app version
 * for the mobile app. Unpublished versions never leave through these calls. Published
 * articles are read without a token through the engine's public reads (the `publicRead`
 * of schemas/resources/articles.json).
 */
export function registerContentReadRoutes(instance: FastifyInstance): void {
  const app = typedRoutes(instance);
  const db = app.db;

  app.get(
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

  app.get(
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
