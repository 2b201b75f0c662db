import { collector, type ScreenRule } from '../context.ts';
import { checkGrants } from '../fields.ts';

export const screenResourceRule: ScreenRule = {
  id: 'screen-resource',
  description: "The screen's resource is a loaded resource document that the screen's authorities grant.",
  check({ screen, file, resource, authorities, missingResource }) {
    const { problems, add } = collector(file);
    if (screen.resource && !resource) add('/resource', missingResource(screen.resource));
    if (resource) checkGrants(resource, authorities, '/resource', add);
    return problems;
  },
};
