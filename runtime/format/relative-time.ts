import type { Language } from '../i18n/languages.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The steps of spec section 9's relative-time helper. */
export type RelativeUnit = 'justNow' | 'minutes' | 'hours' | 'days';

export interface RelativeTime {
  unit: RelativeUnit;
  /** Whole units elapsed (0 for justNow). */
  count: number;
}

/**
 * Spec section 9: 'just now' under 30 s, minutes under an hour, hours under a day, '1 day
 * ago' under 48 h, then whole days. A time in the future (a clock a little ahead of the
 * server's) counts as just now rather than as a negative age.
 */
export function relativeTime(time: Date | number | string, now: Date | number = Date.now()): RelativeTime {
  const elapsed = toMillis(now) - toMillis(time);
  if (!Number.isFinite(elapsed) || elapsed < 30 * SECOND) return { unit: 'justNow', count: 0 };
  if (elapsed < HOUR) return { unit: 'minutes', count: Math.max(1, Math.floor(elapsed / MINUTE)) };
  if (elapsed < DAY) return { unit: 'hours', count: Math.floor(elapsed / HOUR) };
  if (elapsed < 2 * DAY) return { unit: 'days', count: 1 };
  return { unit: 'days', count: Math.floor(elapsed / DAY) };
}

type Phrases = { justNow: string } & Record<Exclude<RelativeUnit, 'justNow'>, (n: number) => string>;

const PHRASES: Record<Language, Phrases> = {
  zh: {
    justNow: '刚刚',
    minutes: (n) => `${n}分钟前`,
    hours: (n) => `${n}小时前`,
    days: (n) => `${n}天前`,
  },
  en: {
    justNow: 'just now',
    minutes: (n) => `${n} ${n === 1 ? 'minute' : 'minutes'} ago`,
    hours: (n) => `${n} ${n === 1 ? 'hour' : 'hours'} ago`,
    days: (n) => `${n} ${n === 1 ? 'day' : 'days'} ago`,
  },
  es: {
    justNow: 'justo ahora',
    minutes: (n) => `hace ${n} ${n === 1 ? 'minuto' : 'minutos'}`,
    hours: (n) => `hace ${n} ${n === 1 ? 'hora' : 'horas'}`,
    days: (n) => `hace ${n} ${n === 1 ? 'día' : 'días'}`,
  },
};

/** The relative time as a phrase in `language`: 刚刚 / just now / justo ahora, 5分钟前 / 5 minutes ago / hace 5 minutos… */
export function timeAgo(time: Date | number | string, language: Language, now: Date | number = Date.now()): string {
  const { unit, count } = relativeTime(time, now);
  const phrases = PHRASES[language];
  return unit === 'justNow' ? phrases.justNow : phrases[unit](count);
}

function toMillis(value: Date | number | string): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  // Digits only: a Unix time in seconds or milliseconds, as the original accepted.
  if (/^\d+$/.test(value)) return toMillis(Number(value));
  return new Date(value).getTime();
}
