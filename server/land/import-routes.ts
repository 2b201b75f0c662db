/**
 * `POST /api/land/import` (preview, then confirm) and `GET /api/land/export` (GeoJSON or
 * KML): docs/land-and-maps.md, "Import and export".
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { business, ok, type FieldError } from '../http/envelope.ts';
import { requireAnyMenu, requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { okObject } from '../admin/schemas.ts';
import { Params } from '../db/params.ts';
import { farmScope } from '../materials/ledger.ts';
import { audit } from '../audit/log.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { Queryable } from '../db/database.ts';
import { LAND_IMPORT_LIMITS, LandFileError, readLandFile } from './import-formats.ts';
import { importMsg } from './import-messages.ts';
import { IMPORT_LAYERS, LAYER_DEFS, planImport, writePlan, type ImportLayer, type Plan } from './import.ts';
import { exportGeoJson, exportKml } from './export.ts';
import { MAP_MENUS } from './routes.ts';

const tags = ['land'];
/** Base64 of the largest file with room around it; past it Fastify answers 413 before a byte is parsed. */
const MAX_CONTENT_CHARS = Math.ceil(LAND_IMPORT_LIMITS.bytes / 3) * 4 + 1024;
const BODY_LIMIT = MAX_CONTENT_CHARS + 64 * 1024;
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

const contentRefusal = (key: string, params: Record<string, string | number> = {}) =>
  business(key, params, (l: Lang): FieldError[] => [{ field: 'content', message: t(l, key, params) }]);

/** The farm written to: a farm user's own, else the one named, within the caller's write scope. */
async function targetFarm(db: Queryable, me: SessionUser, farmId: number | undefined, lang: Lang): Promise<{ id: number; blocId: number | null }> {
  const wanted = farmId ?? (me.orgType === 0 ? me.orgId : null);
  const refuse = () => business(importMsg['land.file.farm'], {}, (l: Lang): FieldError[] => [{ field: 'farmId', message: t(l, importMsg['land.file.farm']) }]);
  if (!wanted) throw refuse();
  const p = new Params();
  const { rows } = await db.query<{ id: number; bloc_id: number | null }>(
    `SELECT id, bloc_id FROM organisations WHERE id = ${p.add(wanted)} AND type = 0 AND ${farmScope(me, p, 'id', 'write')}`,
    p.values,
  );
  if (!rows[0]) throw refuse();
  void lang;
  return { id: Number(rows[0].id), blocId: rows[0].bloc_id == null ? null : Number(rows[0].bloc_id) };
}

function publicPlan(plan: Plan) {
  return {
    counts: plan.counts,
    warnings: plan.warnings,
    features: plan.items.map(({ data: _data, group: _group, ...rest }) => rest),
  };
}

