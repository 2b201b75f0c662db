/**
 * A list's state in the address (docs/screens.md, "A list in the address"): the search
 * form's values, the sort, the page and the page size of the screen a route shows are
 * query parameters, so that a reload, the back button and a shared link keep them.
 *
 *   filter.<field>   one per filter with a value: text as typed, anything else as JSON
 *                    (numbers, booleans, option values, arrays, dates as YYYY-MM-DD,
 *                    date-times as ISO strings); `filter.x=` is a cleared default
 *   list.sort        the page query's sort ("-updatedAt,name")
 *   list.page        from 1; left out on the first page
 *   list.size        left out at the screen's default size
 *
 * The tab strip leaves these parameters out of a tab's identity (shell/tabs/tab-list.ts),
 * so a list stays one tab whatever its filters. Pure functions, tested in tests/unit.
 */
import dayjs from 'dayjs';
import type { SortingState } from '@tanstack/react-table';
import { initialFilterValues, isPair, type FilterSpec } from './filters.ts';

export const FILTER_PREFIX = 'filter.';
export const SORT_PARAM = 'list.sort';
export const PAGE_PARAM = 'list.page';
export const SIZE_PARAM = 'list.size';

export interface ListState {
  /** The search form's values (what `filterQuery` turns into the page query). */
  values: Record<string, unknown>;
  pageIndex: number;
  pageSize: number;
  sorting: SortingState;
}

function isDateWidget(spec: FilterSpec): boolean {
  return spec.widget === 'date' || spec.widget === 'dateRange' || spec.widget === 'datetimeRange';
}

function encodeDate(v: unknown, spec: FilterSpec): unknown {
  if (!dayjs.isDayjs(v)) return v ?? null;
  return spec.widget === 'datetimeRange' ? v.toISOString() : v.format('YYYY-MM-DD');
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.every((x) => x === undefined || x === null || x === ''));
}

/** One filter value as a query parameter value; undefined when it holds nothing. */
export function encodeFilterValue(spec: FilterSpec, v: unknown): string | undefined {
  if (isEmpty(v)) return undefined;
  if (spec.widget === 'input' && typeof v === 'string') return v;
  if (isDateWidget(spec)) return JSON.stringify(Array.isArray(v) ? v.map((x) => encodeDate(x, spec)) : encodeDate(v, spec));
  return JSON.stringify(v);
}

/** The value of one filter from its query parameter; undefined when it does not parse. */
export function decodeFilterValue(spec: FilterSpec, raw: string): unknown {
  if (raw === '') return undefined;
  if (spec.widget === 'input') return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (isDateWidget(spec)) {
    const revive = (x: unknown) => (typeof x === 'string' && dayjs(x).isValid() ? dayjs(x) : undefined);
    if (isPair(spec)) return Array.isArray(parsed) ? parsed.slice(0, 2).map(revive) : undefined;
    return revive(parsed);
  }
  if (isPair(spec)) return Array.isArray(parsed) ? parsed.slice(0, 2).map((x) => (typeof x === 'number' ? x : undefined)) : undefined;
  if (spec.widget === 'multiSelect') return Array.isArray(parsed) ? parsed.filter((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') : undefined;
  return typeof parsed === 'string' || typeof parsed === 'number' || typeof parsed === 'boolean' ? parsed : undefined;
}

function positiveInt(raw: string | null, fallback: number): number {
  const n = raw === null ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** Sort from `list.sort`, only on sortable columns. */
export function decodeSorting(raw: string | null, sortable: ReadonlySet<string>): SortingState {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => (s.startsWith('-') ? { id: s.slice(1), desc: true } : { id: s, desc: false }))
    .filter((s) => sortable.has(s.id));
}

/** The list's state as the address holds it; what it leaves out is the screen's default. */
export function readListState(params: URLSearchParams, specs: FilterSpec[], defaults: { pageSize: number; sortable: ReadonlySet<string> }): ListState {
  const values = initialFilterValues(specs);
  for (const spec of specs) {
    const raw = params.get(FILTER_PREFIX + spec.filter.field);
    if (raw === null) continue;
    const v = decodeFilterValue(spec, raw);
    if (v === undefined) delete values[spec.filter.field];
    else values[spec.filter.field] = v;
  }
  return {
    values,
    pageIndex: positiveInt(params.get(PAGE_PARAM), 1),
    pageSize: positiveInt(params.get(SIZE_PARAM), defaults.pageSize),
    sorting: decodeSorting(params.get(SORT_PARAM), defaults.sortable),
  };
}

/** `params` with the list's state written over it (other parameters are kept). */
export function writeListState(params: URLSearchParams, state: ListState, specs: FilterSpec[], defaults: { pageSize: number }): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of params) if (!k.startsWith(FILTER_PREFIX) && k !== SORT_PARAM && k !== PAGE_PARAM && k !== SIZE_PARAM) out.append(k, v);
  const initial = initialFilterValues(specs);
  for (const spec of specs) {
    const field = spec.filter.field;
    const value = encodeFilterValue(spec, state.values[field]);
    const fallback = encodeFilterValue(spec, initial[field]);
    if (value === fallback) continue;
    out.set(FILTER_PREFIX + field, value ?? '');
  }
  if (state.sorting.length) out.set(SORT_PARAM, state.sorting.map((s) => (s.desc ? `-${s.id}` : s.id)).join(','));
  if (state.pageIndex > 1) out.set(PAGE_PARAM, String(state.pageIndex));
  if (state.pageSize !== defaults.pageSize) out.set(SIZE_PARAM, String(state.pageSize));
  return out;
}
