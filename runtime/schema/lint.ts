/**
 * Rules across documents: what the meta-schema cannot know on its own. A screen must name
 * authority keys and element codes of the menus, resources that exist, fields of those
 * resources' records, routes and screens that exist, endpoints that are served, widgets
 * that are registered. Pure code: the registry, schemas:check and the server's publish
 * step run the same rules.
 */
import { conditionFields, type Condition } from './conditions.ts';
import { childLink, elementCodes as menuElementCodes, menuCodes, type MenuChild, type MenuDocument } from './menus.ts';
import { IMPLICIT_SORTABLE, META_FIELDS, MAX_PAGE_SIZE, parseSort, type FieldSchema, type ResourceDocument } from './resource.ts';
import {
  isResourceEndpoint, resolveElementCode, resolveRoute, routeParams, screenRoutes,
  type Action, type Column, type EndpointRef, type Enumerated, type HttpMethod, type NavigateTarget,
  type ParamMap, type Screen, type TableParts, type ValueRef,
} from './screen.ts';
import { escapePointerSegment, type SchemaProblem, type Severity } from './validate.ts';
import { isPublicPath, type PublicPaths } from '../routing/access.ts';
import { parseRef, type ValueRoot } from './values.ts';
import { routeShape } from './route-shape.ts';
import { operationEndpoint, resourceEndpoints } from '../protocol/operations.ts';
import { LANGS, type LocalizedText } from '../protocol/texts.ts';

/** Resource documents as the resource engine reads them (aliases are optional there). */
type Resource = ResourceDocument & { authorityAliases?: string[] };

export interface LintedScreen {
  screen: Screen;
  file: string;
}

export interface LintInput {
  screens: LintedScreen[];
  resources: ReadonlyMap<string, Resource>;
  menus: MenuDocument | null;
  widgetNames: readonly string[];
  /** The product's public paths (ProductProfile); absent, public screens' routes are not checked against them. */
  publicPaths?: PublicPaths;
  /** Names of resource documents that exist but are invalid (so a screen naming one is not blamed twice). */
  invalidResources?: ReadonlySet<string>;
  /**
   * Whether the server serves `method path` (from its OpenAPI document).
   * `'resources-only'`: the server's routes could not be read, so only the resources' own
   * endpoints are known and any other literal endpoint is an error (schemas:check without
   * the server). Absent: the server's routes are unknown here (the console, the snapshot
   * tests), so literal endpoints are taken on trust; schemas:check is where they are verified.
   */
  served?: ((method: HttpMethod, path: string) => boolean) | 'resources-only';
}

/** Route patterns compare equal whatever their parameters are called. */
export { routeShape };

/**
 * Whether a route (shape) takes a navigation target (shape): each segment equal, or a
 * literal of the target standing where the route has a parameter ("/s/edit/:id" is a
 * "/s/:operate/:id").
 */
function routeAccepts(route: string, target: string): boolean {
  const r = route.split('/');
  const t = target.split('/');
  return r.length === t.length && r.every((x, i) => x === t[i] || (x.startsWith(':') && !t[i].startsWith(':')));
}

export { operationEndpoint, resourceEndpoints };

/** Static segments must match exactly; a literal segment also matches a parameter of the other pattern. */
function pathsMatch(a: string, b: string): boolean {
  const sa = a.split('/');
  const sb = b.split('/');
  if (sa.length !== sb.length) return false;
  return sa.every((x, i) => x === sb[i] || x.startsWith(':') || sb[i].startsWith(':'));
}

type Context = 'toolbar' | 'row' | 'batch' | 'record' | 'related' | 'screen';

const ROOTS_BY_CONTEXT: Record<Context, ValueRoot[]> = {
  toolbar: ['route', 'query'],
  row: ['row', 'route', 'query'],
  batch: ['selection', 'route', 'query'],
  record: ['record', 'route', 'query'],
  // A related list's row actions see the child row and the parent record.
  related: ['row', 'record', 'route', 'query'],
  screen: ['route', 'query'],
};

