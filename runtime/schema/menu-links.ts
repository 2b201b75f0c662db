/**
 * Links of menu entries, apart from menus.ts (which carries the menu tree's validation),
 * so that the console's routing reads them without loading it.
 */
import type { MenuChild, MenuSection } from './menus.ts';

/** An entry's URL segment: its path, else its code. */
export function entryPath(entry: Pick<MenuChild, 'code' | 'path'>): string {
  return entry.path ?? entry.code;
}

/** The console link of a child: /{section path}/{child path}. */
export function childLink(section: MenuSection, child: MenuChild): string {
  return `/${entryPath(section)}/${entryPath(child)}`;
}
