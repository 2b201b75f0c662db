/** The console's languages; zh is the default (spec section 9). */
export const LANGUAGES = ['zh', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** A text in every language, as schemas and the server's menus carry them. */
export type LocalizedText = Record<Language, string>;

/**
 * The text for `lang` from either a plain string or a `{zh, en, es}` object; falls back to
 * zh, then to any language present, so a half-translated record still shows something.
 */
export function pickText(text: unknown, lang: Language): string {
  if (typeof text === 'string') return text;
  if (text && typeof text === 'object') {
    const rec = text as Partial<Record<string, unknown>>;
    for (const key of [lang, DEFAULT_LANGUAGE, ...LANGUAGES]) {
      const value = rec[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return '';
}
