/**
 * Durations and sizes in words (issue 9, item 7): «3 小时 12 分», "3 hours 12 minutes",
 * "3 horas 12 minutos" rather than 「11,520 s」; «1.5 MB» rather than 「1572864」. Used by
 * the `duration` and `bytes` renders of columns, detail fields and stat blocks
 * (docs/schema-language.md, "Column"), with the unit the value arrives in.
 */
import type { Lang as FormatLang } from '../protocol/texts.ts';

export type { FormatLang };

export const DURATION_UNITS = ['ms', 's', 'min', 'h', 'd'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
export const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

const MS: Record<DurationUnit, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** Unit names, singular and plural; Chinese has one form. */
const WORDS: Record<FormatLang, Record<DurationUnit, [string, string]>> = {
  zh: { d: ['天', '天'], h: ['小时', '小时'], min: ['分', '分'], s: ['秒', '秒'], ms: ['毫秒', '毫秒'] },
  en: { d: ['day', 'days'], h: ['hour', 'hours'], min: ['minute', 'minutes'], s: ['second', 'seconds'], ms: ['ms', 'ms'] },
  es: { d: ['día', 'días'], h: ['hora', 'horas'], min: ['minuto', 'minutos'], s: ['segundo', 'segundos'], ms: ['ms', 'ms'] },
};

const LOCALES: Record<FormatLang, string> = { zh: 'zh-CN', en: 'en-US', es: 'es-ES' };

function part(n: number, unit: DurationUnit, lang: FormatLang): string {
  const [one, many] = WORDS[lang][unit];
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * `value` (in `unit`, seconds by default) as its two largest non-zero parts: 11520 s →
 * «3 小时 12 分» / "3 hours 12 minutes"; under a second, in milliseconds ("350 ms"); a
 * negative duration keeps its sign. Not a finite number: the value as text.
 */
export function formatDuration(value: number, lang: FormatLang, unit: DurationUnit = 's', maxParts = 2): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  const ms = Math.abs(value) * MS[unit];
  if (ms === 0) return part(0, unit === 'ms' ? 'ms' : 's', lang);
  if (ms < 1000) return sign + part(Math.round(ms), 'ms', lang);
  const order = ['d', 'h', 'min', 's'] as const;
  // Whole seconds, so 59.6 s reads "1 minute"; the parts after the shown ones are dropped.
  let rest = Math.round(ms / 1000);
  const counts = order.map((u) => {
    const size = MS[u] / 1000;
    const n = Math.floor(rest / size);
    rest -= n * size;
    return n;
  });
  const parts: string[] = [];
  // A zero in the middle ends the phrase: "2 days", not "2 days 0 hours".
  for (let i = counts.findIndex((n) => n > 0); i < order.length && parts.length < maxParts && counts[i] > 0; i++) parts.push(part(counts[i], order[i], lang));
  return sign + parts.join(' ');
}

/** `value` (in `unit`, bytes by default) with the largest binary unit that keeps it ≥ 1: 1572864 B → "1.5 MB". */
export function formatSize(value: number, lang: FormatLang, unit: SizeUnit = 'B'): string {
  if (!Number.isFinite(value)) return String(value);
  let n = value * 1024 ** SIZE_UNITS.indexOf(unit);
  let i = 0;
  while (Math.abs(n) >= 1024 && i < SIZE_UNITS.length - 1) {
    n /= 1024;
    i++;
  }
  const digits = i === 0 ? 0 : Math.abs(n) < 10 ? 1 : 0;
  const text = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: digits }).format(n);
  return `${text} ${i === 0 && lang === 'zh' ? '字节' : SIZE_UNITS[i]}`;
}
