/**
 * Labels of enumerated values, from the first source a field has: inline `options`, a
 * server dictionary `dict`, another resource's records `optionsFrom`, or the record
 * property's `enum` with `x-enumTitles` (docs/schema-language.md, "Options").
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useServices } from '../services/context.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { DataProvider, DataSource } from '../services/contract.ts';
import type { FieldSchema, ResourceDocument } from '../schema/resource.ts';
import type { Enumerated, Scalar } from '../schema/screen.ts';
import { isI18nText, textOf, type Lang } from '../schema/texts.ts';
import { resolveValue, type ValueContext } from '../schema/values.ts';
import { valueAt } from '../schema/conditions.ts';
import { onResourceChanged } from './data-events.ts';
import { useLang, useScreenHost } from './host.ts';

export interface ResolvedOption {
  value: Scalar;
  label: string;
  color?: string;
}

/** The record property a dot path names, looking into nested objects and array items. */
export function fieldSchemaOf(doc: ResourceDocument | undefined, path: string): FieldSchema | undefined {
  if (!doc) return undefined;
  let props: Record<string, FieldSchema> | undefined = doc.record.properties;
  let found: FieldSchema | undefined;
  for (const seg of path.split('.')) {
    found = props?.[seg];
    if (!found) return undefined;
    props = found.properties ?? found.items?.properties;
  }
  return found;
}

/** Options that need no request: inline ones, else the property's (or its items') enum. */
export function staticOptions(e: Enumerated, prop: FieldSchema | undefined, lang: Lang): ResolvedOption[] | null {
  if (e.options) return e.options.map((o) => ({ value: o.value, label: textOf(o.label, lang), color: o.color }));
  if (e.dict || e.optionsFrom || e.optionsEndpoint) return null;
  const source = prop?.enum ? prop : prop?.items?.enum ? prop.items : undefined;
  if (!source?.enum) return null;
  return source.enum.map((value, i) => ({ value, label: source['x-enumTitles']?.[i] ? textOf(source['x-enumTitles'][i], lang) : String(value) }));
}

const OPTION_LIMIT = 500;
// Per data provider: two consoles (or two snapshot harnesses) never share what one of them read.
let recordCaches = new WeakMap<DataProvider, Map<string, Promise<Record<string, unknown>[]>>>();
let replyCaches = new WeakMap<DataProvider, Map<string, Promise<unknown>>>();
onResourceChanged(() => {
  recordCaches = new WeakMap();
  replyCaches = new WeakMap();
});

function cacheOf<V>(caches: WeakMap<DataProvider, Map<string, V>>, data: DataProvider): Map<string, V> {
  let cache = caches.get(data);
  if (!cache) caches.set(data, (cache = new Map()));
  return cache;
}

/** Records of a resource for a select, cached per request until any resource changes. */
function fetchOptionRecords(data: DataProvider, registry: SchemaRegistry, resource: string, query: Record<string, Scalar>): Promise<Record<string, unknown>[]> {
  const source: DataSource = { resource, operation: 'page' };
  const key = `${data.key({ registry, source })}?${JSON.stringify(query)}`;
  const cache = cacheOf(recordCaches, data);
  let hit = cache.get(key);
  if (!hit) {
    hit = data
      .query<{ rows: Record<string, unknown>[] } | undefined>({ registry, source, params: { ...query, pageIndex: 1, pageSize: OPTION_LIMIT } as Record<string, string | number | boolean> })
      .then((page) => page?.rows ?? []);
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
  }
  return hit;
}

/** A label that may be a text in every language. */
function labelText(v: unknown, fallback: unknown, lang: Lang): string {
  if (isI18nText(v)) return textOf(v, lang);
  return String(v ?? fallback ?? '');
}

export function optionsFromRecords(registry: SchemaRegistry, e: Enumerated, rows: Record<string, unknown>[], lang: Lang = 'zh'): ResolvedOption[] {
  const src = e.optionsFrom!;
  const doc = registry.resource(src.resource);
  const valueField = src.valueField ?? 'id';
  const labelField = src.labelField ?? doc?.displayField ?? 'id';
  return rows.map((r) => ({ value: valueAt(r, valueField) as Scalar, label: labelText(valueAt(r, labelField), valueAt(r, valueField), lang) }));
}

/** Options of an `optionsEndpoint` reply: an array, a page's rows, or the array at `rows`. */
export function optionsFromReply(data: unknown, spec: { rows?: string; valueField?: string; labelField?: string }, lang: Lang): ResolvedOption[] {
  const list = spec.rows ? valueAt(data, spec.rows) : Array.isArray(data) ? data : valueAt(data, 'rows');
  if (!Array.isArray(list)) return [];
  const valueField = spec.valueField ?? 'value';
  const labelField = spec.labelField ?? 'label';
  return list.map((r) => {
    const color = valueAt(r, 'color');
    return { value: valueAt(r, valueField) as Scalar, label: labelText(valueAt(r, labelField), valueAt(r, valueField), lang), ...(typeof color === 'string' ? { color } : {}) };
  });
}

