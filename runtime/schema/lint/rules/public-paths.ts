import { isPublicPath } from '../../../routing/access.ts';
import { collector, type ScreenRule } from '../context.ts';

export const publicPathsRule: ScreenRule = {
  id: 'public-paths',
  description: 'Every route of a public screen is a public path of the product profile, so visitors without a session reach it.',
  check({ screen, file, routes, input }) {
    const { problems, add } = collector(file);
    const publicPaths = input.publicPaths;
    if (screen.public && publicPaths)
      routes.forEach((r, i) => {
        if (!isPublicPath(r.route, publicPaths)) add(i === 0 && screen.route ? '/route' : `/aliases/${screen.route ? i - 1 : i}/route`, `"${r.route}" is not a public path of the access rules (runtime/routing/access.ts and the product profile), so visitors without a session would be sent to the login page`);
      });
    return problems;
  },
};
