import type { Queryable } from '../db/database.ts';
import { loadSessionUser, type SessionUser } from './session-user.ts';
import type { TokenClaims } from './tokens.ts';

/**
 * The session users of one server, cached (issue 28): loading one (roles, codes,
 * organisation, bloc) is the dearest part of a request's authentication, 5–6 ms on PGlite
 * and 12 ms on PostgreSQL under load, against 0.1–2 ms for the token check. A cached user
 * serves while both hold:
 *
 * - the token's epoch is the user's current one (TokenService.verify checks it on every
 *   request: disabling, a password change, losing a code end the sessions at once);
 * - the session generation (migration 151), read in the same query as that check, is the
 *   one the user was loaded at: any change to users, user_roles, roles, organisations or
 *   blocs raises it in the changing transaction, so every change still applies from the
 *   user's next request, on every server that shares the database.
 *
 * Without a generation (a database before migration 151) nothing is cached. The users are
 * shared between requests and read only; the map is bounded (cleared when full).
 */
export class SessionUserCache {
  private readonly users = new Map<number, { generation: string; epoch: number; user: SessionUser }>();
  hits = 0;
  loads = 0;

  constructor(
    private readonly db: Queryable,
    private readonly max = 10_000,
  ) {}

  async get(claims: TokenClaims): Promise<SessionUser | null> {
    const { generation, userId, epoch } = claims;
    const cached = this.users.get(userId);
    if (cached && generation !== undefined && cached.generation === generation && cached.epoch === epoch) {
      this.hits += 1;
      return cached.user;
    }
    this.loads += 1;
    const user = await loadSessionUser(this.db, { id: userId });
    if (user && generation !== undefined) {
      if (this.users.size >= this.max) this.users.clear();
      this.users.set(userId, { generation, epoch, user });
    } else {
      this.users.delete(userId);
    }
    return user;
  }
}
