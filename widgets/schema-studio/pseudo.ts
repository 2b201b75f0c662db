/**
 * The texts of a document for the translations grid. The pseudo-locale itself is the
 * runtime's (runtime/i18n/pseudo.ts): the grid's column and the live preview use the same.
 */
export { pseudoLocalize } from '../../runtime/i18n/pseudo.ts';

export interface TextEntry {
  pointer: string;
  zh?: string;
  en?: string;
  es?: string;
}

const LANG_KEYS = ['zh', 'en', 'es'] as const;

/** Every text ({zh, en, es} object) of a document, with its JSON pointer. */
export function textsOf(node: unknown, pointer = '', out: TextEntry[] = []): TextEntry[] {
  if (Array.isArray(node)) {
    node.forEach((x, i) => textsOf(x, `${pointer}/${i}`, out));
    return out;
  }
  if (!node || typeof node !== 'object') return out;
  const o = node as Record<string, unknown>;
  if (LANG_KEYS.some((l) => typeof o[l] === 'string') && !pointer.endsWith('/properties')) {
    out.push({ pointer, zh: str(o.zh), en: str(o.en), es: str(o.es) });
    return out;
  }
  for (const [k, v] of Object.entries(o)) textsOf(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  return out;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** `doc` with the text at `pointer` given `value` in `lang`. */
export function withText(doc: unknown, pointer: string, lang: 'zh' | 'en' | 'es', value: string): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  const segs = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: Record<string, unknown> = copy;
  for (const s of segs) node = node[s] as Record<string, unknown>;
  node[lang] = value;
  return copy;
}
