/**
 * The console's own calls that are not resource operations (spec sections 7.1 and 7.3):
 * signing in and out, the user's info and menus, the shell's base info, settings, notice
 * count, password change and registration. One table, by name: the shell asks the data
 * provider for a call by its name (DataProvider.call) and the session's auth calls read
 * it too, so no module of the shell, the screens or the session writes an /api path
 * (tests/unit/layers.test.ts). Server URLs never change; this table names them.
 */
import type { HttpMethod } from './operations.ts';

export interface CallRoute {
  method: HttpMethod;
  path: string;
}

export const NAMED_CALLS = {
  /** POST {username, password} → the token. */
  signIn: { method: 'POST', path: '/api/auth/jwt/token' },
  /** POST ?token: ends the session on the server. */
  signOut: { method: 'POST', path: '/api/auth/jwt/invalid' },
  /** GET ?token: the signed-in user. */
  userInfo: { method: 'GET', path: '/api/admin/user/front/info' },
  /** GET ?token: the user's menu tree with element codes. */
  menuTree: { method: 'GET', path: '/api/admin/user/front/menus2' },
  /** GET: the phone, logo and city of the signed-in user. */
  baseInfo: { method: 'GET', path: '/api/admin/user/front/baseInfo' },
  /** GET: the console settings from the server configuration (public). */
  consoleConfig: { method: 'GET', path: '/api/console/config' },
  /** GET ?userId: the number of unread notices. */
  unreadNotices: { method: 'GET', path: '/api/coverfield/notice/notReadNumber' },
  /** PUT ?phone: an SMS code for a password change. */
  sendChangePasswordCode: { method: 'PUT', path: '/api/admin/user/front/sms/sendChangePassword' },
  /** POST ?phone&password&code. */
  changePassword: { method: 'POST', path: '/api/admin/user/front/changePassword' },
  /** PUT ?phone: an SMS code for a registration (public). */
  sendRegistrationCode: { method: 'PUT', path: '/api/admin/user/front/sms/send' },
  /** POST {username, name, phone, code, password, orgName, orgType, …}: a registration request (public). */
  register: { method: 'POST', path: '/api/admin/user/front/regist' },
} as const satisfies Record<string, CallRoute>;

export type NamedCall = keyof typeof NAMED_CALLS;

/** The method and URL of a named call. */
export function callRoute(name: NamedCall): { method: HttpMethod; url: string } {
  const { method, path } = NAMED_CALLS[name];
  return { method, url: path };
}
