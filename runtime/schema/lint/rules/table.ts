import { collector, type ScreenRule } from '../context.ts';
import { screenChecks } from '../screen-checks.ts';

export const tableRule: ScreenRule = {
  id: 'table',
  description: 'Tables: columns, filters, fixed filters, sort, paging, tree and actions name what the resource offers; the endpoint is served.',
  check(ctx) {
    const { screen } = ctx;
    if (screen.kind !== 'table') return [];
    const { resource, file } = ctx;
    const { problems, add } = collector(file);
    const { checkEndpoint, checkTable } = screenChecks(ctx, add);
    checkTable(screen, '', resource, false, undefined);
    if (screen.endpoint) checkEndpoint(screen.endpoint, '/endpoint', 'screen', resource, undefined);
    return problems;
  },
};
