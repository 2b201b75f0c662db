/**
 * The farm's land as a file (docs/land-and-maps.md, "Import and export"): GeoJSON (RFC 7946:
 * WGS 84 longitude/latitude, outer rings anticlockwise as stored) or KML 2.2. Each feature
 * carries its layer, name, code, area and the layer's own fields (a greenhouse its group's
 * code), and positions are written with every digit stored, so the file imports again
 * (server/land/import.ts) to the same shapes, areas and records (matched by code).
 */
import { IMPORT_LAYERS, LAYER_DEFS, type ImportLayer } from './import.ts';

interface Row {
  id: number;
  resource: string;
  data: Record<string, unknown>;
}

const layerOf = (resource: string) => IMPORT_LAYERS.find((l) => LAYER_DEFS[l].resource === resource) as ImportLayer;

function featureProperties(row: Row, groupCodes: Map<number, string>): Record<string, string | number> {
  const layer = layerOf(row.resource);
  const props: Record<string, string | number> = { layer };
  for (const f of ['name', 'code', 'areaMu', ...Object.keys(LAYER_DEFS[layer].defaults), 'remark']) {
    const v = row.data[f];
    if (typeof v === 'string' || typeof v === 'number') props[f] = v;
  }
  if (layer === 'greenhouses' && typeof row.data.groupId === 'number' && groupCodes.has(row.data.groupId)) props.group = groupCodes.get(row.data.groupId)!;
  return props;
}

function ordered(rows: Row[]): Row[] {
  return [...rows].sort((a, b) => IMPORT_LAYERS.indexOf(layerOf(a.resource)) - IMPORT_LAYERS.indexOf(layerOf(b.resource)) || a.id - b.id);
}

function groupCodesOf(rows: Row[]): Map<number, string> {
  return new Map(rows.filter((r) => r.resource === 'greenhouseGroups').map((r) => [r.id, String(r.data.code ?? r.data.name)]));
}

export function exportGeoJson(rows: Row[]): string {
  const groups = groupCodesOf(rows);
  const features = ordered(rows).map((r) => ({ type: 'Feature', geometry: JSON.parse(String(r.data.geometry)), properties: featureProperties(r, groups) }));
  return `${JSON.stringify({ type: 'FeatureCollection', features }, null, 1)}\n`;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const tuples = (positions: number[][]) => positions.map((p) => `${p[0]},${p[1]}`).join(' ');

function kmlGeometry(g: { type: string; coordinates: unknown }): string {
  if (g.type === 'Point') return `<Point><coordinates>${tuples([g.coordinates as number[]])}</coordinates></Point>`;
  if (g.type === 'LineString') return `<LineString><coordinates>${tuples(g.coordinates as number[][])}</coordinates></LineString>`;
  const [outer, ...holes] = g.coordinates as number[][][];
  return `<Polygon><outerBoundaryIs><LinearRing><coordinates>${tuples(outer)}</coordinates></LinearRing></outerBoundaryIs>${holes
    .map((h) => `<innerBoundaryIs><LinearRing><coordinates>${tuples(h)}</coordinates></LinearRing></innerBoundaryIs>`)
    .join('')}</Polygon>`;
}

export function exportKml(farmName: string, rows: Row[]): string {
  const groups = groupCodesOf(rows);
  const placemarks = ordered(rows).map((r) => {
    const props = featureProperties(r, groups);
    const data = Object.entries(props)
      .filter(([k]) => k !== 'name')
      .map(([k, v]) => `<Data name="${xml(k)}"><value>${xml(String(v))}</value></Data>`)
      .join('');
    return `  <Placemark><name>${xml(String(props.name ?? ''))}</name><ExtendedData>${data}</ExtendedData>${kmlGeometry(JSON.parse(String(r.data.geometry)))}</Placemark>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document><name>${xml(farmName)}</name>\n${placemarks.join('\n')}\n</Document>\n</kml>\n`;
}
