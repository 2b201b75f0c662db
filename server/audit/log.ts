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
