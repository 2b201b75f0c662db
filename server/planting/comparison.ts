/**
 * A published plan item against what was recorded for its task: pure, so the rule that
 * calls a task late, early, missing or carrying extra materials is tested without a database.
 */
export type Timing = 'onTime' | 'late' | 'early' | 'missing' | 'pending';

export interface PlannedItem {
  startOn: string;
  endOn: string;
  materials?: { name: string }[];
}

export interface DoneRecord {
  doneOn: string;
  materials?: { name: string }[];
}

export interface Comparison {
  timing: Timing;
  /** Days after the item's end (late) or before its start (early); 0 otherwise. */
  daysOff: number;
  firstDoneOn: string | null;
  lastDoneOn: string | null;
  recordCount: number;
  /** Materials recorded that the plan item does not list. */
  extraMaterials: string[];
  /** Materials the plan item lists that no record used. */
  missingMaterials: string[];
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function compareItemWithRecords(item: PlannedItem, records: DoneRecord[], today: string): Comparison {
  const dates = records.map((r) => r.doneOn).sort();
  const firstDoneOn = dates[0] ?? null;
  const lastDoneOn = dates.at(-1) ?? null;
  const planned = new Set((item.materials ?? []).map((m) => m.name));
  const used = new Set(records.flatMap((r) => (r.materials ?? []).map((m) => m.name)));
  const extraMaterials = [...used].filter((n) => !planned.has(n)).sort();
  const missingMaterials = records.length ? [...planned].filter((n) => !used.has(n)).sort() : [];
  let timing: Timing;
  let daysOff = 0;
  if (!firstDoneOn) {
    // Nothing recorded: missing once the item's last day is over, else still to come.
    timing = today > item.endOn ? 'missing' : 'pending';
    if (timing === 'missing') daysOff = daysBetween(item.endOn, today);
  } else if (firstDoneOn < item.startOn) {
    timing = 'early';
    daysOff = daysBetween(firstDoneOn, item.startOn);
  } else if (firstDoneOn > item.endOn) {
    timing = 'late';
    daysOff = daysBetween(item.endOn, firstDoneOn);
  } else timing = 'onTime';
  return { timing, daysOff, firstDoneOn, lastDoneOn, recordCount: records.length, extraMaterials, missingMaterials };
}
