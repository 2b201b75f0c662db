/**
 * Calendar days as integers (days since 1970-01-01, UTC), so that every date computation of
 * the timeline is exact integer arithmetic: no time zone or daylight-saving shift can move a
 * bar by a day. Plan dates travel as ISO strings ("2026-03-01"), end dates inclusive.
 */
const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type IsoDate = string;

/** The day number of an ISO date; throws on anything else (a plan item always has both dates). */
export function dayOf(iso: IsoDate): number {
  const m = ISO_DATE.exec(iso.slice(0, 10));
  if (!m) throw new Error(`not an ISO date: "${iso}"`);
  return Math.round(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY);
}

export function isoOf(day: number): IsoDate {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Today in the viewer's own calendar (a farm's "today" is the local date, not UTC's). */
export function todayDay(now: Date = new Date()): number {
  return Math.round(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / MS_PER_DAY);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function monthStartOf(day: number): number {
  const d = new Date(day * MS_PER_DAY);
  return Math.round(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / MS_PER_DAY);
}

export function nextMonthStart(day: number): number {
  const d = new Date(day * MS_PER_DAY);
  return Math.round(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / MS_PER_DAY);
}

export function dateParts(day: number): { year: number; month: number; date: number } {
  const d = new Date(day * MS_PER_DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, date: d.getUTCDate() };
}
