import { atom } from 'jotai';
import { excludedByHaveFarm, filterMenuTree } from '../routing/menu-filter.ts';
import type { MenuItem, UserInfo } from './user-info.ts';

/** The token as React sees it; the cookie is the source of truth across reloads. */
export const tokenAtom = atom<string | undefined>(undefined);

/** User info of the current session, null until the session flow has fetched it. */
export const userInfoAtom = atom<UserInfo | null>(null);

/** The server's menu tree, unfiltered. */
export const menuTreeAtom = atom<MenuItem[]>([]);

/** The local haveFarm flag (localStorage), mirrored for rendering. */
export const haveFarmAtom = atom<string | undefined>(undefined);

export const menuCodesAtom = atom<ReadonlySet<string>>((get) => new Set(get(userInfoAtom)?.menus ?? []));
export const elementCodesAtom = atom<ReadonlySet<string>>((get) => new Set(get(userInfoAtom)?.elements ?? []));

/** The menu codes an account without a farm does not see: the product profile's, set by the app. */
export const hiddenWithoutFarmAtom = atom<ReadonlySet<string>>(new Set<string>());

/** The permission menu: the server's tree filtered and sorted as spec section 6 says. */
export const permissionMenuAtom = atom<MenuItem[]>((get) =>
  filterMenuTree(get(menuTreeAtom), get(menuCodesAtom), { exclude: excludedByHaveFarm(get(haveFarmAtom), get(hiddenWithoutFarmAtom)) }),
);
