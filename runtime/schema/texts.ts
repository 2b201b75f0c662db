/**
 * Every user-visible text in a schema document is an I18nText: one string per console
 * language, all three required. A text produced by migrating an older, single-language
 * document keeps a list of the languages that still hold a copy of the source string,
 * so that the copy is visible (schemas:check warns) instead of passing for a translation.
 */

import { LANGS, type I18nText, type Lang } from '../protocol/texts.ts';

export { isLang, LANGS, type I18nText, type Lang } from '../protocol/texts.ts';

/** True for an object holding a string for each of zh, en and es. */
export function isI18nText(value: unknown): value is I18nText {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return LANGS.every((l) => typeof v[l] === 'string');
}

/** Languages that are absent or blank in `value` (all three when it is not an object). */
export function missingLanguages(value: unknown): Lang[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [...LANGS];
  const v = value as Record<string, unknown>;
  return LANGS.filter((l) => typeof v[l] !== 'string' || (v[l] as string).trim() === '');
}

export function i18n(zh: string, en: string, es: string): I18nText {
  return { zh, en, es };
}

/**
 * The string of `value` in `lang`. A missing language falls back to zh, then en, then es,
 * so that a half-written text still shows something rather than an empty label.
 */
export function textOf(value: I18nText | undefined | null, lang: Lang): string {
  if (!value) return '';
  const order: Lang[] = [lang, 'zh', 'en', 'es'];
  for (const l of order) {
    const s = value[l];
    if (typeof s === 'string' && s !== '') return s;
  }
  return '';
}

/**
 * Turns a single-language string into an I18nText by copying it into the other two
 * languages and marking them untranslated (used by format migrations and scaffolding).
 */
export function fromSingleLanguage(text: string, source: Lang = 'zh'): I18nText {
  return { zh: text, en: text, es: text, untranslated: LANGS.filter((l) => l !== source) };
}

/** Formats `{name}` placeholders of a text with values; unknown names are left as written. */
export function formatText(value: I18nText | undefined | null, lang: Lang, params: Record<string, unknown> = {}): string {
  return textOf(value, lang).replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}