/** A reply's data (dictionaries, option endpoints), cached like option records. */
function fetchReply(data: DataProvider, registry: SchemaRegistry, source: DataSource, key: string): Promise<unknown> {
  const replyCache = cacheOf(replyCaches, data);
  let hit = replyCache.get(key);
  if (!hit) {
    hit = data.query<unknown>({ registry, source, quiet: true });
    hit.catch(() => replyCache.delete(key));
    replyCache.set(key, hit);
  }
  return hit;
}

export interface OptionSource {
  e: Enumerated | undefined;
  prop: FieldSchema | undefined;
}

/**
 * The options of several fields in the current language (one hook for a whole table or
 * form, so the number of fields may change between renders). Requests (optionsFrom,
 * dict) run when the values their filter depends on change; while one of those is
 * empty the list is empty. Null: the field has no enumeration (or its dictionary is
 * not available), so values show as they are.
 */
export function useOptionsList(sources: OptionSource[], ctx: ValueContext = {}): (ResolvedOption[] | null)[] {
  const lang = useLang();
  const { data } = useServices();
  const host = useScreenHost();
  const fixed = useMemo(() => sources.map((s) => (s.e ? staticOptions(s.e, s.prop, lang) : null)), [sources, lang]);
  const requests = sources.map((s, i) => {
    if (!s.e || fixed[i]) return null;
    if (s.e.optionsFrom) {
      const filter = Object.entries(s.e.optionsFrom.filter ?? {}).map(([k, ref]) => [k, resolveValue(ref, ctx) ?? null] as const);
      return { kind: 'from' as const, resource: s.e.optionsFrom.resource, filter, valueField: s.e.optionsFrom.valueField, labelField: s.e.optionsFrom.labelField };
    }
    if (s.e.optionsEndpoint) {
      // Resolved now, against this render's values: the request follows them through its key.
      const source: DataSource = { endpoint: s.e.optionsEndpoint.endpoint, ctx };
      const { rows, valueField, labelField } = s.e.optionsEndpoint;
      return { kind: 'endpoint' as const, source, at: data.key({ registry: host.registry, source }), rows, valueField, labelField };
    }
    if (s.e.dict) return { kind: 'dict' as const, code: s.e.dict };
    return null;
  });
  const key = JSON.stringify(requests, (k, v) => (k === 'source' ? undefined : v));
  const latest = useRef(requests);
  latest.current = requests;
  const [remote, setRemote] = useState<Record<number, ResolvedOption[] | null>>({});
  const [tick, setTick] = useState(0);
  const watched = [...new Set(requests.flatMap((r) => (r?.kind === 'from' ? [r.resource] : [])))].join(',');

  useEffect(() => {
    if (!watched) return;
    const names = new Set(watched.split(','));
    return onResourceChanged((r) => names.has(r) && setTick((t) => t + 1));
  }, [watched]);

  useEffect(() => {
    const reqs = latest.current;
    if (reqs.every((r) => r === null)) return;
    let live = true;
    reqs.forEach((r, i) => {
      if (!r) return;
      const done = (opts: ResolvedOption[] | null) => live && setRemote((prev) => ({ ...prev, [i]: opts }));
      if (r.kind === 'from') {
        const doc = host.registry.resource(r.resource);
        if (!doc || r.filter.some(([, v]) => v === null || v === '')) return done([]);
        fetchOptionRecords(data, host.registry, r.resource, Object.fromEntries(r.filter) as Record<string, Scalar>)
          .then((rows) => done(optionsFromRecords(host.registry, { optionsFrom: { resource: r.resource, valueField: r.valueField, labelField: r.labelField } }, rows, lang)))
          .catch(() => done([]));
      } else if (r.kind === 'endpoint') {
        if (!r.at) return done([]);
        fetchReply(data, host.registry, r.source, r.at)
          .then((reply) => done(optionsFromReply(reply, r, lang)))
          .catch(() => done([]));
      } else if (host.dictionary) {
        host
          .dictionary(r.code)
          .then((opts) => done(opts.map((o) => ({ value: o.value, label: textOf(o.label, lang), color: o.color }))))
          .catch(() => done(null));
      } else {
        // The server's dictionaries (any signed-in user).
        const source: DataSource = { dictionary: r.code };
        fetchReply(data, host.registry, source, data.key({ registry: host.registry, source }) ?? r.code)
          .then((reply) => done(optionsFromReply(reply, {}, lang)))
          .catch(() => done(null));
      }
    });
    return () => {
      live = false;
    };
  }, [key, data, host, lang, tick]);

  // The same array while nothing changed, so that tables and forms keep their memoised columns.
  return useMemo(() => sources.map((_, i) => fixed[i] ?? (requests[i] ? (remote[i] ?? null) : null)), [sources, fixed, remote, key]); // eslint-disable-line react-hooks/exhaustive-deps
}

export function useOptions(e: Enumerated | undefined, prop: FieldSchema | undefined, ctx: ValueContext = {}): ResolvedOption[] | null {
  const sources = useMemo(() => [{ e, prop }], [e, prop]);
  return useOptionsList(sources, ctx)[0];
}

export function optionLabel(options: ResolvedOption[] | null, value: unknown): ResolvedOption | undefined {
  return options?.find((o) => o.value === value || String(o.value) === String(value));
}
