import { collector, type ScreenRule } from '../context.ts';
import { SIGNED_IN } from '../../screen.ts';

export const authorityRule: ScreenRule = {
  id: 'authority',
  description: "The screen's authority key and its aliases' are menu codes of the menus document (or * for any signed-in user).",
  check({ screen, file, menus, menuCodes }) {
    const { problems, add } = collector(file);
    if (!menus) add('/authority', 'no menus document is loaded, so the authority key cannot be checked');
    else {
      if (screen.authority !== SIGNED_IN && !menuCodes.has(screen.authority)) add('/authority', `"${screen.authority}" is not a menu code of the menus document`);
      (screen.aliases ?? []).forEach((a, i) => {
        if (a.authority && a.authority !== SIGNED_IN && !menuCodes.has(a.authority)) add(`/aliases/${i}/authority`, `"${a.authority}" is not a menu code of the menus document`);
        if (a.mode && screen.kind !== 'form') add(`/aliases/${i}/mode`, `only a form's route opens in a mode; this screen is a ${screen.kind}`);
      });
    }
    return problems;
  },
};
