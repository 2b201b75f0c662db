import type { ReactNode } from 'react';
import type { GatedRoute } from '../routing/route-table.ts';
import type { I18nText } from '../schema/texts.ts';

/**
 * What the shell needs to know of a screen to show it in the menu, the tab strip and the
 * breadcrumbs, without reading the screen document: the document's id (one tab per id and
 * filled-in path), its title in every language (the tab follows the current language),
 * its icon name, whether its view is kept alive when its tab is left, and whether it is
 * hidden from menus (routes reached by actions, spec §6).
 */
export interface ScreenMeta {
  /** The screen document's id; an invalid document's id, or its file when it has none. */
  id: string;
  title: I18nText;
  /** An icon name as written in the schema (antd icon component name). */
  icon?: string;
  keepAlive: boolean;
  hidden: boolean;
  /** The screen's quick guide (the instruction dialog without a video). */
  help?: I18nText;
  /** Fetches the guide when the document came without it (a build keeps the bundled screens' help in a chunk of its own). */
  loadHelp?: () => Promise<I18nText | undefined>;
}

/**
 * A screen the console can route to. The schema runtime supplies these from screen
 * documents (runtime/app/schema-screens.ts); ConsoleApp routes the permitted ones and
 * shows 401 for the others. A screen with aliases gives one ScreenRoute per route, all
 * with the same meta.id.
 */
export interface ScreenRoute extends GatedRoute {
  element: ReactNode;
  meta: ScreenMeta;
  /** Readable without a session (a `public: true` screen): routed outside the session gate. */
  public?: boolean;
  /** Shown after login without the console layout (a `fullScreen: true` screen, e.g. a full-screen map). */
  fullScreen?: boolean;
}
