/**
 * The map widget's OpenLayers side (widgets/map/farm-map.ts) with a generated farm of N
 * plots (`?plots=2000`), no tiles, as the console draws it; the benchmark and anyone
 * curious open it. Exposes window.__map: the first render (script start → the first
 * complete render with every plot) and a pan and a zoom animation whose frame intervals
 * it records.
 */
import 'ol/ol.css';
import '../../../widgets/map/map.css';
import { FarmMap } from '../../../widgets/map/farm-map.ts';
import { generateFarm } from './generate.ts';

declare global {
  interface Window {
    __map: { ready: boolean; plots: number; firstRenderMs?: number; animate(kind: 'pan' | 'zoom'): Promise<{ frames: number[]; settleMs: number }> };
  }
}

const started = performance.now();
const count = Number(new URLSearchParams(window.location.search).get('plots') ?? 2000);
const target = document.getElementById('map')!;
const fm = new FarmMap(target, {
  layers: ['boundary', 'plots', 'greenhouseGroups', 'greenhouses', 'facilities'],
  colourBy: 'crop',
  northLabel: 'N',
  onPick: () => {},
  onDrawn: () => {},
  onModified: () => {},
  onMeasured: () => {},
});
window.__map = { ready: false, plots: count, animate };
fm.setFeatures(generateFarm(count));
fm.fit();
fm.map.once('rendercomplete', () => {
  window.__map.firstRenderMs = performance.now() - started;
  window.__map.ready = true;
});

/** Runs a 1 s pan (a third of the view) or zoom-in animation; frame intervals, then the time to the next complete render. */
function animate(kind: 'pan' | 'zoom'): Promise<{ frames: number[]; settleMs: number }> {
  const view = fm.map.getView();
  const frames: number[] = [];
  let last = performance.now();
  let running = true;
  const tick = (now: number) => {
    frames.push(now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame((now) => {
    last = now;
    requestAnimationFrame(tick);
  });
  return new Promise((resolve) => {
    const centre = view.getCenter()!;
    const width = view.getResolution()! * 1400;
    const done = () => {
      running = false;
      const ended = performance.now();
      fm.map.once('rendercomplete', () => resolve({ frames, settleMs: performance.now() - ended }));
      fm.map.render();
    };
    if (kind === 'pan') view.animate({ center: [centre[0] + width / 3, centre[1]], duration: 1000 }, done);
    else view.animate({ zoom: view.getZoom()! + 1, duration: 1000 }, done);
  });
}
