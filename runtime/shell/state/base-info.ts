import { useAtomValue } from 'jotai';
import { userInfoAtom } from '../../session/atoms.ts';
import type { BaseInfo } from '../shell-api.ts';
import { baseInfoAtom } from './atoms.ts';

/** The logged-in user's base info; null while loading, and never another user's. */
export function useBaseInfo(): BaseInfo | null {
  const info = useAtomValue(userInfoAtom);
  const base = useAtomValue(baseInfoAtom);
  return info && base && String(base.userId) === String(info.id) ? base.info : null;
}
