import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { SmsPurpose, SmsSender } from './sender.ts';

export const SMS_RULES = {
  codeLength: 6,
  validMinutes: 5,
  resendSeconds: 60,
  maxAttempts: 5,
};

export type IssueOutcome = { kind: 'sent' } | { kind: 'tooSoon'; seconds: number };

/** Serialises everything about one phone's codes across server instances. */
async function lockPhone(tx: Queryable, phone: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(74203, hashtext($1))', [phone]);
}

/**
 * Creates and sends a code, at most one per phone per minute whatever the purpose.
 * Call inside a transaction: a failed delivery rolls the stored code back.
 */
export async function issueCode(tx: Queryable, sender: SmsSender, phone: string, purpose: SmsPurpose): Promise<IssueOutcome> {
  await lockPhone(tx, phone);
  const { rows } = await tx.query<{ wait: number }>(
    `SELECT ceil(extract(epoch FROM (max(created_at) + make_interval(secs => $2)) - now()))::int AS wait
       FROM sms_codes WHERE phone = $1`,
    [phone, SMS_RULES.resendSeconds],
  );
  const wait = rows[0]?.wait;
  if (wait != null && wait > 0) return { kind: 'tooSoon', seconds: wait };
  const code = String(randomInt(0, 10 ** SMS_RULES.codeLength)).padStart(SMS_RULES.codeLength, '0');
  await tx.query(
    `INSERT INTO sms_codes(phone, purpose, code, expires_at) VALUES ($1, $2, $3, now() + make_interval(mins => $4))`,
    [phone, purpose, code, SMS_RULES.validMinutes],
  );
  await sender.send({ phone, code, purpose, validMinutes: SMS_RULES.validMinutes });
  return { kind: 'sent' };
}

export type CheckOutcome = { kind: 'ok' } | { kind: 'expired' } | { kind: 'tooMany' } | { kind: 'wrong'; id: number };

/**
 * Checks `code` against the phone's latest code for `purpose` and, when right, consumes
 * it inside `tx` (so it is spent only if the rest of the transaction commits). A wrong
 * code must be counted outside the transaction with `countWrongAttempt`.
 */
export async function consumeCode(tx: Queryable, phone: string, purpose: SmsPurpose, code: string): Promise<CheckOutcome> {
  await lockPhone(tx, phone);
  const { rows } = await tx.query<{ id: number; code: string; attempts: number; live: boolean }>(
    `SELECT id, code, attempts, (expires_at > now()) AS live FROM sms_codes
      WHERE phone = $1 AND purpose = $2 AND consumed_at IS NULL
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [phone, purpose],
  );
  const row = rows[0];
  if (!row || !row.live) return { kind: 'expired' };
  if (row.attempts >= SMS_RULES.maxAttempts) return { kind: 'tooMany' };
  if (row.code !== code) return { kind: 'wrong', id: row.id };
  await tx.query('UPDATE sms_codes SET consumed_at = now() WHERE id = $1', [row.id]);
  return { kind: 'ok' };
}

/** Counts one wrong try; true when the code is now spent by too many of them. */
export async function countWrongAttempt(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query<{ attempts: number }>('UPDATE sms_codes SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts', [id]);
  return (rows[0]?.attempts ?? SMS_RULES.maxAttempts) >= SMS_RULES.maxAttempts;
}
