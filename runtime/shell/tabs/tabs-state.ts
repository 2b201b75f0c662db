import { atom, useAtom, useSetAtom } from 'jotai';
import { useCallback, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { forgetRecordTitles } from '../../screens/screen-title.ts';
import { HOME_TAB, reduceTabs, restoreTabs, serialiseTabs, tabKey, withHome, type TabAction, type TabsState } from './tab-list.ts';

/** sessionStorage: open tabs survive a reload of the page, not the end of the browser session. */
export const TABS_STORAGE_KEY = 'shell.tabs';

/** The open tabs; null until restored for the logged-in user. */
export const tabsAtom = atom<(TabsState & { userId: string }) | null>(null);

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Forgets the open tabs (log out: the next user of the browser starts with none). */
export function forgetStoredTabs(): void {
  storage()?.removeItem(TABS_STORAGE_KEY);
  forgetRecordTitles();
}

/**
 * The tab strip's state for `userId`: restored from sessionStorage on first use, saved on
 * every change; `dispatch` applies an action and navigates where the reducer says.
 */
export function useTabs(userId: string): { state: TabsState; activeKey: string; dispatch(action: TabAction): void } {
  const [stored, setStored] = useAtom(tabsAtom);
  const location = useLocation();
  const navigate = useNavigate();
  const activeKey = tabKey(location);
  // Until the first change, the tabs are what the previous page load of this user left.
  const state: TabsState = useMemo(
    () => withHome(stored && stored.userId === userId ? stored : restoreTabs(storage()?.getItem(TABS_STORAGE_KEY), userId)),
    [stored, userId],
  );

  // Two actions in one tick (a visit and a close) must see each other's result.
  const latest = useRef(state);
  latest.current = state;

  const dispatch = useCallback(
    (action: TabAction) => {
      const current = latest.current;
      const outcome = reduceTabs(current, action, activeKey);
      if (outcome.state !== current) {
        latest.current = outcome.state;
        setStored({ userId, ...outcome.state });
        storage()?.setItem(TABS_STORAGE_KEY, serialiseTabs(userId, outcome.state));
      }
      if (outcome.navigateTo !== null) void navigate(outcome.navigateTo);
    },
    [userId, activeKey, setStored, navigate],
  );

  return { state, activeKey, dispatch };
}

/**
 * Closes the tab of `key` without navigating: a routed form closes its own tab once saved
 * (docs/screens.md, "Forms behave"), while it navigates where the save leads.
 */
export function useForgetTab(): (key: string) => void {
  const setStored = useSetAtom(tabsAtom);
  return useCallback(
    (key: string) =>
      setStored((prev) => {
        if (!prev || key === HOME_TAB || !prev.tabs.some((t) => t.key === key)) return prev;
        const next = { ...prev, tabs: prev.tabs.filter((t) => t.key !== key) };
        storage()?.setItem(TABS_STORAGE_KEY, serialiseTabs(prev.userId, next));
        return next;
      }),
    [setStored],
  );
}
