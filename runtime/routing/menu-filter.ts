import { can } from '../access/can.ts';

/** The part of a menu entry that filtering and sorting look at. */
export interface MenuNode {
  code: string;
  sort?: number;
  hidden?: boolean;
  children?: readonly MenuNode[];
}

export interface MenuFilterOptions {
  /** Codes removed whatever the user holds (the haveFarm '0' rule). */
  exclude?: ReadonlySet<string>;
}

/**
 * Spec section 6: an entry stays when its code is one of the user's menu codes, or when
 * it is hidden; its children are filtered the same way; siblings are sorted by
 * descending sort (ties keep the server's order). The input is not modified.
 */
export function filterMenuTree<T extends MenuNode>(tree: readonly T[], codes: ReadonlySet<string>, options: MenuFilterOptions = {}): T[] {
  const kept: T[] = [];
  for (const entry of tree) {
    if (options.exclude?.has(entry.code)) continue;
    if (!entry.hidden && !can({ menus: codes }, entry.code)) continue;
    const children = entry.children ? filterMenuTree(entry.children as readonly T[], codes, options) : undefined;
    kept.push(children ? { ...entry, children } : { ...entry });
  }
  return sortBySortDesc(kept);
}

function sortBySortDesc<T extends MenuNode>(entries: T[]): T[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (b.entry.sort ?? 0) - (a.entry.sort ?? 0) || a.index - b.index)
    .map(({ entry }) => entry);
}

/**
 * Spec section 4: with the local haveFarm flag at '0' some entries are hidden; which ones
 * is a product rule (ProductProfile.menuCodesHiddenWithoutFarm).
 */
export function excludedByHaveFarm(haveFarm: string | undefined, hiddenWithoutFarm: ReadonlySet<string>): ReadonlySet<string> {
  return haveFarm === '0' ? hiddenWithoutFarm : new Set();
}
