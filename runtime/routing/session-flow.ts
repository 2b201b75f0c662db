import { isHttpError } from '../http/errors.ts';
import type { MenuItem, UserInfo } from '../session/user-info.ts';

/** The calls the session flow needs. */
export interface SessionSource {
  userInfo(): Promise<UserInfo>;
  menuTree(): Promise<MenuItem[]>;
}

export type SessionOutcome =
  | { kind: 'ready'; info: UserInfo; menus: MenuItem[] }
  /** The user holds no menu codes: the account is for the mobile end only. */
  | { kind: 'refused' }
  /** Fetching user info failed; `message` is the server's when it sent one. */
  | { kind: 'failed'; message?: string };

/**
 * Steps 3 to 6 of the session flow of spec section 4, run on the first navigation with a
 * token: fetch user info; zero menus refuses; otherwise fetch the menu tree so that the
 * routes and the side menu can be built. The caller clears the session and shows the
 * message on `refused` and `failed`.
 */
export async function resolveSession(source: SessionSource): Promise<SessionOutcome> {
  let info: UserInfo;
  try {
    info = await source.userInfo();
  } catch (e) {
    return { kind: 'failed', message: messageOf(e) };
  }
  if (info.menus.length === 0) return { kind: 'refused' };
  try {
    return { kind: 'ready', info, menus: await source.menuTree() };
  } catch (e) {
    return { kind: 'failed', message: messageOf(e) };
  }
}

function messageOf(e: unknown): string | undefined {
  if (isHttpError(e)) return e.serverMessage;
  return undefined;
}
