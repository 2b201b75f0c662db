/**
 * The OpenLayers side of the map widget, free of React: one `FarmMap` owns the OpenLayers
 * map, a vector layer per map layer (boundary, plots, greenhouse groups, greenhouses,
 * facilities), an optional tile base map, and the tools (select, draw, edit, measure).
 * React (index.tsx) draws the panels around it and talks to the server; this class only
 * reports what the user did through callbacks. Shapes enter and leave as GeoJSON in WGS 84;
 * the view is Web Mercator (EPSG:3857), as every tile server serves.
 *
 * Without a tile URL there is no base layer at all: the farm's own shapes on a plain
 * background, a scale bar and a north arrow, so the map needs no network.
 */
import OlMap from 'ol/Map.js';
import View from 'ol/View.js';
import Feature from 'ol/Feature.js';
import Collection from 'ol/Collection.js';
import VectorLayer from 'ol/layer/Vector.js';
import VectorSource from 'ol/source/Vector.js';
import TileLayer from 'ol/layer/Tile.js';
import XYZ from 'ol/source/XYZ.js';
import GeoJSON from 'ol/format/GeoJSON.js';
import ScaleLine from 'ol/control/ScaleLine.js';
import Zoom from 'ol/control/Zoom.js';
import Control from 'ol/control/Control.js';
import Draw from 'ol/interaction/Draw.js';
import Modify from 'ol/interaction/Modify.js';
import Snap from 'ol/interaction/Snap.js';
import { defaults as defaultInteractions } from 'ol/interaction/defaults.js';
import { fromLonLat } from 'ol/proj.js';
import { isEmpty as isEmptyExtent } from 'ol/extent.js';
import type Geometry from 'ol/geom/Geometry.js';
import Point from 'ol/geom/Point.js';
import { lineLength, polygonArea } from '../../runtime/widgets/api.ts';
import { layerStyle, previewStyle, sketchStyle, type ColourBy } from './styles.ts';

export const MAP_LAYERS = ['boundary', 'plots', 'greenhouseGroups', 'greenhouses', 'facilities', 'devices'] as const;
export type MapLayerName = (typeof MAP_LAYERS)[number];
export type MapTool = 'select' | 'drawPolygon' | 'drawPoint' | 'edit' | 'measureLength' | 'measureArea';

export interface PickedFeature {
  layer: MapLayerName;
  id: number;
  properties: Record<string, unknown>;
}

export interface FarmMapOptions {
  tileUrl?: string;
  /** Layers drawn, bottom to top in MAP_LAYERS order. */
  layers: readonly MapLayerName[];
  colourBy: ColourBy;
  /** The layer whose shapes the edit tool changes (the screen's resource). */
  editableLayer?: MapLayerName;
  northLabel: string;
  onPick(picked: PickedFeature | null): void;
  /** A shape finished by a draw tool: GeoJSON text (WGS 84) and, for a polygon, its area in m². */
  onDrawn(geometry: string, areaM2: number | null): void;
  /** A shape moved by the edit tool; `revert` puts the previous shape back (a refused save). */
  onModified(picked: PickedFeature, geometry: string, areaM2: number | null, revert: () => void): void;
  /** A measure: metres for a line, square metres for an area. */
  onMeasured(kind: 'length' | 'area', value: number): void;
}

const WGS84 = { dataProjection: 'EPSG:4326', featureProjection: 'EPSG:3857' } as const;

/** The north arrow: a fixed control, since the view never rotates (rotation is turned off). */
class NorthArrow extends Control {
  constructor(label: string) {
    const el = document.createElement('div');
    el.className = 'farm-map-north ol-unselectable ol-control';
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', label);
    el.innerHTML = '<span aria-hidden="true">▲</span><b aria-hidden="true">N</b>';
    super({ element: el });
  }
}

