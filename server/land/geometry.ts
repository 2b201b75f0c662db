/**
 * The geometry rules of the land area, pure (no database, no request): a stored shape is
 * GeoJSON text (WGS 84 longitude/latitude), and every write passes through `checkGeometry`.
 * A refusal is a message key of server/land/messages.ts with its parameters, so the caller
 * words it in the request's language. Areas are geodesic (turf's spherical formula, the
 * Areas are on the WGS 84 ellipsoid (GeographicLib, runtime/format/geodesic.ts, shared with
 * the map widget): a land register's figure to the square metre.
 */
import turfIntersect from '@turf/intersect';
import { kinks } from '@turf/kinks';
import { featureCollection, polygon as turfPolygon } from '@turf/helpers';
import type { Geometry, LineString, MultiPolygon, Point, Polygon, Position } from 'geojson';
import { polygonArea, SQUARE_METRES_PER_MU } from '../../runtime/format/geodesic.ts';

/** 1 mu (亩) = 10,000 / 15 m² (666.67 m² rounded), the Chinese land unit. */
export { SQUARE_METRES_PER_MU };
/** At most this many positions in one shape (all rings together). */
export const MAX_VERTICES = 4_000;
/** A shape may span at most this many degrees either way (about 110 km): a farm, not a province. */
export const MAX_SPAN_DEGREES = 1;
/** A polygon smaller than this (m²) is a slip of the mouse, not a plot. */
export const MIN_AREA_M2 = 1;
/** Inner rings (holes: a pond inside a field) at most. */
export const MAX_HOLES = 20;

export type GeometryKind = 'Point' | 'LineString' | 'Polygon';
export type LandGeometry = Point | LineString | Polygon;

export interface GeometryRefusal {
  key: GeometryMessageKey;
  params?: Record<string, string | number>;
}

export type GeometryMessageKey =
  | 'land.geometry.notJson'
  | 'land.geometry.kind'
  | 'land.geometry.coordinates'
  | 'land.geometry.outOfBounds'
  | 'land.geometry.tooFewPoints'
  | 'land.geometry.notClosed'
  | 'land.geometry.selfIntersects'
  | 'land.geometry.tooManyVertices'
  | 'land.geometry.tooLarge'
  | 'land.geometry.tooSmall'
  | 'land.geometry.tooManyHoles'
  | 'land.geometry.overlap';

export type GeometryCheck = { ok: true; geometry: LandGeometry } | { ok: false; refusal: GeometryRefusal };

const refuse = (key: GeometryMessageKey, params?: GeometryRefusal['params']): GeometryCheck => ({ ok: false, refusal: { key, params } });

function isPosition(p: unknown): p is Position {
  return Array.isArray(p) && p.length === 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));
}

function inBounds([lon, lat]: Position): boolean {
  return lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
}

/** Parses and validates a shape of one of `kinds`; the geometry returned is the one to store. */
export function checkGeometry(text: string, kinds: readonly GeometryKind[]): GeometryCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('land.geometry.notJson');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('land.geometry.notJson');
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  const extra = Object.keys(value).filter((k) => k !== 'type' && k !== 'coordinates' && k !== 'bbox');
  if (typeof type !== 'string' || !(kinds as readonly string[]).includes(type)) return refuse('land.geometry.kind', { kinds: kinds.join(' / ') });
  if (extra.length) return refuse('land.geometry.coordinates');

  // Every position: two finite numbers, a valid longitude and latitude.
  const rings: Position[][] =
    type === 'Point' ? [[coordinates as Position]] : type === 'LineString' ? [coordinates as Position[]] : (coordinates as Position[][]);
  if (!Array.isArray(rings) || !rings.every((r) => Array.isArray(r))) return refuse('land.geometry.coordinates');
  const all = rings.flat();
  if (all.length > MAX_VERTICES) return refuse('land.geometry.tooManyVertices', { max: MAX_VERTICES, count: all.length });
  if (!all.every(isPosition)) return refuse('land.geometry.coordinates');
  if (!all.every(inBounds)) return refuse('land.geometry.outOfBounds');
  const lons = all.map((p) => p[0]);
  const lats = all.map((p) => p[1]);
  if (Math.max(...lons) - Math.min(...lons) > MAX_SPAN_DEGREES || Math.max(...lats) - Math.min(...lats) > MAX_SPAN_DEGREES)
    return refuse('land.geometry.tooLarge');

  if (type === 'Point') {
    if (!isPosition(coordinates)) return refuse('land.geometry.coordinates');
    return { ok: true, geometry: { type: 'Point', coordinates: [...coordinates] } };
  }
  if (type === 'LineString') {
    const line = coordinates as Position[];
    if (line.length < 2) return refuse('land.geometry.tooFewPoints', { min: 2 });
    return { ok: true, geometry: { type: 'LineString', coordinates: line.map((p) => [p[0], p[1]]) } };
  }

  if (rings.length < 1) return refuse('land.geometry.coordinates');
  if (rings.length - 1 > MAX_HOLES) return refuse('land.geometry.tooManyHoles', { max: MAX_HOLES });
  for (const ring of rings) {
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (ring.length < 4) return refuse('land.geometry.tooFewPoints', { min: 3 });
    if (first[0] !== last[0] || first[1] !== last[1]) return refuse('land.geometry.notClosed');
    // Three distinct corners at least: [a, b, a, a] is closed and four long but no area.
    if (new Set(ring.map((p) => `${p[0]},${p[1]}`)).size < 3) return refuse('land.geometry.tooFewPoints', { min: 3 });
  }
  const shape: Polygon = { type: 'Polygon', coordinates: rings.map((r) => r.map((p) => [p[0], p[1]])) };
  // kinks finds edges crossing each other, within a ring and between rings (a hole poking out).
  if (kinks(shape).features.length) return refuse('land.geometry.selfIntersects');
  if (polygonArea(shape.coordinates) < MIN_AREA_M2) return refuse('land.geometry.tooSmall');
  return { ok: true, geometry: shape };
}

