/**
 * The tab strip's state as pure functions (spec 2.6 and 4). A tab is one visited route,
 * keyed by pathname and search (less a view's own state: a list's, a wizard's step), so every detail/:id is a tab of
 * its own. The home tab is pinned first. `generation`
 * counts refreshes: the view of a tab is mounted under `key#generation`, so a refresh
 * (or closing and reopening) gives a fresh view, while revisiting keeps the old one.
 */
export interface Tab {
  /** pathname + search without the list state (see LIST_STATE_PREFIXES): the tab's identity. */
  key: string;
  generation: number;
  /** Where the tab leads: its key plus the list state (filters, page, sort) it was left with. */
  href?: string;
}

export interface TabsState {
  tabs: readonly Tab[];
}

export type TabAction =
  | { type: 'visit'; key: string; href?: string }
  | { type: 'close'; key: string }
  | { type: 'closeOthers'; key: string }
  | { type: 'closeLeft'; key: string }
  | { type: 'closeRight'; key: string }
  | { type: 'closeAll' }
  | { type: 'refresh'; key: string };

/** Where to go after an action, when the active tab went away: a neighbouring tab, or home. */
export interface TabOutcome {
  state: TabsState;
  navigateTo: string | null;
}

export const EMPTY_TABS: TabsState = { tabs: [] };

/**
 * The pinned home tab: always first, never closed, so that closing tabs never drops a
 * signed-in user onto the public start page.
 */
export const HOME_TAB = '/dashboard';

/**
 * Query parameters that are a view's state, not the page's identity: a list's state
 * (runtime/screens/list-url.ts), so a list whose filters change stays one tab, and a
 * wizard's step (runtime/screens/StepsView.tsx, `?step=`), so a wizard opened from the
 * address bar or moved to its next step stays one tab.
 */
export const LIST_STATE_PREFIXES = ['list.', 'filter.'] as const;
const VIEW_STATE_PARAMS = new Set(['step']);

export function isListStateParam(name: string): boolean {
  return VIEW_STATE_PARAMS.has(name) || LIST_STATE_PREFIXES.some((p) => name.startsWith(p));
}

export function tabKey(location: { pathname: string; search?: string }): string {
  const search = location.search && location.search !== '?' ? location.search : '';
  if (!search) return location.pathname;
  const params = new URLSearchParams(search);
  const kept = [...params].filter(([name]) => !isListStateParam(name));
  if (kept.length === [...params].length) return location.pathname + search;
  const rest = new URLSearchParams(kept).toString();
  return location.pathname + (rest ? `?${rest}` : '');
}

/** Where a tab leads (its last full address). */
export function tabHref(tab: Tab): string {
  return tab.href ?? tab.key;
}

/** The home tab first, once, whatever the state held. */
export function withHome(state: TabsState, home: string = HOME_TAB): TabsState {
  if (state.tabs[0]?.key === home && !state.tabs.slice(1).some((t) => t.key === home)) return state;
  const own = state.tabs.find((t) => t.key === home) ?? { key: home, generation: 0 };
  return { tabs: [own, ...state.tabs.filter((t) => t.key !== home)] };
}

