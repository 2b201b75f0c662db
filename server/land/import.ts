/**
 * The land import's plan and its writes (docs/land-and-maps.md, "Import and export"). A file
 * read by import-formats.ts becomes a plan: for each feature, create, update (a record of
 * the farm and the layer with the same code, else the same name) or refused with one
 * sentence, by the same rules as a shape saved in a form (server/land/geometry.ts: a valid
 * shape, no overlap past the resource's tolerance with the farm's records or the file's
 * earlier features, a plot inside the farm's boundary) plus the file's own (a name, a layer,
 * a single part, one feature per name). The preview answers the plan; the confirm makes it
 * again under the farm's shape lock and writes it in one transaction, with one
 * operation-log row. Nothing is written by a preview.
 */
import type { Polygon } from 'geojson';
import type { Queryable } from '../db/database.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import {
  areaMu,
  BOUNDARY_TOLERANCE_PERCENT,
  checkGeometry,
  firstOverlap,
  outsidePercent,
  overlapSquareMetres,
  type GeometryKind,
  type LandGeometry,
  type Neighbour,
} from './geometry.ts';
import type { ReadFeature } from './import-formats.ts';
import { importMsg, LAYER_TITLES } from './import-messages.ts';
import './messages.ts';

export const IMPORT_LAYERS = ['boundary', 'greenhouseGroups', 'plots', 'greenhouses', 'facilities'] as const;
export type ImportLayer = (typeof IMPORT_LAYERS)[number];

interface LayerDef {
  resource: string;
  kinds: readonly GeometryKind[];
  /** Overlap tolerance among the layer's records (the resource document's), when it has one. */
  overlap?: number;
  /** Fields a new record needs beside name, code and shape, with the file's property that may set them. */
  defaults: Record<string, { value: unknown; allowed?: readonly unknown[] }>;
}

export const LAYER_DEFS: Record<ImportLayer, LayerDef> = {
  boundary: { resource: 'farmBoundaries', kinds: ['Polygon'], defaults: {} },
  plots: {
    resource: 'farmFields',
    kinds: ['Polygon'],
    overlap: 1,
    defaults: {
      landType: { value: 'dryland', allowed: ['paddy', 'dryland', 'greenhouse', 'orchard', 'nursery'] },
      status: { value: 1, allowed: [0, 1] },
      soilType: { value: undefined, allowed: ['blackSoil', 'meadowSoil', 'chernozem', 'sandyLoam', 'salineAlkali'] },
      irrigation: { value: undefined, allowed: ['flood', 'drip', 'sprinkler', 'rainfed'] },
    },
  },
  greenhouseGroups: { resource: 'greenhouseGroups', kinds: ['Polygon'], defaults: { kind: { value: 'solar', allowed: ['solar', 'multiSpan'] } } },
  greenhouses: {
    resource: 'greenhouses',
    kinds: ['Polygon'],
    defaults: { kind: { value: 'solar', allowed: ['solar', 'multiSpan'] }, status: { value: 0, allowed: [0, 1, 2] } },
  },
  facilities: {
    resource: 'farmFacilities',
    kinds: ['Point', 'LineString', 'Polygon'],
    defaults: {
      kind: { value: 'other', allowed: ['store', 'shed', 'well', 'pumpingStation', 'road', 'powerRoom', 'dryingYard', 'other'] },
      status: { value: 1, allowed: [0, 1] },
    },
  },
};

const NAME_KEYS = ['name', 'Name', 'NAME', '名称', '地块名称', 'DKMC', 'title', 'MC'];
const CODE_KEYS = ['code', 'Code', 'CODE', '编码', '编号', '地块编码', 'DKBM', 'BM'];
const LAYER_KEYS = ['layer', 'Layer', 'LAYER', '图层'];
const GROUP_KEYS = ['group', 'groupCode', 'groupName', '温室群'];
const LAYER_WORDS: Record<string, ImportLayer> = {
  boundary: 'boundary', 场界: 'boundary', 农场边界: 'boundary', 边界: 'boundary',
  plots: 'plots', plot: 'plots', 地块: 'plots', fields: 'plots',
  greenhousegroups: 'greenhouseGroups', greenhousegroup: 'greenhouseGroups', 温室群: 'greenhouseGroups',
  greenhouses: 'greenhouses', greenhouse: 'greenhouses', 温室: 'greenhouses',
  facilities: 'facilities', facility: 'facilities', 设施: 'facilities',
};

