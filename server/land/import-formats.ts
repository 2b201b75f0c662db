/**
 * Land files read under limits (docs/land-and-maps.md, "Import and export"): GeoJSON
 * (RFC 7946), KML, KMZ and a zipped Shapefile (.shp, .dbf, .prj, .cpg), each turned into
 * features of WGS 84 longitude/latitude with a name, a code and the layer they name. Pure:
 * no database. Every limit is checked before the part it bounds is parsed: the file's size
 * first; a zip's entries from its central directory and its inflated bytes while inflating
 * (server/resources/import-xlsx.ts's bounded reader); then the features and the positions,
 * counted in the text (GeoJSON, KML) or read from the record headers (Shapefile) before any
 * feature is built. A file that passes a limit or cannot be read is a `LandFileError` whose
 * reason is a message key of server/land/import-messages.ts.
 */
import proj4 from 'proj4';
import { boundedZipEntries, XlsxRefusal } from '../resources/import-xlsx.ts';

export const LAND_IMPORT_LIMITS = {
  /** The file as posted (decoded). */
  bytes: 5 * 1024 * 1024,
  /** Features in one file. */
  features: 2_000,
  /** Positions of all features together. */
  positions: 400_000,
  /** The inflated parts of a KMZ or a zipped Shapefile, together. */
  inflatedBytes: 40 * 1024 * 1024,
  /** Parts in such a zip. */
  entries: 50,
} as const;

export type LandFileReason =
  | 'tooLarge'
  | 'format'
  | 'damaged'
  | 'tooManyFeatures'
  | 'tooManyPositions'
  | 'zipLimit'
  | 'noFeatures'
  | 'crs'
  | 'noPrj'
  | 'projection'
  | 'shapeType';

export class LandFileError extends Error {
  readonly reason: LandFileReason;
  readonly params: Record<string, string | number>;
  constructor(reason: LandFileReason, params: Record<string, string | number> = {}) {
    super(`land file ${reason}`);
    this.reason = reason;
    this.params = params;
  }
}

export type LandFormat = 'geojson' | 'kml' | 'kmz' | 'shapefile';

/** A geometry as read: GeoJSON's types, positions as [lon, lat]. */
export interface ReadGeometry {
  type: string;
  coordinates: unknown;
}

export interface ReadFeature {
  /** 1-based, in file order. */
  index: number;
  geometry: ReadGeometry | null;
  /** Every property as text (name, code, layer and the rest). */
  properties: Record<string, string>;
}

export interface ReadFile {
  format: LandFormat;
  features: ReadFeature[];
}

const tooMany = (count: number) => new LandFileError('tooManyFeatures', { count, limit: LAND_IMPORT_LIMITS.features });
const tooManyPositions = (count: number) => new LandFileError('tooManyPositions', { count, limit: LAND_IMPORT_LIMITS.positions });

/** Reads a land file of any supported format (told apart by its first bytes). */
export async function readLandFile(bytes: Buffer): Promise<ReadFile> {
  if (bytes.length > LAND_IMPORT_LIMITS.bytes) throw new LandFileError('tooLarge', { limit: LAND_IMPORT_LIMITS.bytes / 1024 / 1024 });
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) return readZip(bytes);
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  const start = text.trimStart()[0];
  if (start === '{') return { format: 'geojson', features: readGeoJson(text) };
  if (start === '<') return { format: 'kml', features: readKml(text) };
  throw new LandFileError('format');
}

// ---------------------------------------------------------------- GeoJSON (RFC 7946)

/** Old GeoJSON (2008) named its CRS; RFC 7946 is always WGS 84. These names are WGS 84 or CGCS2000 longitude/latitude. */
const GEOGRAPHIC_CRS = /(CRS84|EPSG::?4326|EPSG::?4490|EPSG:4326|EPSG:4490)$/i;

