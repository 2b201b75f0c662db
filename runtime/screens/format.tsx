/**
 * How a value shows in a column, a detail field and an export: one function for the text
 * (exports, titles, tooltips) and one component for the cell, so that a CSV holds what
 * the screen shows (enum labels, formatted dates and numbers).
 */
import { Image, Tag } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration, formatSize, type DurationUnit, type SizeUnit } from '../format/duration.ts';
import { formatDate, formatDateTime, formatDecimal, formatMoney } from '../format/locale.ts';
import type { ColumnRender, ValueUnit } from '../schema/screen.ts';
import { isI18nText, textOf, type Lang } from '../schema/texts.ts';
import { safeHtml } from './safe-html.ts';
import { optionLabel, type ResolvedOption } from './options.ts';
import { ChangesView, changesText, isChangeList } from './changes-view.tsx';
import { cellRender, registerFeature, type CellRender } from './features.ts';
import { FileList, idsOf } from './fields/file-view.tsx';

export interface ValueFormat {
  render?: ColumnRender;
  precision?: number;
  /** Values that are texts ({zh, en, es}) show in this language. */
  lang?: Lang;
  /** The unit a `duration` or `bytes` value arrives in. */
  unit?: ValueUnit;
  /** The column's or field's title in the user's language: an image's alternative text. */
  label?: string;
}

/** The text of an HTML value (exports, tooltips): tags dropped, entities decoded, spaces collapsed. */
export function htmlText(html: string): string {
  if (typeof DOMParser !== 'undefined') return (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

const PRESET_COLORS = new Set(['default', 'success', 'processing', 'error', 'warning', 'magenta', 'red', 'volcano', 'orange', 'gold', 'lime', 'green', 'cyan', 'blue', 'geekblue', 'purple']);

export function formatScalar(value: unknown, fmt: ValueFormat, options: ResolvedOption[] | null, yesNo: [string, string]): string {
  if (value === undefined || value === null || value === '') return '';
  if (fmt.render === 'changes' && isChangeList(value)) return changesText(value);
  if (Array.isArray(value)) return value.map((v) => formatScalar(v, fmt, options, yesNo)).filter(Boolean).join(', ');
  if (isI18nText(value)) return textOf(value, fmt.lang ?? 'zh');
  if (fmt.render === 'html' && typeof value === 'string') return htmlText(value);
  if (options && options.length) {
    const o = optionLabel(options, value);
    if (o) return o.label;
  }
  // The render's own text (features.ts: the app registers DEFAULT_RENDERS), else the value's.
  const own = cellRender(fmt.render)?.text;
  if (own) return own(value, fmt, yesNo);
  if (typeof value === 'boolean') return value ? yesNo[0] : yesNo[1];
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const finite = (value: unknown) => (typeof value === 'number' ? value : Number(value));

/** The built-in renders of the schema language (COLUMN_RENDERS), registered by the app. */
export const DEFAULT_RENDERS: Record<string, CellRender> = {
  // One format (runtime/format/locale.ts): the user's language, 24-hour times, numbers
  // grouped without trailing zeros, money to two decimals.
  date: { text: (value, fmt) => formatDate(value as string, fmt.lang ?? 'zh') },
  datetime: { text: (value, fmt) => formatDateTime(value as string, fmt.lang ?? 'zh') },
  number: { text: (value, fmt) => formatDecimal(value, fmt.lang ?? 'zh', fmt.precision) },
  money: { text: (value, fmt) => formatMoney(value, fmt.lang ?? 'zh', fmt.precision) },
  boolean: { text: (value, _fmt, yesNo) => (value === true || value === 1 || value === 'true' ? yesNo[0] : yesNo[1]) },
  duration: {
    text: (value, fmt) => {
      const n = finite(value);
      return Number.isFinite(n) ? formatDuration(n, fmt.lang ?? 'zh', (fmt.unit as DurationUnit | undefined) ?? 's') : String(value);
    },
  },
  bytes: {
    text: (value, fmt) => {
      const n = finite(value);
      return Number.isFinite(n) ? formatSize(n, fmt.lang ?? 'zh', (fmt.unit as SizeUnit | undefined) ?? 'B') : String(value);
    },
  },
  // No hook in these cells: a list page draws hundreds of them.
  tag: { cell: ({ value, options }) => (value !== undefined && value !== null && value !== '' ? <TagCell value={value} options={options} /> : undefined) },
  changes: { cell: ({ value }) => (isChangeList(value) ? <ChangesView lines={value} /> : undefined) },
  // alt: the field's title where the cell knows it, else the file's name (never empty: antd's
  // previewable image is a button named by it).
  image: { cell: ({ value, fmt }) => (typeof value === 'string' && value ? <Image src={value} alt={fmt.label || imageName(value)} width={48} height={48} style={{ objectFit: 'cover' }} /> : undefined) },
  html: {
    cell: ({ value }) =>
      typeof value === 'string' ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: safeHtml sanitises with DOMPurify first (docs/schema-language.md, html render)
        <div className="schema-html" data-html dangerouslySetInnerHTML={{ __html: safeHtml(value) }} />
      ) : undefined,
  },
  // A file field's ids: thumbnails (click to enlarge) and document links; in exports, the count.
  files: {
    cell: ({ value, fmt }) => (idsOf(value).length ? <FileList value={value} label={fmt.label} max={4} /> : undefined),
    text: (value) => String(idsOf(value).length || ''),
  },
  // A link's cell is the list's (it knows the target); text, enum and link show their text.
  link: {},
  text: {},
  enum: {},
};
registerFeature({ renders: DEFAULT_RENDERS });

function imageName(url: string): string {
  const last = url.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function TagCell({ value, options }: { value: unknown; options: ResolvedOption[] | null }) {
  const list = Array.isArray(value) ? value : [value];
  return (
    <>
      {list.map((v, i) => {
        const o = optionLabel(options, v);
        const color = o?.color && (PRESET_COLORS.has(o.color) || /^#[0-9a-f]{6}$/i.test(o.color)) ? o.color : undefined;
        return (
          <Tag key={i} color={color}>
            {o?.label ?? String(v)}
          </Tag>
        );
      })}
    </>
  );
}

export function useYesNo(): [string, string] {
  const { t } = useTranslation();
  const yes = t('screens.yes');
  const no = t('screens.no');
  return useMemo(() => [yes, no], [yes, no]);
}

/** A cell: a render with a cell of its own (tags, images, html, changes) shows it, everything else its text. */
export function ValueView({ value, fmt, options, link }: { value: unknown; fmt: ValueFormat; options: ResolvedOption[] | null; link?: (text: string) => ReactNode }) {
  const own = cellRender(fmt.render)?.cell?.({ value, fmt, options });
  if (own !== undefined) return <>{own}</>;
  return <ScalarView value={value} fmt={fmt} options={options} link={link} />;
}

/** Whether a render draws a cell of its own (the list then renders it instead of its text). */
export function hasOwnCell(render: string | undefined): boolean {
  return !!cellRender(render)?.cell;
}

function ScalarView({ value, fmt, options, link }: { value: unknown; fmt: ValueFormat; options: ResolvedOption[] | null; link?: (text: string) => ReactNode }) {
  const yesNo = useYesNo();
  const text = formatScalar(value, fmt, options, yesNo);
  if (link && text) return <>{link(text)}</>;
  return <>{text}</>;
}
