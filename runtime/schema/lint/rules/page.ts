import { collector, type ScreenRule } from '../context.ts';
import { screenChecks } from '../screen-checks.ts';
import { pageReaches } from '../fields.ts';

export const pageRule: ScreenRule = {
  id: 'page',
  description: 'Pages: children name screens, without cycles; their parameters read what a page has.',
  check(ctx) {
    const { screen } = ctx;
    if (screen.kind !== 'page') return [];
    const { file } = ctx;
    const byId = ctx.screensById;
    const { problems, add } = collector(file);
    const { checkRefs } = screenChecks(ctx, add);
    screen.children.forEach((c, i) => {
      const target = byId.get(c.screen);
      if (!target) add(`/children/${i}/screen`, `names "${c.screen}", which is no screen`);
      else if (target.screen.id === screen.id || pageReaches(target.screen, screen.id, byId, new Set()))
        add(`/children/${i}/screen`, `"${c.screen}" contains this page again (a cycle)`);
      checkRefs(c.params, `/children/${i}/params`, 'screen', undefined, undefined);
      (c.requires ?? []).forEach((code, j) => {
        if (ctx.menus && !ctx.menuCodes.has(code) && !ctx.elementCodes.has(code)) add(`/children/${i}/requires/${j}`, `"${code}" is no menu or element code of the menus document`);
      });
    });
    return problems;
  },
};