export function lintScreens(input: LintInput): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const menuCodeSet = new Set(input.menus ? menuCodes(input.menus) : []);
  const elementSet = new Set(input.menus ? menuElementCodes(input.menus) : []);
  const byId = new Map(input.screens.map((s) => [s.screen.id, s]));
  const routeShapes = new Map<string, string>();
  for (const { screen } of input.screens) for (const r of screenRoutes(screen)) routeShapes.set(routeShape(r.route), r.route);
  const widgets = new Set(input.widgetNames);
  const menuEntries = new Map<string, MenuChild>();
  for (const section of input.menus?.menus ?? []) for (const child of section.children) menuEntries.set(childLink(section, child).toLowerCase(), child);
  const missingResource = (name: string) =>
    input.invalidResources?.has(name) ? `names "${name}", whose resource document is invalid (see its problems)` : `names "${name}", which is no resource document`;

  for (const { screen, file } of input.screens) {
    const add = (pointer: string, message: string, severity: Severity = 'error') => problems.push({ file, pointer, message, severity });
    const routes = screenRoutes(screen);
    const authorities = routes.length ? [...new Set(routes.map((r) => r.authority))] : [screen.authority];
    const resource = screen.resource ? input.resources.get(screen.resource) : undefined;

    // --- authority ---------------------------------------------------------------
    if (!input.menus) add('/authority', 'no menus document is loaded, so the authority key cannot be checked');
    else {
      if (!menuCodeSet.has(screen.authority)) add('/authority', `"${screen.authority}" is not a menu code of the menus document`);
      (screen.aliases ?? []).forEach((a, i) => {
        if (a.authority && !menuCodeSet.has(a.authority)) add(`/aliases/${i}/authority`, `"${a.authority}" is not a menu code of the menus document`);
      });
    }
    if (screen.resource && !resource) add('/resource', missingResource(screen.resource));
    if (resource) checkGrants(resource, authorities, '/resource', add);

    // --- one name per screen: the menu entry that opens a route names it as the screen does ---
    routes.forEach((r, i) => {
      const entry = menuEntries.get(r.route.toLowerCase());
      if (!entry) return;
      const differs = LANGS.filter((l) => entry.title[l] !== screen.title[l]);
      if (differs.length)
        add(
          i === 0 && screen.route ? '/title' : `/aliases/${screen.route ? i - 1 : i}/route`,
          `the menu entry "${entry.code}" opening ${r.route} is titled ${differs.map((l) => `${l} "${entry.title[l]}"`).join(', ')} but the screen ${differs.map((l) => `"${screen.title[l]}"`).join(', ')}: the menu, the tab and the heading must use one name`,
        );
    });

    // --- the record title names fields of the record -----------------------------------
    if (screen.recordTitle) {
      const own = screen.kind === 'form' ? screen.record : undefined;
      for (const m of new Set(textOf3(screen.recordTitle).flatMap((x) => [...x.matchAll(/\{([\w.]+)\}/g)].map((g) => g[1])))) {
        const known = resource ? fieldKnown(resource, m, 'record') : own ? m.split('.')[0] in own.properties : true;
        if (!known) add('/recordTitle', `{${m}} is not a field of the record`);
      }
    }

    // --- public screens ------------------------------------------------------------
    const publicPaths = input.publicPaths;
    if (screen.public && publicPaths)
      routes.forEach((r, i) => {
        if (!isPublicPath(r.route, publicPaths)) add(i === 0 && screen.route ? '/route' : `/aliases/${screen.route ? i - 1 : i}/route`, `"${r.route}" is not a public path of the access rules (runtime/routing/access.ts and the product profile), so visitors without a session would be sent to the login page`);
      });

    // --- texts -------------------------------------------------------------------
    walkTexts(screen, '', (pointer, langs) => add(pointer, `${langs.join(' and ')} still copied from another language (untranslated)`, 'warning'));

    // --- helpers bound to this screen ----------------------------------------------
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
      const hosts = routes.length ? routes.map((r) => r.route) : [undefined];
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
      if (x.render !== 'tag' && x.render !== 'enum') return;
      if (x.options || x.dict || x.optionsFrom || x.optionsEndpoint || !r) return;
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

    // --- parts of each kind -----------------------------------------------------
    switch (screen.kind) {
      case 'table':
        checkTable(screen, '', resource, false, undefined);
        if (screen.endpoint) checkEndpoint(screen.endpoint, '/endpoint', 'screen', resource, undefined);
        break;
      case 'form': {
        const modeParam = screen.modeParam ?? 'operate';
        const idParam = screen.idParam ?? 'id';
        routes.forEach((r, i) => {
          const params = routeParams(r.route);
          const at = i === 0 && screen.route ? '/route' : `/aliases/${screen.route ? i - 1 : i}/route`;
          if (params.includes(modeParam) && !params.includes(idParam)) add(at, `has :${modeParam} but no :${idParam}: edit and show need the record id`);
          if (!params.includes(modeParam) && screen.defaultMode && screen.defaultMode !== 'add' && !params.includes(idParam))
            add(at, `has no :${idParam}, but the default mode ${screen.defaultMode} needs the record id`);
        });
        // A form without a resource carries its own record schema (and its own endpoints).
        const model: Resource | undefined =
          resource ?? (screen.record ? ({ name: `${screen.id} (record)`, record: screen.record, searchable: [], sortable: [], references: {} } as unknown as Resource) : undefined);
        if (!resource && screen.record) {
          if (!screen.endpoints?.create && !screen.endpoints?.update) add('/endpoints', 'a form without a resource needs endpoints.create or endpoints.update');
          const editable = routes.some((r) => routeParams(r.route).includes(modeParam)) || (screen.defaultMode ?? 'add') !== 'add';
          if (editable && !screen.endpoints?.load) add('/endpoints', 'a form without a resource that edits or shows records needs endpoints.load');
        }
        const seen = new Set<string>();
        const trees: { field: string; leafField?: string; at: string }[] = [];
        screen.sections.forEach((s, si) => {
          checkCondition(s.when, `/sections/${si}/when`, model);
          s.fields.forEach((f, fi) => {
            const p = `/sections/${si}/fields/${fi}`;
            if (model && !(f.field in model.record.properties)) add(`${p}/field`, `"${f.field}" is not a property of ${resource ? `resource "${model.name}"'s record` : 'the form\'s record'}`);
            if (seen.has(f.field)) add(`${p}/field`, `"${f.field}" appears twice on the form`);
            seen.add(f.field);
            if (f.span && f.span > (s.columns ?? 2)) add(`${p}/span`, `spans ${f.span} columns; the section has ${s.columns ?? 2}`);
            checkCondition(f.when, `${p}/when`, model);
            checkOptions(f, p, 'record', model);
            if (f.tree) {
              if (f.widget !== 'checkboxTree') add(`${p}/tree`, 'only a checkboxTree field reads a tree');
              checkEndpoint(f.tree.endpoint, `${p}/tree/endpoint`, 'record', undefined, model);
              if (!!f.tree.leaves !== !!f.tree.leafField) add(`${p}/tree`, 'leaves and leafField go together');
              trees.push({ field: f.field, leafField: f.tree.leafField, at: p });
              const prop = model?.record.properties[f.field];
              if (prop && prop.type !== 'array') add(`${p}/widget`, `a checkboxTree holds a list; "${f.field}" is a ${prop.type}`);
            }
          });
        });
        for (const t of trees)
          if (t.leafField && !seen.has(t.leafField)) add(`${t.at}/tree/leafField`, `"${t.leafField}" is not a field of this form (add it, e.g. with widget hidden)`);
        if (model) {
          for (const req of model.record.required ?? []) {
            if (!seen.has(req)) add('/sections', `required property "${req}" of ${resource ? `resource "${model.name}"` : "the form's record"} is not on the form, so adding a record cannot succeed`, 'warning');
          }
        }
        for (const [k, e] of Object.entries(screen.endpoints ?? {})) if (e) checkEndpoint(e, `/endpoints/${k}`, 'record', model, model);
        if (screen.afterSubmit && typeof screen.afterSubmit === 'object') checkNavigate(screen.afterSubmit, '/afterSubmit', 'record', undefined, model);
        checkActions(screen.actions, '/actions', 'record', undefined, model);
        break;
      }
      case 'detail': {
        const idParam = screen.idParam ?? 'id';
        routes.forEach((r, i) => {
          if (!routeParams(r.route).includes(idParam)) add(i === 0 && screen.route ? '/route' : `/aliases/${screen.route ? i - 1 : i}/route`, `has no :${idParam} (the record id)`);
        });
        screen.sections.forEach((s, si) =>
          s.fields.forEach((f, fi) => {
            const p = `/sections/${si}/fields/${fi}`;
            if (resource) checkField(resource, f.field, `${p}/field`, 'row');
            if (f.span && f.span > (s.columns ?? 2)) add(`${p}/span`, `spans ${f.span} columns; the section has ${s.columns ?? 2}`);
            checkEnumRender(f, p, resource);
            checkOptions(f, p);
            checkCondition(f.when, `${p}/when`, resource);
            if (f.link) checkNavigate(f.link, `${p}/link`, 'record', undefined, resource);
          }),
        );
        if (screen.load) checkEndpoint(screen.load, '/load', 'screen', undefined, resource);
        (screen.related ?? []).forEach((rel, i) => {
          const p = `/related/${i}`;
          const child = input.resources.get(rel.resource);
          if (!child) return add(`${p}/resource`, missingResource(rel.resource));
          // The list alone is refused to users without the child's authority: the detail still works.
          checkGrants(child, authorities, `${p}/resource`, (ptr, msg) => add(ptr, `${msg}; users holding only this screen's authority see the list refused`, 'warning'), 'read');
          const fk = child.searchable.find((s) => s.field === rel.foreignKey);
          if (!(rel.foreignKey in child.record.properties)) add(`${p}/foreignKey`, `"${rel.foreignKey}" is not a property of resource "${child.name}"'s record`);
          else if (!fk || fk.filter !== 'eq') add(`${p}/foreignKey`, `resource "${child.name}" must offer an eq filter on "${rel.foreignKey}" to list the related records`);
          if (resource && rel.parentField) checkField(resource, rel.parentField, `${p}/parentField`, 'row');
          checkTable(rel, p, child, true, resource);
        });
        checkActions(screen.actions, '/actions', 'record', undefined, resource);
        break;
      }
      case 'page':
        screen.children.forEach((c, i) => {
          const target = byId.get(c.screen);
          if (!target) add(`/children/${i}/screen`, `names "${c.screen}", which is no screen`);
          else if (target.screen.id === screen.id || pageReaches(target.screen, screen.id, byId, new Set()))
            add(`/children/${i}/screen`, `"${c.screen}" contains this page again (a cycle)`);
          checkRefs(c.params, `/children/${i}/params`, 'screen', undefined, undefined);
        });
        break;
      case 'dashboard':
        screen.blocks.forEach((b, i) => checkEndpoint(b.endpoint, `/blocks/${i}/endpoint`, 'screen', undefined, undefined));
        break;
      case 'widget':
        if (!widgets.has(screen.widget)) add('/widget', `"${screen.widget}" is not a registered widget (registered: ${[...widgets].join(', ')})`);
        checkRefs(screen.params, '/params', 'screen', undefined, undefined);
        break;
    }
  }
  return problems;
}

/** `read`: the screen only reads the resource (options, related lists), so read-only grants count. */
function checkGrants(r: Resource, authorities: string[], at: string, add: (pointer: string, message: string) => void, mode: 'full' | 'read' = 'full') {
  const granted = new Set([r.authority, ...(r.authorityAliases ?? []), ...(mode === 'read' ? (r.readAuthorities ?? []) : [])]);
  const missing = authorities.filter((a) => !granted.has(a));
  if (missing.length)
    add(at, `${missing.length > 1 ? 'authorities' : 'authority'} ${missing.map((a) => `"${a}"`).join(' and ')} ${missing.length > 1 ? 'do' : 'does'} not grant resource "${r.name}" (granted by ${[...granted].join(', ')}), so its requests would be refused`);
}

/** A resource's authority keys and element codes must be those of the menus. */
export function lintResources(resources: { doc: Resource; file: string }[], menus: MenuDocument | null): SchemaProblem[] {
  if (!menus) return [];
  const codes = new Set(menuCodes(menus));
  const elements = new Set(menuElementCodes(menus));
  const problems: SchemaProblem[] = [];
  for (const { doc, file } of resources) {
    const add = (pointer: string, message: string) => problems.push({ file, pointer, message, severity: 'error' });
    if (!codes.has(doc.authority)) add('/authority', `"${doc.authority}" is not a menu code of the menus document`);
    (doc.authorityAliases ?? []).forEach((a, i) => {
      if (!codes.has(a)) add(`/authorityAliases/${i}`, `"${a}" is not a menu code of the menus document`);
    });
    (doc.readAuthorities ?? []).forEach((a, i) => {
      if (!codes.has(a)) add(`/readAuthorities/${i}`, `"${a}" is not a menu code of the menus document`);
    });
    for (const [action, code] of Object.entries(doc.elements)) {
      const suffix = code.slice(doc.authority.length);
      for (const menu of [doc.authority, ...(doc.authorityAliases ?? [])]) {
        const el = `${menu}${suffix}`;
        if (!elements.has(el)) add(`/elements/${action}`, `"${el}" is not an element code of the menus document`);
      }
    }
  }
  return problems;
}

function pageReaches(s: Screen, id: string, byId: Map<string, LintedScreen>, seen: Set<string>): boolean {
  if (s.kind !== 'page' || seen.has(s.id)) return false;
  seen.add(s.id);
  return s.children.some((c) => c.screen === id || (byId.has(c.screen) && pageReaches(byId.get(c.screen)!.screen, id, byId, seen)));
}

/** A field of a reply row: a record property (nested with dots), a meta field, or labels.<reference>. */
export function fieldKnown(r: Resource, path: string, use: 'row' | 'record'): boolean {
  const [head, ...rest] = path.split('.');
  if (use === 'row' && (META_FIELDS as readonly string[]).includes(head)) {
    if (head === 'labels') return rest.length === 1 && !!r.references?.[rest[0]];
    return rest.length === 0;
  }
  let prop: FieldSchema | undefined = r.record.properties[head];
  for (const seg of rest) {
    if (!prop) return false;
    // Through an array: an index, or (as columns pluck) a property of its items.
    prop = prop.type === 'array' ? (/^\d+$/.test(seg) ? prop.items : prop.items?.properties?.[seg]) : prop.properties?.[seg];
  }
  return !!prop;
}

function isSortable(r: Resource, field: string): boolean {
  return r.sortable.includes(field) || (IMPLICIT_SORTABLE as readonly string[]).includes(field);
}

/** Calls `found` for every text still marked untranslated. */
function walkTexts(node: unknown, pointer: string, found: (pointer: string, langs: string[]) => void): void {
  if (Array.isArray(node)) {
    node.forEach((x, i) => walkTexts(x, `${pointer}/${i}`, found));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o.untranslated) && typeof o.zh === 'string' && o.untranslated.length) found(pointer, o.untranslated as string[]);
  for (const [k, v] of Object.entries(o)) if (k !== 'untranslated') walkTexts(v, `${pointer}/${escapePointerSegment(k)}`, found);
}


function textOf3(t: LocalizedText): string[] {
  return [t.zh, t.en, t.es];
}
