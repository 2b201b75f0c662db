import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';

export interface AuditEntry {
  action: string;
  resource?: string;
  recordId?: string | number | null;
  changes?: unknown;
  /** Who acted, when the request is not (yet) authenticated: a login, say. */
  actor?: { id: number | null; username: string | null };
}

/**
 * Several rows of the operation log in one statement (a plan's 300 items, say), in order.
 * The same rows as calling `audit` once per entry.
 */
export async function auditMany(db: Queryable, req: FastifyRequest, entries: readonly AuditEntry[]): Promise<void> {
  if (!entries.length) return;
  const rows = entries.map((entry) => {
    const actor = entry.actor ?? { id: req.user?.id ?? null, username: req.user?.username ?? null };
    return {
      user_id: actor.id,
      username: actor.username,
      action: entry.action,
      resource: entry.resource ?? null,
      record_id: entry.recordId == null ? null : String(entry.recordId),
      changes: entry.changes === undefined ? null : entry.changes,
    };
  });
  await db.query(
    `INSERT INTO operation_log(user_id, username, action, resource, record_id, changes, ip)
     SELECT (e->>'user_id')::integer, e->>'username', e->>'action', e->>'resource', e->>'record_id',
            CASE WHEN jsonb_typeof(e->'changes') = 'null' THEN NULL ELSE e->'changes' END, $2
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY n`,
    [JSON.stringify(rows), req.ip],
  );
}

/** One row of the operation log. Runs inside the caller's transaction when given one. */
export async function audit(db: Queryable, req: FastifyRequest, entry: AuditEntry): Promise<void> {
  const actor = entry.actor ?? { id: req.user?.id ?? null, username: req.user?.username ?? null };
  await db.query(
    `INSERT INTO operation_log(user_id, username, action, resource, record_id, changes, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      actor.id,
      actor.username,
      entry.action,
      entry.resource ?? null,
      entry.recordId == null ? null : String(entry.recordId),
      entry.changes === undefined ? null : JSON.stringify(entry.changes),
      req.ip,
    ],
  );
}
