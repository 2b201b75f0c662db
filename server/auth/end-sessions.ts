import type { Queryable } from '../db/database.ts';

/**
 * Ends every token issued so far to these users: their token epoch rises and
 * `TokenService.verify` refuses tokens of an older epoch. Nothing lowers an epoch, so
 * re-enabling an account never revives its old tokens.
 */
export async function endSessions(db: Queryable, userIds: readonly number[]): Promise<void> {
  if (userIds.length) await db.query('UPDATE users SET token_epoch = token_epoch + 1 WHERE id = ANY($1::int[])', [userIds]);
}

/** Whom a grant change may concern: these users, and/or everyone holding these roles. */
export interface Holders {
  userIds?: readonly number[];
  roleIds?: readonly number[];
}

/**
 * Runs `change` (inside the caller's transaction) and ends the sessions of every
 * concerned user who holds fewer codes afterwards: a menu or element code, or the
 * platform flag. Gaining codes keeps sessions; losing any ends them.
 */
export async function endSessionsOfLostCodes<T>(tx: Queryable, holders: Holders, change: () => Promise<T>): Promise<T> {
  const users = await concernedUsers(tx, holders);
  if (!users.length) return change();
  const before = await grantsOf(tx, users);
  const result = await change();
  const after = await grantsOf(tx, users);
  const losers = users.filter((id) => [...(before.get(id) ?? [])].some((code) => !after.get(id)?.has(code)));
  await endSessions(tx, losers);
  return result;
}

async function concernedUsers(tx: Queryable, { userIds = [], roleIds = [] }: Holders): Promise<number[]> {
  if (!roleIds.length) return [...userIds];
  const { rows } = await tx.query<{ user_id: number }>('SELECT DISTINCT user_id FROM user_roles WHERE role_id = ANY($1::int[])', [roleIds]);
  return [...new Set([...userIds, ...rows.map((r) => r.user_id)])];
}

async function grantsOf(tx: Queryable, userIds: number[]): Promise<Map<number, Set<string>>> {
  const { rows } = await tx.query<{ user_id: number; codes: string[] | null }>(
    `SELECT ur.user_id,
            array_agg(DISTINCT c) FILTER (WHERE c IS NOT NULL) AS codes
       FROM user_roles ur
       JOIN roles r ON r.id = ur.role_id,
            unnest(r.menus || r.elements || CASE WHEN r.platform THEN ARRAY['#platform'] ELSE ARRAY[]::text[] END) AS c
      WHERE ur.user_id = ANY($1::int[])
      GROUP BY ur.user_id`,
    [userIds],
  );
  return new Map(rows.map((r) => [r.user_id, new Set(r.codes ?? [])]));
}