function readGeoJson(text: string): ReadFeature[] {
  // Counted in the text before it is parsed: features and positions (a position is "[x, y").
  const features = text.match(/"type"\s*:\s*"Feature"/g)?.length ?? 0;
  if (features > LAND_IMPORT_LIMITS.features) throw tooMany(features);
  const positions = text.match(/\[\s*-?\d/g)?.length ?? 0;
  if (positions > LAND_IMPORT_LIMITS.positions) throw tooManyPositions(positions);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LandFileError('damaged');
  }
  if (typeof value !== 'object' || value === null) throw new LandFileError('damaged');
  const root = value as { type?: unknown; features?: unknown; crs?: { properties?: { name?: unknown } } };
  const crsName = root.crs?.properties?.name;
  if (crsName !== undefined && !(typeof crsName === 'string' && GEOGRAPHIC_CRS.test(crsName))) throw new LandFileError('crs', { crs: String(crsName) });
  const list: unknown[] = root.type === 'FeatureCollection' && Array.isArray(root.features) ? root.features : root.type === 'Feature' ? [root] : [{ type: 'Feature', geometry: root, properties: {} }];
  if (list.length > LAND_IMPORT_LIMITS.features) throw tooMany(list.length);
  return list.map((f, i) => {
    const feature = (typeof f === 'object' && f !== null ? f : {}) as { geometry?: unknown; properties?: unknown; id?: unknown };
    const properties: Record<string, string> = {};
    if (typeof feature.properties === 'object' && feature.properties !== null)
      for (const [k, v] of Object.entries(feature.properties)) if (v !== null && v !== undefined && typeof v !== 'object') properties[k] = String(v);
    const g = feature.geometry as ReadGeometry | null | undefined;
    return { index: i + 1, geometry: g && typeof g === 'object' && typeof g.type === 'string' ? { type: g.type, coordinates: dropHeights(g.coordinates) } : null, properties };
  });
}

/** Positions keep longitude and latitude only (a height or a measure is dropped). */
function dropHeights(c: unknown): unknown {
  if (!Array.isArray(c)) return c;
  if (c.length >= 2 && typeof c[0] === 'number') return [c[0], c[1]];
  return c.map(dropHeights);
}

// ---------------------------------------------------------------- KML / KMZ

const decodeXml = (s: string) =>
  s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&amp;/g, '&')
    .trim();

