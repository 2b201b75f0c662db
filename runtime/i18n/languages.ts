import { DEFAULT_LANG, LANGS, type Lang } from '../protocol/texts.ts';

/** The console's languages are the protocol's (runtime/protocol/texts.ts), under the names the console uses. */
export { DEFAULT_LANG as DEFAULT_LANGUAGE, isLang as isLanguage, LANGS as LANGUAGES, type Lang as Language, type LocalizedText } from '../protocol/texts.ts';

/**
 * The text for `lang` from either a plain string or a `{zh, en, es}` object; falls back to
 * zh, then to any language present, so a half-translated record still shows something.
 */
export function pickText(text: unknown, lang: Lang): string {
  if (typeof text === 'string') return text;
  if (text && typeof text === 'object') {
    const rec = text as Partial<Record<string, unknown>>;
    for (const key of [lang, DEFAULT_LANG, ...LANGS]) {
      const value = rec[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return '';
}
