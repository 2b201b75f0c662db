import type { createStore } from 'jotai';
import type { AuthApi } from './auth-api.ts';
import { haveFarmAtom, menuTreeAtom, tokenAtom, userInfoAtom } from './atoms.ts';
import type { SessionPersistence } from './persistence.ts';
import type { MenuItem, UserInfo } from './user-info.ts';

type Store = ReturnType<typeof createStore>;

/**
 * The session's state changes (spec section 4): log in, adopt user info, log out, and
 * the forced local log out. Keeps the cookies and the jotai atoms in step.
 */
export class Session {
  constructor(
    private readonly persistence: SessionPersistence,
    private readonly store: Store,
    private readonly api: AuthApi,
    private readonly log: (...args: unknown[]) => void = (...args) => console.warn(...args),
  ) {
    store.set(tokenAtom, persistence.token);
    store.set(haveFarmAtom, persistence.haveFarm);
  }

  get token(): string | undefined {
    return this.persistence.token;
  }

  /** Logs in with the trimmed username; rejects with the server's refusal. */
  async login(username: string, password: string): Promise<void> {
    const token = await this.api.login(username.trim(), password);
    // A previous user's ids must not leak into this session.
    this.clearLocal();
    this.persistence.saveToken(token);
    this.store.set(tokenAtom, token);
  }

  /**
   * Adopts a token the server already confirmed (the sign-in redirect target /auth-redirect):
   * like a login, a previous user's local state goes first.
   */
  adoptToken(token: string): void {
    this.clearLocal();
    this.persistence.saveToken(token);
    this.store.set(tokenAtom, token);
  }

  /** Adopts the info and menu tree of the session flow; a stored farm id wins over the server's. */
  adopt(info: UserInfo, menus?: MenuItem[]): UserInfo {
    const effective = this.persistence.rememberUser(info);
    this.store.set(userInfoAtom, effective);
    if (menus) this.store.set(menuTreeAtom, menus);
    return effective;
  }

  setHaveFarm(value: '0' | '1'): void {
    this.persistence.setHaveFarm(value);
    this.store.set(haveFarmAtom, value);
  }

  /** Calls the server to revoke the token, then clears everything; a failed call still logs out here. */
  async logout(): Promise<void> {
    const token = this.persistence.token;
    try {
      if (token) await this.api.logout(token);
    } catch (e) {
      this.log('[session] server logout failed; logging out locally', e);
    } finally {
      this.clearLocal();
    }
  }

  /** The forced local log out: everything logout clears, without calling the server. */
  clearLocal(): void {
    this.persistence.clear();
    this.store.set(tokenAtom, undefined);
    this.store.set(userInfoAtom, null);
    this.store.set(menuTreeAtom, []);
    this.store.set(haveFarmAtom, undefined);
  }
}