const pick = (props: Record<string, string>, keys: readonly string[]) => {
  for (const k of keys) if (props[k]?.trim()) return props[k].trim();
  return undefined;
};

export type PlanAction = 'create' | 'update' | 'refused';

export interface PlanItem {
  index: number;
  layer: ImportLayer | null;
  name: string | null;
  code: string | null;
  action: PlanAction;
  /** The record updated. */
  id?: number;
  reason?: string;
  areaMu?: number;
  /** The shape as stored (normalised), or as read when refused (for the map), when it has coordinates. */
  geometry?: unknown;
  /** The fields written (create or update). */
  data?: Record<string, unknown>;
  /** A greenhouse's group: an id, or the index of a group feature of the same file. */
  group?: { id: number } | { index: number };
}

export interface Plan {
  items: PlanItem[];
  counts: { create: number; update: number; refused: number; total: number };
  warnings: string[];
}

interface Stored {
  id: number;
  name: string;
  code: string | null;
  geometry: LandGeometry | null;
}

async function storedOf(db: Queryable, farmId: number): Promise<Map<ImportLayer, Stored[]>> {
  const resources = IMPORT_LAYERS.map((l) => LAYER_DEFS[l].resource);
  const { rows } = await db.query<{ id: number; resource: string; name: string | null; code: string | null; shape: string | null }>(
    `SELECT id, resource, data->>'name' AS name, data->>'code' AS code, data->>'geometry' AS shape
       FROM resource_records WHERE resource = ANY($1::text[]) AND farm_id = $2 ORDER BY id`,
    [resources, farmId],
  );
  const out = new Map<ImportLayer, Stored[]>(IMPORT_LAYERS.map((l) => [l, []]));
  for (const r of rows) {
    const layer = IMPORT_LAYERS.find((l) => LAYER_DEFS[l].resource === r.resource)!;
    let geometry: LandGeometry | null = null;
    try {
      geometry = r.shape ? (JSON.parse(r.shape) as LandGeometry) : null;
    } catch {
      geometry = null;
    }
    out.get(layer)!.push({ id: Number(r.id), name: r.name ?? String(r.id), code: r.code, geometry });
  }
  return out;
}

const samePlace = (a: Stored | PlanItem, name: string, code: string | null) =>
  code ? a.code === code : a.name === name;

