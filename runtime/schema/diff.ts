/**
 * A readable diff of two versions of a schema document (the studio's compare view, the
 * operation log of a publish, the "published meanwhile" refusal): one change per place,
 * each with a sentence in zh, en and es ("column status moved from 3rd to 1st", "action 删除
 * now needs element cropsManager:delete"), and `applyChange` to restore one change alone.
 *
 * Arrays of things that have a name (columns by field, menu entries by code, actions by
 * label…) are matched by that name, so a moved column is one "moved", not a change of
 * every column after it. No React, no Node: shared by the server and the browser.
 */
import { LANGS, type Lang } from './texts.ts';
import { escapePointerSegment } from './validate.ts';

export type ChangeKind = 'added' | 'removed' | 'changed' | 'moved';

export interface DocumentChange {
  /** Where, in `after` (added, changed, moved) or in `before` (removed). */
  pointer: string;
  kind: ChangeKind;
  text: Record<Lang, string>;
  /** The same place in `before` (changed, moved), when it differs from `pointer`. */
  from?: string;
}

type Json = unknown;
type Texts = Record<Lang, string>;

const NOUNS: Record<string, Texts> = {
  columns: { zh: '列', en: 'column', es: 'columna' },
  filters: { zh: '筛选条件', en: 'filter', es: 'filtro' },
  toolbar: { zh: '操作', en: 'action', es: 'acción' },
  rowActions: { zh: '操作', en: 'action', es: 'acción' },
  batchActions: { zh: '批量操作', en: 'batch action', es: 'acción por lotes' },
  actions: { zh: '操作', en: 'action', es: 'acción' },
  fields: { zh: '字段', en: 'field', es: 'campo' },
  sections: { zh: '分组', en: 'section', es: 'sección' },
  groups: { zh: '分组', en: 'group', es: 'grupo' },
  tabs: { zh: '标签页', en: 'tab', es: 'pestaña' },
  menus: { zh: '菜单', en: 'menu', es: 'menú' },
  children: { zh: '菜单项', en: 'menu entry', es: 'entrada de menú' },
  elements: { zh: '元素', en: 'element', es: 'elemento' },
  options: { zh: '选项', en: 'option', es: 'opción' },
  aliases: { zh: '别名路由', en: 'alias route', es: 'ruta alternativa' },
};
const ITEM: Texts = { zh: '项', en: 'item', es: 'elemento' };

const ORDINAL_EN = (n: number) => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
};

const SENTENCES: Record<string, Texts> = {
  itemAdded: { zh: '新增{noun}「{label}」', en: '{noun} {label} added', es: 'se añadió {noun} {label}' },
  itemRemoved: { zh: '删除了{noun}「{label}」', en: '{noun} {label} removed', es: 'se quitó {noun} {label}' },
  itemMoved: { zh: '{noun}「{label}」从第 {from} 位移到第 {to} 位', en: '{noun} {label} moved from {fromOrd} to {toOrd}', es: '{noun} {label} pasó de la posición {from} a la {to}' },
  needsElement: { zh: '{who}现在需要元素 {code}', en: '{who} now needs element {code}', es: '{who} ahora requiere el elemento {code}' },
  noElement: { zh: '{who}不再需要元素 {code}', en: '{who} no longer needs element {code}', es: '{who} ya no requiere el elemento {code}' },
  changed: { zh: '{subject}{prop}从 {a} 改为 {b}', en: '{subject}{prop} changed from {a} to {b}', es: '{subject}{prop} cambió de {a} a {b}' },
  set: { zh: '{subject}新增{prop}：{b}', en: '{subject}{prop} set to {b}', es: '{subject}{prop} pasa a ser {b}' },
  unset: { zh: '{subject}去掉了{prop}（原为 {a}）', en: '{subject}{prop} removed (was {a})', es: '{subject}se quitó {prop} (era {a})' },
};

function fill(s: Texts, params: Record<Lang, Record<string, string | number>>): Texts {
  const out = {} as Texts;
  for (const l of LANGS) out[l] = s[l].replace(/\{(\w+)\}/g, (_, k: string) => String(params[l][k] ?? ''));
  return out;
}

function isObject(v: Json): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isText(v: Json): v is Texts {
  return isObject(v) && LANGS.some((l) => typeof v[l] === 'string');
}

function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}

/** What names an item of an array (a column's field, an entry's code…), or undefined. */
function identity(item: Json): string | undefined {
  if (!isObject(item)) return typeof item === 'string' ? `=${item}` : undefined;
  for (const k of ['id', 'code', 'field', 'name', 'key', 'route', 'value']) {
    const v = item[k];
    if (typeof v === 'string' || typeof v === 'number') return `${k}:${v}`;
  }
  for (const k of ['label', 'title']) if (isText(item[k])) return `${k}:${(item[k] as Texts).en ?? (item[k] as Texts).zh}`;
  return undefined;
}

