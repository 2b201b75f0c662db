/**
 * HTTP of the land area beyond the resource engine (docs/land-and-maps.md): one read that
 * gives the map widget every shape of the caller's farms at once — boundary, plots,
 * greenhouse groups, greenhouses and facilities — so a farm with 2,000 plots is one reply
 * rather than four pages per layer. Writes go through the engine's resources (and the
 * geometry hooks of server/land/extensions.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { ok } from '../http/envelope.ts';
import { requireAnyMenu } from '../http/guard.ts';
import { refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { okObject } from '../admin/schemas.ts';
import { Params } from '../db/params.ts';
import { farmScope } from '../materials/ledger.ts';
import { DEVICE_MENUS } from '../devices/routes.ts';
import { devicePoints } from './device-positions.ts';
import { recomputePendingAreas } from './area-recompute.ts';
import { landImportRoutes } from './import-routes.ts';

const tags = ['land'];

/** Every screen that draws the map (the map's layers are read through any of them). */
export const MAP_MENUS = [
  'landBuild', 'landShow', 'land', 'landsquare', 'showMapIndex', 'greenhouseGroup', 'sunlightGreenhouseGroup',
  'groupHouse', 'facilities', 'initialization', 'fieldManager',
  // The home pages' small maps (read-only parts of /farmMain/index and /yxhome/index).
  'farmMainIndex', 'yxhomeIndex',
];

/** Map layer → resource and the record fields a map feature carries beside its shape. */
export const LAYERS = {
  boundary: { resource: 'farmBoundaries', fields: ['name', 'areaMu'] },
  plots: { resource: 'farmFields', fields: ['name', 'code', 'areaMu', 'landType', 'cropId', 'status', 'soilType', 'irrigation'] },
  greenhouseGroups: { resource: 'greenhouseGroups', fields: ['name', 'code', 'kind', 'areaMu'] },
  greenhouses: { resource: 'greenhouses', fields: ['name', 'code', 'kind', 'groupId', 'cropId', 'status', 'areaMu'] },
  facilities: { resource: 'farmFacilities', fields: ['name', 'code', 'kind', 'status', 'areaMu'] },
} as const;
export type LayerName = keyof typeof LAYERS;

const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

export const landRoutes: FastifyPluginAsync = async (plain) => {
  // Migration 153 asks for the stored areas on the ellipsoid: done once, reported in the log.
  plain.addHook('onReady', async () => {
    const done = await recomputePendingAreas(plain.db);
    if (done)
      plain.log.info(
        `[land] areas recomputed on the WGS 84 ellipsoid: ${done.changed} of ${done.checked} shapes changed, ${done.muBefore} mu before, ${done.muAfter} mu after (operation log: land.areaRecomputed)`,
      );
  });
  // Import and export of land files (server/land/import-routes.ts).
  void plain.register(landImportRoutes);
  const app = typedRoutes(plain);
  app.get(
    '/land/map',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Every shape of the caller’s farms for the map: boundary, plots, greenhouse groups, greenhouses, facilities (GeoJSON, WGS 84), with crop names',
        description: `Needs one of the menu codes ${MAP_MENUS.join(', ')}. \`farmId\` narrows to one farm of the caller's scope; \`layers\` (comma-separated of ${Object.keys(LAYERS).join(', ')}) to some layers.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            farmId: id,
            layers: { type: 'string', maxLength: 100, pattern: '^[A-Za-z,]*$' },
          },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, MAP_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const wanted = (req.query.layers ? req.query.layers.split(',') : Object.keys(LAYERS)).filter((l): l is LayerName => l in LAYERS);
      const p = new Params();
      const scope = farmScope(me, p, 'r.farm_id', 'read');
      const farmFilter = req.query.farmId ? ` AND r.farm_id = ${p.add(req.query.farmId)}` : '';
      const resources = p.add(wanted.map((l) => LAYERS[l].resource));
      const { rows } = await app.db.query<{ id: number; resource: string; farm_id: number; data: Record<string, unknown>; crop: string | null }>(
        `SELECT r.id, r.resource, r.farm_id, r.data, c.data->>'name' AS crop
           FROM resource_records r
           LEFT JOIN resource_records c ON c.resource = 'crops' AND c.id = (CASE WHEN r.data->>'cropId' ~ '^[0-9]+$' THEN (r.data->>'cropId')::bigint END)
          WHERE r.resource = ANY(${resources}::text[]) AND ${scope}${farmFilter} AND r.data ? 'geometry'
          ORDER BY r.id`,
        p.values,
      );
      const farms = new Map<number, { id: number; name: string; city: string | null }>();
      const layerOf = new Map(Object.entries(LAYERS).map(([layer, def]) => [def.resource as string, layer as LayerName]));
      const features = rows.map((r) => {
        const layer = layerOf.get(r.resource) as LayerName;
        const props: Record<string, unknown> = { id: Number(r.id), layer, farmId: Number(r.farm_id) };
        for (const f of LAYERS[layer].fields) if (r.data[f] !== undefined) props[f] = r.data[f];
        if (r.crop) props.cropName = r.crop;
        farms.set(Number(r.farm_id), { id: Number(r.farm_id), name: '', city: null });
        return { type: 'Feature', id: `${layer}.${r.id}`, geometry: JSON.parse(String(r.data.geometry)), properties: props };
      });
      if (farms.size) {
        const { rows: orgs } = await app.db.query<{ id: number; name: string; city: string | null }>(
          'SELECT id, name, city FROM organisations WHERE id = ANY($1::bigint[]) ORDER BY id',
          [[...farms.keys()]],
        );
        for (const o of orgs) farms.set(Number(o.id), { id: Number(o.id), name: o.name, city: o.city });
      }
      return ok({ farms: [...farms.values()], features: { type: 'FeatureCollection', features } });
    },
  );

  app.get(
    '/land/devices',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The devices layer of the farm map: every placed device of the caller’s farms (longitude, latitude), online, open alarms and last readings',
        description: `Needs one of the map's menu codes (${MAP_MENUS.join(', ')}) and one of the devices area's (${DEVICE_MENUS.join(', ')}). Live changes come from GET /api/devices/events.`,
        querystring: { type: 'object', additionalProperties: false, properties: { farmId: id } },
        response: okObject(),
      },
    },
    async (req) => {
      requireAnyMenu(req, MAP_MENUS);
      const me = requireAnyMenu(req, DEVICE_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const p = new Params();
      const scope = farmScope(me, p, 'd.farm_id', 'read') + (req.query.farmId ? ` AND d.farm_id = ${p.add(req.query.farmId)}` : '');
      return ok({ devices: await devicePoints(app.db, scope, p.values, app.config.deviceOfflineAfterS) });
    },
  );
};
