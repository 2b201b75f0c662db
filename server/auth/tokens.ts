import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../db/database.ts';

export const TOKEN_TTL_SECONDS = 12 * 60 * 60;

export interface TokenClaims {
  userId: number;
  username: string;
  jti: string;
  expiresAt: Date;
  /** The user's token epoch when the token was issued (see `endSessions`). */
  epoch: number;
  /**
   * The session generation read with the check (migration 151): it rises with any change to
   * users, roles, their codes, organisations or blocs, so a session user cached at the same
   * generation is still what the database says (session-cache.ts).
   */
  generation?: string;
}

/**
 * HS256 tokens. The key comes from JWT_SECRET, else from the database (generated once),
 * so that several server instances on one PostgreSQL accept each other's tokens.
 */
export class TokenService {
  private constructor(private readonly key: Uint8Array, private readonly db: Database) {}

  static async create(db: Database, secret = process.env.JWT_SECRET): Promise<TokenService> {
    let value = secret;
    if (!value) {
      await db.query(`INSERT INTO settings(key, value) VALUES ('jwt_secret', $1) ON CONFLICT (key) DO NOTHING`, [
        randomBytes(48).toString('base64url'),
      ]);
      value = (await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'jwt_secret'`)).rows[0].value;
    }
    return new TokenService(new TextEncoder().encode(value), db);
  }

  async issue(user: { id: number; username: string }, ttlSeconds = TOKEN_TTL_SECONDS): Promise<string> {
    const { rows } = await this.db.query<{ token_epoch: number }>('SELECT token_epoch FROM users WHERE id = $1', [user.id]);
    return new SignJWT({ uid: user.id, sub: user.username, ep: rows[0]?.token_epoch ?? 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /**
   * The claims of a valid, unexpired, unrevoked token issued in the user's current epoch,
   * else null. Disabling, a password change and a role change that takes codes away raise
   * the epoch, so every older token of that user ends at once, and stays ended.
   */
  async verify(token: string): Promise<TokenClaims | null> {
    if (!token || token.length > 4096) return null;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.uid !== 'number' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
      // Tokens from before epochs existed carry none: they belong to epoch 0.
      const epoch = payload.ep ?? 0;
      if (typeof epoch !== 'number') return null;
      // One round trip: not revoked, the user's current epoch, and the session generation.
      const { rows } = await this.db.query<{ current: boolean; generation: string | null }>(
        `SELECT NOT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = $1)
                AND EXISTS (SELECT 1 FROM users WHERE id = $2 AND token_epoch = $3) AS current,
                (SELECT n::text FROM session_generation) AS generation`,
        [payload.jti, payload.uid, epoch],
      );
      if (!rows[0]?.current) return null;
      return {
        userId: payload.uid,
        username: String(payload.sub),
        jti: payload.jti,
        expiresAt: new Date(payload.exp * 1000),
        epoch,
        ...(rows[0].generation !== null ? { generation: rows[0].generation } : {}),
      };
    } catch {
      return null;
    }
  }

  async revoke(claims: TokenClaims): Promise<void> {
    await this.db.query('INSERT INTO revoked_tokens(jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING', [
      claims.jti,
      claims.expiresAt,
    ]);
    // Keep the table small: a revoked token past its expiry is refused by jwtVerify anyway.
    await this.db.query('DELETE FROM revoked_tokens WHERE expires_at < now()');
  }
}

/** The token of `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^\s*(?:Bearer\s+)?(\S+)\s*$/i.exec(header);
  return m?.[1];
}
