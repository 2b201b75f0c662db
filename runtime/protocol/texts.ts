/**
 * The product's languages and the shape of a text in all of them, shared by schema
 * documents, the console's i18n and the server's message catalogues.
 */

export const LANGS = ['zh', 'en', 'es'] as const;
export type Lang = (typeof LANGS)[number];
/** zh is the default language (spec section 9). */
export const DEFAULT_LANG: Lang = 'zh';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/** A text in every language: schemas, menus and seeded records carry them. */
export type LocalizedText = Record<Lang, string>;

/**
 * A user-visible text of a schema document. A text produced by migrating an older,
 * single-language document lists the languages still holding a copy of the source string.
 */
export interface I18nText extends LocalizedText {
  /** Languages whose string is a copy of another language's, awaiting translation. */
  untranslated?: Lang[];
}
