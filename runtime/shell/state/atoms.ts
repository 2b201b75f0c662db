import { atom } from 'jotai';
import type { ComponentSize } from '../../session/persistence.ts';
import type { BaseInfo, ConsoleConfig } from '../shell-api.ts';

/** The global component size (spec 2.6, default medium); null until the cookie has been read. */
export const sizeAtom = atom<ComponentSize | null>(null);

/** Desktop sidebar opened (true) or collapsed; null until the `sidebarStatus` cookie has been read. */
export const sidebarOpenedAtom = atom<boolean | null>(null);

/** Base info of the user whose id it carries; a stale one (another user) is ignored by readers. */
export const baseInfoAtom = atom<{ userId: number | string; info: BaseInfo } | null>(null);

export const consoleConfigAtom = atom<ConsoleConfig | null>(null);

/** Bumped whenever the unread count may have changed; the badge refetches on every change. */
export const noticeCountVersionAtom = atom(0);

/**
 * Write-only: ask the notice badge to re-read the unread count. The notice screen sets it
 * after marking notices read: `useSetAtom(refreshNoticeCountAtom)()`.
 */
export const refreshNoticeCountAtom = atom(null, (_get, set) => set(noticeCountVersionAtom, (v) => v + 1));

/** The password-change dialog (spec 2.7) is opened from the user menu. */
export const passwordDialogOpenAtom = atom(false);
