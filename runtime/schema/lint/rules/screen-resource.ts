import { collector, type ScreenRule } from '../context.ts';
import { checkGrants } from '../fields.ts';

export const screenResourceRule: ScreenRule = {
  id: 'screen-resource',
  description:
    "The screen's resource is a loaded resource document that the screen's authorities grant; an authority whose only route opens a form in show mode needs only to read it.",
  check({ screen, file, resource, authorities, missingResource }) {
    const { problems, add } = collector(file);
    if (screen.resource && !resource) add('/resource', missingResource(screen.resource));
    if (resource) {
      // Authorities guarding nothing but read-only alias routes (a form opened in show mode).
      const writes = new Set([screen.authority, ...(screen.aliases ?? []).filter((a) => a.mode !== 'show').map((a) => a.authority ?? screen.authority)]);
      checkGrants(resource, authorities.filter((a) => writes.has(a)), '/resource', add);
      checkGrants(resource, authorities.filter((a) => !writes.has(a)), '/resource', add, 'read');
    }
    return problems;
  },
};
