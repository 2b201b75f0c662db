import { Params } from '../../db/params.ts';
import type { SessionUser } from '../../auth/session-user.ts';
import type { Queryable } from '../../db/database.ts';
import { business, forbidden, notFound } from '../../http/envelope.ts';
import { scopeOf, userScopeSql } from '../scope.ts';
import { msg } from '../messages.ts';
import * as schemas from '../schemas.ts';
import type { Lang } from '../../i18n/lang.ts';
import { messageFor } from '../../../runtime/schema/messages.ts';

/** A user as every account call returns it; never the password hash. */
export interface UserView {
  id: number;
  username: string;
  name: string;
  mobilePhone: string | null;
  status: number;
  kind: string;
  orgId: number | null;
  orgName: string | null;
  orgType: number | null;
  blocId: number | null;
  blocName: string | null;
  description: string | null;
  city: string | null;
  platformAdmin: boolean;
  roles: { id: number; code: string; name: unknown }[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

interface UserRow {
  id: number;
  username: string;
  name: string;
  mobile_phone: string | null;
  status: number;
  kind: string;
  org_id: number | null;
  org_name: string | null;
  org_type: number | null;
  bloc_id: number | null;
  bloc_name: string | null;
  description: string | null;
  city: string | null;
  platform: boolean;
  roles: { id: number; code: string; name: unknown }[] | string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** FROM clause and columns of a user with organisation, bloc and roles; alias `u`. */
export const USER_SELECT = `SELECT u.id, u.username, u.name, u.mobile_phone, u.status, u.kind, u.org_id,
    o.name AS org_name, o.type AS org_type, b.id AS bloc_id, b.name AS bloc_name, u.description, u.city,
    COALESCE((SELECT bool_or(r.platform) FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), false) AS platform,
    COALESCE((SELECT json_agg(json_build_object('id', r.id, 'code', r.code, 'name', r.name) ORDER BY r.id)
                FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '[]'::json) AS roles,
    u.version, u.created_at, u.updated_at
  FROM users u
  LEFT JOIN organisations o ON o.id = u.org_id
  LEFT JOIN blocs b ON b.id = COALESCE(u.bloc_id, o.bloc_id)`;

export function userView(r: UserRow): UserView {
  const roles = typeof r.roles === 'string' ? JSON.parse(r.roles) : (r.roles ?? []);
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    mobilePhone: r.mobile_phone,
    status: r.status,
    kind: r.kind,
    orgId: r.org_id,
    orgName: r.org_name,
    orgType: r.org_type,
    blocId: r.bloc_id,
    blocName: r.bloc_name,
    description: r.description,
    city: r.city,
    platformAdmin: r.platform === true,
    roles,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface UserFilter {
  /** Extra conditions built with the same Params. */
  where: string[];
  params: Params;
  orderBy?: string;
  limit?: number;
  offset?: number;
}

/** Users in the caller's scope that match `filter`, with the total before paging. */
export async function listUsers(db: Queryable, caller: SessionUser, filter: UserFilter): Promise<{ rows: UserView[]; total: number }> {
  const { params: p } = filter;
  // A platform reader (the configurer, previewing the agents' and group customers' lists as their users see them)
  // reads every account; writes go through visibleUser / changeableUser, which keep the caller's own scope.
  const where = [caller.readsPlatform ? 'TRUE' : userScopeSql(scopeOf(caller), p), ...filter.where].join(' AND ');
  const total = (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users u LEFT JOIN organisations o ON o.id = u.org_id WHERE ${where}`,
      p.values,
    )
  ).rows[0].n;
  const paging = filter.limit != null ? ` LIMIT ${p.add(filter.limit)} OFFSET ${p.add(filter.offset ?? 0)}` : '';
  const { rows } = await db.query<UserRow>(`${USER_SELECT} WHERE ${where} ORDER BY ${filter.orderBy ?? 'u.id'}${paging}`, p.values);
  return { rows: rows.map(userView), total };
}

/** The user `id` in the caller's scope, else 40401 exactly as for a missing id. */
export async function visibleUser(db: Queryable, caller: SessionUser, id: number, opts: { forUpdate?: boolean } = {}): Promise<UserView> {
  const p = new Params();
  const idParam = p.add(id);
  const cond = userScopeSql(scopeOf(caller), p);
  const lock = opts.forUpdate ? ' FOR UPDATE OF u' : '';
  const { rows } = await db.query<UserRow>(`${USER_SELECT} WHERE u.id = ${idParam} AND ${cond}${lock}`, p.values);
  if (!rows[0]) throw notFound();
  return userView(rows[0]);
}

/** A user the caller may change: in scope, and a platform administrator only by another one. */
export async function changeableUser(db: Queryable, caller: SessionUser, id: number): Promise<UserView> {
  const user = await visibleUser(db, caller, id, { forUpdate: true });
  if (user.platformAdmin && !caller.platformAdmin) throw forbidden();
  return user;
}

export function refuseSelf(caller: SessionUser, id: number): void {
  if (caller.id === id) throw business(msg['accounts.notSelf']);
}

/** 40001 naming the taken username or phone instead of a unique-violation 500. */
export async function assertFree(db: Queryable, username: string | undefined, phone: string | null | undefined, exceptId = 0): Promise<void> {
  if (username !== undefined) {
    const taken = await db.query('SELECT 1 FROM users WHERE lower(username) = lower($1) AND id <> $2', [username, exceptId]);
    if (taken.rows.length) throw usernameTaken(username);
  }
  if (phone) {
    const taken = await db.query('SELECT 1 FROM users WHERE mobile_phone = $1 AND id <> $2', [phone, exceptId]);
    if (taken.rows.length) throw phoneTaken(phone);
  }
}

export interface NewUser {
  username: string;
  passwordHash: string;
  name: string;
  mobilePhone?: string | null;
  kind: string;
  orgId?: number | null;
  blocId?: number | null;
  description?: string | null;
  city?: string | null;
}

export async function insertUser(db: Queryable, u: NewUser): Promise<number> {
  await assertFree(db, u.username, u.mobilePhone);
  try {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO users(username, name, mobile_phone, password_hash, kind, org_id, bloc_id, description, city)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [u.username, u.name, u.mobilePhone ?? null, u.passwordHash, u.kind, u.orgId ?? null, u.blocId ?? null, u.description ?? null, u.city ?? null],
    );
    return rows[0].id;
  } catch (err) {
    throw uniqueViolation(err, u.username, u.mobilePhone) ?? err;
  }
}

/** Two writers racing past assertFree meet the unique index; the loser gets the same 40001. */
export function uniqueViolation(err: unknown, username?: string, phone?: string | null): Error | null {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return null;
  const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
  if (where.includes('mobile_phone') && phone) return phoneTaken(phone);
  return usernameTaken(username ?? '');
}

/** 40001 for a username in use, with the field error a form shows under the username (docs/validation.md, rule `unique`). */
function usernameTaken(username: string) {
  return business(msg['accounts.usernameTaken'], { username }, (lang: Lang) => [
    { field: 'username', message: messageFor({ rule: 'unique', field: schemas.username, value: username }, lang) },
  ]);
}

/** 40001 for a phone number in use, on the person's `mobilePhone` field. */
function phoneTaken(phone: string) {
  return business(msg['accounts.phoneTaken'], { phone }, (lang: Lang) => [
    { field: 'mobilePhone', message: messageFor({ rule: 'unique', field: schemas.phone, value: phone }, lang) },
  ]);
}

export async function userById(db: Queryable, id: number): Promise<UserView> {
  const { rows } = await db.query<UserRow>(`${USER_SELECT} WHERE u.id = $1`, [id]);
  if (!rows[0]) throw notFound();
  return userView(rows[0]);
}

/** Kinds a person may be given; `admin` belongs to the seeded platform accounts only. */
export const WRITABLE_KINDS = ['operator', 'member', 'agent', 'tech', 'inspector', 'device', 'provider'];

/** The organisation a call names, else the caller's own; 40001 when there is neither. */
export function farmIdOf(me: SessionUser, farmId: number | undefined): number {
  const id = farmId ?? me.orgId;
  if (id == null) throw business(msg['accounts.farmRequired']);
  return id;
}
