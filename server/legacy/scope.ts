import type { SessionUser } from '../auth/session-user.ts';
import { regionCenterOf, type ScopeMode } from '../auth/region-scope.ts';
import type { Queryable } from '../db/database.ts';
import { notFound } from '../http/envelope.ts';
import { Params } from '../db/params.ts';

/**
 * What part of the platform a caller may see and change:
 * - platform administrators: everything;
 * - a member of an organisation (farm, manufacturer, center, seedling base): that organisation;
 * - a service provider (a bloc, no organisation): the bloc's organisations and their people;
 * - anyone else: only themselves.
 * Something outside the scope behaves exactly as something that does not exist.
 */
export type Scope =
  | { kind: 'platform' }
  | { kind: 'org'; orgId: number }
  | { kind: 'bloc'; blocId: number }
  | { kind: 'self'; userId: number };

export function scopeOf(user: SessionUser): Scope {
  if (user.platformAdmin) return { kind: 'platform' };
  if (user.orgId != null) return { kind: 'org', orgId: user.orgId };
  if (user.blocId != null) return { kind: 'bloc', blocId: user.blocId };
  return { kind: 'self', userId: user.id };
}


/** A condition on organisations aliased `o` that keeps those in scope. */
export function orgScopeSql(scope: Scope, p: Params, o = 'o'): string {
  switch (scope.kind) {
    case 'platform':
      return 'TRUE';
    case 'org':
      return `${o}.id = ${p.add(scope.orgId)}`;
    case 'bloc':
      return `${o}.bloc_id = ${p.add(scope.blocId)}`;
    case 'self':
      return 'FALSE';
  }
}

/**
 * A condition on organisations aliased `o` that keeps those the caller may read: its scope,
 * for a regional center the organisations of its region, for a platform reader (the
 * configurer) every organisation (auth/region-scope.ts).
 */
export function orgReadScopeSql(user: SessionUser, p: Params, o = 'o'): string {
  if (user.readsPlatform) return 'TRUE';
  const center = regionCenterOf(user);
  if (center == null) return orgScopeSql(scopeOf(user), p, o);
  const c = p.add(center);
  return `(${o}.id = ${c} OR ${o}.center_id = ${c})`;
}

/** A condition on users aliased `u` that keeps those in scope. */
export function userScopeSql(scope: Scope, p: Params, u = 'u'): string {
  switch (scope.kind) {
    case 'platform':
      return 'TRUE';
    case 'org':
      return `${u}.org_id = ${p.add(scope.orgId)}`;
    case 'bloc': {
      const bloc = p.add(scope.blocId);
      return `(${u}.bloc_id = ${bloc} OR ${u}.org_id IN (SELECT id FROM organisations WHERE bloc_id = ${bloc}))`;
    }
    case 'self':
      return `${u}.id = ${p.add(scope.userId)}`;
  }
}

export interface OrgRow {
  id: number;
  name: string;
  type: number;
  bloc_id: number | null;
  bloc_name: string | null;
  city: string | null;
  address: string | null;
  contact: string | null;
  phone: string | null;
  logo_url: string | null;
  status: number;
  center_id: number | null;
  created_at: Date;
}

export const ORG_COLUMNS = `o.id, o.name, o.type, o.bloc_id, b.name AS bloc_name, o.city, o.address, o.contact,
  o.phone, o.logo_url, o.status, o.center_id, o.created_at`;

/**
 * The organisation `id` when the caller's scope holds it; otherwise the same 40401 as a missing
 * one. The write scope unless a read asks for `mode: 'read'` (a center's region).
 */
export async function visibleOrg(db: Queryable, user: SessionUser, id: number, opts: { forUpdate?: boolean; mode?: ScopeMode } = {}): Promise<OrgRow> {
  const p = new Params();
  const idParam = p.add(id);
  const cond = opts.mode === 'read' && !opts.forUpdate ? orgReadScopeSql(user, p) : orgScopeSql(scopeOf(user), p);
  const lock = opts.forUpdate ? ' FOR UPDATE OF o' : '';
  const { rows } = await db.query<OrgRow>(
    `SELECT ${ORG_COLUMNS} FROM organisations o LEFT JOIN blocs b ON b.id = o.bloc_id
      WHERE o.id = ${idParam} AND ${cond}${lock}`,
    p.values,
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** The bloc `id` when the caller is a platform administrator or belongs to it; otherwise 40401. */
export async function visibleBloc(db: Queryable, user: SessionUser, id: number): Promise<{ id: number; name: string; city: string | null }> {
  if (!user.platformAdmin && user.blocId !== id) throw notFound();
  const { rows } = await db.query<{ id: number; name: string; city: string | null }>('SELECT id, name, city FROM blocs WHERE id = $1', [id]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

export function orgView(o: OrgRow) {
  return {
    id: o.id,
    name: o.name,
    type: o.type,
    blocId: o.bloc_id,
    blocName: o.bloc_name,
    city: o.city,
    address: o.address,
    contact: o.contact,
    phone: o.phone,
    logoUrl: o.logo_url,
    status: o.status,
    centerId: o.center_id,
    createdAt: o.created_at,
  };
}
