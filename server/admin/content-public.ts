import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { notFound, ok } from '../http/envelope.ts';
import { caller } from '../http/guard.ts';
import { readResourceDocuments } from '../resources/load.ts';
import { PublicReader } from '../resources/public-reads.ts';
import { ResourceStore } from '../resources/store.ts';
import { okArray, okObject, strictObject } from './schemas.ts';

interface DictItem {
  value: string;
  label: unknown;
  sort: number;
  enabled: boolean;
  color?: string;
}

/**
 * Reads of the content the administration screens write, for the rest of the product:
 * dictionary items for any signed-in user's selects, and the newest published app version
 * for the mobile app. Both go through the resource engine rather than its table: the
 * dictionary is found by code through the engine's store, the app version is the first
 * row of the engine's public read of `appVersions` (its `publicRead`: published versions
 * only, newest versionCode first), so unpublished versions never leave through these calls.
 * Published articles are read without a token through the engine's public reads too.
 */
export async function registerContentReadRoutes(instance: FastifyInstance): Promise<void> {
  const app = typedRoutes(instance);
  const docs = await readResourceDocuments();
  const byName = new Map(docs.map((d) => [d.name, d]));
  const dictDoc = byName.get('dicts');
  const versionDoc = byName.get('appVersions');
  if (!dictDoc || !versionDoc?.publicRead) throw new Error('admin: the dicts document and the publicRead of appVersions are required');
  const dicts = new ResourceStore(dictDoc, byName);
  const publishedVersions = new PublicReader(versionDoc, versionDoc.publicRead);

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
      const me = caller(req);
      // Dictionaries are platform records: every signed-in user's scope holds them.
      const dict = await dicts.findByText(app.db, me, 'code', req.params.code);
      if (!dict || dict.status !== 1) throw notFound();
      const items = ((dict.items as DictItem[] | undefined) ?? [])
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
        description: 'The first row of GET /api/app/version/search?platform=… (the public read of appVersions).',
        querystring: strictObject({ platform: { type: 'string', enum: ['android', 'ios'] } }, ['platform']),
        response: okObject(),
      },
    },
    async (req) => {
      const latest = await publishedVersions.first(app.db, { platform: req.query.platform });
      if (!latest) throw notFound();
      // The update check has always answered forceUpdate as a boolean, never null.
      return ok({ ...latest, forceUpdate: latest.forceUpdate === true });
    },
  );
}
