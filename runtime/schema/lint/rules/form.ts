import { idParamOf, isResourceEndpoint, routeParams, type EndpointRef, type FormPreview, type ParamMap } from '../../screen.ts';
import { collector, type AddProblem, type Resource, type ScreenRule } from '../context.ts';
import { screenChecks } from '../screen-checks.ts';

export const formRule: ScreenRule = {
  id: 'form',
  description: 'Forms: routes carry the record id where a mode needs it; fields are properties of the record; trees, options, conditions, endpoints and actions check out; required properties are on the form; a preview names a registered widget, a served write endpoint and fields of the record (its adjustments too).',
  check(ctx) {
    const { screen } = ctx;
    if (screen.kind !== 'form') return [];
    const { routes, resource, file } = ctx;
    const { problems, add } = collector(file);
    const { checkCondition, checkNavigate, checkEndpoint, checkOptions, checkActions, checkRefs } = screenChecks(ctx, add);
    const modeParam = screen.modeParam ?? 'operate';
    routes.forEach((r, i) => {
      const params = routeParams(r.route);
      // An alias may name the record id its own way (editGoods/:operate/:goodsId/…).
      const idParam = idParamOf(screen, r.route);
      const at = i === 0 && screen.route ? '/route' : `/aliases/${screen.route ? i - 1 : i}/route`;
      const aliasMode = screen.aliases?.find((a) => a.route === r.route)?.mode;
      if (aliasMode && params.includes(modeParam)) add(at.replace(/route$/, 'mode'), `names a mode, but the route has :${modeParam}, which decides it`);
      if (aliasMode && aliasMode !== 'add' && !params.includes(modeParam) && !params.includes(idParam)) add(at.replace(/route$/, 'mode'), `opens in ${aliasMode}, which needs :${idParam} in the route`);
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
        (f.requires ?? []).forEach((code, j) => {
          if (ctx.menus && !ctx.menuCodes.has(code) && !ctx.elementCodes.has(code)) add(`${p}/requires/${j}`, `"${code}" is no menu or element code of the menus document`);
        });
        if (f.requires && model?.record.required?.includes(f.field)) add(`${p}/requires`, `"${f.field}" is required: a user without the codes could not send the form`);
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
    if (screen.preview) checkPreview(screen.preview, ctx.widgets, model, add, (e, at) => checkEndpoint(e, at, 'record', model, model), (m, at) => checkRefs(m, at, 'record', model, model));
    return problems;
  },
};

/**
 * A form's preview: its widget is one of the manifest, its endpoint is served and takes a
 * body (the form's values), and the fields it waits for are properties of the record.
 */
function checkPreview(
  preview: FormPreview,
  widgets: ReadonlySet<string>,
  model: Resource | undefined,
  add: AddProblem,
  checkEndpoint: (e: EndpointRef, at: string) => void,
  checkRefs: (m: ParamMap | undefined, at: string) => void,
) {
  if (!widgets.has(preview.widget)) add('/preview/widget', `"${preview.widget}" is not a registered widget (registered: ${[...widgets].join(', ')})`);
  checkEndpoint(preview.endpoint, '/preview/endpoint');
  const method = isResourceEndpoint(preview.endpoint) ? (preview.endpoint.operation === 'create' ? 'POST' : preview.endpoint.operation === 'update' ? 'PUT' : 'GET') : (preview.endpoint.method ?? 'GET');
  if (method === 'GET' || method === 'DELETE') add('/preview/endpoint', `a preview sends the form's values as a body; ${method} takes none`);
  checkRefs(preview.body, '/preview/body');
  (preview.requires ?? []).forEach((f, i) => {
    if (model && !(f in model.record.properties)) add(`/preview/requires/${i}`, `"${f}" is not a property of the form's record`);
  });
  if (preview.adjustments && model && !(preview.adjustments in model.record.properties))
    add('/preview/adjustments', `"${preview.adjustments}" is not a property of the form's record, so the save could not carry it`);
  if (preview.adjustments && preview.requires?.includes(preview.adjustments)) add('/preview/adjustments', 'is cleared when a field of requires changes, so it cannot be one of them');
}
