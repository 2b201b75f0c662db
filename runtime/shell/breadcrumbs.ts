import { pickText, type Language } from '../i18n/languages.ts';
import { menuLink } from '../routing/route-table.ts';
import type { MenuItem } from '../session/user-info.ts';

export interface Crumb {
  title: string;
  /** Where the crumb links; null for the current page and for sections (they only group). */
  path: string | null;
}

export interface BreadcrumbInput {
  pathname: string;
  /** The permission menu (hidden entries included: their routes have titles too). */
  menu: readonly MenuItem[];
  /** The current route's title, for pages below a menu entry (detail/:id) or outside the menu. */
  pageTitle: string | null;
  homeTitle: string;
  homePath: string;
  language: Language;
}

/**
 * Breadcrumbs from the route and the menu tree: home, the section, the menu entry whose
 * path the URL starts with (longest match, whole segments), then the page's own title
 * when the URL goes deeper than the entry (a detail page) or matches no entry at all.
 */
export function buildBreadcrumbs({ pathname, menu, pageTitle, homeTitle, homePath, language }: BreadcrumbInput): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  if (pathname === homePath || segments.length === 0) return [{ title: homeTitle, path: null }];
  const crumbs: Crumb[] = [{ title: homeTitle, path: homePath }];

  const section = menu.find((m) => m.path === segments[0]);
  let matchedDepth = 0;
  if (section) {
    crumbs.push({ title: pickText(section.title, language), path: null });
    matchedDepth = 1;
    const rest = segments.slice(1);
    let best: { item: MenuItem; depth: number } | null = null;
    for (const child of section.children) {
      const childSegments = child.path.split('/').filter(Boolean);
      const matches = childSegments.length > 0 && childSegments.every((s, i) => rest[i] === s);
      if (matches && (!best || childSegments.length > best.depth)) best = { item: child, depth: childSegments.length };
    }
    if (best) {
      crumbs.push({ title: pickText(best.item.title, language), path: menuLink(section.path, best.item.path) });
      matchedDepth += best.depth;
    }
  }
  const deeper = matchedDepth < segments.length;
  if (pageTitle && (deeper || !section) && pageTitle !== crumbs.at(-1)?.title) crumbs.push({ title: pageTitle, path: null });
  crumbs[crumbs.length - 1] = { ...crumbs[crumbs.length - 1], path: null };
  return crumbs;
}
