/**
 * Areas and lengths on the WGS 84 ellipsoid (geodesic), the one implementation the server's
 * land rules and the map widget share (docs/land-and-maps.md, "Areas"): GeographicLib's
 * polygon area (Karney's algorithm, exact to the millimetre for any polygon whose edges are
 * geodesics), so a plot's stored area matches a land register's and the area the map shows
 * while drawing is the one the server stores. Positions are GeoJSON `[longitude, latitude]`.
 */
import geographiclib from 'geographiclib-geodesic';

const WGS84 = geographiclib.Geodesic.WGS84;

/** 1 mu (亩) = 10,000 / 15 m² (666.67 m² rounded), the Chinese land unit. */
export const SQUARE_METRES_PER_MU = 10_000 / 15;
export const SQUARE_METRES_PER_HECTARE = 10_000;

type Ring = readonly (readonly number[])[];

/** The area (m², unsigned) enclosed by one ring; a closing position equal to the first is skipped. */
export function ringArea(ring: Ring): number {
  const n = ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? ring.length - 1 : ring.length;
  if (n < 3) return 0;
  const polygon = WGS84.Polygon(false);
  for (let i = 0; i < n; i++) polygon.AddPoint(ring[i][1], ring[i][0]);
  return Math.abs(polygon.Compute(false, true).area ?? 0);
}

/** The area (m²) of a polygon: its outer ring less its holes. */
export function polygonArea(rings: readonly Ring[]): number {
  if (!rings.length) return 0;
  let area = ringArea(rings[0]);
  for (let i = 1; i < rings.length; i++) area -= ringArea(rings[i]);
  return Math.max(0, area);
}

/** The geodesic length (m) of a line through `positions`. */
export function lineLength(positions: Ring): number {
  if (positions.length < 2) return 0;
  const line = WGS84.Polygon(true);
  for (const p of positions) line.AddPoint(p[1], p[0]);
  return line.Compute(false, true).perimeter;
}

/** An area in the three units the land register uses: m², hectares and mu. */
export function areaUnits(squareMetres: number): { m2: number; hectares: number; mu: number } {
  return { m2: squareMetres, hectares: squareMetres / SQUARE_METRES_PER_HECTARE, mu: squareMetres / SQUARE_METRES_PER_MU };
}
