import { routeParams } from '../../screen.ts';
import { collector, type ScreenRule } from '../context.ts';
import { screenChecks } from '../screen-checks.ts';
import { checkGrants } from '../fields.ts';

export const detailRule: ScreenRule = {
  id: 'detail',
  description: 'Detail screens: routes carry the record id; fields, links, options, conditions, the load endpoint, related lists and actions name what the resources offer.',
  check(ctx) {
    const { screen } = ctx;
    if (screen.kind !== 'detail') return [];
    const { routes, resource, authorities, missingResource, input, file } = ctx;
    const { problems, add } = collector(file);
    const { checkField, checkCondition, checkNavigate, checkEndpoint, checkOptions, checkEnumRender, checkActions, checkTable } = screenChecks(ctx, add);
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
    return problems;
  },
};
