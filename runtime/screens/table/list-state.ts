import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { initialFilterValues, type FilterSpec } from '../filters.ts';
import { readListState, writeListState, type ListState } from '../list-url.ts';

/**
 * The list's filters, sort, page and page size: in the address (list-url.ts) when
 * `inAddress`, so a reload, back and a shared link keep them; in memory otherwise.
 * Every change is one history entry.
 */
export function useListState(inAddress: boolean, specs: FilterSpec[], defaultPageSize: number, sortable: ReadonlySet<string>): [ListState, (change: Partial<ListState>) => void] {
  const [params, setParams] = useSearchParams();
  const [local, setLocal] = useState<ListState>(() => ({ values: initialFilterValues(specs), pageIndex: 1, pageSize: defaultPageSize, sorting: [] }));
  const paramsKey = params.toString();
  const fromAddress = useMemo(
    () => (inAddress ? readListState(new URLSearchParams(paramsKey), specs, { pageSize: defaultPageSize, sortable }) : null),
    [inAddress, paramsKey, specs, defaultPageSize, sortable],
  );
  const state = fromAddress ?? local;
  const latest = useRef(state);
  latest.current = state;
  const update = useCallback(
    (change: Partial<ListState>) => {
      const next = { ...latest.current, ...change };
      latest.current = next;
      if (!inAddress) return setLocal(next);
      setParams((prev) => writeListState(prev, next, specs, { pageSize: defaultPageSize }));
    },
    [inAddress, setParams, specs, defaultPageSize],
  );
  return [state, update];
}

/** The window's width in CSS pixels, following resizes (which columns a narrow screen keeps). */
export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 1440 : window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}
