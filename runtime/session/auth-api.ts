import type { HttpClient } from '../http/client.ts';
import { callRoute } from '../protocol/calls.ts';
import { HttpError } from '../http/errors.ts';
import { parseMenuTree, parseUserInfo, type MenuItem, type UserInfo } from './user-info.ts';

/** The auth calls of spec section 7.1 the session uses (their URLs: runtime/protocol/calls.ts). */
export interface AuthApi {
  /** The token; rejects (quietly: the login form shows the error) on any other status. */
  login(username: string, password: string): Promise<string>;
  logout(token: string): Promise<void>;
  userInfo(token: string, options?: { quiet?: boolean }): Promise<UserInfo>;
  menuTree(token: string, options?: { quiet?: boolean }): Promise<MenuItem[]>;
}

export function createAuthApi(http: HttpClient): AuthApi {
  return {
    async login(username, password) {
      const env = await http.request<unknown>({ ...callRoute('signIn'), body: { username, password }, quiet: true });
      if (env.status !== 200 || typeof env.data !== 'string' || !env.data) {
        throw new HttpError('unexpected', env.message || 'login refused', null, env.status, env);
      }
      return env.data;
    },
    async logout(token) {
      await http.request({ ...callRoute('signOut'), query: { token }, quiet: true });
    },
    // The token asked about is the call's own: the same as the session's in the session flow, a
    // candidate not yet stored on /auth-redirect.
    async userInfo(token, options) {
      const env = await http.request({ ...callRoute('userInfo'), query: { token }, quiet: options?.quiet, token });
      return parseUserInfo(env.data);
    },
    async menuTree(token, options) {
      const env = await http.request({ ...callRoute('menuTree'), query: { token }, quiet: options?.quiet });
      return parseMenuTree(env.data);
    },
  };
}
