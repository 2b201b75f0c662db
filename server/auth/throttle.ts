import type { Queryable } from '../db/database.ts';

/**
 * Login throttling (policy in docs/auth-and-accounts.md, "Throttling").
 *
 * Every attempt is counted before its password is checked, in one INSERT … ON CONFLICT DO
 * UPDATE whose row lock orders concurrent attempts: the count an attempt sees already
 * includes every attempt before it, on any server instance sharing the database. An
 * attempt over a limit is not counted and not checked.
 *
 * - per username and address (`p:`): a few tries, then that address waits for that account;
 * - per username from all addresses (`u:`): a larger budget that bounds a distributed guess;
 * - per address (`ip:`): never a refusal (behind a proxy without TRUST_PROXY every caller
 *   shares one address); past a free number of failures each attempt waits a little longer.
 */
export const THROTTLE = {
  windowMinutes: 15,
  perPair: 5,
  perUsername: 20,
  /** Failures from one address before its attempts start to wait. */
  addressFree: 20,
  addressDelayStepMs: 200,
  addressDelayMaxMs: 3000,
};

const lower = (username: string) => username.toLowerCase();
const pairKey = (username: string, ip: string) => `p:${ip} ${lower(username)}`;
const userKey = (username: string) => `u:${lower(username)}`;
const addressKey = (ip: string) => `ip:${ip}`;

/** The counted attempt: what to forgive on success, or to give back when it does not count. */
export interface Ticket {
  keys: string[];
  address: string;
}

export type Admission = { admitted: true; ticket: Ticket; delayMs: number } | { admitted: false; retryAt: Date };

const WINDOW_EXPIRED = `t.since <= now() - make_interval(mins => $2)`;

/** Counts one attempt for `username` from `ip`, or refuses it without counting. */
export async function admit(db: Queryable, username: string, ip: string): Promise<Admission> {
  // Sorted keys: every attempt locks the rows in the same order, so two never deadlock.
  const keys = [pairKey(username, ip), userKey(username)].sort();
  const { rows } = await db.query<{ key: string }>(
    `INSERT INTO login_throttle AS t (key, n, since)
       SELECT k, 1, now() FROM unnest($1::text[]) AS k ORDER BY k
     ON CONFLICT (key) DO UPDATE
        SET n = CASE WHEN ${WINDOW_EXPIRED} THEN 1 ELSE t.n + 1 END,
            since = CASE WHEN ${WINDOW_EXPIRED} THEN now() ELSE t.since END
      WHERE ${WINDOW_EXPIRED} OR t.n < CASE WHEN t.key LIKE 'u:%' THEN $3::int ELSE $4::int END
     RETURNING t.key`,
    [keys, THROTTLE.windowMinutes, THROTTLE.perUsername, THROTTLE.perPair],
  );
  const counted = rows.map((r) => r.key);
  if (counted.length < keys.length) {
    await giveBack(db, counted);
    const refused = keys.filter((k) => !counted.includes(k));
    const { rows: windows } = await db.query<{ until: Date | string }>(
      `SELECT max(since) + make_interval(mins => $2) AS until FROM login_throttle WHERE key = ANY($1::text[])`,
      [refused, THROTTLE.windowMinutes],
    );
    return { admitted: false, retryAt: new Date(windows[0]?.until ?? Date.now() + THROTTLE.windowMinutes * 60_000) };
  }
  return { admitted: true, ticket: { keys, address: ip }, delayMs: addressDelayMs(await addressFailures(db, ip)) };
}

/** The wait before checking a password from an address with `failures` recent failures. */
export function addressDelayMs(failures: number): number {
  const over = failures - THROTTLE.addressFree;
  return over <= 0 ? 0 : Math.min(over * THROTTLE.addressDelayStepMs, THROTTLE.addressDelayMaxMs);
}

async function addressFailures(db: Queryable, ip: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT n FROM login_throttle WHERE key = $1 AND since > now() - make_interval(mins => $2)`,
    [addressKey(ip), THROTTLE.windowMinutes],
  );
  return rows[0]?.n ?? 0;
}

/** A wrong password: the attempt stays counted, and the address's failures grow. */
export async function failed(db: Queryable, ticket: Ticket): Promise<void> {
  await db.query(
    `INSERT INTO login_throttle AS t (key, n, since) VALUES ($1, 1, now())
     ON CONFLICT (key) DO UPDATE
        SET n = CASE WHEN ${WINDOW_EXPIRED} THEN 1 ELSE t.n + 1 END,
            since = CASE WHEN ${WINDOW_EXPIRED} THEN now() ELSE t.since END`,
    [addressKey(ticket.address), THROTTLE.windowMinutes],
  );
  // Rows of finished windows count for nothing; drop old ones while we are here.
  await db.query(`DELETE FROM login_throttle WHERE since < now() - interval '1 day'`);
}

/** The right password forgives the account's counts (the address's failures stay). */
export async function succeeded(db: Queryable, ticket: Ticket): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = ANY($1::text[])', [ticket.keys]);
}

/** An attempt that does not count (a disabled account with its right password). */
export async function notCounted(db: Queryable, ticket: Ticket): Promise<void> {
  await giveBack(db, ticket.keys);
}

async function giveBack(db: Queryable, keys: string[]): Promise<void> {
  if (keys.length) await db.query('UPDATE login_throttle SET n = n - 1 WHERE key = ANY($1::text[]) AND n > 0', [keys]);
}