/** The first element `tag` (any namespace prefix) inside `xml`, its inner text. */
function element(xml: string, tag: string): string | null {
  const m = new RegExp(`<(?:[\\w-]+:)?${tag}\\b[^>]*>([\\s\\S]*?)</(?:[\\w-]+:)?${tag}>`).exec(xml);
  return m ? m[1] : null;
}
function elements(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:[\\w-]+:)?${tag}\\b[^>]*>([\\s\\S]*?)</(?:[\\w-]+:)?${tag}>`, 'g'))].map((m) => m[1]);
}

function kmlPositions(text: string | null): number[][] {
  if (!text) return [];
  return text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((tuple) => tuple.split(',').slice(0, 2).map(Number));
}

function kmlGeometry(placemark: string): ReadGeometry | null {
  const kinds = ['MultiGeometry', 'Polygon', 'LineString', 'Point'].filter((k) => new RegExp(`<(?:[\\w-]+:)?${k}\\b`).test(placemark));
  if (kinds.includes('MultiGeometry')) {
    const polygons = elements(placemark, 'Polygon');
    // One part only is a shape this product stores; several are refused by the caller as a multipolygon.
    return { type: 'MultiPolygon', coordinates: polygons.map(kmlPolygon) };
  }
  if (kinds.includes('Polygon')) return { type: 'Polygon', coordinates: kmlPolygon(element(placemark, 'Polygon') ?? '') };
  if (kinds.includes('LineString')) return { type: 'LineString', coordinates: kmlPositions(element(element(placemark, 'LineString') ?? '', 'coordinates')) };
  if (kinds.includes('Point')) return { type: 'Point', coordinates: kmlPositions(element(element(placemark, 'Point') ?? '', 'coordinates'))[0] ?? null };
  return null;
}

function kmlPolygon(polygon: string): number[][][] {
  const outer = kmlPositions(element(element(polygon, 'outerBoundaryIs') ?? '', 'coordinates'));
  const inner = elements(polygon, 'innerBoundaryIs').map((b) => kmlPositions(element(b, 'coordinates')));
  return [outer, ...inner];
}

function readKml(text: string): ReadFeature[] {
  const count = text.match(/<(?:[\w-]+:)?Placemark\b/g)?.length ?? 0;
  if (count > LAND_IMPORT_LIMITS.features) throw tooMany(count);
  // Positions: the tuples of every <coordinates>, counted before a placemark is read.
  let positions = 0;
  for (const c of elements(text, 'coordinates')) positions += c.trim().split(/\s+/).filter(Boolean).length;
  if (positions > LAND_IMPORT_LIMITS.positions) throw tooManyPositions(positions);
  if (!/<(?:[\w-]+:)?kml\b/.test(text)) throw new LandFileError('format');
  return elements(text, 'Placemark').map((pm, i) => {
    const properties: Record<string, string> = {};
    const name = element(pm, 'name');
    if (name !== null) properties.name = decodeXml(name);
    const description = element(pm, 'description');
    if (description !== null && description.trim()) properties.description = decodeXml(description);
    for (const m of pm.matchAll(/<(?:[\w-]+:)?Data\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?Data>/g)) {
      const v = element(m[2], 'value');
      if (v !== null) properties[decodeXml(m[1])] = decodeXml(v);
    }
    for (const m of pm.matchAll(/<(?:[\w-]+:)?SimpleData\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?SimpleData>/g)) properties[decodeXml(m[1])] = decodeXml(m[2]);
    return { index: i + 1, geometry: kmlGeometry(pm), properties };
  });
}

// ---------------------------------------------------------------- zips: KMZ and zipped Shapefiles

async function readZip(bytes: Buffer): Promise<ReadFile> {
  let entries: Map<string, Buffer>;
  try {
    entries = await boundedZipEntries(bytes, { entries: LAND_IMPORT_LIMITS.entries, totalBytes: LAND_IMPORT_LIMITS.inflatedBytes, ratio: 100, ratioFrom: 1024 * 1024 });
  } catch (e) {
    if (e instanceof XlsxRefusal) throw e.limit === 'damaged' ? new LandFileError('damaged') : new LandFileError('zipLimit', { limit: LAND_IMPORT_LIMITS.inflatedBytes / 1024 / 1024 });
    throw e;
  }
  const names = [...entries.keys()].filter((n) => !n.startsWith('__MACOSX/'));
  const kml = names.find((n) => /\.kml$/i.test(n));
  if (kml) return { format: 'kmz', features: readKml(new TextDecoder('utf-8').decode(entries.get(kml)).replace(/^\uFEFF/, '')) };
  const shp = names.find((n) => /\.shp$/i.test(n));
  if (!shp) throw new LandFileError('format');
  const base = shp.slice(0, -4);
  const part = (ext: string) => {
    const name = names.find((n) => n.toLowerCase() === `${base}.${ext}`.toLowerCase());
    return name ? entries.get(name) : undefined;
  };
  return { format: 'shapefile', features: readShapefile(entries.get(shp)!, part('dbf'), part('prj'), part('cpg')) };
}

// ---------------------------------------------------------------- Shapefile

type Project = (p: number[]) => number[];

/** WGS 84 or CGCS2000 longitude/latitude as they are; a projected system reprojected by proj4; anything else refused. */
function projectionOf(prj: Buffer | undefined): Project {
  const wkt = prj?.toString('utf8').trim();
  if (!wkt) throw new LandFileError('noPrj');
  const name = /^(?:PROJCS|PROJCRS|GEOGCS|GEOGCRS|GEODCRS)\["([^"]*)"/i.exec(wkt)?.[1] ?? wkt.slice(0, 60);
  if (/^(GEOGCS|GEOGCRS|GEODCRS)\[/i.test(wkt)) {
    // Geographic: WGS 84 or CGCS2000 (China Geodetic Coordinate System 2000: the same ellipsoid to 0.1 mm, centimetres apart).
    if (/WGS[ _]?(19)?84|CGCS[ _]?2000|China[ _]Geodetic[ _]Coordinate[ _]System[ _]2000|\b4490\b|\b4326\b/i.test(wkt)) return (p) => p;
    throw new LandFileError('projection', { name });
  }
  if (!/^(PROJCS|PROJCRS)\[/i.test(wkt) || !/WGS[ _]?(19)?84|CGCS[ _]?2000|China[ _]Geodetic[ _]Coordinate[ _]System[ _]2000/i.test(wkt))
    throw new LandFileError('projection', { name });
  try {
    const converter = proj4(wkt, 'EPSG:4326');
    const probe = converter.forward([500_000, 5_000_000]);
    if (!probe.every(Number.isFinite)) throw new Error('not finite');
    return (p) => converter.forward([p[0], p[1]]);
  } catch {
    throw new LandFileError('projection', { name });
  }
}

function dbfRecords(dbf: Buffer | undefined, cpg: Buffer | undefined, expected: number): Record<string, string>[] {
  if (!dbf || dbf.length < 32) return Array.from({ length: expected }, () => ({}));
  const encoding = cpg ? cpg.toString('latin1').trim().toLowerCase() : '';
  // A .cpg names the encoding; without one a Chinese surveyor's file is GBK more often than not, unless it reads as UTF-8.
  const decoderFor = (bytes: Buffer): string => {
    if (/^(utf-?8|65001)$/.test(encoding)) return new TextDecoder('utf-8').decode(bytes);
    if (/^(gbk|gb2312|gb18030|936|cp936)$/.test(encoding)) return new TextDecoder('gbk').decode(bytes);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return new TextDecoder('gbk').decode(bytes);
    }
  };
  const count = dbf.readUInt32LE(4);
  const headerLength = dbf.readUInt16LE(8);
  const recordLength = dbf.readUInt16LE(10);
  if (count > LAND_IMPORT_LIMITS.features) throw tooMany(count);
  const fields: { name: string; length: number }[] = [];
  for (let p = 32; p + 32 <= headerLength && dbf[p] !== 0x0d; p += 32) {
    fields.push({ name: dbf.toString('latin1', p, p + 11).replace(/\0.*$/, ''), length: dbf[p + 16] });
  }
  const out: Record<string, string>[] = [];
  for (let i = 0; i < count; i++) {
    const start = headerLength + i * recordLength;
    if (start + recordLength > dbf.length) throw new LandFileError('damaged');
    const record: Record<string, string> = {};
    let p = start + 1; // the deletion flag
    for (const f of fields) {
      const value = decoderFor(dbf.subarray(p, p + f.length)).replace(/\0/g, '').trim();
      if (value) record[f.name] = value;
      p += f.length;
    }
    out.push(record);
  }
  return out;
}

/** Signed area of a ring in the file's plane (positive: anticlockwise). */
function planarSigned(ring: number[][]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++) s += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return s / 2;
}

function readShapefile(shp: Buffer, dbf: Buffer | undefined, prj: Buffer | undefined, cpg: Buffer | undefined): ReadFeature[] {
  if (shp.length < 100 || shp.readUInt32BE(0) !== 9994) throw new LandFileError('damaged');
  const project = projectionOf(prj);
  // Record headers first: how many features and positions, before any is built.
  const records: { offset: number; type: number }[] = [];
  let positions = 0;
  for (let p = 100; p + 12 <= shp.length; ) {
    const length = shp.readUInt32BE(p + 4) * 2;
    const type = shp.readInt32LE(p + 8);
    if (p + 8 + length > shp.length) throw new LandFileError('damaged');
    records.push({ offset: p + 8, type });
    if (records.length > LAND_IMPORT_LIMITS.features) throw tooMany(records.length);
    if ([3, 5, 13, 15, 23, 25].includes(type)) positions += shp.readInt32LE(p + 8 + 40);
    else if (type !== 0) positions += 1;
    if (positions > LAND_IMPORT_LIMITS.positions) throw tooManyPositions(positions);
    p += 8 + length;
  }
  const attributes = dbfRecords(dbf, cpg, records.length);
  return records.map(({ offset, type }, i) => ({ index: i + 1, geometry: shapeGeometry(shp, offset, type, project), properties: attributes[i] ?? {} }));
}

function shapeGeometry(shp: Buffer, at: number, type: number, project: Project): ReadGeometry | null {
  if (type === 0) return null;
  if (type === 1 || type === 11 || type === 21) return { type: 'Point', coordinates: project([shp.readDoubleLE(at + 4), shp.readDoubleLE(at + 12)]) };
  if (![3, 5, 13, 15, 23, 25].includes(type)) throw new LandFileError('shapeType', { type });
  const numParts = shp.readInt32LE(at + 36);
  const numPoints = shp.readInt32LE(at + 40);
  const partsAt = at + 44;
  const pointsAt = partsAt + numParts * 4;
  if (pointsAt + numPoints * 16 > shp.length) throw new LandFileError('damaged');
  const parts: number[][][] = [];
  for (let k = 0; k < numParts; k++) {
    const from = shp.readInt32LE(partsAt + k * 4);
    const to = k + 1 < numParts ? shp.readInt32LE(partsAt + (k + 1) * 4) : numPoints;
    const ring: number[][] = [];
    for (let j = from; j < to; j++) ring.push([shp.readDoubleLE(pointsAt + j * 16), shp.readDoubleLE(pointsAt + j * 16 + 8)]);
    parts.push(ring);
  }
  const toLonLat = (ring: number[][]) => ring.map((pt) => project(pt));
  if (type === 3 || type === 13 || type === 23) {
    return parts.length === 1 ? { type: 'LineString', coordinates: toLonLat(parts[0]) } : { type: 'MultiLineString', coordinates: parts.map(toLonLat) };
  }
  // Polygons: an outer ring is clockwise, a hole anticlockwise and follows its outer ring.
  const polygons: number[][][][] = [];
  for (const ring of parts) {
    if (planarSigned(ring) <= 0 || !polygons.length) polygons.push([ring]);
    else polygons[polygons.length - 1].push(ring);
  }
  // Stored as GeoJSON wants it (RFC 7946: outer anticlockwise, holes clockwise).
  const oriented = polygons.map((rings) => rings.map((r, k) => ((planarSigned(r) > 0) === (k === 0) ? r : [...r].reverse())).map(toLonLat));
  return oriented.length === 1 ? { type: 'Polygon', coordinates: oriented[0] } : { type: 'MultiPolygon', coordinates: oriented };
}