function labelOf(item: Json, lang: Lang): string {
  if (!isObject(item)) return typeof item === 'string' ? item : JSON.stringify(item);
  for (const k of ['title', 'label']) if (isText(item[k])) return (item[k] as Texts)[lang] || (item[k] as Texts).zh;
  for (const k of ['field', 'code', 'name', 'id', 'key', 'route', 'value']) if (item[k] !== undefined) return String(item[k]);
  return '';
}

function show(v: Json, lang: Lang): string {
  if (v === undefined) return '—';
  if (isText(v)) return `“${v[lang] ?? ''}”`;
  const s = typeof v === 'string' ? `“${v}”` : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

interface Context {
  /** The nearest named item around the place, for the sentence's subject. */
  subject?: { noun: Texts; item: Json };
  /** Property path below the subject ("width", "link.to"). */
  prop: string[];
  /** The screen's authority, to spell element codes like ":delete" in full. */
  authority?: string;
}

function subjectText(ctx: Context, lang: Lang): string {
  if (!ctx.subject) return '';
  const label = labelOf(ctx.subject.item, lang);
  const noun = ctx.subject.noun[lang];
  return lang === 'zh' ? `${noun}「${label}」` : `${noun} ${label}`;
}

function sentence(kind: keyof typeof SENTENCES, ctx: Context, extra: (lang: Lang) => Record<string, string | number>): Texts {
  const params = {} as Record<Lang, Record<string, string | number>>;
  for (const l of LANGS) {
    const subject = subjectText(ctx, l);
    const prop = ctx.prop.join('.');
    params[l] = {
      who: subject,
      subject: subject && prop ? (l === 'zh' ? `${subject}的` : `${subject}: `) : subject ? (l === 'zh' ? subject : `${subject}: `) : '',
      prop: prop || (l === 'zh' ? '内容' : l === 'en' ? 'content' : 'contenido'),
      ...extra(l),
    };
  }
  return fill(SENTENCES[kind], params);
}

function elementCode(code: Json, ctx: Context): string {
  return typeof code === 'string' && code.startsWith(':') && ctx.authority ? `${ctx.authority}${code}` : String(code);
}

function walk(before: Json, after: Json, pb: string, pa: string, ctx: Context, out: DocumentChange[]): void {
  if (equal(before, after)) return;
  const from = pb !== pa ? { from: pb } : {};
  const last = ctx.prop[ctx.prop.length - 1];
  if ((last === 'elementCode' || last === 'element') && ctx.subject) {
    const inner = { ...ctx, prop: [] };
    const text =
      after === undefined
        ? sentence('noElement', inner, () => ({ code: elementCode(before, ctx) }))
        : sentence('needsElement', inner, () => ({ code: elementCode(after, ctx) }));
    out.push({ pointer: after === undefined ? pb : pa, kind: before === undefined ? 'added' : after === undefined ? 'removed' : 'changed', text, ...from });
    return;
  }
  if (before === undefined) {
    out.push({ pointer: pa, kind: 'added', text: sentence('set', ctx, (l) => ({ b: show(after, l) })) });
    return;
  }
  if (after === undefined) {
    out.push({ pointer: pb, kind: 'removed', text: sentence('unset', ctx, (l) => ({ a: show(before, l) })) });
    return;
  }
  if (isText(before) || isText(after) || !((isObject(before) && isObject(after)) || (Array.isArray(before) && Array.isArray(after)))) {
    out.push({ pointer: pa, kind: 'changed', text: sentence('changed', ctx, (l) => ({ a: show(before, l), b: show(after, l) })), ...from });
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const seg = escapePointerSegment(k);
      walk(before[k], after[k], `${pb}/${seg}`, `${pa}/${seg}`, { ...ctx, prop: [...ctx.prop, k] }, out);
    }
    return;
  }
  walkArray(before as Json[], after as Json[], pb, pa, ctx, out);
}

