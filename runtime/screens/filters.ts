/**
 * The search form of a table, as data: which widget each filter gets and which query
 * parameters its value becomes (docs/schema-language.md, "Filter"). Pure functions, so
 * the query a table sends is testable without rendering it.
 */
import dayjs, { type Dayjs } from 'dayjs';
import type { QueryValue } from '../http/client.ts';
import type { FieldSchema, ResourceDocument } from '../schema/resource.ts';
import type { Filter, FilterOp, FilterWidget, FixedFilter } from '../schema/screen.ts';
import { resolveValue, type ValueContext } from '../schema/values.ts';
import { fieldSchemaOf } from './options.ts';

export interface FilterSpec {
  filter: Filter;
  op: FilterOp;
  widget: FilterWidget;
  prop: FieldSchema | undefined;
}

export function filterSpec(filter: Filter, doc: ResourceDocument | undefined): FilterSpec {
  const prop = fieldSchemaOf(doc, filter.field);
  const kind = doc?.searchable.find((s) => s.field === filter.field)?.filter;
  // A keyword filter (one parameter over several text properties) is a text box, like `like`.
  const op = filter.op ?? (kind === 'keyword' ? 'like' : kind) ?? 'eq';
  return { filter, op, widget: filter.widget ?? defaultWidget(op, prop, filter), prop };
}

function defaultWidget(op: FilterOp, prop: FieldSchema | undefined, f: Filter): FilterWidget {
  const enumerated = !!(f.options || f.dict || f.optionsFrom || prop?.enum || prop?.items?.enum);
  const isDate = prop?.format === 'date' || prop?.format === 'date-time';
  if (op === 'in') return 'multiSelect';
  if (op === 'range') return isDate ? (prop?.format === 'date-time' ? 'datetimeRange' : 'dateRange') : 'number';
  if (enumerated) return 'select';
  if (prop?.type === 'integer' || prop?.type === 'number') return 'number';
  if (prop?.type === 'boolean') return 'switch';
  if (isDate) return 'date';
  return 'input';
}

/** Whether the widget holds two values (from, to). */
export function isPair(spec: FilterSpec): boolean {
  return spec.op === 'range' || spec.widget === 'dateRange' || spec.widget === 'datetimeRange';
}

function wire(v: unknown, spec: FilterSpec): string | number | boolean | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (dayjs.isDayjs(v)) {
    const d = v as Dayjs;
    return spec.widget === 'datetimeRange' || spec.prop?.format === 'date-time' ? d.toISOString() : d.format('YYYY-MM-DD');
  }
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  return String(v);
}

/** The page query parameters of the search form's values; empty values send nothing. */
export function filterQuery(specs: FilterSpec[], values: Record<string, unknown>): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const spec of specs) {
    const v = values[spec.filter.field];
    const field = spec.filter.field;
    if (isPair(spec)) {
      const [from, to] = Array.isArray(v) ? v : [undefined, undefined];
      const a = wire(from, spec);
      const b = wire(to, spec);
      const names = spec.filter.paramNames;
      if (spec.op === 'range' || names) {
        if (a !== undefined) out[names?.from ?? `${field}From`] = a;
        if (b !== undefined) out[names?.to ?? `${field}To`] = b;
      } else if (a !== undefined) out[field] = a;
      continue;
    }
    if (spec.op === 'in' || Array.isArray(v)) {
      const list = (Array.isArray(v) ? v : [v]).map((x) => wire(x, spec)).filter((x): x is string | number | boolean => x !== undefined);
      if (list.length) out[field] = list;
      continue;
    }
    const w = wire(v, spec);
    if (w !== undefined) out[field] = w;
  }
  return out;
}

export function fixedQuery(fixed: FixedFilter[] | undefined, ctx: ValueContext): Record<string, QueryValue> | null {
  const out: Record<string, QueryValue> = {};
  for (const f of fixed ?? []) {
    const v = resolveValue(f.value, ctx);
    // A fixed filter without its value would widen the list to every record: ask nothing instead.
    if (v === undefined || v === null || v === '') return null;
    out[f.field] = v as QueryValue;
  }
  return out;
}

export function initialFilterValues(specs: FilterSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of specs) if (s.filter.default !== undefined) out[s.filter.field] = s.filter.default;
  return out;
}

/** `[{id, desc}]` → the page query's `sort` ("name", "-updatedAt"). */
export function sortParam(sorting: { id: string; desc: boolean }[]): string | undefined {
  return sorting.length ? sorting.map((s) => (s.desc ? `-${s.id}` : s.id)).join(',') : undefined;
}
