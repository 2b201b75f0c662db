/**
 * The land rules on the resource engine's generic writes (handed to the engine in
 * server/modules.ts as a field type): every property any resource document marks `x-geometry` holds GeoJSON
 * text that must pass server/land/geometry.ts; the server computes the polygon's area in
 * mu into the declared `areaField` (whatever the client sent); and where the document
 * declares `overlapTolerancePercent`, a polygon may not overlap another record's of the same
 * resource on the same farm by more than that. Every hook runs inside the write's
 * transaction, so a refusal (40001 on the shape's field) changes nothing.
 */
import type { Polygon } from 'geojson';
import type { FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { CreateContext, HookContext, ResourceFieldType, UpdateContext } from '../resources/extensions.ts';
import { invalidInput } from '../resources/validation.ts';
import type { GeometryFieldSpec } from '../../runtime/schema/resource/types.ts';
import { areaMu, BOUNDARY_TOLERANCE_PERCENT, checkGeometry, firstOverlap, outsidePercent, type Neighbour } from './geometry.ts';
import './messages.ts';
import { importMsg } from './import-messages.ts';

type Data = Record<string, unknown>;

function titleOf(ctx: HookContext, field: string): string {
  return ctx.doc.record.properties[field]?.['x-title']?.[ctx.lang] ?? field;
}

async function neighbours(ctx: HookContext, field: string, farmId: number | null, self: number): Promise<Neighbour[]> {
  const { rows } = await ctx.tx.query<{ id: number; name: string | null; shape: string }>(
    `SELECT id, data->>$4 AS name, data->>$3 AS shape FROM resource_records
      WHERE resource = $1 AND farm_id IS NOT DISTINCT FROM $2 AND id <> $5 AND data ? $3`,
    [ctx.doc.name, farmId, field, ctx.doc.displayField, self],
  );
  const out: Neighbour[] = [];
  for (const row of rows) {
    try {
      out.push({ id: Number(row.id), name: row.name ?? String(row.id), geometry: JSON.parse(row.shape) });
    } catch {
      // A stored shape is always valid JSON (this hook wrote it); skip rather than fail a write on history.
    }
  }
  return out;
}

/** The farm's boundary polygon, or null when it has none. */
export async function farmBoundary(tx: HookContext['tx'], farmId: number | null): Promise<Polygon | null> {
  if (farmId === null) return null;
  const { rows } = await tx.query<{ shape: string }>(
    `SELECT data->>'geometry' AS shape FROM resource_records WHERE resource = 'farmBoundaries' AND farm_id = $1 AND data ? 'geometry' ORDER BY id LIMIT 1`,
    [farmId],
  );
  if (!rows[0]) return null;
  try {
    const g = JSON.parse(rows[0].shape);
    return g?.type === 'Polygon' ? (g as Polygon) : null;
  } catch {
    return null;
  }
}

async function checkShapes(ctx: HookContext, data: Data, farmId: number | null, self: number): Promise<void> {
  const errors: FieldError[] = [];
  for (const [field, schema] of Object.entries(ctx.doc.record.properties)) {
    const spec: GeometryFieldSpec | undefined = schema['x-geometry'];
    if (!spec) continue;
    const fieldTitle = titleOf(ctx, field);
    const text = data[field];
    if (typeof text !== 'string' || text === '') {
      delete data[field];
      if (spec.areaRequired && spec.areaField && typeof data[spec.areaField] !== 'number')
        errors.push({ field: spec.areaField, message: t(ctx.lang, 'land.areaOrShape', { area: titleOf(ctx, spec.areaField), field: fieldTitle }) });
      continue;
    }
    const checked = checkGeometry(text, spec.kinds);
    if (!checked.ok) {
      errors.push({ field, message: t(ctx.lang, checked.refusal.key, { field: fieldTitle, ...checked.refusal.params }) });
      continue;
    }
    // Stored normalised: no foreign members, positions as pairs.
    data[field] = JSON.stringify(checked.geometry);
    if (checked.geometry.type !== 'Polygon') continue;
    if (spec.areaField) data[spec.areaField] = areaMu(checked.geometry);
    // A plot lies inside its farm's boundary (when the farm has one).
    if (ctx.doc.name === 'farmFields') {
      const boundary = await farmBoundary(ctx.tx, farmId);
      const percent = boundary ? outsidePercent(checked.geometry as Polygon, boundary) : 0;
      if (percent > BOUNDARY_TOLERANCE_PERCENT) {
        errors.push({ field, message: t(ctx.lang, importMsg['land.outsideBoundary'], { field: fieldTitle, percent, tolerance: BOUNDARY_TOLERANCE_PERCENT }) });
        continue;
      }
    }
    if (spec.overlapTolerancePercent !== undefined) {
      // Serialises two writes of shapes on one farm, so two overlapping plots cannot both land.
      await ctx.tx.query('SELECT pg_advisory_xact_lock(74260, $1)', [farmId ?? 0]);
      const hit = firstOverlap(checked.geometry as Polygon, await neighbours(ctx, field, farmId, self), spec.overlapTolerancePercent);
      if (hit)
        errors.push({
          field,
          message: t(ctx.lang, 'land.geometry.overlap', {
            field: fieldTitle,
            name: hit.neighbour.name,
            percent: hit.percent,
            tolerance: spec.overlapTolerancePercent,
          }),
        });
    }
  }
  if (errors.length) throw invalidInput(errors, ctx.lang);
}

/**
 * The geometry field type: every resource whose record marks a property `x-geometry` — the
 * land area's plots, houses and facilities, a pest report's map point, any new one — has its
 * shapes checked on create and update. There is no list of resources to forget one in.
 */
export const geometryFieldType: ResourceFieldType = {
  keyword: 'x-geometry',
  hooks: {
    beforeCreate: async (ctx: CreateContext) => checkShapes(ctx, ctx.data, ctx.farmId, 0),
    beforeUpdate: async (ctx: UpdateContext) => checkShapes(ctx, ctx.data, ctx.farmId, ctx.id),
  },
};
