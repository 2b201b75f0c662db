/**
 * A season's plan with `count` work items (deterministic, so runs compare): five growth
 * stages, six key nodes, and work items of 1–10 days spread over March to October in
 * every status.
 */
import { dayOf, isoOf } from '../../../widgets/planting-timeline/dates.ts';
import type { TimelineKeyNode, TimelineStage, TimelineTask } from '../../../widgets/planting-timeline/PlantingTimeline.tsx';
import { TASK_STATUSES } from '../../../widgets/planting-timeline/texts.ts';

export const SEASON = { start: '2026-03-01', end: '2026-10-31' };
export const TODAY = '2026-06-15';

const STAGES = ['Seedling', 'Transplanting', 'Vegetative', 'Flowering', 'Harvest'];
const WORK = ['Irrigation', 'Weeding', 'Fertilising', 'Spraying', 'Pruning', 'Scouting'];

export function generatePlan(count: number): { stages: TimelineStage[]; keyNodes: TimelineKeyNode[]; tasks: TimelineTask[] } {
  const first = dayOf(SEASON.start);
  const last = dayOf(SEASON.end);
  const stageDays = Math.floor((last - first + 1) / STAGES.length);
  const stages = STAGES.map((name, i) => ({
    id: `s${i}`,
    name,
    startOn: isoOf(first + i * stageDays),
    endOn: isoOf(i === STAGES.length - 1 ? last : first + (i + 1) * stageDays - 1),
  }));
  const keyNodes = ['Sowing', 'Transplant', 'First flower', 'Fruit set', 'First harvest', 'Clean-up'].map((name, i) => ({ id: `k${i}`, name, on: isoOf(first + 5 + i * 40) }));
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const tasks: TimelineTask[] = [];
  for (let i = 0; i < count; i++) {
    const start = first + Math.floor(random() * (last - first - 12));
    const length = 1 + Math.floor(random() * 10);
    tasks.push({ id: i + 1, name: `${WORK[i % WORK.length]} #${i + 1}`, startOn: isoOf(start), endOn: isoOf(start + length - 1), status: TASK_STATUSES[i % TASK_STATUSES.length] });
  }
  return { stages, keyNodes, tasks };
}
