/**
 * Where a JSON pointer sits in a document, in the configurer's words: the block holding it
 * (a column, a filter, a form field, a section, an action, a related list, a dashboard
 * block, a child screen, a resource field, a menu entry) with its label — the block's own
 * title, else the title of the resource field it shows — and the block's pointer. The
 * studio's gate names every problem by it (runtime/schema/gate.ts) and the render check
 * names the block that failed to render (tools/render-check/render.tsx). Pure code: it
 * runs in the browser too.
 */
import type { ResourceDocument } from './resource/types.ts';
import { textOf, type I18nText, type Lang } from './texts.ts';

export type PlaceKind =
  | 'column'
  | 'filter'
  | 'field'
  | 'lineField'
  | 'section'
  | 'toolbarAction'
  | 'rowAction'
  | 'batchAction'
  | 'action'
  | 'related'
  | 'block'
  | 'child'
  | 'resourceField'
  | 'menuSection'
  | 'menuEntry';

export interface Place {
  kind: PlaceKind;
  /** The block's own pointer (an ancestor of, or equal to, the pointer asked about). */
  pointer: string;
  /** What the configurer sees it called, in the language asked for; null when it has none. */
  label: string | null;
}

type Resources = (name: string) => ResourceDocument | undefined;

const KIND_WORDS: Record<PlaceKind, Record<Lang, string>> = {
  column: { zh: '列', en: 'column', es: 'columna' },
  filter: { zh: '筛选项', en: 'filter', es: 'filtro' },
  field: { zh: '字段', en: 'field', es: 'campo' },
  lineField: { zh: '明细字段', en: 'line field', es: 'campo de línea' },
  section: { zh: '分区', en: 'section', es: 'sección' },
  toolbarAction: { zh: '工具栏操作', en: 'toolbar action', es: 'acción de la barra' },
  rowAction: { zh: '行操作', en: 'row action', es: 'acción de fila' },
  batchAction: { zh: '批量操作', en: 'batch action', es: 'acción por lotes' },
  action: { zh: '操作', en: 'action', es: 'acción' },
  related: { zh: '关联列表', en: 'related list', es: 'lista relacionada' },
  block: { zh: '区块', en: 'block', es: 'bloque' },
  child: { zh: '子页面', en: 'child screen', es: 'pantalla hija' },
  resourceField: { zh: '资源字段', en: 'resource field', es: 'campo del recurso' },
  menuSection: { zh: '菜单分区', en: 'menu section', es: 'sección del menú' },
  menuEntry: { zh: '菜单项', en: 'menu entry', es: 'entrada del menú' },
};

const SCREEN_WORD: Record<Lang, string> = { zh: '页面', en: 'the screen', es: 'la pantalla' };

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function text(v: unknown, lang: Lang): string | null {
  return isObject(v) ? textOf(v as unknown as I18nText, lang) || null : null;
}

/** The title of `field` in `resource` (a reference's `labels.x` by the reference field's title). */
export function resourceFieldTitle(resource: ResourceDocument | undefined, field: unknown, lang: Lang): string | null {
  if (typeof field !== 'string') return null;
  const name = field.startsWith('labels.') ? field.slice(7) : field.split('.')[0];
  const prop = resource?.record?.properties?.[name];
  return text(prop?.['x-title'], lang) ?? (typeof prop?.title === 'string' ? prop.title : null);
}

/** A block with a field: its title, else its resource field's title, else the field's name. */
function fieldLabel(node: unknown, resource: ResourceDocument | undefined, lang: Lang): string | null {
  if (!isObject(node)) return null;
  return text(node.title, lang) ?? text(node.label, lang) ?? resourceFieldTitle(resource, node.field, lang) ?? (typeof node.field === 'string' ? node.field : null);
}

const decode = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** The parts of a table (a table screen or a related list) at `base`. */
const TABLE_LISTS: Record<string, PlaceKind> = { columns: 'column', filters: 'filter', toolbar: 'toolbarAction', rowActions: 'rowAction', batchActions: 'batchAction' };

/**
 * The innermost block of `doc` (a screen, resource or menus document) holding `pointer`,
 * or null when the pointer is about the document as a whole.
 */
export function placeOf(doc: unknown, pointer: string, resources: Resources, lang: Lang): Place | null {
  const segs = pointer.split('/').slice(1).map(decode);
  if (!isObject(doc) || !segs.length) return null;
  // A resource document: its record's fields.
  if (isObject(doc.record) && segs[0] === 'record' && segs[1] === 'properties' && segs[2]) {
    const at = `/record/properties/${segs[2]}`;
    return { kind: 'resourceField', pointer: at, label: resourceFieldTitle(doc as unknown as ResourceDocument, segs[2], lang) ?? segs[2] };
  }
  // The menus document: sections and their entries.
  if (Array.isArray(doc.menus) && segs[0] === 'menus' && segs[1] !== undefined) {
    const section = doc.menus[Number(segs[1])] as Record<string, unknown> | undefined;
    if (segs[2] === 'children' && segs[3] !== undefined && isObject(section) && Array.isArray(section.children)) {
      const entry = section.children[Number(segs[3])];
      return { kind: 'menuEntry', pointer: `/menus/${segs[1]}/children/${segs[3]}`, label: isObject(entry) ? (text(entry.title, lang) ?? (entry.code as string) ?? null) : null };
    }
    return { kind: 'menuSection', pointer: `/menus/${segs[1]}`, label: isObject(section) ? (text(section.title, lang) ?? (section.code as string) ?? null) : null };
  }
  const resource = typeof doc.resource === 'string' ? resources(doc.resource) : undefined;
  return screenPlace(doc, segs, resource, resources, lang);
}

