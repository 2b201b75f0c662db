/**
 * The tab strip's state as pure functions (spec 2.6 and 4). A tab is one visited route,
 * keyed by pathname and search, so every detail/:id is a tab of its own. `generation`
 * counts refreshes: the view of a tab is mounted under `key#generation`, so a refresh
 * (or closing and reopening) gives a fresh view, while revisiting keeps the old one.
 */
export interface Tab {
  /** pathname + search: what the tab navigates to, and its identity. */
  key: string;
  generation: number;
}

export interface TabsState {
  tabs: readonly Tab[];
}

export type TabAction =
  | { type: 'visit'; key: string }
  | { type: 'close'; key: string }
  | { type: 'closeOthers'; key: string }
  | { type: 'closeAll' }
  | { type: 'refresh'; key: string };

/** Where to go after an action, when the active tab went away: the last remaining tab, or `/`. */
export interface TabOutcome {
  state: TabsState;
  navigateTo: string | null;
}

export const EMPTY_TABS: TabsState = { tabs: [] };

/** The route to open when none remain (spec 4). */
export const NO_TAB_TARGET = '/';

export function tabKey(location: { pathname: string; search?: string }): string {
  return location.pathname + (location.search && location.search !== '?' ? location.search : '');
}

export function reduceTabs(state: TabsState, action: TabAction, activeKey: string | null): TabOutcome {
  switch (action.type) {
    case 'visit':
      if (state.tabs.some((t) => t.key === action.key)) return { state, navigateTo: null };
      return { state: { tabs: [...state.tabs, { key: action.key, generation: 0 }] }, navigateTo: null };
    case 'close': {
      if (!state.tabs.some((t) => t.key === action.key)) return { state, navigateTo: null };
      const tabs = state.tabs.filter((t) => t.key !== action.key);
      const navigateTo = action.key === activeKey ? (tabs.at(-1)?.key ?? NO_TAB_TARGET) : null;
      return { state: { tabs }, navigateTo };
    }
    case 'closeOthers': {
      const kept = state.tabs.filter((t) => t.key === action.key);
      return { state: { tabs: kept }, navigateTo: action.key === activeKey || kept.length === 0 ? null : action.key };
    }
    case 'closeAll':
      return { state: EMPTY_TABS, navigateTo: NO_TAB_TARGET };
    case 'refresh':
      return {
        state: { tabs: state.tabs.map((t) => (t.key === action.key ? { ...t, generation: t.generation + 1 } : t)) },
        navigateTo: action.key === activeKey ? null : action.key,
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
}

export function serialiseTabs(userId: string, state: TabsState): string {
  return JSON.stringify({ userId, keys: state.tabs.map((t) => t.key) } satisfies StoredTabs);
}

/** The stored tabs when they belong to `userId` and are well formed; none otherwise. */
export function restoreTabs(raw: string | null | undefined, userId: string): TabsState {
  if (!raw) return EMPTY_TABS;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredTabs>;
    if (parsed.userId !== userId || !Array.isArray(parsed.keys)) return EMPTY_TABS;
    const keys = [...new Set(parsed.keys.filter((k): k is string => typeof k === 'string' && k.startsWith('/') && !k.startsWith('//')))];
    return { tabs: keys.map((key) => ({ key, generation: 0 })) };
  } catch {
    return EMPTY_TABS;
  }
}