/** The plan of `features` for the farm: what each would become. `layer` is the layer of features that name none. */
export async function planImport(db: Queryable, farmId: number, features: ReadFeature[], layer: ImportLayer, lang: Lang): Promise<Plan> {
  const stored = await storedOf(db, farmId);
  const items: PlanItem[] = [];
  const refuse = (item: PlanItem, key: keyof typeof importMsg | string, params: Record<string, string | number> = {}) => {
    item.action = 'refused';
    item.reason = t(lang, key, params);
    delete item.data;
    return item;
  };
  const layerTitle = (l: ImportLayer) => LAYER_TITLES[l][lang];

  // Boundaries first, then groups (houses find their group), plots, houses, facilities: the file's order within each.
  const order = (l: ImportLayer | null) => (l === null ? -1 : IMPORT_LAYERS.indexOf(l));
  const prepared = features.map((f) => {
    const named = pick(f.properties, LAYER_KEYS);
    const itemLayer = named === undefined ? layer : (LAYER_WORDS[named.replace(/[\s_-]/g, '').toLowerCase()] ?? LAYER_WORDS[named] ?? null);
    return { f, named, layer: itemLayer };
  });
  const sorted = [...prepared].sort((a, b) => order(a.layer) - order(b.layer) || a.f.index - b.f.index);

  let boundary: Polygon | null = null;
  const storedBoundary = stored.get('boundary')!.find((s) => s.geometry?.type === 'Polygon');
  if (storedBoundary) boundary = storedBoundary.geometry as Polygon;

  for (const { f, named, layer: l } of sorted) {
    const name = pick(f.properties, NAME_KEYS) ?? null;
    const code = pick(f.properties, CODE_KEYS) ?? null;
    const g = f.geometry;
    const item: PlanItem = { index: f.index, layer: l, name, code, action: 'create' };
    if (g && Array.isArray(g.coordinates) && JSON.stringify(g.coordinates).length < 200_000) item.geometry = { type: g.type, coordinates: g.coordinates };
    items.push(item);
    const label = name ?? `#${f.index}`;
    if (l === null) {
      refuse(item, importMsg['land.import.layer'], { name: label, value: named ?? '' });
      continue;
    }
    const def = LAYER_DEFS[l];
    if (!name) {
      refuse(item, importMsg['land.import.missingName'], { index: f.index });
      continue;
    }
    let geometry = g;
    if (geometry?.type === 'MultiPolygon' && Array.isArray(geometry.coordinates)) {
      if (geometry.coordinates.length !== 1) {
        refuse(item, importMsg['land.import.multipart'], { name, parts: geometry.coordinates.length });
        continue;
      }
      geometry = { type: 'Polygon', coordinates: geometry.coordinates[0] };
    }
    if (!geometry || !(def.kinds as readonly string[]).includes(geometry.type)) {
      refuse(item, importMsg['land.import.wrongType'], { name, type: geometry?.type ?? '—', layer: layerTitle(l), kinds: def.kinds.join(' / ') });
      continue;
    }
    const checked = checkGeometry(JSON.stringify(geometry), def.kinds);
    if (!checked.ok) {
      refuse(item, checked.refusal.key, { field: t(lang, importMsg['land.import.geometry'], { name }), ...checked.refusal.params });
      continue;
    }
    const shape = checked.geometry;
    item.geometry = shape;
    // One feature per name (or code) and layer in a file.
    const twin = items.find((o) => o !== item && o.layer === l && o.action !== 'refused' && (l === 'boundary' || samePlace(o, name, code)));
    if (twin) {
      refuse(item, importMsg['land.import.duplicate'], { name, layer: layerTitle(l), first: twin.index });
      continue;
    }
    // The record it updates: the farm's one boundary; else the same code, else the same name.
    const match = l === 'boundary' ? stored.get('boundary')![0] : stored.get(l)!.find((s) => samePlace(s, name, code));
    if (match) {
      item.action = 'update';
      item.id = match.id;
    }
    if (shape.type === 'Polygon') item.areaMu = areaMu(shape);
    if (l === 'boundary') {
      boundary = shape as Polygon;
    } else if (l === 'plots' && boundary && shape.type === 'Polygon') {
      const percent = outsidePercent(shape, boundary);
      if (percent > BOUNDARY_TOLERANCE_PERCENT) {
        refuse(item, importMsg['land.import.outsideBoundary'], { name, percent, tolerance: BOUNDARY_TOLERANCE_PERCENT });
        continue;
      }
    }
    if (def.overlap !== undefined && shape.type === 'Polygon') {
      // The farm's records (but the one updated, and those the file replaces) and the file's earlier features.
      const replaced = new Set(items.filter((o) => o.layer === l && o.action === 'update').map((o) => o.id));
      const neighbours: Neighbour[] = [
        ...stored.get(l)!.filter((s) => s.geometry && !replaced.has(s.id)).map((s) => ({ id: s.id, name: s.name, geometry: s.geometry! })),
        ...items.filter((o) => o !== item && o.layer === l && o.action !== 'refused').map((o) => ({ id: -o.index, name: o.name ?? '', geometry: o.geometry as LandGeometry })),
      ];
      const hit = firstOverlap(shape, neighbours, def.overlap);
      if (hit) {
        refuse(item, importMsg['land.import.overlap'], { name, other: hit.neighbour.name, percent: hit.percent, tolerance: def.overlap });
        continue;
      }
    }
    if (l === 'greenhouses') {
      const groupWord = pick(f.properties, GROUP_KEYS);
      const fileGroups = items.filter((o) => o.layer === 'greenhouseGroups' && o.action !== 'refused');
      const inside = (outline: LandGeometry | null | undefined) =>
        outline?.type === 'Polygon' && shape.type === 'Polygon' && overlapSquareMetres(shape, outline) >= 0.5 * (item.areaMu ?? 0) * (10_000 / 15);
      const fromFile = fileGroups.find((o) => (groupWord ? o.name === groupWord || o.code === groupWord : inside(o.geometry as LandGeometry)));
      const fromStore = stored.get('greenhouseGroups')!.find((s) => (groupWord ? s.name === groupWord || s.code === groupWord : inside(s.geometry)));
      if (fromFile) item.group = fromFile.id ? { id: fromFile.id } : { index: fromFile.index };
      else if (fromStore) item.group = { id: fromStore.id };
      else {
        refuse(item, importMsg['land.import.noGroup'], { name });
        continue;
      }
    }
    item.data = recordData(l, f.properties, name, code, shape, item.areaMu);
  }
  items.sort((a, b) => a.index - b.index);
  const count = (a: PlanAction) => items.filter((i) => i.action === a).length;
  const warnings: string[] = [];
  if (!boundary && items.some((i) => i.layer === 'plots' && i.action !== 'refused')) warnings.push(t(lang, importMsg['land.import.noBoundary']));
  return { items, counts: { create: count('create'), update: count('update'), refused: count('refused'), total: items.length }, warnings };
}

