import type { LocalizedText } from '../../runtime/protocol/texts.ts';
import type { Queryable } from '../db/database.ts';
import type { Lang } from '../i18n/lang.ts';

/** A text in every language (runtime/protocol/texts.ts). */
export type LocalText = LocalizedText;

export interface MenuElement {
  code: string;
  title: LocalText;
}

export interface MenuRow {
  id: number;
  parent_id: number | null;
  code: string;
  path: string;
  title: LocalText;
  icon: string | null;
  sort: number;
  hidden: boolean;
  default_child: string | null;
  elements: MenuElement[];
  version: number;
}

export interface MenuView {
  id: number;
  parentId: number | null;
  code: string;
  path: string;
  title: LocalText;
  /** The title in the request language. */
  name: string;
  icon: string | null;
  sort: number;
  hidden: boolean;
  defaultChild: string | null;
  elements: MenuElement[];
  version: number;
  children?: MenuView[];
}

export const MENU_COLUMNS = 'id, parent_id, code, path, title, icon, sort, hidden, default_child, elements, version';

export function menuView(r: MenuRow, lang: Lang): MenuView {
  return {
    id: r.id,
    parentId: r.parent_id,
    code: r.code,
    path: r.path,
    title: r.title,
    name: r.title[lang] ?? r.title.zh,
    icon: r.icon,
    sort: r.sort,
    hidden: r.hidden,
    defaultChild: r.default_child,
    elements: r.elements ?? [],
    version: r.version,
  };
}

/**
 * The whole menu table as the two-level tree the console shows: sections in descending
 * `sort`, each with its children in descending `sort` (as menus2 orders them).
 */
export async function menuTree(db: Queryable, lang: Lang): Promise<MenuView[]> {
  const { rows } = await db.query<MenuRow>(`SELECT ${MENU_COLUMNS} FROM menus ORDER BY sort DESC, id`);
  const sections = new Map<number, MenuView>();
  for (const r of rows) if (r.parent_id === null) sections.set(r.id, { ...menuView(r, lang), children: [] });
  for (const r of rows) if (r.parent_id !== null) sections.get(r.parent_id)?.children?.push({ ...menuView(r, lang), children: [] });
  return [...sections.values()];
}

/** Every menu code and element code of the table. */
export async function knownCodes(db: Queryable): Promise<{ menus: Set<string>; elements: Map<string, string> }> {
  const { rows } = await db.query<{ code: string; elements: MenuElement[] }>('SELECT code, elements FROM menus');
  const menus = new Set<string>();
  const elements = new Map<string, string>();
  for (const r of rows) {
    menus.add(r.code);
    for (const e of r.elements ?? []) elements.set(e.code, r.code);
  }
  return { menus, elements };
}
