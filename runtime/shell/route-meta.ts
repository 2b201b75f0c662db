import { can } from '../access/can.ts';
import { matchPath } from 'react-router-dom';
import type { ScreenMeta } from './screen-route.ts';
import type { GatedRoute } from '../routing/route-table.ts';
import { pickText, type Language } from '../i18n/languages.ts';
import type { Lang } from '../schema/texts.ts';
import { composeTitle, type RecordTitle, type Translate } from '../screens/screen-title.ts';

/** A title either from a screen document (all languages) or from the runtime's locale keys. */
export type TitleSource = { text: ScreenMeta['title'] } | { key: string };

/** What the tab strip, the breadcrumbs and the keep-alive container know of the current route. */
export interface RouteMeta {
  id: string;
  title: TitleSource;
  icon?: string;
  keepAlive: boolean;
  /** The page's quick guide: a screen document's `help`, or a locale key for the shell's own pages. */
  help?: TitleSource;
  /** The guide fetched when the dialog opens (a bundled document's help is a chunk of its own). */
  loadHelp?: () => Promise<ScreenMeta['title'] | undefined>;
}

/** Pages of the shell itself, routed inside the layout. */
export interface BuiltInPage {
  path: string;
  meta: RouteMeta;
}

export const ERROR_LOG_PATH = '/errorLog';

export const BUILT_IN_PAGES: readonly BuiltInPage[] = [
  { path: '/dashboard', meta: { id: 'dashboard', title: { key: 'shell.pages.dashboard' }, icon: 'DashboardOutlined', keepAlive: false, help: { key: 'shell.help.dashboard' } } },
  // Kept alive so that a long list keeps its scroll position while the user looks elsewhere.
  { path: ERROR_LOG_PATH, meta: { id: 'errorLog', title: { key: 'shell.pages.errorLog' }, icon: 'BugOutlined', keepAlive: true, help: { key: 'shell.help.errorLog' } } },
];

/**
 * The meta of the first route matching `pathname`: built-in pages first, then the screens
 * (permitted or not: a forbidden route still has a title). Null for a path that matches no
 * route (the 404 page), which gets no tab.
 */
export function findRouteMeta(
  pathname: string,
  screens: readonly (GatedRoute & { meta?: ScreenMeta })[],
  builtIns: readonly BuiltInPage[] = BUILT_IN_PAGES,
): RouteMatch | null {
  for (const page of builtIns) if (matchPath({ path: page.path, end: true }, pathname)) return { meta: page.meta, params: [] };
  for (const screen of screens) {
    if (!screen.meta) continue;
    const path = screen.path.startsWith('/') ? screen.path : `/${screen.path}`;
    const match = matchPath({ path, end: true }, pathname);
    if (match) {
      return {
        meta: { id: screen.meta.id, title: { text: screen.meta.title }, icon: screen.meta.icon, keepAlive: screen.meta.keepAlive, ...(screen.meta.help ? { help: { text: screen.meta.help } } : {}), ...(screen.meta.loadHelp ? { loadHelp: screen.meta.loadHelp } : {}) },
        params: Object.values(match.params).filter((v): v is string => typeof v === 'string' && v !== ''),
      };
    }
  }
  return null;
}

export interface RouteMatch {
  meta: RouteMeta;
  /** Values of the path's parameters, in order: they tell two detail tabs apart. */
  params: string[];
}

/**
 * The title shown for a route: its own, composed with what its screen reported of its
 * record (新增种植规则, 作物详情 · 水稻; runtime/screens/screen-title.ts). Route parameters
 * never show: until the record is loaded the tab reads the screen's title alone.
 */
export function routeTitle(match: RouteMatch, translate: Translate, language: Language, record?: RecordTitle): string {
  const title = 'key' in match.meta.title ? translate(match.meta.title.key) : pickText(match.meta.title.text, language);
  return record ? composeTitle(title, record.mode, record.names[language as Lang], translate) : title;
}

/** The browser's title: the active tab's, then the console's name. */
export function documentTitle(pageTitle: string | null, appName: string): string {
  return pageTitle && pageTitle !== appName ? `${pageTitle} - ${appName}` : appName;
}

/**
 * Whether `pathname` is a page the user may open, hence one that gets a tab: a built-in
 * page, or a screen whose authority the user holds. 404s and 401s get none.
 */
export function routeOpensTab(
  pathname: string,
  screens: readonly (GatedRoute & { meta?: ScreenMeta })[],
  menuCodes: ReadonlySet<string>,
  builtIns: readonly BuiltInPage[] = BUILT_IN_PAGES,
): boolean {
  for (const page of builtIns) if (matchPath({ path: page.path, end: true }, pathname)) return true;
  for (const screen of screens) {
    if (!screen.meta) continue;
    const path = screen.path.startsWith('/') ? screen.path : `/${screen.path}`;
    if (matchPath({ path, end: true }, pathname)) return !screen.authority || can({ menus: menuCodes }, screen.authority);
  }
  return false;
}

/** The quick guide of a route in `language`, as paragraphs; none when the page has no guide. */
export function routeHelp(match: RouteMatch | null, translate: (key: string) => string, language: Language): string[] {
  const help = match?.meta.help;
  if (!help) return [];
  return helpParagraphs('key' in help ? translate(help.key) : pickText(help.text, language));
}

/** A guide's text as paragraphs (a blank line between two). */
export function helpParagraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}
