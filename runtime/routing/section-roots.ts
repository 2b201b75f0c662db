/**
 * Section roots (spec §2.4): `/agricultureKnowledge` alone redirects to the section's
 * default child when the user may open it, else to the first child the user may open,
 * in menu order (descending sort). The tree is the menus document (schemas/menus.json),
 * the one the server's menu table is seeded from, so `defaultChild` and the child paths
 * are the same on both sides. Pure functions: the route builder and the benchmark call
 * them without React.
 */
import { can } from '../access/can.ts';
import { childLink, entryPath } from '../schema/menu-links.ts';
import type { MenuDocument } from '../schema/menus.ts';

export interface SectionRoot {
  /** "/agricultureKnowledge" */
  path: string;
  /** The section's menu code: the authority of the root route. */
  authority: string;
  /** Link of the default child, when the section names one. */
  defaultLink?: string;
  /** Visible children in menu order: their link and the code that grants them. */
  children: { link: string; code: string }[];
}

export function sectionRoots(menus: MenuDocument): SectionRoot[] {
  return menus.menus.map((section) => {
    const ordered = section.children
      .map((child, index) => ({ child, index }))
      .sort((a, b) => (b.child.sort ?? 0) - (a.child.sort ?? 0) || a.index - b.index)
      .map(({ child }) => child);
    const def = section.defaultChild !== undefined ? section.children.find((c) => entryPath(c) === section.defaultChild) : undefined;
    return {
      path: `/${entryPath(section)}`,
      authority: section.code,
      defaultLink: def ? childLink(section, def) : undefined,
      children: ordered.filter((c) => !c.hidden).map((c) => ({ link: childLink(section, c), code: c.code })),
    };
  });
}

/** Where the root sends a user holding `menuCodes`; null when no child is open to them. */
export function sectionTarget(root: SectionRoot, menuCodes: ReadonlySet<string>): string | null {
  if (root.defaultLink) {
    const def = root.children.find((c) => c.link === root.defaultLink);
    if (def && can({ menus: menuCodes }, def.code)) return def.link;
  }
  return root.children.find((c) => can({ menus: menuCodes }, c.code))?.link ?? null;
}
