/**
 * How wide a list's columns are and which of them a narrow screen keeps (docs/screens.md,
 * "Column widths and narrow screens"). Pure functions of the column documents, tested in
 * tests/unit/column-layout.test.ts.
 */
import type { FieldSchema } from '../schema/resource.ts';
import type { Action, Column } from '../schema/screen.ts';

/** Cell padding left and right (DataGrid's 12 px each side). */
const PADDING = 24;
const SORT_ICON = 20;

/**
 * Pixel width of `text` at the grid's 14 px: CJK characters are square, Latin letters
 * and digits about half as wide. An estimate, generous rather than tight: a column too
 * narrow clips, one a little wide costs nothing.
 */
export function textWidth(text: string, fontSize = 14): number {
  let w = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x2e80) w += fontSize;
    else if (/[A-Z@MW%]/.test(ch)) w += fontSize * 0.72;
    else if (/[\s.,:;'|il!1()[\]]/.test(ch)) w += fontSize * 0.36;
    else w += fontSize * 0.58;
  }
  return Math.ceil(w);
}

/** What a column holds, from its render or the field's schema. */
export type ColumnType = 'datetime' | 'date' | 'number' | 'boolean' | 'tag' | 'image' | 'duration' | 'bytes' | 'text';

export function columnType(c: Column, prop: FieldSchema | undefined): ColumnType {
  switch (c.render) {
    case 'datetime':
    case 'date':
    case 'number':
    case 'boolean':
    case 'image':
    case 'duration':
    case 'bytes':
      return c.render;
    case 'money':
      return 'number';
    case 'tag':
    case 'enum':
      return 'tag';
  }
  if (c.render === undefined || c.render === 'text') {
    if (prop?.format === 'date-time') return 'datetime';
    if (prop?.format === 'date') return 'date';
    if (prop?.type === 'boolean') return 'boolean';
    if (prop?.type === 'integer' || prop?.type === 'number') return 'number';
  }
  return 'text';
}

/** Widths of the values themselves ("2026-11-23 11:24:42" in full). */
const CONTENT_WIDTH: Record<ColumnType, number> = {
  datetime: textWidth('2026-11-23 11:24:42') + PADDING,
  date: textWidth('2026-11-23') + PADDING,
  number: 96,
  boolean: 80,
  tag: 120,
  image: 88,
  duration: 160,
  bytes: 96,
  text: 160,
};

/**
 * A column's width: the declared one, else its type's; never narrower than its header,
 * and for dates and times never narrower than a whole value, whatever was declared.
 */
export function columnWidth(c: Column, prop: FieldSchema | undefined, title: string): number {
  const type = columnType(c, prop);
  const header = textWidth(title) + PADDING + (c.sortable ? SORT_ICON : 0);
  const content = CONTENT_WIDTH[type];
  if (type === 'datetime' || type === 'date') return Math.max(c.width ?? 0, content, header);
  return Math.max(c.width ?? content, header);
}

/** Long text is cut with an ellipsis (the whole text in the tooltip) unless the column says otherwise. */
export function columnEllipsis(c: Column): boolean {
  return c.ellipsis ?? true;
}

/** Viewport widths where priority 2 and priority 3 columns appear. */
export const NARROW_BELOW = 1024;
export const WIDE_FROM = 1600;

/**
 * The columns a viewport of `width` px hides (priority, docs/screens.md): under 1024 px
 * only priority 1 columns stay (the first two columns when none is declared 1), under
 * 1600 px priority 3 columns go. The user's own choice in the column menu wins.
 */
export function hiddenByWidth(columns: readonly Pick<Column, 'field' | 'priority'>[], width: number): Set<string> {
  const hidden = new Set<string>();
  if (width >= WIDE_FROM) return hidden;
  const declared = columns.some((c) => c.priority === 1);
  columns.forEach((c, i) => {
    const priority = c.priority ?? (width < NARROW_BELOW && !declared && i < 2 ? 1 : 2);
    if (priority === 3 || (width < NARROW_BELOW && priority !== 1)) hidden.add(c.field);
  });
  return hidden;
}

/**
 * The action column's width: the row's first `inline` buttons (small link buttons, 14 px
 * text and icon) and the «more» button when there are further actions.
 */
export function actionsWidth(actions: readonly Action[] | undefined, label: (a: Action) => string, moreLabel: string, inline: number): number {
  const list = actions ?? [];
  if (!list.length) return 0;
  const cut = Math.min(inline, list.length);
  const button = (text: string, icon: boolean) => textWidth(text) + 16 + (icon ? 22 : 0);
  let w = list.slice(0, cut).reduce((s, a) => s + button(label(a), !!a.icon), 0);
  if (cut < list.length) w += button(moreLabel, true);
  return Math.max(96, w + PADDING);
}
