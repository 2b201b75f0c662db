import type { Queryable } from '../db/database.ts';

/**
 * The caller as every permission check sees them. Loaded from the database on every
 * request, so a role or status change applies from the user's next request.
 */
export interface SessionUser {
  id: number;
  username: string;
  name: string;
  kind: string;
  status: number;
  mobilePhone: string | null;
  description: string | null;
  city: string | null;
  orgId: number | null;
  orgName: string | null;
  /** Organisation type of spec section 1 (0 farm, 1 manufacturer, 3 center, 4 seedling base). */
  orgType: number | null;
  orgLogo: string | null;
  /** The bloc (group of farms): the user's own, else their organisation's. */
  blocId: number | null;
  blocName: string | null;
  roles: string[];
  menus: Set<string>;
  elements: Set<string>;
  platformAdmin: boolean;
  /** Reads every organisation's records (a configurer previewing screens); writes stay in scope. */
  readsPlatform?: boolean;
}

interface Row {
  id: number;
  username: string;
  name: string;
  kind: string;
  status: number;
  mobile_phone: string | null;
  description: string | null;
  city: string | null;
  org_id: number | null;
  org_name: string | null;
  org_type: number | null;
  org_logo: string | null;
  org_city: string | null;
  bloc_id: number | null;
  bloc_name: string | null;
  roles: string[] | null;
  menus: string[] | null;
  elements: string[] | null;
  platform: boolean | null;
  reads_platform: boolean | null;
}

export async function loadSessionUser(db: Queryable, where: { id: number } | { username: string }): Promise<SessionUser | null> {
  const [cond, value] = 'id' in where ? ['u.id = $1', where.id] : ['u.username = $1', where.username];
  const { rows } = await db.query<Row>(
    `SELECT u.id, u.username, u.name, u.kind, u.status, u.mobile_phone, u.description, u.city,
            o.id AS org_id, o.name AS org_name, o.type AS org_type, o.logo_url AS org_logo, o.city AS org_city,
            b.id AS bloc_id, b.name AS bloc_name,
            (SELECT array_agg(DISTINCT r.code) FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id) AS roles,
            (SELECT array_agg(DISTINCT m) FROM user_roles ur JOIN roles r ON r.id = ur.role_id, unnest(r.menus) m WHERE ur.user_id = u.id) AS menus,
            (SELECT array_agg(DISTINCT e) FROM user_roles ur JOIN roles r ON r.id = ur.role_id, unnest(r.elements) e WHERE ur.user_id = u.id) AS elements,
            (SELECT bool_or(r.platform) FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id) AS platform,
            (SELECT bool_or(r.reads_platform) FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id) AS reads_platform
       FROM users u
       LEFT JOIN organisations o ON o.id = u.org_id
       LEFT JOIN blocs b ON b.id = COALESCE(u.bloc_id, o.bloc_id)
      WHERE ${cond}`,
    [value],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    kind: r.kind,
    status: r.status,
    mobilePhone: r.mobile_phone,
    description: r.description,
    city: r.city ?? r.org_city,
    orgId: r.org_id,
    orgName: r.org_name,
    orgType: r.org_type,
    orgLogo: r.org_logo,
    blocId: r.bloc_id,
    blocName: r.bloc_name,
    roles: r.roles ?? [],
    menus: new Set(r.menus ?? []),
    elements: new Set(r.elements ?? []),
    platformAdmin: r.platform === true,
    readsPlatform: r.reads_platform === true,
  };
}
