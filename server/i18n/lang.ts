import { DEFAULT_LANG, LANGS, type Lang } from '../../runtime/protocol/texts.ts';

export { LANGS, type Lang } from '../../runtime/protocol/texts.ts';

/** The request's language: `lang` cookie set by the console, else Accept-Language, else zh. */
export function pickLang(acceptLanguage: string | undefined, cookieHeader?: string): Lang {
  const fromCookie = /(?:^|;\s*)language=(zh|en|es)\b/.exec(cookieHeader ?? '')?.[1];
  if (fromCookie) return fromCookie as Lang;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if ((LANGS as readonly string[]).includes(tag)) return tag as Lang;
  }
  return DEFAULT_LANG;
}
