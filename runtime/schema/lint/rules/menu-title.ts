import { LANGS } from '../../../protocol/texts.ts';
import { collector, type ScreenRule } from '../context.ts';

export const menuTitleRule: ScreenRule = {
  id: 'menu-title',
  description: 'The menu entry that opens a route of the screen names it as the screen does (one name for the menu, the tab and the heading).',
  check({ screen, file, routes, menuEntries }) {
    const { problems, add } = collector(file);
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
    return problems;
  },
};
