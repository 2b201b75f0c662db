import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useServices } from '../../services/context.ts';
import type { ComponentSize } from '../../session/persistence.ts';
import { sidebarOpenedAtom, sizeAtom } from './atoms.ts';

export const DEFAULT_SIZE: ComponentSize = 'middle';

/** The component size: the atom once set, else the `size` cookie, else medium. */
export function useSize(): ComponentSize {
  const { persistence } = useServices();
  return useAtomValue(sizeAtom) ?? persistence.size ?? DEFAULT_SIZE;
}

/** Sets the size for every antd component and keeps it in the `size` cookie. */
export function useSaveSize(): (size: ComponentSize) => void {
  const { persistence } = useServices();
  const set = useSetAtom(sizeAtom);
  return useCallback(
    (size) => {
      persistence.saveSize(size);
      set(size);
    },
    [persistence, set],
  );
}

/** The desktop sidebar: the atom once toggled, else the `sidebarStatus` cookie ('0' closed), else open. */
export function useSidebarOpened(): [boolean, (opened: boolean) => void] {
  const { persistence } = useServices();
  const value = useAtomValue(sidebarOpenedAtom);
  const set = useSetAtom(sidebarOpenedAtom);
  const opened = value ?? persistence.sidebarStatus !== '0';
  const save = useCallback(
    (next: boolean) => {
      persistence.saveSidebarStatus(next ? '1' : '0');
      set(next);
    },
    [persistence, set],
  );
  return [opened, save];
}
