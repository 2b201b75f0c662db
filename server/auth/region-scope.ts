import type { SessionUser } from './session-user.ts';
import type { Params } from '../db/params.ts';
import type { Queryable } from '../db/database.ts';

/**
 * Reads and writes have different scopes for two kinds of caller: a regional management
 * center (organisation type 3) reads the records of the farms and seedling bases of its
 * region (organisations whose `center_id` names it) besides its own, and a member of a role
 * that reads the platform (the configurer, previewing screens with real data) reads every
 * organisation's; both write only their own like everyone else. Every scope helper defaults to 'write', so a query widens only where
 * a read path asks for it.
 */
export type ScopeMode = 'read' | 'write';

/** The organisation of a center the caller belongs to, when its reads cover a region. */
export function regionCenterOf(user: Pick<SessionUser, 'platformAdmin' | 'orgId' | 'orgType'>): number | null {
  return !user.platformAdmin && user.orgType === 3 && user.orgId != null ? user.orgId : null;
}

/**
 * Whether the caller's reads of farm-owned rows can reach more than one farm: a platform
 * administrator, a role that reads the platform, a regional center, a service provider (a
 * bloc without an organisation). Their lists name each row's farm (the page reply's
 * `spansFarms`), since two farms' rows can look the same.
 */
export function readsManyFarms(user: Pick<SessionUser, 'platformAdmin' | 'readsPlatform' | 'orgId' | 'orgType' | 'blocId'>): boolean {
  return user.platformAdmin || user.readsPlatform === true || regionCenterOf(user) != null || (user.orgId == null && user.blocId != null);
}

/** The ids of the organisations of a center's region, as a subquery (the center itself not included). */
export function regionOrgsSql(centerParam: string): string {
  return `SELECT ro.id FROM organisations ro WHERE ro.center_id = ${centerParam}`;
}

/**
 * Which farm-owned rows the caller may see ('read') or change ('write'), on the column that
 * holds the owner organisation. Platform administrators: all; a member of an organisation:
 * that organisation (a center, reading: and its region); a service provider (a bloc, no
 * organisation): the farms of its bloc as they are now.
 */
export function farmOwnerScope(user: SessionUser, p: Params, column: string, mode: ScopeMode = 'write'): string {
  if (user.platformAdmin) return 'TRUE';
  if (mode === 'read' && user.readsPlatform) return 'TRUE';
  if (user.orgId != null) {
    const org = p.add(user.orgId);
    if (mode === 'read' && regionCenterOf(user) != null) return `(${column} = ${org} OR ${column} IN (${regionOrgsSql(org)}))`;
    return `${column} = ${org}`;
  }
  if (user.blocId != null) return `${column} IN (SELECT o.id FROM organisations o WHERE o.bloc_id = ${p.add(user.blocId)})`;
  return 'FALSE';
}

/** The ids of the organisations of the caller's region (none unless the caller is a center): for filters outside SQL. */
export async function regionOrgIds(db: Queryable, user: SessionUser): Promise<number[]> {
  const center = regionCenterOf(user);
  if (center == null) return [];
  const { rows } = await db.query<{ id: number }>('SELECT id FROM organisations WHERE center_id = $1 ORDER BY id', [center]);
  return rows.map((r) => Number(r.id));
}