export const landImportRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);
  app.post(
    '/land/import',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary: 'Import land from GeoJSON, KML, KMZ or a zipped Shapefile: a preview of what each feature would become, then the confirm that writes it',
        description:
          'Needs the menu code landBuild and its element codes landBuild:add (and landBuild:edit to confirm updates). `preview` writes nothing; `confirm` plans again and writes the creates and updates in one transaction, one operation-log row `land.import`.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['mode', 'content'],
          properties: {
            mode: { type: 'string', enum: ['preview', 'confirm'] },
            fileName: { type: 'string', maxLength: 255 },
            content: { type: 'string', maxLength: MAX_CONTENT_CHARS, description: `The file in Base64, at most ${LAND_IMPORT_LIMITS.bytes / 1024 / 1024} MB.` },
            layer: { type: 'string', enum: [...IMPORT_LAYERS], description: 'The layer of the features that name none (property `layer`); default plots.' },
            farmId: id,
          },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, 'landBuild', 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body as { mode: 'preview' | 'confirm'; fileName?: string; content: string; layer?: ImportLayer; farmId?: number };
      const farm = await targetFarm(app.db, me, body.farmId, req.lang);
      const content = body.content.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(content) || content.length % 4 === 1) throw contentRefusal(importMsg['land.file.damaged']);
      // The size before anything is read.
      if (Math.floor((content.length * 3) / 4) > LAND_IMPORT_LIMITS.bytes + 2) throw contentRefusal(importMsg['land.file.tooLarge'], { limit: LAND_IMPORT_LIMITS.bytes / 1024 / 1024 });
      const bytes = Buffer.from(content, 'base64');
      let file: Awaited<ReturnType<typeof readLandFile>>;
      try {
        file = await readLandFile(bytes);
      } catch (e) {
        if (e instanceof LandFileError) throw contentRefusal(`land.file.${e.reason}`, e.params);
        throw e;
      }
      if (!file.features.length) throw contentRefusal(importMsg['land.file.noFeatures']);
      const layer = body.layer ?? 'plots';
      if (body.mode === 'preview') {
        const plan = await planImport(app.db, farm.id, file.features, layer, req.lang);
        return ok({ mode: 'preview', format: file.format, farmId: farm.id, ...publicPlan(plan) }, t(req.lang, importMsg['land.import.previewed'], plan.counts));
      }
      const result = await app.db.transaction(async (tx) => {
        // The farm's shape lock (server/land/extensions.ts): no form write lands between the plan and the writes.
        await tx.query('SELECT pg_advisory_xact_lock(74260, $1)', [farm.id]);
        const plan = await planImport(tx, farm.id, file.features, layer, req.lang);
        if (plan.counts.update) requireCan(req, 'landBuild', 'edit');
        const written = await writePlan(tx, farm.id, farm.blocId, me.id, plan);
        if (written.created.length || written.updated.length)
          await audit(tx, req, {
            action: 'land.import',
            resource: 'land',
            recordId: null,
            changes: {
              farmId: farm.id,
              fileName: body.fileName ?? null,
              format: file.format,
              layer,
              created: plan.items.filter((i) => i.action === 'create').map((i) => ({ layer: i.layer, id: i.id, name: i.name })),
              updated: plan.items.filter((i) => i.action === 'update').map((i) => ({ layer: i.layer, id: i.id, name: i.name })),
              refused: plan.counts.refused,
            },
          });
        return plan;
      });
      return ok({ mode: 'confirm', format: file.format, farmId: farm.id, ...publicPlan(result) }, t(req.lang, importMsg['land.import.done'], result.counts));
    },
  );

  app.get(
    '/land/export',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The farm’s land as a GeoJSON (RFC 7946) or KML file: boundary, greenhouse groups, plots, greenhouses, facilities; it imports again to the same shapes and areas',
        description: `Needs one of the map's menu codes (${MAP_MENUS.join(', ')}). A farm user's own farm, or \`farmId\` within the caller's scope.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['format'],
          properties: { format: { type: 'string', enum: ['geojson', 'kml'] }, farmId: id },
        },
        response: okObject(),
      },
    },
    async (req: FastifyRequest) => {
      const me = requireAnyMenu(req, MAP_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query as { format: 'geojson' | 'kml'; farmId?: number };
      const p = new Params();
      const wanted = q.farmId ?? (me.orgType === 0 ? me.orgId : null);
      const { rows: farms } = await app.db.query<{ id: number; name: string }>(
        `SELECT id, name FROM organisations WHERE type = 0 AND id = ${p.add(wanted ?? 0)} AND ${farmScope(me, p, 'id', 'read')}`,
        p.values,
      );
      const farm = farms[0];
      if (!farm) throw business(importMsg['land.file.farm'], {}, (l: Lang): FieldError[] => [{ field: 'farmId', message: t(l, importMsg['land.file.farm']) }]);
      const { rows } = await app.db.query<{ id: number; resource: string; data: Record<string, unknown> }>(
        `SELECT id, resource, data FROM resource_records WHERE resource = ANY($1::text[]) AND farm_id = $2 AND data ? 'geometry' ORDER BY id`,
        [IMPORT_LAYERS.map((l) => LAYER_DEFS[l].resource), Number(farm.id)],
      );
      const base = `${farm.name}-land`;
      return ok(
        q.format === 'kml'
          ? { fileName: `${base}.kml`, mediaType: 'application/vnd.google-earth.kml+xml', content: exportKml(farm.name, rows) }
          : { fileName: `${base}.geojson`, mediaType: 'application/geo+json', content: exportGeoJson(rows) },
      );
    },
  );
};
