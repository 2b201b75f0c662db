/**
 * The one-off recomputation of stored areas that migration 153_land_geodesic_areas.sql asks
 * for (docs/land-and-maps.md, "Areas"): every record of the land resources holding a polygon
 * gets its `areaMu` from the WGS 84 ellipsoid (server/land/geometry.ts), each change is a
 * row of the operation log (`land.areaRecomputed`: the record's name, the area before and
 * after), and the request's row keeps the totals. Runs when the server starts; several
 * instances starting together recompute once (the request's row is locked, the others skip it).
 */
import type { Polygon } from 'geojson';
import type { Database } from '../db/database.ts';
import { areaMu } from './geometry.ts';

/**
 * The resources whose records held polygons when migration 153 was written: the one-off
 * recomputation is over existing data, so the list is fixed (the engine validates geometry on
 * any resource declaring it, see the geometry field type in ./extensions.ts).
 */
const LAND_RESOURCES = ['farmBoundaries', 'farmFields', 'greenhouseGroups', 'greenhouses', 'farmFacilities'] as const;

export interface AreaRecomputation {
  checked: number;
  changed: number;
  muBefore: number;
  muAfter: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Runs every pending recomputation; null when none was pending. */
export async function recomputePendingAreas(db: Database): Promise<AreaRecomputation | null> {
  return db.transaction(async (tx) => {
    const { rows: pending } = await tx.query<{ id: number }>(
      'SELECT id FROM land_area_recomputations WHERE done_at IS NULL ORDER BY id FOR UPDATE SKIP LOCKED',
    );
    if (!pending.length) return null;
    const { rows } = await tx.query<{ id: number; resource: string; farm_id: number | null; name: string | null; shape: string; area: unknown }>(
      `SELECT id, resource, farm_id, data->>'name' AS name, data->>'geometry' AS shape, data->'areaMu' AS area
         FROM resource_records WHERE resource = ANY($1::text[]) AND data ? 'geometry' ORDER BY id`,
      [[...LAND_RESOURCES]],
    );
    const out: AreaRecomputation = { checked: 0, changed: 0, muBefore: 0, muAfter: 0 };
    const log: { id: number; resource: string; name: string | null; farmId: number | null; before: number | null; after: number }[] = [];
    for (const row of rows) {
      let shape: { type?: string };
      try {
        shape = JSON.parse(row.shape);
      } catch {
        continue;
      }
      if (shape?.type !== 'Polygon') continue;
      const after = areaMu(shape as Polygon);
      const before = typeof row.area === 'number' ? row.area : null;
      out.checked++;
      out.muBefore += before ?? 0;
      out.muAfter += after;
      if (before === after) continue;
      out.changed++;
      log.push({ id: Number(row.id), resource: row.resource, name: row.name, farmId: row.farm_id == null ? null : Number(row.farm_id), before, after });
    }
    if (log.length) {
      await tx.query(
        `UPDATE resource_records r SET data = jsonb_set(r.data, '{areaMu}', to_jsonb((c->>'after')::numeric))
           FROM jsonb_array_elements($1::jsonb) AS c WHERE r.id = (c->>'id')::bigint`,
        [JSON.stringify(log)],
      );
      await tx.query(
        `INSERT INTO operation_log(user_id, username, action, resource, record_id, changes)
         SELECT NULL, 'system', 'land.areaRecomputed', c->>'resource', c->>'id',
                jsonb_build_object('name', c->'name', 'farmId', c->'farmId', 'areaMu', jsonb_build_object('before', c->'before', 'after', c->'after'))
           FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(c, n) ORDER BY n`,
        [JSON.stringify(log)],
      );
    }
    out.muBefore = round2(out.muBefore);
    out.muAfter = round2(out.muAfter);
    await tx.query(
      'UPDATE land_area_recomputations SET done_at = now(), checked = $2, changed = $3, mu_before = $4, mu_after = $5 WHERE id = ANY($1::int[])',
      [pending.map((p) => p.id), out.checked, out.changed, out.muBefore, out.muAfter],
    );
    return out;
  });
}
