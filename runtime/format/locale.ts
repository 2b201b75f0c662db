/**
 * One format for the console (issue 29, item 5): dates, times, numbers, quantities and money
 * in the user's language. Tables, detail fields, stat blocks, exports and widgets all reach
 * these functions (widgets through runtime/widgets/api.ts), so that a date reads the same on
 * every screen and never as the browser's own «11/28/2026, 12:00:03 PM».
 *
 * - dates: zh 2026-11-28, en Nov 28, 2026, es 28/11/2026; times always 24-hour (12:00:03);
 * - numbers: the language's grouping (1,234.5 / 1.234,5), trailing zeros dropped, at most
 *   `precision` decimals (3 by default, the precision quantities are stored to);
 * - quantities: a number, with the unit after it when given (3.5 kg, 3.5 千克);
 * - money: always two decimals (more when the amount carries them, up to `precision`), grouped.
 *
 * The pickers' calendars follow the same language: `useFormatLanguage` sets dayjs's global
 * locale, and the locales antd's pickers look up (zh-cn, es) are registered here.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/es';
import type { Lang } from '../protocol/texts.ts';
import { formatDuration, formatSize } from './duration.ts';
import { timeAgo } from './relative-time.ts';

export type FormatLang = Lang;

export { formatDuration, formatSize, timeAgo };

/** The Intl locale of each console language. */
export const INTL_LOCALES: Record<Lang, string> = { zh: 'zh-CN', en: 'en-US', es: 'es-ES' };
/** dayjs's locale of each console language (the one antd's pickers read weekday and month names from). */
export const DAYJS_LOCALES: Record<Lang, string> = { zh: 'zh-cn', en: 'en', es: 'es' };

/** dayjs patterns of each language; `en` names the month, so it formats with the `en` locale. */
const PATTERNS: Record<Lang, { date: string; datetime: string; time: string; minute: string; month: string }> = {
  zh: { date: 'YYYY-MM-DD', datetime: 'YYYY-MM-DD HH:mm:ss', time: 'HH:mm:ss', minute: 'YYYY-MM-DD HH:mm', month: 'YYYY年M月' },
  en: { date: 'MMM D, YYYY', datetime: 'MMM D, YYYY HH:mm:ss', time: 'HH:mm:ss', minute: 'MMM D, YYYY HH:mm', month: 'MMM YYYY' },
  es: { date: 'DD/MM/YYYY', datetime: 'DD/MM/YYYY HH:mm:ss', time: 'HH:mm:ss', minute: 'DD/MM/YYYY HH:mm', month: 'MM/YYYY' },
};

type DateInput = string | number | Date | dayjs.Dayjs | null | undefined;

function toDayjs(value: DateInput): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs.isDayjs(value) ? value : dayjs(value);
  return d.isValid() ? d : null;
}

function pattern(value: DateInput, lang: Lang, kind: keyof (typeof PATTERNS)['zh']): string {
  const d = toDayjs(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  // The month's name in the language's own words, whatever dayjs's global locale is.
  return d.locale(DAYJS_LOCALES[lang] ?? 'en').format(PATTERNS[lang]?.[kind] ?? PATTERNS.zh[kind]);
}

/** A day: «2026-11-28», "Nov 28, 2026", «28/11/2026». A text that is no date comes back as it is. */
export function formatDate(value: DateInput, lang: Lang): string {
  // A bare day (2026-11-28) is that day wherever the browser is: no time zone shift.
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return pattern(dayjs(value, 'YYYY-MM-DD'), lang, 'date');
  return pattern(value, lang, 'date');
}

/** A moment to the second, 24-hour: «2026-11-28 12:00:03», "Nov 28, 2026 12:00:03", «28/11/2026 12:00:03». */
export function formatDateTime(value: DateInput, lang: Lang): string {
  return pattern(value, lang, 'datetime');
}

/** A moment to the minute: «2026-11-28 12:00». */
export function formatDateTimeMinutes(value: DateInput, lang: Lang): string {
  return pattern(value, lang, 'minute');
}

/** A time of day, 24-hour: «12:00:03». */
export function formatTime(value: DateInput, lang: Lang): string {
  return pattern(value, lang, 'time');
}

/** A month: «2026年11月», "Nov 2026", «11/2026». */
export function formatMonth(value: DateInput, lang: Lang): string {
  return pattern(value, lang, 'month');
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(lang: Lang, min: number, max: number): Intl.NumberFormat {
  const key = `${lang}:${min}:${max}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(INTL_LOCALES[lang] ?? 'zh-CN', { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping: true })));
  return f;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/** The default number of decimals of a number or quantity: what quantities are stored to. */
export const DEFAULT_PRECISION = 3;

/**
 * A number grouped the language's way with at most `precision` decimals and no trailing
 * zeros: "3.000" → «3», 1234.5 → «1,234.5» (es «1.234,5»: grouping always, four digits too).
 * A value that is no number comes back as text.
 */
export function formatDecimal(value: unknown, lang: Lang, precision: number = DEFAULT_PRECISION): string {
  const n = toNumber(value);
  if (!Number.isFinite(n)) return value === null || value === undefined ? '' : String(value);
  const max = Math.max(0, Math.min(20, Math.floor(precision)));
  // -0 (a negative amount rounded away) reads 0.
  const text = numberFormat(lang, 0, max).format(n);
  return /^-0([.,]0*)?$/.test(text) ? text.slice(1) : text;
}

/** A quantity: the number as `formatDecimal`, then the unit when given: «3.5 千克», "3.5 kg". */
export function formatQuantity(value: unknown, lang: Lang, unit?: string | null, precision: number = DEFAULT_PRECISION): string {
  const text = formatDecimal(value, lang, precision);
  return unit && text ? `${text} ${unit}` : text;
}

/**
 * Money: two decimals always, grouped: 1234.5 → «1,234.50», "12.0000" → «12.00»; a unit
 * price stored to four decimals keeps the ones it has, up to `precision` («0.1234»).
 */
export function formatMoney(value: unknown, lang: Lang, precision = 2): string {
  const n = toNumber(value);
  if (!Number.isFinite(n)) return value === null || value === undefined ? '' : String(value);
  const text = numberFormat(lang, 2, Math.max(2, Math.min(20, Math.floor(precision)))).format(n);
  return /^-0[.,]0+$/.test(text) ? text.slice(1) : text;
}

/**
 * dayjs's global locale for `lang`: antd's pickers read weekday and month names from the
 * locale named by antd's ConfigProvider (registered above), and a `dayjs().format()` of the
 * console's own code reads the same language. Idempotent; the antd frame calls it on every
 * language change before its children render.
 */
export function setDayjsLocale(lang: Lang): void {
  const name = DAYJS_LOCALES[lang] ?? 'en';
  if (dayjs.locale() !== name) dayjs.locale(name);
}