function screenPlace(doc: Record<string, unknown>, segs: string[], resource: ResourceDocument | undefined, resources: Resources, lang: Lang): Place | null {
  const [head, index, sub, subIndex, deeper, deeperIndex] = segs;
  const item = (list: unknown, i: string | undefined) => (Array.isArray(list) && i !== undefined ? list[Number(i)] : undefined);
  if (index === undefined || !/^\d+$/.test(index)) return null;
  const node = item(doc[head], index);
  const at = `/${head}/${index}`;
  if (TABLE_LISTS[head]) {
    const kind = TABLE_LISTS[head];
    return { kind, pointer: at, label: kind === 'column' || kind === 'filter' ? fieldLabel(node, resource, lang) : isObject(node) ? text(node.label, lang) : null };
  }
  if (head === 'actions') return { kind: 'action', pointer: at, label: isObject(node) ? text(node.label, lang) : null };
  if (head === 'blocks') return { kind: 'block', pointer: at, label: isObject(node) ? text(node.title, lang) : null };
  if (head === 'children') return { kind: 'child', pointer: at, label: isObject(node) ? (text(node.title, lang) ?? (node.screen as string) ?? null) : null };
  if (head === 'related' && isObject(node)) {
    const child = typeof node.resource === 'string' ? resources(node.resource) : undefined;
    const inner = sub && TABLE_LISTS[sub] ? screenPlace(node, segs.slice(2), child, resources, lang) : null;
    return inner ? { ...inner, pointer: `${at}${inner.pointer}` } : { kind: 'related', pointer: at, label: text(node.title, lang) };
  }
  if (head === 'sections' && isObject(node)) {
    const field = sub === 'fields' ? item(node.fields, subIndex) : undefined;
    if (isObject(field)) {
      const fieldAt = `${at}/fields/${subIndex}`;
      // A line field of an array-of-objects field: the row property's title.
      if (deeper === 'items' && segs[6] === 'fields' && segs[7] !== undefined) {
        const line = item((field.items as Record<string, unknown> | undefined)?.fields, segs[7]);
        const prop = resource?.record?.properties?.[field.field as string]?.items?.properties?.[isObject(line) ? String(line.field) : ''];
        return { kind: 'lineField', pointer: `${fieldAt}/items/fields/${segs[7]}`, label: isObject(line) ? (text(line.title, lang) ?? text(prop?.['x-title'], lang) ?? String(line.field)) : null };
      }
      void deeperIndex;
      return { kind: 'field', pointer: fieldAt, label: fieldLabel(field, resource, lang) };
    }
    return { kind: 'section', pointer: at, label: text(node.title, lang) };
  }
  return null;
}

/** «列「种植日期」（/columns/3）», «column "Plant date" (/columns/3)»; the screen itself when there is no place. */
export function describePlace(place: Place | null, lang: Lang): string {
  if (!place) return SCREEN_WORD[lang];
  const kind = KIND_WORDS[place.kind][lang];
  const label = place.label ? (lang === 'zh' ? `「${place.label}」` : lang === 'es' ? ` «${place.label}»` : ` "${place.label}"`) : '';
  const pointer = lang === 'zh' ? `（${place.pointer}）` : ` (${place.pointer})`;
  return `${kind}${label}${pointer}`;
}

/**
 * The blocks of a screen a render can leave out one by one (tools/render-check/render.tsx
 * looks for the one that fails): columns, filters, actions, form and detail fields, related
 * lists, dashboard blocks and child screens. Pointers in document order.
 */
export function screenBlocks(doc: unknown): string[] {
  if (!isObject(doc)) return [];
  const out: string[] = [];
  const list = (base: string, node: Record<string, unknown>, key: string) => {
    if (Array.isArray(node[key])) node[key].forEach((_, i) => out.push(`${base}/${key}/${i}`));
  };
  for (const key of [...Object.keys(TABLE_LISTS), 'actions', 'blocks', 'children', 'related']) list('', doc, key);
  if (Array.isArray(doc.sections))
    doc.sections.forEach((s, i) => {
      if (isObject(s)) list(`/sections/${i}`, s, 'fields');
    });
  return out;
}

/** `doc` without the blocks at `pointers` (from screenBlocks): a copy, the original untouched. */
export function withoutBlocks(doc: unknown, pointers: readonly string[]): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  // Later indexes first, so that earlier removals do not shift them.
  const sorted = [...pointers].sort((a, b) => {
    const pa = a.split('/');
    const pb = b.split('/');
    const parentA = pa.slice(0, -1).join('/');
    const parentB = pb.slice(0, -1).join('/');
    return parentA === parentB ? Number(pb.at(-1)) - Number(pa.at(-1)) : parentA.localeCompare(parentB);
  });
  for (const p of sorted) {
    const segs = p.split('/').slice(1);
    let node: unknown = copy;
    for (const s of segs.slice(0, -1)) node = Array.isArray(node) ? node[Number(s)] : (node as Record<string, unknown>)[s];
    if (Array.isArray(node)) node.splice(Number(segs.at(-1)), 1);
  }
  return copy;
}
