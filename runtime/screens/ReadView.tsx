/**
 * A form screen in show mode (查看): the record as descriptions, never as a disabled form.
 * The form's own sections, columns, spans, titles and conditions; each field a label and
 * its value formatted as a list or a detail shows it (references and enumerations by
 * their labels, dates, booleans, rich text, images), an empty value as «—». Passwords and
 * hidden fields are not shown.
 */
import { Card, Descriptions, Flex, Table } from 'antd';
import { evaluate } from '../schema/conditions.ts';
import type { ColumnRender, FormScreen, LineItems } from '../schema/screen.ts';
import type { FieldSchema } from '../schema/resource.ts';
import { textOf, type Lang } from '../schema/texts.ts';
import { defaultWidget, fieldTitle, isPointField, lineItemOrder, lineItemSchema, type FormModel, type LineTotalUi } from './form-schema.ts';
import { pointText } from './fields/PointField.tsx';
import { lineAmount, linesTotal } from './line-totals.ts';
import { ValueView } from './format.tsx';
import type { ResolvedOption } from './options.ts';

/** Shown for a field without a value. */
export const EMPTY_VALUE = '—';

export interface ReadItem {
  field: string;
  label: string;
  span: number;
  render: ColumnRender;
  value: unknown;
  options: ResolvedOption[] | null;
  /** A line-items field: its rows shown as a table of these columns. */
  lineColumns?: LineColumn[];
}

/** A column of a line-items table: a row property, its options, or a nested list shown as text. */
export interface LineColumn {
  key: string;
  title: string;
  options: ResolvedOption[] | null;
  nested?: LineColumn[];
  /** A computed column: quantity × unit price of the row (items.lineTotal). */
  lineTotal?: LineTotalUi;
}

/** The columns of a line-items field's table, options keyed by dot path as the form keys them. */
function lineColumns(props: Record<string, FieldSchema>, items: LineItems | undefined, path: string, lang: Lang, choices: Map<string, ResolvedOption[] | null>): LineColumn[] {
  const declared = new Map((items?.fields ?? []).map((x) => [x.field, x]));
  const columns: LineColumn[] = lineItemOrder(props, items)
    .filter((key) => !declared.get(key)?.hiddenIn?.includes('show'))
    .map((key) => {
    const p = props[key];
    const nested = lineItemSchema(p);
    const enumTitles = p['x-enumTitles'];
    const own = p.enum && enumTitles ? p.enum.map((v, i) => ({ value: v, label: textOf(enumTitles[i], lang) })) : null;
    return {
      key,
      title: p['x-title'] ? textOf(p['x-title'], lang) : (p.title ?? key),
      options: choices.get(`${path}.${key}`) ?? (own as ResolvedOption[] | null),
      ...(nested ? { nested: lineColumns(nested, declared.get(key)?.items, `${path}.${key}`, lang, choices) } : {}),
    };
  });
  // The line total: computed per row, its sum under the table.
  const total = items?.lineTotal;
  if (total)
    columns.push({
      key: `${total.quantity}×${total.unitPrice}`,
      title: textOf(total.title, lang),
      options: null,
      lineTotal: { quantity: total.quantity, unitPrice: total.unitPrice, title: textOf(total.title, lang), totalTitle: textOf(total.totalTitle ?? { zh: '合计', en: 'Total', es: 'Total' }, lang) },
    });
  return columns;
}

/** One cell of a line-items table as text: an option by its label, a nested list as its rows' values. */
export function lineCellText(value: unknown, col: LineColumn, lang: Lang): string {
  if (value === undefined || value === null || value === '') return EMPTY_VALUE;
  if (col.nested && Array.isArray(value))
    return value.length
      ? value.map((row) => col.nested!.map((c) => ((row as Record<string, unknown>)[c.key] ?? '') as string).filter((v) => v !== '').join(' ')).join(lang === 'zh' ? '；' : '; ')
      : EMPTY_VALUE;
  const option = col.options?.find((o) => o.value === value);
  if (option) return option.label;
  if (typeof value === 'object') return isText(value) ? textOf(value, lang) : JSON.stringify(value);
  return String(value);
}

/** A text in the three languages (a dictionary item's label, say). */
function isText(v: object): v is { zh: string; en: string; es: string } {
  return !Array.isArray(v) && ['zh', 'en', 'es'].every((l) => typeof (v as Record<string, unknown>)[l] === 'string');
}

export interface ReadSection {
  title?: string;
  columns: number;
  items: ReadItem[];
}

const RENDER_OF_WIDGET: Partial<Record<string, ColumnRender>> = {
  richText: 'html',
  image: 'image',
  date: 'date',
  datetime: 'datetime',
  switch: 'boolean',
  number: 'number',
};

