import { collector, type ScreenRule } from '../context.ts';

export const authorityRule: ScreenRule = {
  id: 'authority',
  description: "The screen's authority key and its aliases' are menu codes of the menus document.",
  check({ screen, file, menus, menuCodes }) {
    const { problems, add } = collector(file);
    if (!menus) add('/authority', 'no menus document is loaded, so the authority key cannot be checked');
    else {
      if (!menuCodes.has(screen.authority)) add('/authority', `"${screen.authority}" is not a menu code of the menus document`);
      (screen.aliases ?? []).forEach((a, i) => {
        if (a.authority && !menuCodes.has(a.authority)) add(`/aliases/${i}/authority`, `"${a.authority}" is not a menu code of the menus document`);
        if (a.mode && screen.kind !== 'form') add(`/aliases/${i}/mode`, `only a form's route opens in a mode; this screen is a ${screen.kind}`);
      });
    }
    return problems;
  },
};
