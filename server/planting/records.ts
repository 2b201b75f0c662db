/**
 * Reads and writes of planting records in `resource_records`, stored exactly as the resource
 * engine stores them (server/resources/store.ts), so that the engine's endpoints, indexes and
 * operation log see no difference between a record it wrote and one this module wrote.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { audit, auditMany } from '../audit/log.ts';
import { diffRecords } from '../resources/diff.ts';
import { ident, ROW_FROM, rowSelect, rowView, scopeCondition, type RecordRow } from '../resources/sql.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';

export interface Stored<T> {
  id: number;
  farmId: number | null;
  blocId: number | null;
  data: T;
}

export class PlantingRecords {
  constructor(private readonly docs: Map<string, ResourceDocument>) {}

  doc(name: string): ResourceDocument {
    const doc = this.docs.get(name);
    if (!doc) throw new Error(`schemas/resources/${name}.json is missing`);
    return doc;
  }

  /** One record of `resource` inside the caller's scope, or null (outside the scope is the same as missing). */
  async find<T>(db: Queryable, user: SessionUser, resource: string, id: number, lock = ''): Promise<Stored<T> | null> {
    const doc = this.doc(resource);
    const p = new Params();
    const { rows } = await db.query<{ id: number; farm_id: number | null; bloc_id: number | null; data: T }>(
      `SELECT r.id, r.farm_id, r.bloc_id, r.data FROM resource_records r
        WHERE r.resource = ${ident(doc.name)} AND r.id = ${p.add(id)} AND ${scopeCondition(doc, user, p)} ${lock}`,
      p.values,
    );
    const r = rows[0];
    return r ? { id: Number(r.id), farmId: r.farm_id, blocId: r.bloc_id, data: r.data } : null;
  }

  /** The id of the item numbered `orderNumber` in a plan of the caller's scope, or null. */
  async itemIdByNumber(db: Queryable, user: SessionUser, planId: number, orderNumber: number): Promise<number | null> {
    const doc = this.doc('planItems');
    const p = new Params();
    const { rows } = await db.query<{ id: number }>(
      `SELECT r.id FROM resource_records r WHERE r.resource = ${ident(doc.name)} AND ${scopeCondition(doc, user, p)}
          AND (r.data->>'planId')::numeric = ${p.add(planId)} AND (r.data->>'orderNumber')::numeric = ${p.add(orderNumber)} ORDER BY r.id LIMIT 1`,
      p.values,
    );
    return rows[0] ? Number(rows[0].id) : null;
  }

  /** A record as the engine's endpoints show it (meta fields, reference labels). */
  async view(db: Queryable, resource: string, id: number): Promise<Record<string, unknown>> {
    const doc = this.doc(resource);
    const { rows } = await db.query<RecordRow>(`SELECT ${rowSelect(doc, this.docs)} FROM ${ROW_FROM} WHERE r.resource = ${ident(doc.name)} AND r.id = $1`, [id]);
    return rowView(rows[0]);
  }

  /**
   * Inserts several farm records of one resource with their audit rows, in the caller's
   * transaction: two statements whatever their number (a generated plan's items). Ids in order.
   */
  async insertMany(tx: Queryable, req: FastifyRequest, user: SessionUser, resource: string, owner: { farmId: number | null; blocId: number | null }, list: readonly Record<string, unknown>[]): Promise<number[]> {
    if (!list.length) return [];
    const doc = this.doc(resource);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by)
       SELECT ${ident(doc.name)}, $1, $2, x.d, $4, $4 FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(d, n) ORDER BY x.n
       RETURNING id`,
      [owner.farmId, owner.blocId, JSON.stringify(list), user.id],
    );
    const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    await auditMany(
      tx,
      req,
      ids.map((id, i) => ({
        action: `${doc.name}.create`,
        resource: doc.name,
        recordId: id,
        changes: { farmId: owner.farmId, blocId: owner.blocId, version: { from: null, to: 1 }, fields: diffRecords(null, list[i]) },
      })),
    );
    return ids;
  }

  /** Inserts a farm record with its audit row, in the caller's transaction. */
  async insert(tx: Queryable, req: FastifyRequest, user: SessionUser, resource: string, owner: { farmId: number | null; blocId: number | null }, data: Record<string, unknown>): Promise<number> {
    const doc = this.doc(resource);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by)
       VALUES (${ident(doc.name)}, $1, $2, $3, $4, $4) RETURNING id`,
      [owner.farmId, owner.blocId, JSON.stringify(data), user.id],
    );
    const id = Number(rows[0].id);
    await audit(tx, req, {
      action: `${doc.name}.create`,
      resource: doc.name,
      recordId: id,
      changes: { farmId: owner.farmId, blocId: owner.blocId, version: { from: null, to: 1 }, fields: diffRecords(null, data) },
    });
    return id;
  }
}