/** The sections and items a show view draws for `data` (pure: the snapshot and unit tests read it). */
export function readSections(screen: FormScreen, model: FormModel, data: Record<string, unknown>, lang: Lang, choices: Map<string, ResolvedOption[] | null>): ReadSection[] {
  const out: ReadSection[] = [];
  const seen = new Set<string>();
  for (const section of screen.sections) {
    if (section.when && !holds(section.when, data)) continue;
    const columns = section.columns ?? 2;
    const items: ReadItem[] = [];
    for (const f of section.fields) {
      if (f.hiddenIn?.includes('show') || (f.when && !holds(f.when, data))) continue;
      const prop = model.record.properties[f.field];
      if (!prop || seen.has(f.field)) continue;
      const widget = f.widget ?? defaultWidget(f, prop, !!model.references?.[f.field]);
      if (widget === 'password' || widget === 'hidden') continue;
      seen.add(f.field);
      const options = choices.get(f.field) ?? null;
      const coloured = !!options?.some((o) => o.color);
      items.push({
        field: f.field,
        label: fieldTitle(f, prop, lang),
        span: Math.min(f.span ?? 1, columns),
        render: prop['x-file'] ? 'files' : coloured ? 'tag' : (RENDER_OF_WIDGET[widget] ?? 'text'),
        value: isPointField(prop) ? pointText(data[f.field]) : data[f.field],
        options,
      });
      const rows = lineItemSchema(prop);
      if (rows) {
        const item = items[items.length - 1];
        item.lineColumns = lineColumns(rows, f.items, f.field, lang, choices);
        item.span = columns;
      }
    }
    if (items.length) out.push({ title: section.title ? textOf(section.title, lang) : undefined, columns, items: fillRows(items, columns) });
  }
  return out;
}

/** Spans widened so that every line of the grid is full (an item that does not fit starts the next line). */
function fillRows(items: ReadItem[], columns: number): ReadItem[] {
  const out = items.map((i) => ({ ...i }));
  let used = 0;
  out.forEach((item, i) => {
    if (used + item.span > columns && i > 0) {
      out[i - 1].span += columns - used;
      used = 0;
    }
    used += item.span;
    if (used === columns) used = 0;
  });
  if (used > 0) out[out.length - 1].span += columns - used;
  return out;
}

export function isEmptyValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

export function ReadView({ sections, lang }: { sections: ReadSection[]; lang: Lang }) {
  return (
    <Flex vertical gap={16} data-testid="read-view">
      {sections.map((s, i) => (
        <Card key={i} size="small" title={s.title}>
          <Descriptions
            column={s.columns}
            items={s.items.map((item) => ({
              key: item.field,
              label: item.label,
              span: item.span,
              children: isEmptyValue(item.value) ? (
                EMPTY_VALUE
              ) : item.lineColumns ? (
                <LineItemsTable rows={item.value as Record<string, unknown>[]} columns={item.lineColumns} lang={lang} />
              ) : (
                <ValueView value={item.value} fmt={{ render: item.render, lang, label: typeof item.label === 'string' ? item.label : undefined }} options={item.options} />
              ),
            }))}
          />
        </Card>
      ))}
    </Flex>
  );
}

function holds(c: Parameters<typeof evaluate>[0], data: unknown): boolean {
  try {
    return evaluate(c, data);
  } catch {
    return false;
  }
}

/** The rows of a line-items field, read-only: one table row per item, nested lists as text. */
function LineItemsTable({ rows, columns, lang }: { rows: Record<string, unknown>[]; columns: LineColumn[]; lang: Lang }) {
  const total = columns.find((c) => c.lineTotal);
  return (
    <Table
      size="small"
      pagination={false}
      style={{ width: '100%' }}
      rowKey={(_, i) => String(i)}
      dataSource={rows}
      columns={columns.map((c) => ({
        key: c.key,
        title: c.title,
        align: c.lineTotal ? ('right' as const) : undefined,
        render: (_: unknown, row: Record<string, unknown>) => (c.lineTotal ? (lineAmount(row[c.lineTotal.quantity], row[c.lineTotal.unitPrice]) ?? EMPTY_VALUE) : lineCellText(row[c.key], c, lang)),
      }))}
      summary={
        total
          ? () => (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={columns.length - 1} align="right">
                  <strong>{total.lineTotal!.totalTitle}</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={1} align="right">
                  <strong data-lines-total>{linesTotal(rows, total.lineTotal!.quantity, total.lineTotal!.unitPrice)}</strong>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            )
          : undefined
      }
    />
  );
}
