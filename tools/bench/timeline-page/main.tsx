/**
 * The timeline alone on a page, for the browser test and the benchmark (tools/bench/timeline.ts).
 * Query: items (500), lang (en), zoom (week), refuse (ids whose save is refused, comma
 * separated). The owner here keeps the items in memory and refuses the listed ids with a
 * sentence, as the server refuses a date outside the season; the console's own owner is
 * widgets/planting-timeline/index.tsx. Figures go to window.__timeline.
 */
import { useCallback, useLayoutEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { ItemId } from '../../../widgets/planting-timeline/edits.ts';
import { PlantingTimeline, type TimelineTask } from '../../../widgets/planting-timeline/PlantingTimeline.tsx';
import type { Zoom } from '../../../widgets/planting-timeline/scale.ts';
import type { TimelineLanguage } from '../../../widgets/planting-timeline/texts.ts';
import { generatePlan, SEASON, TODAY } from './generate.ts';

interface Figures {
  ready: boolean;
  firstRenderMs?: number;
  saves: { id: ItemId; startOn: string; endOn: string }[];
  refused: ItemId[];
  /** pointermove → the next frame, ms, for every move of every drag. */
  moveFrames: number[];
}
declare global {
  interface Window {
    __timeline: Figures;
  }
}

const query = new URLSearchParams(location.search);
const count = Number(query.get('items') ?? 500);
const language = (query.get('lang') ?? 'en') as TimelineLanguage;
const zoom = (query.get('zoom') ?? 'week') as Zoom;
const refuse = new Set((query.get('refuse') ?? '').split(',').filter(Boolean).map(Number));
const REFUSAL = { zh: '日期必须在种植季之内', en: 'The dates must fall inside the season', es: 'Las fechas deben caer dentro de la campaña' }[language];

const figures: Figures = (window.__timeline = { ready: false, saves: [], refused: [], moveFrames: [] });
const plan = generatePlan(count);

document.addEventListener(
  'pointermove',
  (e) => {
    if (e.buttons !== 1) return;
    const t = e.timeStamp;
    requestAnimationFrame(() => figures.moveFrames.push(performance.now() - t));
  },
  { capture: true },
);

function Harness() {
  const [tasks, setTasks] = useState<TimelineTask[]>(plan.tasks);
  const onReschedule = useCallback(async (id: ItemId, startOn: string, endOn: string) => {
    await new Promise((r) => setTimeout(r, 20)); // a server's round trip, at least
    if (refuse.has(Number(id))) {
      figures.refused.push(id);
      throw new Error(REFUSAL);
    }
    setTasks((ts) => ts.map((t) => (t.id === id ? { ...t, startOn, endOn } : t)));
    figures.saves.push({ id, startOn, endOn });
  }, []);
  useLayoutEffect(() => {
    // After the commit, the next frame is the first one painted with the rows.
    requestAnimationFrame(() =>
      setTimeout(() => {
        figures.firstRenderMs = performance.now() - started;
        figures.ready = true;
      }, 0),
    );
  }, []);
  return <PlantingTimeline stages={plan.stages} keyNodes={plan.keyNodes} tasks={tasks} season={SEASON} today={TODAY} language={language} initialZoom={zoom} onReschedule={onReschedule} height={640} />;
}

const started = performance.now();
createRoot(document.getElementById('root')!).render(<Harness />);
