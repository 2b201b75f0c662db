/**
 * The pseudo-locale (docs/studio.md, "Translations"): a preview-only language, never a
 * user's, made from the English text: every letter accented, the text bracketed and
 * about 40 % longer («Status» → «[Ŝţàţûš ~~~]»). Rendered in it, a screen shows where a
 * longer translation would be cut off (Spanish runs about a third longer than English),
 * and a text that bypasses translation stands out (no brackets). Placeholders
 * (`{{name}}`, `{name}`) are kept as they are.
 */
import { createInstance, type i18n as I18n } from 'i18next';
import { LANGS } from '../protocol/texts.ts';
import { runtimeMessages } from './i18n.ts';

/** The pseudo-locale's name; not one of the console's languages (LANGS). */
export const PSEUDO_LOCALE = 'pseudo';

const ACCENTED: Record<string, string> = {
  a: 'à', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'î', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ô', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'û', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'À', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Î', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ô', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Ŝ', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** Placeholders of i18next (`{{x}}`) and of the sentences (`{x}`): left as they are. */
const PLACEHOLDER = /\{\{[^}]*\}\}|\{[A-Za-z_][\w.]*\}/g;

/** One text in the pseudo-locale: accented, bracketed, about 40 % longer. An empty text stays empty. */
export function pseudoLocalize(text: string): string {
  if (!text) return text;
  let out = '';
  let visible = 0;
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const plain = text.slice(last, m.index);
    out += accent(plain) + m[0];
    visible += [...plain].length;
    last = m.index + m[0].length;
  }
  const rest = text.slice(last);
  out += accent(rest);
  visible += [...rest].length;
  return `[${out} ${'~'.repeat(Math.max(1, Math.ceil(visible * 0.4)))}]`;
}

function accent(s: string): string {
  return [...s].map((ch) => ACCENTED[ch] ?? ch).join('');
}

function isText(o: Record<string, unknown>, pointer: string): boolean {
  // A JSON Schema `properties` object may name its properties zh, en and es: not a text.
  return LANGS.some((l) => typeof o[l] === 'string') && !pointer.endsWith('/properties');
}

/**
 * A schema document with every text (`{zh, en, es}`) in the pseudo-locale, in all three
 * languages, made from its English (else its Chinese) string. The document is not changed.
 */
export function pseudoTexts<T>(node: T, pointer = ''): T {
  if (Array.isArray(node)) return node.map((x, i) => pseudoTexts(x, `${pointer}/${i}`)) as T;
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  if (isText(o, pointer)) {
    const source = typeof o.en === 'string' && o.en ? o.en : typeof o.zh === 'string' ? o.zh : '';
    const p = pseudoLocalize(source);
    return Object.fromEntries(LANGS.map((l) => [l, p])) as T;
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, pseudoTexts(v, `${pointer}/${k}`)])) as T;
}

/** Every string of a message catalogue (locales/en.json) in the pseudo-locale. */
export function pseudoMessages<T>(messages: T): T {
  if (typeof messages === 'string') return pseudoLocalize(messages) as T;
  if (Array.isArray(messages)) return messages.map(pseudoMessages) as T;
  if (messages && typeof messages === 'object') return Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, pseudoMessages(v)])) as T;
  return messages;
}

let pseudoCatalogue: typeof runtimeMessages.en | null = null;

/**
 * An i18next instance whose language is `en` and whose English strings are the runtime's
 * own (locales/en.json) in the pseudo-locale: a preview renders with it, over documents
 * passed through `pseudoTexts`, and every text of the screen is in the pseudo-locale.
 */
export function createPseudoI18n(): I18n {
  pseudoCatalogue ??= pseudoMessages(runtimeMessages.en);
  const instance = createInstance();
  void instance.init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: [...LANGS],
    resources: { en: { translation: pseudoCatalogue } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
