/**
 * The map's styles: a few shared Style objects chosen per feature from a small key (layer,
 * colour class, selected), never one per feature, so 2,000 plots cost 2,000 lookups in a
 * Map and no allocation per frame. Labels only appear when zoomed in far enough to read
 * them (a label per plot at farm scale is clutter, and text is the costly part to draw).
 */
import type { FeatureLike } from 'ol/Feature.js';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style.js';

export type ColourBy = 'crop' | 'stage';

/** Colours for crops (by id, stable across sessions) and for plot states. */
const CROP_PALETTE = ['#7cb342', '#fbc02d', '#8d6e63', '#26a69a', '#ef6c00', '#5c6bc0', '#ec407a', '#9ccc65', '#ffa726', '#29b6f6'];
const IDLE = '#bdbdbd';
const STAGE = { planted: '#66bb6a', idle: '#e0e0e0', repair: '#ffb74d' };

export function plotColour(props: Record<string, unknown>, by: ColourBy): string {
  if (by === 'stage') return props.status === 1 ? STAGE.planted : props.status === 2 ? STAGE.repair : STAGE.idle;
  const crop = Number(props.cropId);
  return Number.isFinite(crop) && crop > 0 ? CROP_PALETTE[crop % CROP_PALETTE.length] : IDLE;
}

const cache = new Map<string, Style>();
function cached(key: string, make: () => Style): Style {
  let s = cache.get(key);
  if (!s) {
    s = make();
    cache.set(key, s);
  }
  return s;
}

function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

const LABEL_RESOLUTION = 2.5; // metres per pixel: names show from about zoom 16

/** The style function of one layer. `selectedId` names the highlighted feature (the one being edited or shown). */
export function layerStyle(layer: string, colourBy: () => ColourBy, selectedId: () => string | undefined) {
  const labels = new Map<string, Style>();
  return (feature: FeatureLike, resolution: number): Style | Style[] => {
    const props = feature.getProperties();
    const selected = feature.getId() === selectedId();
    const type = feature.getGeometry()?.getType();
    let base: Style;
    if (layer === 'boundary') {
      base = cached('boundary', () => new Style({ stroke: new Stroke({ color: '#c62828', width: 2.5, lineDash: [10, 6] }) }));
    } else if (layer === 'plots') {
      const colour = plotColour(props, colourBy());
      base = cached(`plot:${colour}:${selected}`, () =>
        new Style({ fill: new Fill({ color: withAlpha(colour, selected ? 0.75 : 0.55) }), stroke: new Stroke({ color: selected ? '#0d47a1' : '#33691e', width: selected ? 3 : 1 }) }),
      );
    } else if (layer === 'greenhouseGroups') {
      base = cached('ghGroup', () => new Style({ stroke: new Stroke({ color: '#0277bd', width: 1.5, lineDash: [4, 4] }) }));
    } else if (layer === 'greenhouses') {
      const colour = props.kind === 'multiSpan' ? '#4fc3f7' : '#b3e5fc';
      base = cached(`gh:${colour}:${selected}`, () => new Style({ fill: new Fill({ color: colour }), stroke: new Stroke({ color: selected ? '#0d47a1' : '#0277bd', width: selected ? 3 : 1 }) }));
    } else if (layer === 'devices') {
      // A device: red with an open alarm, green online, grey offline; a white ring, larger when selected.
      const colour = Array.isArray(props.alarms) && props.alarms.length ? '#d32f2f' : props.online ? '#2e7d32' : '#757575';
      base = cached(`dev:${colour}:${selected}`, () =>
        new Style({ image: new Circle({ radius: selected ? 9 : 7, fill: new Fill({ color: colour }), stroke: new Stroke({ color: selected ? '#0d47a1' : '#fff', width: selected ? 3 : 2 }) }), zIndex: 10 }),
      );
    } else if (type === 'Point') {
      const colour = props.status === 0 ? '#9e9e9e' : '#6a1b9a';
      base = cached(`pt:${colour}:${selected}`, () => new Style({ image: new Circle({ radius: selected ? 8 : 6, fill: new Fill({ color: colour }), stroke: new Stroke({ color: '#fff', width: 2 }) }) }));
    } else if (type === 'LineString') {
      base = cached(`line:${selected}`, () => new Style({ stroke: new Stroke({ color: selected ? '#0d47a1' : '#795548', width: 4 }) }));
    } else {
      base = cached(`fac:${selected}`, () => new Style({ fill: new Fill({ color: 'rgba(121, 85, 72, 0.35)' }), stroke: new Stroke({ color: selected ? '#0d47a1' : '#5d4037', width: selected ? 3 : 1 }) }));
    }
    const name = typeof props.name === 'string' ? props.name : '';
    if (!name || resolution > LABEL_RESOLUTION || layer === 'boundary' || layer === 'greenhouseGroups') return base;
    let label = labels.get(name);
    if (!label) {
      label = new Style({
        text: new Text({ text: name, font: '12px sans-serif', fill: new Fill({ color: '#212121' }), stroke: new Stroke({ color: '#fff', width: 3 }), overflow: false, offsetY: type === 'Point' ? -14 : 0 }),
      });
      labels.set(name, label);
    }
    return [base, label];
  };
}

/** Sketches: what is being drawn or measured. */
export const sketchStyle = new Style({
  fill: new Fill({ color: 'rgba(255, 255, 255, 0.35)' }),
  stroke: new Stroke({ color: '#d84315', width: 2, lineDash: [6, 4] }),
  image: new Circle({ radius: 5, fill: new Fill({ color: '#d84315' }) }),
});

/** An import's preview: green to create, blue to update, red (dashed) refused. */
const PREVIEW_COLOURS: Record<string, string> = { create: '#2e7d32', update: '#1565c0', refused: '#c62828' };
export function previewStyle(feature: FeatureLike): Style {
  const action = String(feature.get('action'));
  const colour = PREVIEW_COLOURS[action] ?? '#616161';
  return cached(`preview.${action}`, () =>
    new Style({
      fill: new Fill({ color: withAlpha(colour, 0.18) }),
      stroke: new Stroke({ color: colour, width: 2.5, lineDash: action === 'refused' ? [6, 4] : undefined }),
      image: new Circle({ radius: 6, fill: new Fill({ color: colour }), stroke: new Stroke({ color: '#fff', width: 1.5 }) }),
    }),
  );
}
