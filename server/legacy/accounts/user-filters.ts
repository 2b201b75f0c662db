import type { Params } from '../../db/params.ts';
import * as s from '../schemas.ts';

/** Typed filters shared by the user pages; each becomes a parameterised condition. */
export interface UserFilterQuery {
  keyword?: string;
  kind?: string;
  status?: number;
  sort?: 'id' | 'username' | 'name' | 'createdAt';
  order?: 'asc' | 'desc';
}

export const userFilterProps = {
  keyword: s.keyword,
  kind: { type: 'string', maxLength: 20, pattern: '^[a-z]+$' },
  status: { type: 'integer', enum: [0, 1] },
  sort: { type: 'string', enum: ['id', 'username', 'name', 'createdAt'], default: 'id' },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
} as const;

const SORT_COLUMNS = { id: 'u.id', username: 'u.username', name: 'u.name', createdAt: 'u.created_at' } as const;

export function userConditions(q: UserFilterQuery, p: Params): string[] {
  const where: string[] = [];
  if (q.keyword) {
    // position() rather than LIKE: the keyword's % and _ stay literal.
    const k = p.add(q.keyword.toLowerCase());
    where.push(`(position(${k} in lower(u.username)) > 0 OR position(${k} in lower(u.name)) > 0 OR position(${k} in coalesce(u.mobile_phone, '')) > 0)`);
  }
  if (q.kind) where.push(`u.kind = ${p.add(q.kind)}`);
  if (q.status !== undefined) where.push(`u.status = ${p.add(q.status)}`);
  return where;
}

/** ORDER BY from a whitelist; the id breaks ties so that pages never overlap. */
export function userOrder(q: UserFilterQuery): string {
  const col = SORT_COLUMNS[q.sort ?? 'id'];
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  return col === 'u.id' ? `u.id ${dir}` : `${col} ${dir}, u.id ${dir}`;
}