/** The geodesic area of a polygon (or of several, a multipolygon) on the WGS 84 ellipsoid, in m². */
export function areaSquareMetres(geometry: Polygon | MultiPolygon): number {
  if (geometry.type === 'Polygon') return polygonArea(geometry.coordinates);
  return geometry.coordinates.reduce((sum, rings) => sum + polygonArea(rings), 0);
}

/** The area in mu, to two decimals (the precision of the land register). */
export function areaMu(geometry: Polygon): number {
  return Math.round((areaSquareMetres(geometry) / SQUARE_METRES_PER_MU) * 100) / 100;
}

export type BBox = [minLon: number, minLat: number, maxLon: number, maxLat: number];

export function bboxOf(geometry: LandGeometry): BBox {
  const all = geometry.type === 'Point' ? [geometry.coordinates] : geometry.type === 'LineString' ? geometry.coordinates : geometry.coordinates.flat();
  let b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of all) b = [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x), Math.max(b[3], y)];
  return b;
}

const boxesMeet = (a: BBox, b: BBox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** The shared area (m²) of two polygons; 0 when they only touch. */
export function overlapSquareMetres(a: Polygon, b: Polygon): number {
  if (!boxesMeet(bboxOf(a), bboxOf(b))) return 0;
  const shared = turfIntersect(featureCollection([turfPolygon(a.coordinates), turfPolygon(b.coordinates)]));
  return shared ? areaSquareMetres(shared.geometry) : 0;
}

export interface Neighbour {
  id: number;
  name: string;
  geometry: Geometry;
}

/**
 * The first neighbour that `shape` overlaps by more than `tolerancePercent` of the smaller
 * of the two (a shared border drawn twice by hand overlaps by a sliver, which is allowed).
 */
export function firstOverlap(
  shape: Polygon,
  neighbours: Iterable<Neighbour>,
  tolerancePercent: number,
): { neighbour: Neighbour; percent: number } | null {
  const own = areaSquareMetres(shape);
  const box = bboxOf(shape);
  for (const n of neighbours) {
    if (n.geometry.type !== 'Polygon') continue;
    const other = n.geometry as Polygon;
    if (!boxesMeet(box, bboxOf(other))) continue;
    const shared = overlapSquareMetres(shape, other);
    if (shared <= 0) continue;
    const percent = (shared / Math.min(own, areaSquareMetres(other))) * 100;
    if (percent > tolerancePercent) return { neighbour: n, percent: Math.round(percent * 10) / 10 };
  }
  return null;
}

/** A plot may lie outside the farm's boundary by at most this share of its area (a border digitised twice). */
export const BOUNDARY_TOLERANCE_PERCENT = 1;

/** The share (%) of `shape`'s area outside `boundary`, to a tenth. */
export function outsidePercent(shape: Polygon, boundary: Polygon): number {
  const own = areaSquareMetres(shape);
  if (own <= 0) return 0;
  const inside = overlapSquareMetres(shape, boundary);
  return Math.max(0, Math.round((1 - inside / own) * 1000) / 10);
}
