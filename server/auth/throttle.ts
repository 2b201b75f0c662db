import type { Queryable } from '../db/database.ts';

/**
 * Failed-login throttling. Failures live in the database (login_failures) so that every
 * server instance behind a load balancer counts the same attempts.
 */
export const THROTTLE = {
  windowMinutes: 15,
  perUsername: 5,
  perAddress: 20,
};

const userKey = (username: string) => `u:${username.toLowerCase()}`;
const addressKey = (ip: string) => `ip:${ip}`;

/** When the caller may try again, or null when not throttled. */
export async function throttledUntil(db: Queryable, username: string, ip: string): Promise<Date | null> {
  const { rows } = await db.query<{ key: string; n: number; oldest: Date | string }>(
    `SELECT key, count(*)::int AS n, min(at) AS oldest FROM (
       SELECT key, at FROM login_failures
        WHERE key = ANY($1::text[]) AND at > now() - make_interval(mins => $2)
     ) recent GROUP BY key`,
    [[userKey(username), addressKey(ip)], THROTTLE.windowMinutes],
  );
  let until: Date | null = null;
  for (const r of rows) {
    const limit = r.key.startsWith('u:') ? THROTTLE.perUsername : THROTTLE.perAddress;
    if (r.n < limit) continue;
    // The window slides: one more attempt is allowed once the oldest counted failure ages out.
    const { rows: nth } = await db.query<{ at: Date | string }>(
      `SELECT at FROM login_failures WHERE key = $1 AND at > now() - make_interval(mins => $2)
        ORDER BY at DESC OFFSET $3 - 1 LIMIT 1`,
      [r.key, THROTTLE.windowMinutes, limit],
    );
    const at = new Date(new Date(nth[0]?.at ?? r.oldest).getTime() + THROTTLE.windowMinutes * 60_000);
    if (!until || at > until) until = at;
  }
  return until;
}

export async function recordFailure(db: Queryable, username: string, ip: string): Promise<void> {
  await db.query(`INSERT INTO login_failures(key) VALUES ($1), ($2)`, [userKey(username), addressKey(ip)]);
  // Old rows count for nothing; drop them while we are here so the table stays small.
  await db.query(`DELETE FROM login_failures WHERE at < now() - interval '1 day'`);
}

/** A successful login forgives that username's failures (not the address's). */
export async function clearFailures(db: Queryable, username: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE key = $1', [userKey(username)]);
}