export class FarmMap {
  readonly map: OlMap;
  private readonly format = new GeoJSON();
  private readonly sources = new Map<MapLayerName, VectorSource>();
  private readonly layers = new Map<MapLayerName, VectorLayer>();
  private readonly draft = new VectorSource();
  /** An import's preview (features with their planned action), drawn over every layer. */
  private readonly preview = new VectorSource();
  private colourBy: ColourBy;
  private selectedId: string | undefined;
  private tool: MapTool = 'select';
  private interactions: (Draw | Modify | Snap)[] = [];

  constructor(target: HTMLElement, private readonly opts: FarmMapOptions) {
    this.colourBy = opts.colourBy;
    const base = opts.tileUrl
      ? [new TileLayer({ source: new XYZ({ url: opts.tileUrl, maxZoom: 19 }), className: 'farm-map-tiles' })]
      : [];
    for (const name of MAP_LAYERS) {
      if (!opts.layers.includes(name)) continue;
      const source = new VectorSource();
      this.sources.set(name, source);
      this.layers.set(
        name,
        new VectorLayer({
          source,
          style: layerStyle(name, () => this.colourBy, () => this.selectedId),
          // Keeps panning smooth with thousands of polygons: the last frame is reused while moving.
          updateWhileAnimating: false,
          updateWhileInteracting: false,
          properties: { name },
        }),
      );
    }
    this.map = new OlMap({
      target,
      layers: [...base, ...this.layers.values(), new VectorLayer({ source: this.preview, style: previewStyle }), new VectorLayer({ source: this.draft, style: sketchStyle })],
      view: new View({ center: fromLonLat([126.3, 45.4]), zoom: 13, maxZoom: 21, enableRotation: false }),
      controls: [new Zoom(), new ScaleLine({ units: 'metric', bar: true, steps: 4, text: false, minWidth: 100 }), new NorthArrow(opts.northLabel)],
      interactions: defaultInteractions({ altShiftDragRotate: false, pinchRotate: false, doubleClickZoom: false }),
    });
    this.map.on('singleclick', (e) => {
      if (this.tool !== 'select' && this.tool !== 'edit') return;
      const picked = this.pickAt(e.pixel);
      this.select(picked);
      this.opts.onPick(picked);
    });
  }

  private pickAt(pixel: number[]): PickedFeature | null {
    let found: PickedFeature | null = null;
    // Top layer first: a facility point over a plot wins; the boundary is picked last.
    this.map.forEachFeatureAtPixel(
      pixel,
      (feature, layer) => {
        const name = layer?.get('name') as MapLayerName | undefined;
        if (!name) return false;
        const props = { ...feature.getProperties() };
        delete props.geometry;
        found = { layer: name, id: Number(props.id), properties: props };
        return true;
      },
      { hitTolerance: 4, layerFilter: (l) => !!l.get('name') },
    );
    return found;
  }

  /** Selects a shape by its record (a shape just saved): the edit tool then changes it without another click. */
  selectRecord(layer: MapLayerName, id: number) {
    const f = this.sources.get(layer)?.getFeatureById(`${layer}.${id}`);
    if (!f) return;
    const props = { ...f.getProperties() };
    delete props.geometry;
    this.select({ layer, id, properties: props });
  }

  /** `layer.id` of the selected shape, or undefined. */
  get selected(): string | undefined {
    return this.selectedId;
  }

  private select(picked: PickedFeature | null) {
    this.selectedId = picked ? `${picked.layer}.${picked.id}` : undefined;
    for (const l of this.layers.values()) l.changed();
    if (this.tool === 'edit') this.setTool('edit');
  }

  /** Replaces every shape (a FeatureCollection from GET /api/land/map). */
  setFeatures(collection: { features: { id?: string | number; properties: Record<string, unknown> }[] }) {
    const byLayer = new Map<MapLayerName, Feature<Geometry>[]>();
    for (const f of this.format.readFeatures(collection, WGS84) as Feature<Geometry>[]) {
      const layer = f.get('layer') as MapLayerName;
      if (!this.sources.has(layer)) continue;
      const list = byLayer.get(layer) ?? [];
      list.push(f);
      byLayer.set(layer, list);
    }
    for (const [name, source] of this.sources) {
      // The devices layer has its own read (setDevices).
      if (name === 'devices') continue;
      source.clear(true);
      // One batch per layer: a single change event, one render.
      source.addFeatures(byLayer.get(name) ?? []);
    }
  }

