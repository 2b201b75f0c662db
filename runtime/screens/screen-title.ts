/**
 * A screen's title with the record it shows (docs/schema-language.md, "Titles"): one
 * composition for the tab, the breadcrumb, the page heading, the drawer and the browser
 * title. A list reads its own title; a form reads 新增种植规则 (add), 编辑种植规则 · 东北水稻规范
 * (edit), 种植规则 · 东北水稻规范 (show); a detail 作物详情 · 水稻. The record's name comes from
 * the screen's `recordTitle` template, else the resource's display field. Route parameters
 * never show ("作物详情 · 52 / 1" was what a title said before a record named it).
 */
import { atom } from 'jotai';
import { valueAt } from '../schema/conditions.ts';
import type { ResourceDocument } from '../schema/resource.ts';
import { formModeOf, type FormMode, type Screen } from '../schema/screen.ts';
import { isI18nText, LANGS, textOf, type I18nText, type Lang } from '../schema/texts.ts';

/** What a title says about the record: a form's mode, a detail, or nothing (lists, pages). */
export type TitleMode = FormMode | 'detail' | null;

export type Translate = (key: string, vars?: Record<string, string>) => string;

/** The mode a screen's title takes at a route with these parameters. */
export function titleMode(screen: Screen, params: Record<string, string | undefined>, routePattern?: string): TitleMode {
  if (screen.kind === 'form') return formModeOf(screen, params, routePattern);
  if (screen.kind === 'detail') return 'detail';
  return null;
}

/** The template naming a record of this screen: its own, else `{displayField}` of its resource. */
export function recordTemplate(screen: Screen, doc: Pick<ResourceDocument, 'displayField'> | undefined): I18nText | null {
  if (screen.recordTitle) return screen.recordTitle;
  if (!doc?.displayField) return null;
  const t = `{${doc.displayField}}`;
  return { zh: t, en: t, es: t };
}

/**
 * The record's name in `lang`: the template with `{field}` (dot paths allowed) filled from
 * the record; a text-valued field ({zh, en, es}) in `lang`. Null when nothing of the
 * template could be filled (no record yet, or the fields are empty).
 */
export function recordName(template: I18nText | null, record: unknown, lang: Lang): string | null {
  if (!template || !record || typeof record !== 'object') return null;
  let filled = 0;
  const text = textOf(template, lang).replace(/\{([\w.]+)\}/g, (_, path: string) => {
    const v = valueAt(record, path);
    if (v === undefined || v === null || v === '') return '';
    filled++;
    if (isI18nText(v)) return textOf(v, lang);
    return String(v);
  });
  const name = text.trim();
  return filled && name ? name : null;
}

/** The record's name in every language (the tab follows a language switch without re-rendering the screen). */
export function recordNames(template: I18nText | null, record: unknown): Partial<Record<Lang, string>> {
  const out: Partial<Record<Lang, string>> = {};
  for (const lang of LANGS) {
    const name = recordName(template, record, lang);
    if (name) out[lang] = name;
  }
  return out;
}

/**
 * Whether `title` already opens with one of `words` ("新增|新建|…", `screens.title.addWords`
 * of the locale): a menu entry named 新建种植群组 or "New planting group" must not read
 * 新增新建种植群组 in add mode. A word of a spaced script counts only as a whole word
 * ("News" is not "New"); a Han word needs no boundary (新建种植群组).
 */
export function opensWithAddWord(title: string, words: string): boolean {
  const text = title.trimStart().toLocaleLowerCase();
  for (const word of words.split('|').map((w) => w.trim().toLocaleLowerCase())) {
    if (!word || !text.startsWith(word)) continue;
    const next = text.slice(word.length, word.length + 1);
    if (!next || /\p{Script=Han}$/u.test(word) || !/[\p{L}\p{N}]/u.test(next)) return true;
  }
  return false;
}

/** The title: the screen's own, composed with the mode and the record's name (screens.title.* of the locales). */
export function composeTitle(title: string, mode: TitleMode, name: string | null | undefined, t: Translate): string {
  switch (mode) {
    case 'add':
      return opensWithAddWord(title, t('screens.title.addWords')) ? title : t('screens.title.add', { title });
    case 'edit':
      return name ? t('screens.title.editNamed', { title, name }) : t('screens.title.edit', { title });
    case 'show':
    case 'detail':
      return name ? t('screens.title.named', { title, name }) : title;
    default:
      return title;
  }
}

/** What a routed screen reported of its record, per tab (key: pathname + search, as tab-list.ts keys tabs). */
export interface RecordTitle {
  mode: TitleMode;
  names: Partial<Record<Lang, string>>;
}

type RecordTitles = Readonly<Record<string, RecordTitle>>;

/** sessionStorage, like the open tabs: a reload keeps the names of tabs not visited again yet. */
export const RECORD_TITLES_STORAGE_KEY = 'shell.recordTitles';
/** Names kept (the most recent): far more than a tab strip holds. */
const KEPT_TITLES = 100;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function readStoredTitles(): RecordTitles {
  try {
    const parsed = JSON.parse(storage()?.getItem(RECORD_TITLES_STORAGE_KEY) ?? '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, RecordTitle> = {};
    for (const [key, v] of Object.entries(parsed as Record<string, unknown>)) {
      const t = v as Partial<RecordTitle> | null;
      if (key.startsWith('/') && t && typeof t === 'object' && t.names && typeof t.names === 'object') out[key] = { mode: t.mode ?? null, names: t.names };
    }
    return out;
  } catch {
    return {};
  }
}

const storedTitlesAtom = atom<RecordTitles | null>(null);

/** The record titles per tab key; written through an updater, saved to sessionStorage. */
export const recordTitlesAtom = atom(
  (get): RecordTitles => get(storedTitlesAtom) ?? readStoredTitles(),
  (get, set, update: (prev: RecordTitles) => RecordTitles) => {
    const next = Object.fromEntries(Object.entries(update(get(recordTitlesAtom))).slice(-KEPT_TITLES));
    set(storedTitlesAtom, next);
    try {
      storage()?.setItem(RECORD_TITLES_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // A full or unavailable storage only costs the names after a reload.
    }
  },
);

/** Forgets the stored names (log out). */
export function forgetRecordTitles(): void {
  storage()?.removeItem(RECORD_TITLES_STORAGE_KEY);
}
