/**
 * Issue 28: the session user is cached per server (server/auth/session-cache.ts), and
 * every change to what it is made of still applies from the user's next request — a code
 * gained by the role (no epoch change), the organisation renamed, the name changed — while
 * ending sessions (the epoch) still refuses the token at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

describe.each(engines())('session user cache on $name', (engine) => {
  let t: TestApp;
  let token: string;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp(engine);
    token = await t.login('farm');
    userId = (await t.db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'farm'`)).rows[0].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const info = async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${token}`, headers: { authorization: token, 'accept-language': 'en' } });
    const body = res.json() as { status: number; data: { name: string; farmName: string | null; menus: { code: string }[] } };
    return body;
  };

  it('a second request of the same user is served from the cache, with the same user', async () => {
    const first = await info();
    expect(first.status).toBe(200);
    const { hits, loads } = t.app.sessionUsers;
    const second = await info();
    expect(second.data).toEqual(first.data);
    expect(t.app.sessionUsers.hits).toBe(hits + 1);
    expect(t.app.sessionUsers.loads).toBe(loads);
  });

  it('a code the role gains (no epoch change) applies from the next request', async () => {
    const before = await info();
    expect(before.data.menus.map((m) => m.code)).not.toContain('sessionCacheProbe');
    await t.db.query(
      `UPDATE roles SET menus = array_append(menus, 'sessionCacheProbe')
        WHERE id = (SELECT role_id FROM user_roles WHERE user_id = $1 ORDER BY role_id LIMIT 1)`,
      [userId],
    );
    const after = await info();
    expect(after.status).toBe(200);
    expect(after.data.menus.map((m) => m.code)).toContain('sessionCacheProbe');
  });

  it('the organisation renamed and the user renamed apply from the next request', async () => {
    await info();
    await t.db.query(`UPDATE organisations SET name = name || ' (renamed)' WHERE id = (SELECT org_id FROM users WHERE id = $1)`, [userId]);
    expect((await info()).data.farmName).toMatch(/\(renamed\)$/);
    await t.db.query(`UPDATE users SET name = 'Renamed farmer' WHERE id = $1`, [userId]);
    expect((await info()).data.name).toBe('Renamed farmer');
  });

  it('ended sessions (a raised epoch) refuse the cached user\'s token at once', async () => {
    expect((await info()).status).toBe(200);
    await t.db.query('UPDATE users SET token_epoch = token_epoch + 1 WHERE id = $1', [userId]);
    expect((await info()).status).toBe(40101);
  });
});
