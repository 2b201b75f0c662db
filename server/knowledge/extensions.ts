import type { ResourceExtension } from '../resources/extensions.ts';

/**
 * The knowledge base's rules on the engine's resources. Copying a system template makes a
 * record of the caller's own farm (copy.ts); a caller who belongs to no organisation (the
 * platform administrator, a group's service provider) would be refused for want of a farm,
 * so the console is told not to offer the copy on their rows (`_can.add`).
 */
export const knowledgeResourceExtensions: ResourceExtension[] = [
  {
    resource: 'systemTemplates',
    hooks: {
      rowHints: ({ user }) => (user.orgId == null ? { add: false } : undefined),
    },
  },
];
