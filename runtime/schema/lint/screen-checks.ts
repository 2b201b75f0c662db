/**
 * The checks that several rules run on parts of a screen (value references, navigation
 * targets, endpoints, options, actions, tables), bound to the screen under check so that
 * each reports with the screen's routes, authorities and resource.
 */
import { conditionFields, type Condition } from '../conditions.ts';
import { parseSort } from '../resource/query.ts';
import { IMPLICIT_SORTABLE, MAX_PAGE_SIZE, type FieldSchema } from '../resource/types.ts';
import { routeShape } from '../route-shape.ts';
import {
  isResourceEndpoint, resolveElementCode, resolveRoute, routeParams, screenRoutes,
  type Action, type Column, type EndpointRef, type Enumerated, type HttpMethod, type NavigateTarget,
  type ParamMap, type TableParts, type ValueRef,
} from '../screen.ts';
import { escapePointerSegment } from '../validate.ts';
import { parseRef, type ValueRoot } from '../values.ts';
import { operationEndpoint, resourceEndpoints, servesOperation } from '../../protocol/operations.ts';
import { importableFields } from '../resource-import.ts';
import type { AddProblem, Resource, ScreenLintContext } from './context.ts';
import { checkGrants, fieldKnown, isSortable, pathsMatch, routeAccepts } from './fields.ts';

/** Where a value reference or an action sits, which decides the roots it may read. */
export type Context = 'toolbar' | 'row' | 'batch' | 'record' | 'related' | 'screen';

export const ROOTS_BY_CONTEXT: Record<Context, ValueRoot[]> = {
  toolbar: ['route', 'query'],
  row: ['row', 'route', 'query'],
  batch: ['selection', 'route', 'query'],
  record: ['record', 'route', 'query'],
  // A related list's row actions see the child row and the parent record.
  related: ['row', 'record', 'route', 'query'],
  screen: ['route', 'query'],
};

export type ScreenChecks = ReturnType<typeof screenChecks>;