/** The fields a feature writes: name, code, shape and area, and the layer's own fields the file sets with a valid value. */
function recordData(layer: ImportLayer, props: Record<string, string>, name: string, code: string | null, shape: LandGeometry, mu: number | undefined) {
  const data: Record<string, unknown> = { name, geometry: JSON.stringify(shape) };
  if (layer !== 'boundary') data.code = code ?? name;
  if (mu !== undefined) data.areaMu = mu;
  for (const [field, { value, allowed }] of Object.entries(LAYER_DEFS[layer].defaults)) {
    const given = props[field];
    const typed = given === undefined ? undefined : typeof allowed?.[0] === 'number' ? Number(given) : given;
    if (typed !== undefined && allowed?.includes(typed)) data[field] = typed;
    else if (value !== undefined) data[field] = value;
  }
  if (props.remark) data.remark = props.remark.slice(0, 500);
  return data;
}

/**
 * Writes the plan's creates and updates (the caller holds the transaction and the farm's
 * shape lock): new records as the engine stores them, updates over the stored record with
 * its version raised. Returns the ids by feature index.
 */
export async function writePlan(tx: Queryable, farmId: number, blocId: number | null, userId: number, plan: Plan): Promise<{ created: number[]; updated: number[] }> {
  const created: number[] = [];
  const updated: number[] = [];
  const idOf = new Map<number, number>();
  const order = [...plan.items].sort((a, b) => IMPORT_LAYERS.indexOf(a.layer as ImportLayer) - IMPORT_LAYERS.indexOf(b.layer as ImportLayer) || a.index - b.index);
  for (const item of order) {
    if (item.action === 'refused' || !item.layer || !item.data) continue;
    const resource = LAYER_DEFS[item.layer].resource;
    const data = { ...item.data };
    if (item.group) data.groupId = 'id' in item.group ? item.group.id : idOf.get(item.group.index);
    if (item.action === 'update' && item.id) {
      await tx.query(
        `UPDATE resource_records SET data = data || $2::jsonb, version = version + 1, updated_by = $3, updated_at = now() WHERE id = $1`,
        [item.id, JSON.stringify(data), userId],
      );
      idOf.set(item.index, item.id);
      updated.push(item.id);
    } else {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
        [resource, farmId, blocId, JSON.stringify(data), userId],
      );
      const id = Number(rows[0].id);
      item.id = id;
      idOf.set(item.index, id);
      created.push(id);
    }
  }
  return { created, updated };
}
