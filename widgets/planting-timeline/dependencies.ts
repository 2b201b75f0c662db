/**
 * Finish-to-start dependencies on the timeline (docs/planting.md, "Dependencies"): which work
 * item follows which, and the arrow drawn from the predecessor's end to the successor's start.
 * Pure functions of day spans and pixels, so the drawing is tested without a browser.
 */
import type { ItemId } from './edits.ts';
import type { DaySpan } from './reschedule.ts';
import { spanToX, type Scale } from './scale.ts';

/** The part of a task a dependency needs: its id, and the id of the work item it follows with the lag in days. */
export interface Linked {
  id: ItemId;
  after?: ItemId;
  lagDays?: number;
}

export interface DependencyLink {
  from: ItemId;
  to: ItemId;
  /** Row indexes of the predecessor and the successor. */
  fromIndex: number;
  toIndex: number;
  lagDays: number;
  /** The successor starts no earlier than the predecessor's end + 1 + lag (false while a draft breaks it). */
  kept: boolean;
  /** SVG path of the line, and of the arrowhead at the successor's start. */
  path: string;
  head: string;
}

/** Horizontal room the line keeps from a bar's edge before it turns. */
export const ARROW_GAP = 6;
const HEAD = 5;

/** The first day the successor may start on: the day after the predecessor's last day, plus the lag. */
export function earliestStartDay(predecessor: DaySpan, lagDays = 0): number {
  return predecessor.end + 1 + lagDays;
}

/**
 * The line from (x1, y1), the predecessor's right edge at its row's middle, to (x2, y2), the
 * successor's left edge at its row's middle. With room between them it leaves the bar, turns
 * to the successor's row and runs into its start; without room (the successor starts at or
 * before the predecessor's end) it goes round along the border of the successor's row.
 */
export function arrowPath(x1: number, y1: number, x2: number, y2: number, rowHeight: number): string {
  const out = x1 + ARROW_GAP;
  if (x2 - ARROW_GAP >= out) return `M${x1} ${y1}H${out}V${y2}H${x2}`;
  const border = y2 - Math.sign(y2 - y1 || 1) * (rowHeight / 2);
  return `M${x1} ${y1}H${out}V${border}H${x2 - ARROW_GAP}V${y2}H${x2}`;
}

/** An arrowhead pointing right with its tip at (x, y). */
export function arrowHead(x: number, y: number): string {
  return `M${x - HEAD} ${y - HEAD + 1}L${x} ${y}L${x - HEAD} ${y + HEAD - 1}Z`;
}

/**
 * Every dependency between the tasks given, in row order of the successor: `spans` are the
 * dates shown (drafts included) and `minWidth` the narrowest bar drawn, so that the arrow
 * leaves the bar where the bar is drawn. A task naming a predecessor that is not among the
 * tasks (a stage, another plan's item) draws nothing.
 */
export function dependencyLinks(tasks: readonly Linked[], spans: readonly DaySpan[], scale: Scale, rowHeight: number, minWidth = 0): DependencyLink[] {
  const index = new Map(tasks.map((t, i) => [t.id, i]));
  const links: DependencyLink[] = [];
  tasks.forEach((t, toIndex) => {
    if (t.after === undefined || t.after === null) return;
    const fromIndex = index.get(t.after);
    if (fromIndex === undefined || fromIndex === toIndex) return;
    const from = spans[fromIndex];
    const to = spans[toIndex];
    const box = spanToX(scale, from.start, from.end);
    const x1 = box.x + Math.max(box.width, minWidth);
    const x2 = spanToX(scale, to.start, to.end).x;
    const y1 = fromIndex * rowHeight + rowHeight / 2;
    const y2 = toIndex * rowHeight + rowHeight / 2;
    const lagDays = t.lagDays ?? 0;
    links.push({
      from: t.after,
      to: t.id,
      fromIndex,
      toIndex,
      lagDays,
      kept: to.start >= earliestStartDay(from, lagDays),
      path: arrowPath(x1, y1, x2, y2, rowHeight),
      head: arrowHead(x2, y2),
    });
  });
  return links;
}
