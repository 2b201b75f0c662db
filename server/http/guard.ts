import type { FastifyRequest } from 'fastify';
import { forbidden, loggedOut } from './envelope.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { can, type Authority, type ResourceAccess, type ResourceAction } from '../../runtime/access/can.ts';

/** The authenticated caller; routes marked public have none. */
export function caller(req: FastifyRequest): SessionUser {
  if (!req.user) throw loggedOut('auth.tokenMissing');
  return req.user;
}

/**
 * The caller, or 40301 unless `can` grants them the target (runtime/access/can.ts: a menu
 * code, a menu code and action, an Authority, or a resource and action). Codes alone
 * decide, for administrators too: the platform flag widens scope, never authority.
 */
export function requireCan(req: FastifyRequest, menuCode: string, action?: string): SessionUser;
export function requireCan(req: FastifyRequest, authority: Authority): SessionUser;
export function requireCan(req: FastifyRequest, resource: ResourceAccess, action: ResourceAction): SessionUser;
export function requireCan(req: FastifyRequest, target: string | Authority | ResourceAccess, action?: string): SessionUser {
  const user = caller(req);
  if (!(can as (u: SessionUser, t: typeof target, a?: string) => boolean)(user, target, action)) throw forbidden();
  return user;
}

/** 40301 unless `code` is among the caller's menu codes. */
export function requireMenu(req: FastifyRequest, code: string): SessionUser {
  return requireCan(req, code);
}

/** 40301 unless one of `codes` is among the caller's menu codes (a screen shown under several menu entries). */
export function requireAnyMenu(req: FastifyRequest, codes: readonly string[]): SessionUser {
  return requireCan(req, { menus: codes });
}

/** 40301 unless `code` is among the caller's element codes. */
export function requireElement(req: FastifyRequest, code: string): SessionUser {
  return requireCan(req, { elements: [code] });
}

export function requirePlatformAdmin(req: FastifyRequest): SessionUser {
  const user = caller(req);
  if (!user.platformAdmin) throw forbidden();
  return user;
}
