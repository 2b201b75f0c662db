import { createTestApp, type TestApp } from '../support/app.ts';
import type { Engine } from '../support/engines.ts';

export interface Reply {
  http: number;
  status: number;
  message: string;
  data: any;
}

export interface AccountsFixture extends TestApp {
  /** Calls the API as a demo account (token cached per account). */
  as(username: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Reply>;
  userId(username: string): Promise<number>;
  orgOf(username: string): Promise<number>;
  blocId(): Promise<number>;
  auditCount(action: string, recordId?: number | string): Promise<number>;
  /** A fingerprint of every table these calls write, to show that nothing changed. */
  snapshot(): Promise<string>;
}

export async function accountsFixture(engine: Engine): Promise<AccountsFixture> {
  const t = await createTestApp(engine);
  const tokens = new Map<string, string>();
  const one = async <T>(sql: string, params: unknown[]) => (await t.db.query<T>(sql, params)).rows[0];
  return Object.assign(t, {
    async as(username: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Reply> {
      const call = async (fresh: boolean) => {
        let token = tokens.get(username);
        if (!token || fresh) tokens.set(username, (token = await t.login(username)));
        return t.app.inject({ method, url, headers: { authorization: token, 'accept-language': 'en' }, payload: payload as object | undefined });
      };
      let res = await call(false);
      // A role or password change may have ended the cached session (issue 11): log in again.
      if (res.json().status === 40101) res = await call(true);
      const body = res.json();
      return { http: res.statusCode, status: body.status, message: body.message, data: body.data };
    },
    async userId(username: string) {
      return (await one<{ id: number }>('SELECT id FROM users WHERE username = $1', [username])).id;
    },
    async orgOf(username: string) {
      return (await one<{ org_id: number }>('SELECT org_id FROM users WHERE username = $1', [username])).org_id;
    },
    async blocId() {
      return (await one<{ bloc_id: number }>(`SELECT bloc_id FROM users WHERE username = 'provider'`, [])).bloc_id;
    },
    async auditCount(action: string, recordId?: number | string) {
      const r = await one<{ n: number }>(
        'SELECT count(*)::int AS n FROM operation_log WHERE action = $1 AND ($2::text IS NULL OR record_id = $2)',
        [action, recordId == null ? null : String(recordId)],
      );
      return r.n;
    },
    async snapshot() {
      const parts: string[] = [];
      for (const table of ['users', 'user_roles', 'organisations', 'blocs', 'notices', 'notice_receipts', 'business']) {
        const r = await one<{ h: string }>(`SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${table} x`, []);
        parts.push(`${table}:${r.h}`);
      }
      return parts.join(' ');
    },
  });
}
