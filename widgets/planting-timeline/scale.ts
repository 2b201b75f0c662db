/**
 * Day ↔ pixel for each zoom, and the ticks of the time axis. x = 0 is the first day of the
 * season; a day occupies [x, x + pxPerDay). Positions from the pointer are rounded to the
 * nearest day boundary, which is how drags snap to days.
 */
import { dayOf, monthStartOf, nextMonthStart, weekdayOf, type IsoDate } from './dates.ts';

export const ZOOMS = ['day', 'week', 'month'] as const;
export type Zoom = (typeof ZOOMS)[number];

/** Day zoom shows a readable date per column; week and month trade detail for a whole season in view. */
export const PX_PER_DAY: Record<Zoom, number> = { day: 32, week: 10, month: 3 };

export interface Season {
  start: IsoDate;
  end: IsoDate;
}

export interface Scale {
  zoom: Zoom;
  pxPerDay: number;
  /** Day number of the season's first day (x = 0). */
  firstDay: number;
  /** Day number of the season's last day (inclusive). */
  lastDay: number;
  /** Width of the whole season in pixels. */
  width: number;
}

export function makeScale(season: Season, zoom: Zoom): Scale {
  const firstDay = dayOf(season.start);
  const lastDay = dayOf(season.end);
  if (lastDay < firstDay) throw new Error(`the season ends (${season.end}) before it starts (${season.start})`);
  const pxPerDay = PX_PER_DAY[zoom];
  return { zoom, pxPerDay, firstDay, lastDay, width: (lastDay - firstDay + 1) * pxPerDay };
}

/** Left edge of a day. */
export function dayToX(scale: Scale, day: number): number {
  return (day - scale.firstDay) * scale.pxPerDay;
}

/** The day boundary nearest to x (drags snap to it). */
export function xToDayBoundary(scale: Scale, x: number): number {
  return scale.firstDay + Math.round(x / scale.pxPerDay);
}

/** The day under x (a click or hover). */
export function xToDay(scale: Scale, x: number): number {
  return scale.firstDay + Math.floor(x / scale.pxPerDay);
}

/** Pixels moved → whole days moved, rounded to the nearest day. */
export function pxToDays(scale: Scale, dx: number): number {
  const days = Math.round(dx / scale.pxPerDay);
  return days === 0 ? 0 : days; // no -0 in state
}

/** Horizontal extent of an inclusive day span. */
export function spanToX(scale: Scale, startDay: number, endDay: number): { x: number; width: number } {
  return { x: dayToX(scale, startDay), width: (endDay - startDay + 1) * scale.pxPerDay };
}

export interface Tick {
  day: number;
  x: number;
  /** A major tick starts a month (labelled with the month); minor ones carry the day or week. */
  major: boolean;
}

/**
 * Ticks of the axis: months are always major; minor ticks are every day (day zoom), every
 * Monday (week zoom) or none (month zoom).
 */
export function ticksOf(scale: Scale): Tick[] {
  const ticks: Tick[] = [];
  for (let m = monthStartOf(scale.firstDay); m <= scale.lastDay; m = nextMonthStart(m)) {
    if (m >= scale.firstDay) ticks.push({ day: m, x: dayToX(scale, m), major: true });
  }
  if (scale.zoom !== 'month') {
    const majors = new Set(ticks.map((t) => t.day));
    for (let d = scale.firstDay; d <= scale.lastDay; d++) {
      if (majors.has(d)) continue;
      if (scale.zoom === 'day' || weekdayOf(d) === 1) ticks.push({ day: d, x: dayToX(scale, d), major: false });
    }
    ticks.sort((a, b) => a.day - b.day);
  }
  return ticks;
}
