import type { FastifyRequest } from 'fastify';
import { forbidden, loggedOut } from './envelope.ts';
import type { SessionUser } from '../auth/session-user.ts';

/** The authenticated caller; routes marked public have none. */
export function caller(req: FastifyRequest): SessionUser {
  if (!req.user) throw loggedOut('auth.tokenMissing');
  return req.user;
}

/**
 * 40301 unless `code` is among the caller's menu codes. Codes alone decide, for
 * administrators too: the platform flag widens scope, never authority.
 */
export function requireMenu(req: FastifyRequest, code: string): SessionUser {
  const user = caller(req);
  if (!user.menus.has(code)) throw forbidden();
  return user;
}

/** 40301 unless one of `codes` is among the caller's menu codes (a screen shown under several menu entries). */
export function requireAnyMenu(req: FastifyRequest, codes: readonly string[]): SessionUser {
  const user = caller(req);
  if (!codes.some((c) => user.menus.has(c))) throw forbidden();
  return user;
}

/** 40301 unless `code` is among the caller's element codes. */
export function requireElement(req: FastifyRequest, code: string): SessionUser {
  const user = caller(req);
  if (!user.elements.has(code)) throw forbidden();
  return user;
}

export function requirePlatformAdmin(req: FastifyRequest): SessionUser {
  const user = caller(req);
  if (!user.platformAdmin) throw forbidden();
  return user;
}
