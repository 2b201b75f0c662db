import { collector, type ScreenRule } from '../context.ts';
import { screenChecks } from '../screen-checks.ts';

export const dashboardRule: ScreenRule = {
  id: 'dashboard',
  description: "Dashboards: each block's endpoint is served.",
  check(ctx) {
    const { screen } = ctx;
    if (screen.kind !== 'dashboard') return [];
    const { file } = ctx;
    const { problems, add } = collector(file);
    const { checkEndpoint } = screenChecks(ctx, add);
    screen.blocks.forEach((b, i) => checkEndpoint(b.endpoint, `/blocks/${i}/endpoint`, 'screen', undefined, undefined));
    return problems;
  },
};
