/**
 * Calendar dates as ISO `YYYY-MM-DD` strings, computed in UTC so that a plan's dates never
 * move with the server's time zone or a daylight-saving change.
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Today in UTC, or the date `days` away from it. */
export function today(days = 0, now = new Date()): string {
  return addDays(now.toISOString().slice(0, 10), days);
}