function walkArray(before: Json[], after: Json[], pb: string, pa: string, ctx: Context, out: DocumentChange[]): void {
  const key = ctx.prop[ctx.prop.length - 1] ?? '';
  const noun = NOUNS[key] ?? ITEM;
  const ids = (xs: Json[]) => xs.map(identity);
  const bi = ids(before);
  const ai = ids(after);
  const named = (xs: (string | undefined)[]) => xs.every((x) => x !== undefined) && new Set(xs).size === xs.length;
  if (!named(bi) || !named(ai)) {
    // Unnamed items: compared place by place.
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      const itemCtx: Context = { ...ctx, subject: { noun, item: after[i] ?? before[i] }, prop: [] };
      if (i >= before.length) out.push({ pointer: `${pa}/${i}`, kind: 'added', text: itemSentence('itemAdded', noun, after[i]) });
      else if (i >= after.length) out.push({ pointer: `${pb}/${i}`, kind: 'removed', text: itemSentence('itemRemoved', noun, before[i]) });
      else walk(before[i], after[i], `${pb}/${i}`, `${pa}/${i}`, itemCtx, out);
    }
    return;
  }
  const common = bi.filter((id) => ai.includes(id));
  const commonAfter = ai.filter((id) => bi.includes(id));
  const stay = new Set(lcs(common as string[], commonAfter as string[]));
  bi.forEach((id, i) => {
    if (!ai.includes(id)) out.push({ pointer: `${pb}/${i}`, kind: 'removed', text: itemSentence('itemRemoved', noun, before[i]) });
  });
  ai.forEach((id, j) => {
    if (!bi.includes(id)) {
      out.push({ pointer: `${pa}/${j}`, kind: 'added', text: itemSentence('itemAdded', noun, after[j]) });
      return;
    }
    const i = bi.indexOf(id);
    if (!stay.has(id as string)) {
      const text = {} as Texts;
      for (const l of LANGS) {
        const label = labelOf(after[j], l);
        text[l] = SENTENCES.itemMoved[l]
          .replace('{noun}', noun[l])
          .replace('{label}', label)
          .replace('{from}', String(i + 1))
          .replace('{to}', String(j + 1))
          .replace('{fromOrd}', ORDINAL_EN(i + 1))
          .replace('{toOrd}', ORDINAL_EN(j + 1));
      }
      out.push({ pointer: `${pa}/${j}`, kind: 'moved', text, from: `${pb}/${i}` });
    }
    walk(before[i], after[j], `${pb}/${i}`, `${pa}/${j}`, { ...ctx, subject: { noun, item: after[j] }, prop: [] }, out);
  });
}

function itemSentence(kind: 'itemAdded' | 'itemRemoved', noun: Texts, item: Json): Texts {
  const text = {} as Texts;
  for (const l of LANGS) text[l] = SENTENCES[kind][l].replace('{noun}', noun[l]).replace('{label}', labelOf(item, l));
  return text;
}

/** The longest common subsequence of two lists of distinct names: the items that did not move. */
function lcs(a: string[], b: string[]): string[] {
  const m = a.length;
  const n = b.length;
  const t: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = m - 1; i >= 0; i--) for (let j = n - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < m && j < n) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (t[i + 1][j] >= t[i][j + 1]) i++;
    else j++;
  }
  return out;
}

/** Every change from `before` to `after`, in document order, each with a sentence in zh, en and es. */
export function describeChanges(before: unknown, after: unknown): DocumentChange[] {
  const out: DocumentChange[] = [];
  const authority = (isObject(after) && typeof after.authority === 'string' ? after.authority : isObject(before) && typeof before.authority === 'string' ? before.authority : undefined) as
    | string
    | undefined;
  // The revision number rises on every publish: not a change anyone made.
  const strip = (d: Json) => (isObject(d) ? { ...d, revision: undefined } : d);
  walk(strip(before), strip(after), '', '', { prop: [], authority }, out);
  return out;
}

// --- JSON pointers -------------------------------------------------------------------

function segments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function getAt(doc: unknown, pointer: string): unknown {
  let cur: unknown = doc;
  for (const s of segments(pointer)) {
    if (Array.isArray(cur)) cur = cur[Number(s)];
    else if (isObject(cur)) cur = cur[s];
    else return undefined;
  }
  return cur;
}

function parentOf(doc: unknown, pointer: string): { parent: unknown; key: string } {
  const segs = segments(pointer);
  const key = segs.pop() ?? '';
  return { parent: getAt(doc, segs.length ? `/${segs.map(escapePointerSegment).join('/')}` : ''), key };
}

/**
 * `doc` with one change of `describeChanges(from, doc)` undone: the place takes back what
 * `from` has there (a changed value, a removed item or property, an item's old position;
 * an added one goes). `doc` itself is left as it is.
 */
export function applyChange<T>(doc: T, change: DocumentChange, from: unknown): T {
  const out = structuredClone(doc);
  const target = change.kind === 'removed' ? change.pointer : change.pointer;
  if (change.kind === 'changed') {
    const value = structuredClone(getAt(from, change.from ?? change.pointer));
    const { parent, key } = parentOf(out, target);
    if (target === '') return value as T;
    if (Array.isArray(parent)) parent[Number(key)] = value;
    else if (isObject(parent)) {
      if (value === undefined) delete parent[key];
      else parent[key] = value;
    }
    return out;
  }
  if (change.kind === 'added') {
    const { parent, key } = parentOf(out, target);
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else if (isObject(parent)) delete parent[key];
    return out;
  }
  if (change.kind === 'removed') {
    const value = structuredClone(getAt(from, change.pointer));
    const { parent, key } = parentOf(out, change.pointer);
    if (Array.isArray(parent)) parent.splice(Math.min(Number(key), parent.length), 0, value);
    else if (isObject(parent)) parent[key] = value;
    return out;
  }
  // moved: back to its place in `from`.
  const { parent, key } = parentOf(out, change.pointer);
  const wanted = Number(segments(change.from ?? change.pointer).pop());
  if (Array.isArray(parent)) {
    const [item] = parent.splice(Number(key), 1);
    parent.splice(Math.min(wanted, parent.length), 0, item);
  }
  return out;
}