export function reduceTabs(input: TabsState, action: TabAction, activeKey: string | null, home: string = HOME_TAB): TabOutcome {
  const state = withHome(input, home);
  const hrefOf = (key: string) => {
    const tab = state.tabs.find((t) => t.key === key);
    return tab ? tabHref(tab) : key;
  };
  // Keeps the tabs `keep` says; when the active one went, opens `fallback`.
  const keepOnly = (keep: (t: Tab, i: number) => boolean, fallback: string): TabOutcome => {
    const tabs = state.tabs.filter((t, i) => t.key === home || keep(t, i));
    if (tabs.length === state.tabs.length) return { state, navigateTo: null };
    const activeGone = activeKey !== null && !tabs.some((t) => t.key === activeKey);
    return { state: { tabs }, navigateTo: activeGone ? hrefOf(fallback) : null };
  };
  switch (action.type) {
    case 'visit': {
      const i = state.tabs.findIndex((t) => t.key === action.key);
      const href = action.href && action.href !== action.key ? action.href : undefined;
      if (i >= 0) {
        if (state.tabs[i].href === href) return { state, navigateTo: null };
        const tabs = state.tabs.map((t, j) => (j === i ? { ...t, href } : t));
        return { state: { tabs }, navigateTo: null };
      }
      const tab: Tab = href ? { key: action.key, generation: 0, href } : { key: action.key, generation: 0 };
      return { state: { tabs: [...state.tabs, tab] }, navigateTo: null };
    }
    case 'close': {
      if (action.key === home || !state.tabs.some((t) => t.key === action.key)) return { state, navigateTo: null };
      const tabs = state.tabs.filter((t) => t.key !== action.key);
      const navigateTo = action.key === activeKey ? tabHref(tabs.at(-1)!) : null;
      return { state: { tabs }, navigateTo };
    }
    case 'closeOthers': {
      // The user acted on that tab: it is the one shown afterwards.
      const out = keepOnly((t) => t.key === action.key, action.key);
      return action.key === activeKey || !state.tabs.some((t) => t.key === action.key) ? out : { ...out, navigateTo: hrefOf(action.key) };
    }
    case 'closeLeft': {
      const at = state.tabs.findIndex((t) => t.key === action.key);
      if (at < 0) return { state, navigateTo: null };
      return keepOnly((_, i) => i >= at, action.key);
    }
    case 'closeRight': {
      const at = state.tabs.findIndex((t) => t.key === action.key);
      if (at < 0) return { state, navigateTo: null };
      return keepOnly((_, i) => i <= at, action.key);
    }
    case 'closeAll':
      return keepOnly(() => false, home);
    case 'refresh':
      return {
        state: { tabs: state.tabs.map((t) => (t.key === action.key ? { ...t, generation: t.generation + 1 } : t)) },
        navigateTo: action.key === activeKey ? null : hrefOf(action.key),
      };
  }
}

/** The view identity of a tab: a new generation is a new view. */
export function viewKey(tab: Tab): string {
  return `${tab.key}#${tab.generation}`;
}

/** What survives a page reload: the tabs of one user. */
export interface StoredTabs {
  userId: string;
  keys: string[];
  /** The tabs' last addresses with their list state, where they differ from the key. */
  hrefs?: Record<string, string>;
}

export function serialiseTabs(userId: string, state: TabsState): string {
  const hrefs = Object.fromEntries(state.tabs.filter((t) => t.href).map((t) => [t.key, t.href!]));
  return JSON.stringify({ userId, keys: state.tabs.map((t) => t.key), ...(Object.keys(hrefs).length ? { hrefs } : {}) } satisfies StoredTabs);
}

const isLocalPath = (k: unknown): k is string => typeof k === 'string' && k.startsWith('/') && !k.startsWith('//');

/** The stored tabs when they belong to `userId` and are well formed; none otherwise. */
export function restoreTabs(raw: string | null | undefined, userId: string): TabsState {
  if (!raw) return EMPTY_TABS;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredTabs>;
    if (parsed.userId !== userId || !Array.isArray(parsed.keys)) return EMPTY_TABS;
    const keys = [...new Set(parsed.keys.filter(isLocalPath))];
    const hrefs = parsed.hrefs && typeof parsed.hrefs === 'object' ? parsed.hrefs : {};
    return {
      tabs: keys.map((key) => {
        const href = hrefs[key];
        // A stored address must lead to its own tab, not elsewhere.
        return isLocalPath(href) && tabKey(new URL(href, 'http://x')) === key ? { key, generation: 0, href } : { key, generation: 0 };
      }),
    };
  } catch {
    return EMPTY_TABS;
  }
}