  /**
   * Shows an import's plan over the map (null clears it): each feature coloured by what it
   * would become (create, update, refused), the map fitted to them. A refused feature whose
   * coordinates cannot be drawn is left out (its sentence still lists it).
   */
  setPreview(items: { index: number; action: string; geometry?: unknown }[] | null) {
    this.preview.clear(true);
    if (!items) return;
    const features: Feature<Geometry>[] = [];
    for (const item of items) {
      if (!item.geometry) continue;
      try {
        const shape = this.format.readGeometry(item.geometry, WGS84);
        const f = new Feature({ geometry: shape ?? undefined, action: item.action, index: item.index });
        f.setId(`preview.${item.index}`);
        features.push(f);
      } catch {
        // Not drawable (a malformed ring): listed, not drawn.
      }
    }
    this.preview.addFeatures(features);
    const extent = this.preview.getExtent();
    if (features.length && extent && !isEmptyExtent(extent)) this.map.getView().fit(extent, { padding: [40, 40, 40, 40], maxZoom: 18, duration: 0 });
  }

  /** Adds or replaces one feature (a record just saved). */
  upsert(layer: MapLayerName, id: number, geometry: string, properties: Record<string, unknown>) {
    const source = this.sources.get(layer);
    if (!source) return;
    const fid = `${layer}.${id}`;
    // The record's `geometry` is GeoJSON text; OpenLayers keeps the shape under that very key.
    const { geometry: _text, ...rest } = properties;
    properties = rest;
    const shape = this.format.readGeometry(JSON.parse(geometry), WGS84) ?? undefined;
    const existing = source.getFeatureById(fid);
    if (existing) {
      // In place: an edit interaction may still hold this feature.
      existing.setProperties({ ...properties, id, layer });
      if (shape) existing.setGeometry(shape);
      return;
    }
    const feature = new Feature({ ...properties, id, layer, geometry: shape });
    feature.setId(fid);
    source.addFeature(feature);
  }

  /** Replaces the devices layer: points at [lon, lat] with their live properties (online, alarm, readings). */
  setDevices(devices: { id: number; lon: number; lat: number; properties: Record<string, unknown> }[]) {
    const source = this.sources.get('devices');
    if (!source) return;
    source.clear(true);
    source.addFeatures(
      devices.map((d) => {
        const f = new Feature({ ...d.properties, id: d.id, layer: 'devices', geometry: new Point(fromLonLat([d.lon, d.lat])) });
        f.setId(`devices.${d.id}`);
        return f;
      }),
    );
  }

  remove(layer: MapLayerName, id: number) {
    const source = this.sources.get(layer);
    const f = source?.getFeatureById(`${layer}.${id}`);
    if (source && f) source.removeFeature(f);
    if (this.selectedId === `${layer}.${id}`) this.select(null);
  }

  setVisible(layer: MapLayerName, visible: boolean) {
    this.layers.get(layer)?.setVisible(visible);
  }

  setColourBy(by: ColourBy) {
    this.colourBy = by;
    this.layers.get('plots')?.changed();
  }

  /** Fits the view to every shape; false when there is none. */
  fit(): boolean {
    const extent = this.sources.get('boundary')?.getFeatures().length ? this.sources.get('boundary')!.getExtent() : this.allExtent();
    if (!extent || isEmptyExtent(extent)) return false;
    this.map.getView().fit(extent, { padding: [40, 40, 40, 40], maxZoom: 18 });
    return true;
  }

  private allExtent() {
    let extent: number[] | undefined;
    for (const s of this.sources.values()) {
      if (!s.getFeatures().length) continue;
      const e = s.getExtent();
      if (!e) continue;
      extent = extent ? [Math.min(extent[0], e[0]), Math.min(extent[1], e[1]), Math.max(extent[2], e[2]), Math.max(extent[3], e[3])] : [...e];
    }
    return extent;
  }