export function screenChecks(lint: ScreenLintContext, add: AddProblem) {
  const { input, screen, routes, routeShapes, authorities, missingResource } = lint;
  const byId = lint.screensById;
  const elementSet = lint.elementCodes;
  const routeParamSets = routes.map((r) => new Set(routeParams(r.route)));

  const checkRefs = (map: ParamMap | undefined, at: string, ctx: Context, rowRes: Resource | undefined, recordRes: Resource | undefined) => {
    for (const [name, ref] of Object.entries(map ?? {})) checkRef(ref, `${at}/${escapePointerSegment(name)}`, ctx, rowRes, recordRes);
  };
  const checkRef = (ref: ValueRef, at: string, ctx: Context, rowRes: Resource | undefined, recordRes: Resource | undefined) => {
    const parsed = parseRef(ref);
    if (!parsed) return;
    if (!ROOTS_BY_CONTEXT[ctx].includes(parsed.root)) {
      add(at, `"${ref as string}" reads ${parsed.root}, which is not available here (available: ${ROOTS_BY_CONTEXT[ctx].join(', ')})`);
      return;
    }
    const head = parsed.path.split('.')[0];
    if (parsed.root === 'route') {
      if (routeParamSets.length && routeParamSets.some((set) => !set.has(head)))
        add(at, `"${ref as string}": ":${head}" is not a parameter of every route of this screen`);
    } else if (parsed.root === 'row' || parsed.root === 'selection') {
      if (rowRes) checkField(rowRes, parsed.path, at, 'row');
    } else if (parsed.root === 'record') {
      if (recordRes) checkField(recordRes, parsed.path, at, 'row');
    }
  };
  const checkField = (r: Resource, path: string, at: string, use: 'row' | 'record') => {
    if (!fieldKnown(r, path, use)) add(at, `"${path}" is not a field of resource "${r.name}"${use === 'row' ? ' (record properties, meta fields or labels.<reference>)' : ''}`);
  };
  const checkCondition = (c: Condition | undefined, at: string, r: Resource | undefined) => {
    if (!c || !r) return;
    for (const f of conditionFields(c)) if (!fieldKnown(r, f, 'row')) add(at, `condition reads "${f}", which is not a field of resource "${r.name}"`);
  };
  const checkNavigate = (t: NavigateTarget, at: string, ctx: Context, rowRes: Resource | undefined, recordRes: Resource | undefined) => {
    const hosts = t.document ? [] : routes.length ? routes.map((r) => r.route) : [undefined];
    if (t.document && !t.to.startsWith('/')) add(`${at}/to`, `a document's route is absolute: "${t.to}"`);
    for (const host of hosts) {
      const target = resolveRoute(t.to, host);
      if (!host && !t.to.startsWith('/')) {
        const anywhere = [...routeShapes.keys()].some((shape) => routeAccepts(shape.split('/').slice(2).join('/'), routeShape(t.to)));
        if (!anywhere) add(`${at}/to`, `"${t.to}" is no route of any section`);
        continue;
      }
      if (![...routeShapes.keys()].some((shape) => routeAccepts(shape, routeShape(target)))) add(`${at}/to`, `"${target}" is no route of any screen${host ? ` (resolved from ${host})` : ''}`);
    }
    const needed = t.to.split('/').filter((s) => s.startsWith(':') && !s.endsWith('?')).map((s) => s.slice(1));
    const all = routeParams(t.to);
    for (const p of needed) if (!t.params || !(p in t.params)) add(`${at}/params`, `has no value for :${p} of "${t.to}"`);
    for (const p of Object.keys(t.params ?? {})) if (!all.includes(p)) add(`${at}/params/${escapePointerSegment(p)}`, `"${t.to}" has no parameter :${p}`);
    checkRefs(t.params, `${at}/params`, ctx, rowRes, recordRes);
    checkRefs(t.query, `${at}/query`, ctx, rowRes, recordRes);
    // filter.<field> sets a filter of the list opened there: the screen at that route must have it.
    const filterKeys = Object.keys(t.query ?? {}).filter((k) => k.startsWith('filter.'));
    if (filterKeys.length && !t.document) {
      const target = resolveRoute(t.to, routes[0]?.route);
      const lists = [...byId.values()].filter(({ screen: s }) => s.kind === 'table' && screenRoutes(s).some((r) => routeAccepts(routeShape(r.route), routeShape(target))));
      for (const k of filterKeys) {
        const field = k.slice('filter.'.length);
        if (!lists.some(({ screen: s }) => s.kind === 'table' && (s.filters ?? []).some((f) => f.field === field)))
          add(`${at}/query/${escapePointerSegment(k)}`, `"${target}" shows no list with a filter "${field}"`);
      }
    }
  };
  const checkEndpoint = (e: EndpointRef, at: string, ctx: Context, rowRes: Resource | undefined, recordRes: Resource | undefined) => {
    let method: HttpMethod;
    let path: string;
    if (isResourceEndpoint(e)) {
      const name = e.resource ?? screen.resource;
      const r = name ? input.resources.get(name) : undefined;
      if (!name) return add(at, `operation "${e.operation}" needs a resource: the screen has none, so name one`);
      if (!r) return add(`${at}/resource`, missingResource(name));
      if (name !== screen.resource) checkGrants(r, authorities, `${at}/resource`, add);
      ({ method, path } = operationEndpoint(r, e.operation));
    } else {
      method = e.method ?? 'GET';
      path = e.path;
      const known = [...input.resources.values()].some((r) => resourceEndpoints(r).some((x) => x.method === method && pathsMatch(x.path, path)));
      if (!known && input.served) {
        if (input.served === 'resources-only') add(`${at}/path`, `${method} ${path} is served by no resource (the server's OpenAPI document was not available to check other routes)`);
        else if (!input.served(method, path)) add(`${at}/path`, `${method} ${path} is not served by the server (not in its OpenAPI document)`);
      }
    }
    const params = routeParams(path);
    for (const p of params) if (!e.params || !(p in e.params)) add(`${at}/params`, `has no value for :${p} of ${method} ${path}`);
    for (const p of Object.keys(e.params ?? {})) if (!params.includes(p)) add(`${at}/params/${escapePointerSegment(p)}`, `${method} ${path} has no parameter :${p}`);
    checkRefs(e.params, `${at}/params`, ctx, rowRes, recordRes);
    if (!isResourceEndpoint(e)) checkRefs(e.query, `${at}/query`, ctx, rowRes, recordRes);
  };
  const checkOptions = (x: Enumerated, at: string, ctx: Context = 'screen', recordRes?: Resource) => {
    if (x.optionsEndpoint) checkEndpoint(x.optionsEndpoint.endpoint, `${at}/optionsEndpoint/endpoint`, ctx, undefined, recordRes);
    if (!x.optionsFrom) return;
    const r = input.resources.get(x.optionsFrom.resource);
    if (!r) return add(`${at}/optionsFrom/resource`, missingResource(x.optionsFrom.resource));
    checkGrants(r, authorities, `${at}/optionsFrom/resource`, (ptr, msg) => add(ptr, `${msg}; users holding only this screen's authority get no options`, 'warning'), 'read');
    if (x.optionsFrom.valueField && !fieldKnown(r, x.optionsFrom.valueField, 'row')) add(`${at}/optionsFrom/valueField`, `"${x.optionsFrom.valueField}" is not a field of resource "${r.name}"`);
    if (x.optionsFrom.labelField && !fieldKnown(r, x.optionsFrom.labelField, 'row')) add(`${at}/optionsFrom/labelField`, `"${x.optionsFrom.labelField}" is not a field of resource "${r.name}"`);
    for (const f of Object.keys(x.optionsFrom.filter ?? {})) {
      if (!r.searchable.some((s) => s.field === f)) add(`${at}/optionsFrom/filter/${escapePointerSegment(f)}`, `"${f}" is not searchable on resource "${r.name}"`);
    }
  };
  const checkEnumRender = (x: Enumerated & { field: string; render?: string }, at: string, r: Resource | undefined) => {
    const labels = !!(x.options || x.dict || x.optionsFrom || x.optionsEndpoint);
    // Words everywhere (issue 29): a value that is a code never shows as itself. A column of
    // an endpoint's reply (no record schema to take labels from) whose field is named like a
    // code (status, state, kind, type, …Status, …Type, …Kind) needs labels or a render that
    // is not text; a record property with an enum needs x-enumTitles whatever the render.
    if (!labels && !r && (x.render === undefined || x.render === 'text' || x.render === 'tag' || x.render === 'enum') && CODE_FIELD.test(x.field.split('.').pop() ?? ''))
      add(at, `"${x.field}" would show a raw code: give the column options, dict or optionsFrom (labels in every language)`);
    if (!labels && r) {
      const own = fieldProperty(r, x.field);
      if (own?.enum && !own['x-enumTitles'] && own.type !== 'integer' && own.type !== 'number') add(at, `"${x.field}" would show a raw code: its record property has an enum without x-enumTitles`);
    }
    if (x.render !== 'tag' && x.render !== 'enum') return;
    if (labels || !r) return;
    const prop = r.record.properties[x.field];
    const labelled = (p: FieldSchema | undefined) => !!(p?.enum && p['x-enumTitles']);
    if (!labelled(prop) && !labelled(prop?.items) && !r.references?.[x.field])
      add(`${at}/render`, `render ${x.render} needs options, dict or optionsFrom, or a record property with enum and x-enumTitles`);
  };
  const checkActions = (list: Action[] | undefined, at: string, ctx: Context, rowRes: Resource | undefined, recordRes: Resource | undefined) => {
    (list ?? []).forEach((a, i) => {
      const p = `${at}/${i}`;
      if (a.elementCode) {
        if (!input.menus) add(`${p}/elementCode`, 'no menus document is loaded, so the element code cannot be checked');
        else
          for (const auth of authorities) {
            const code = resolveElementCode(a.elementCode, auth);
            if (!elementSet.has(code)) add(`${p}/elementCode`, `"${code}" is not an element code of the menus document${a.elementCode.startsWith(':') ? ` (for authority ${auth})` : ''}`);
          }
      }
      const whenOver = ctx === 'record' ? recordRes : ctx === 'toolbar' || ctx === 'screen' ? undefined : rowRes;
      checkCondition(a.when, `${p}/when`, whenOver);
      switch (a.kind) {
        case 'navigate':
          checkNavigate(a, p, ctx, rowRes, recordRes);
          break;
        case 'openForm': {
          const target = byId.get(a.screen);
          if (!target) add(`${p}/screen`, `names "${a.screen}", which is no screen`);
          else if (target.screen.kind !== 'form') add(`${p}/screen`, `"${a.screen}" is a ${target.screen.kind} screen, not a form`);
          else if (a.mode !== 'add') {
            const idParam = target.screen.idParam ?? 'id';
            if (!a.params || !(idParam in a.params)) add(`${p}/params`, `mode ${a.mode} needs params.${idParam} (the form's id parameter)`);
          }
          checkRefs(a.params, `${p}/params`, ctx, rowRes, recordRes);
          checkRefs(a.initial, `${p}/initial`, ctx, rowRes, recordRes);
          if (a.subject !== undefined) checkRef(a.subject, `${p}/subject`, ctx, rowRes, recordRes);
          if (target?.screen.kind === 'form' && target.screen.resource) {
            const formRes = input.resources.get(target.screen.resource);
            for (const f of Object.keys(a.initial ?? {}))
              if (formRes && !(f in formRes.record.properties)) add(`${p}/initial/${escapePointerSegment(f)}`, `"${f}" is not a property of resource "${formRes.name}"'s record`);
          }
          break;
        }
        case 'call':
          checkEndpoint(a.endpoint, `${p}/endpoint`, ctx, rowRes, recordRes);
          checkRefs(a.body, `${p}/body`, ctx, rowRes, recordRes);
          // record.* of `then` is the reply's data, whose shape the endpoint alone knows.
          if (a.then) checkNavigate(a.then, `${p}/then`, 'record', rowRes, undefined);
          if (a.prompt && a.body && a.prompt.field in a.body) add(`${p}/prompt/field`, `"${a.prompt.field}" is also a property of the body; the prompt would overwrite it`);
          if (a.prompt?.pattern) {
            try {
              new RegExp(a.prompt.pattern);
            } catch {
              add(`${p}/prompt/pattern`, 'is not a valid regular expression');
            }
          }
          break;
        case 'export':
          if (ctx !== 'toolbar') add(`${p}/kind`, 'export acts on the current query: put it in the toolbar');
          break;
        case 'import': {
          // Rows are created in a resource that takes creates; the template's fields are ones a file may fill.
          if (ctx !== 'toolbar') add(`${p}/kind`, 'import adds records to a table: put it in the toolbar');
          const name = a.resource ?? rowRes?.name;
          const target = name ? input.resources.get(name) : undefined;
          if (!target) add(`${p}/resource`, name ? missingResource(name) : 'names no resource: the table has none');
          else if (!servesOperation(target, 'create')) add(`${p}/resource`, `resource "${target.name}" serves no create, so nothing can be imported into it`);
          else {
            const importable = importableFields(target);
            (a.fields ?? []).forEach((f, j) => {
              if (!importable.includes(f)) add(`${p}/fields/${j}`, `"${f}" is no field a file may fill in resource "${target.name}" (importable: ${importable.join(', ')})`);
            });
          }
          break;
        }
        case 'transition': {
          // A transition acts on one record: a row, or a form's or detail's record.
          const r = ctx === 'record' ? recordRes : ctx === 'row' || ctx === 'related' ? rowRes : undefined;
          const name = a.resource ?? r?.name;
          const target = name ? input.resources.get(name) : undefined;
          if (ctx !== 'record' && ctx !== 'row' && ctx !== 'related') add(`${p}/kind`, 'a transition acts on one record: put it among row actions or a form’s or detail’s actions');
          else if (!target) add(`${p}/resource`, name ? missingResource(name) : 'names no resource: the screen has none');
          else if (!target.transitions?.[a.transition])
            add(`${p}/transition`, `"${a.transition}" is no transition of resource "${target.name}"${target.transitions ? ` (declared: ${Object.keys(target.transitions).join(', ')})` : ' (it declares none)'}`);
          break;
        }
      }
    });
  };
  const checkTable = (t: TableParts, at: string, r: Resource | undefined, related: boolean, parent: Resource | undefined) => {
    const rowCtx: Context = related ? 'related' : 'row';
    t.columns.forEach((c: Column, i) => {
      const p = `${at}/columns/${i}`;
      if (r) checkField(r, c.field, `${p}/field`, 'row');
      if (r && c.sortable && !isSortable(r, c.field)) add(`${p}/sortable`, `"${c.field}" is not sortable on resource "${r.name}" (sortable: ${[...r.sortable, ...IMPLICIT_SORTABLE].join(', ')})`);
      checkEnumRender(c, p, r);
      checkOptions(c, p);
      if (c.link) checkNavigate(c.link, `${p}/link`, rowCtx, r, parent);
    });
    (t.filters ?? []).forEach((f, i) => {
      const p = `${at}/filters/${i}`;
      if (!r) return;
      const s = r.searchable.find((x) => x.field === f.field);
      if (!s) add(`${p}/field`, `"${f.field}" is not searchable on resource "${r.name}" (searchable: ${r.searchable.map((x) => x.field).join(', ')})`);
      else if (f.op && f.op !== s.filter) add(`${p}/op`, `resource "${r.name}" filters "${f.field}" with ${s.filter}, not ${f.op}`);
      checkOptions(f, p);
    });
    (t.fixedFilters ?? []).forEach((f, i) => {
      const p = `${at}/fixedFilters/${i}`;
      if (r && !r.searchable.some((x) => x.field === f.field)) add(`${p}/field`, `"${f.field}" is not searchable on resource "${r.name}"`);
      checkRef(f.value, `${p}/value`, related ? 'record' : 'screen', r, parent);
    });
    if (r && t.defaultSort) {
      const sort = parseSort(t.defaultSort, r);
      if ('error' in sort) add(`${at}/defaultSort`, sort.error);
    }
    if (r && t.rowKey) checkField(r, t.rowKey, `${at}/rowKey`, 'row');
    if (r && t.pageSize && t.pageSize > MAX_PAGE_SIZE) add(`${at}/pageSize`, `the resource engine serves at most ${MAX_PAGE_SIZE} rows a page`);
    if (r && t.paged === false && !related && !('endpoint' in t && t.endpoint)) add(`${at}/paged`, `resource "${r.name}"'s page query is always paged`);
    if (t.selection === 'none' && t.batchActions?.length) add(`${at}/selection`, 'batch actions need row selection');
    if (r && t.tree?.parentField) checkField(r, t.tree.parentField, `${at}/tree/parentField`, 'row');
    if (t.tree?.parentField && t.tree.children) add(`${at}/tree`, 'give either children (nested rows) or parentField (rows assembled by parent), not both');
    checkActions(t.toolbar, `${at}/toolbar`, related ? 'record' : 'toolbar', r, parent);
    checkActions(t.rowActions, `${at}/rowActions`, rowCtx, r, parent);
    checkActions(t.batchActions, `${at}/batchActions`, 'batch', r, parent);
  };
  return { checkRefs, checkRef, checkField, checkCondition, checkNavigate, checkEndpoint, checkOptions, checkEnumRender, checkActions, checkTable };
}

/** Field names that hold codes rather than words (issue 29, "Words everywhere"). */
export const CODE_FIELD = /^(status|state|kind|type|direction|decision|readingKind|action)$|[a-z](Status|State|Type|Kind|Direction)$/;

/** The record property a column's dot path names (through arrays' items), if any. */
function fieldProperty(r: Resource, path: string): FieldSchema | undefined {
  let prop: FieldSchema | undefined;
  for (const [i, seg] of path.split('.').entries()) {
    if (i === 0) prop = r.record.properties[seg];
    else if (!prop) return undefined;
    else prop = prop.type === 'array' ? prop.items?.properties?.[seg] : prop.properties?.[seg];
  }
  return prop?.type === 'array' ? prop.items : prop;
}
