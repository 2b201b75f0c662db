import { Activity, useRef, type ReactNode } from 'react';
import { UNSAFE_LocationContext as LocationContext, useLocation, useNavigationType, useOutlet, type Location } from 'react-router-dom';
import { ErrorBoundary } from '../../errors/ErrorBoundary.tsx';
import { viewKey, type Tab } from './tab-list.ts';

interface CachedView {
  viewKey: string;
  element: ReactNode;
  location: Location;
}

export interface KeepAliveOutletProps {
  tabs: readonly Tab[];
  activeKey: string;
  /** The current route's meta says keepAlive. */
  keepAlive: boolean;
}

/**
 * The page area. A view whose route is keepAlive stays mounted while its tab is open:
 * hidden with React's <Activity> when another tab is shown, so its state (form values,
 * page, selection, nested routes' state: the whole subtree) is there when the user comes
 * back; its effects pause while hidden. Closing or refreshing its tab drops it (a refresh
 * changes the tab's generation, hence the view's key). Other views remount on every visit.
 *
 * Each kept view sees the location it was rendered for, not the current one, so that a
 * hidden list does not react to another tab's URL.
 */
export function KeepAliveOutlet({ tabs, activeKey, keepAlive }: KeepAliveOutletProps) {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const cache = useRef(new Map<string, CachedView>());
  const generation = tabs.find((t) => t.key === activeKey)?.generation ?? 0;
  const activeView = viewKey({ key: activeKey, generation });

  const views = cache.current;
  if (keepAlive) views.set(activeKey, { viewKey: activeView, element: outlet, location });
  else views.delete(activeKey);
  for (const [key, view] of views) {
    if (key === activeKey) continue;
    const tab = tabs.find((t) => t.key === key);
    if (!tab || viewKey(tab) !== view.viewKey) views.delete(key);
  }

  return (
    <>
      {[...views].map(([key, view]) => (
        <Activity key={view.viewKey} mode={key === activeKey ? 'visible' : 'hidden'} name={view.viewKey}>
          <LocationContext.Provider value={{ location: view.location, navigationType }}>
            <ErrorBoundary>{view.element}</ErrorBoundary>
          </LocationContext.Provider>
        </Activity>
      ))}
      {!keepAlive && (
        <ErrorBoundary key={activeView} resetKey={activeView}>
          {outlet}
        </ErrorBoundary>
      )}
    </>
  );
}
