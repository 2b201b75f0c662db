import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../../auth/session-user.ts';
import { hashPassword } from '../../auth/password.ts';
import { audit } from '../../audit/log.ts';
import type { Queryable } from '../../db/database.ts';
import { assignableRoles, replaceRoles } from './roles.ts';
import { insertUser, userById, type UserView } from './users.ts';
import * as s from '../schemas.ts';

/** Body of every call that creates a person (add/*, addPerson, regist/organizationUser). */
export interface PersonBody {
  username: string;
  password?: string;
  name: string;
  mobilePhone?: string;
  description?: string;
  city?: string;
  roleIds?: number[];
}

export const personProps = {
  username: s.username,
  password: s.password,
  name: s.name,
  mobilePhone: s.phone,
  description: s.text(500),
  city: s.city,
  roleIds: s.roleIds,
} as const;

export interface Placement {
  kind: string;
  orgId: number | null;
  blocId: number | null;
}

/**
 * The stored hash for a new person, computed before any transaction opens (scrypt is slow
 * and PGlite runs one transaction at a time). A person created without a password gets a
 * random one nobody knows: they cannot log in until an administrator resets it.
 */
export function personHash(body: { password?: string }): Promise<string> {
  return hashPassword(body.password ?? randomBytes(24).toString('base64url'));
}

/**
 * Creates the person inside `tx` with the roles asked for (only roles the caller may grant)
 * and writes the audit rows.
 */
export async function createPerson(
  tx: Queryable,
  req: FastifyRequest,
  caller: SessionUser,
  body: PersonBody,
  at: Placement,
  passwordHash: string,
): Promise<UserView> {
  const roles = await assignableRoles(tx, caller, body.roleIds ?? []);
  const id = await insertUser(tx, {
    username: body.username,
    passwordHash,
    name: body.name,
    mobilePhone: body.mobilePhone ?? null,
    kind: at.kind,
    orgId: at.orgId,
    blocId: at.blocId,
    description: body.description ?? null,
    city: body.city ?? null,
  });
  await audit(tx, req, {
    action: 'user.create',
    resource: 'users',
    recordId: id,
    changes: {
      username: body.username,
      name: body.name,
      mobilePhone: body.mobilePhone ?? null,
      kind: at.kind,
      orgId: at.orgId,
      blocId: at.blocId,
      passwordSet: body.password !== undefined,
    },
  });
  if (roles.length) {
    const change = await replaceRoles(tx, id, roles.map((r) => r.id));
    await audit(tx, req, { action: 'user.roles', resource: 'users', recordId: id, changes: { roles: { from: change.before, to: change.after } } });
  }
  return userById(tx, id);
}