  centreOn(lon: number, lat: number, zoom: number) {
    this.map.getView().setCenter(fromLonLat([lon, lat]));
    this.map.getView().setZoom(zoom);
  }

  /** Focuses one feature (a detail page's map). */
  focus(layer: MapLayerName, id: number): PickedFeature | null {
    const f = this.sources.get(layer)?.getFeatureById(`${layer}.${id}`);
    const geometry = f?.getGeometry();
    if (!f || !geometry) return null;
    this.map.getView().fit(geometry.getExtent(), { padding: [60, 60, 60, 60], maxZoom: 18 });
    const props = { ...f.getProperties() };
    delete props.geometry;
    const picked = { layer, id, properties: props };
    this.select(picked);
    return picked;
  }

  clearDraft() {
    this.draft.clear();
  }

  setTool(tool: MapTool) {
    this.tool = tool;
    for (const i of this.interactions) this.map.removeInteraction(i);
    this.interactions = [];
    if (tool === 'select') return;
    const snapTargets = [...this.sources.values(), this.draft];
    if (tool === 'edit') {
      const target = this.selectedId && this.opts.editableLayer ? this.sources.get(this.opts.editableLayer)?.getFeatureById(this.selectedId) : null;
      if (target) {
        const before = target.getGeometry()?.clone();
        const modify = new Modify({ features: new Collection<Feature>([target as Feature]), pixelTolerance: 10 });
        modify.on('modifyend', () => {
          const geometry = target.getGeometry();
          if (!geometry) return;
          const props = { ...target.getProperties() };
          delete props.geometry;
          const previous = before?.clone();
          this.opts.onModified({ layer: this.opts.editableLayer!, id: Number(props.id), properties: props }, this.geometryText(geometry), this.areaOf(geometry), () => {
            if (previous) target.setGeometry(previous);
          });
        });
        this.interactions.push(modify);
      }
    } else {
      const type = tool === 'drawPoint' ? 'Point' : tool === 'measureLength' ? 'LineString' : 'Polygon';
      const draw = new Draw({ source: this.draft, type, style: sketchStyle });
      draw.on('drawstart', () => this.draft.clear());
      draw.on('drawend', (e) => {
        const geometry = e.feature.getGeometry();
        if (!geometry) return;
        // Measured on the WGS 84 ellipsoid, as the server computes a stored area.
        const lonLat = this.format.writeGeometryObject(geometry, { ...WGS84, decimals: 7 }) as { coordinates: unknown };
        if (tool === 'measureLength') this.opts.onMeasured('length', lineLength(lonLat.coordinates as number[][]));
        else if (tool === 'measureArea') this.opts.onMeasured('area', polygonArea(lonLat.coordinates as number[][][]));
        else this.opts.onDrawn(this.geometryText(geometry), this.areaOf(geometry));
      });
      this.interactions.push(draw);
    }
    // Snap last, so it sees the pointer before the draw and edit interactions (OpenLayers' rule).
    for (const source of snapTargets) this.interactions.push(new Snap({ source, pixelTolerance: 8 }));
    for (const i of this.interactions) this.map.addInteraction(i);
  }

  private geometryText(geometry: Geometry): string {
    const obj = this.format.writeGeometryObject(geometry, { ...WGS84, decimals: 7 });
    return JSON.stringify(obj);
  }

  /** The area the server will store (the same function, on the positions as sent: 7 decimals). */
  private areaOf(geometry: Geometry): number | null {
    if (geometry.getType() !== 'Polygon') return null;
    const lonLat = this.format.writeGeometryObject(geometry, { ...WGS84, decimals: 7 }) as { coordinates: unknown };
    return polygonArea(lonLat.coordinates as number[][][]);
  }

  destroy() {
    this.map.setTarget(undefined);
    this.map.dispose();
  }
}
