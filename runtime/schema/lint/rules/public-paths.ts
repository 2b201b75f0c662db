import { isPublicPath } from '../../../routing/access.ts';
import { collector, type ScreenRule } from '../context.ts';

export const publicPathsRule: ScreenRule = {
  id: 'public-paths',
  description: 'Every route of a public screen is a public path of the access rules, so visitors without a session reach it.',
  check({ screen, file, routes }) {
    const { problems, add } = collector(file);
    if (screen.public)
      routes.forEach((r, i) => {
        if (!isPublicPath(r.route)) add(i === 0 && screen.route ? '/route' : `/aliases/${screen.route ? i - 1 : i}/route`, `"${r.route}" is not a public path of the access rules (runtime/routing/access.ts), so visitors without a session would be sent to the login page`);
      });
    return problems;
  },
};
