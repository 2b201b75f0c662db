import type { SessionUser } from '../../auth/session-user.ts';
import type { Queryable } from '../../db/database.ts';
import { business } from '../../http/envelope.ts';
import { endSessionsOfLostCodes } from '../../auth/end-sessions.ts';
import { msg } from '../messages.ts';

interface RoleRow {
  id: number;
  code: string;
  menus: string[];
  elements: string[];
  platform: boolean;
}

/**
 * The roles `ids`, refused unless the caller may hand them out. Outside the platform
 * nobody grants more than they hold: a role's menus and elements must all be the
 * caller's own, and platform roles stay with platform administrators.
 */
export async function assignableRoles(db: Queryable, caller: SessionUser, ids: readonly number[]): Promise<RoleRow[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<RoleRow>('SELECT id, code, menus, elements, platform FROM roles WHERE id = ANY($1::int[]) ORDER BY id', [ids]);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw business(msg['accounts.roleMissing'], { id: missing });
  if (caller.platformAdmin) return rows;
  for (const role of rows) {
    const beyond = role.platform || role.menus.some((m) => !caller.menus.has(m)) || role.elements.some((e) => !caller.elements.has(e));
    if (beyond) throw business(msg['accounts.roleNotAssignable'], { role: role.code });
  }
  return rows;
}

/**
 * Replaces the user's roles; returns the role ids before and after for the audit row.
 * Losing any code ends the user's tokens.
 */
export async function replaceRoles(db: Queryable, userId: number, roleIds: readonly number[]): Promise<{ before: number[]; after: number[] }> {
  return endSessionsOfLostCodes(db, { userIds: [userId] }, () => swapRoles(db, userId, roleIds));
}

async function swapRoles(db: Queryable, userId: number, roleIds: readonly number[]): Promise<{ before: number[]; after: number[] }> {
  const before = (await db.query<{ role_id: number }>('SELECT role_id FROM user_roles WHERE user_id = $1 ORDER BY role_id', [userId])).rows.map(
    (r) => r.role_id,
  );
  await db.query('DELETE FROM user_roles WHERE user_id = $1', [userId]);
  if (roleIds.length) {
    await db.query('INSERT INTO user_roles(user_id, role_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING', [userId, roleIds]);
  }
  return { before, after: [...roleIds].sort((a, b) => a - b) };
}

/**
 * Roles a non-platform caller may not see nor remove from someone: taking away a role the
 * caller could not have granted is a permission change beyond their own, too.
 */
export async function assertRolesRemovable(db: Queryable, caller: SessionUser, roleIds: readonly number[]): Promise<void> {
  await assignableRoles(db, caller, roleIds);
}
