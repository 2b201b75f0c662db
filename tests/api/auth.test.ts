import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { THROTTLE, addressDelayMs } from '../../server/auth/throttle.ts';
import { buildApp } from '../../server/app.ts';
import { HOSTILE, auth, expectClean } from './auth-helpers.ts';

describe.each(engines())('login and logout on $name', (engine) => {
  let t: TestApp;
  let ipSeq = 0;
  // Every test its own address, so the per-address throttle of one test never touches another.
  const freshIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
  const login = (payload: unknown, remoteAddress = freshIp()) =>
    t.app.inject({ method: 'POST', url: '/api/auth/jwt/token', payload: payload as object, remoteAddress });

  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('logs every demo account in and returns the token in data', async () => {
    for (const { username } of DEMO_ACCOUNTS) {
      const res = await login({ username, password: DEMO_PASSWORD });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.status).toBe(200);
      expect(typeof body.data).toBe('string');
      expect((await t.app.tokens.verify(body.data))?.username).toBe(username);
    }
  });

  it('trims the username', async () => {
    const res = await login({ username: '  farm \t', password: DEMO_PASSWORD });
    expect(res.json().status).toBe(200);
  });

  it('answers a wrong password and an unknown user with the same message, localised', async () => {
    const wrong = expectClean(await login({ username: 'farm', password: 'not_it_2026' }));
    const unknown = expectClean(await login({ username: 'nobody_here', password: 'not_it_2026' }));
    expect(wrong.status).toBe(40001);
    expect(unknown).toEqual(wrong);
    expect(wrong.message).toBe('用户名或密码错误');
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'farm', password: 'x' },
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
      remoteAddress: freshIp(),
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().message).toBe('Wrong username or password');
    const es = await t.app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      payload: { username: 'farm', password: 'x' },
      headers: { cookie: 'language=es' },
      remoteAddress: freshIp(),
    });
    expect(es.json().message).toBe('Usuario o contraseña incorrectos');
  });

  it('says an account is disabled only once the password was right', async () => {
    await t.db.query(`UPDATE users SET status = 0 WHERE username = 'nursery'`);
    try {
      const wrong = expectClean(await login({ username: 'nursery', password: 'wrong_pass' }));
      expect(wrong.message).toBe('用户名或密码错误');
      const right = expectClean(await login({ username: 'nursery', password: DEMO_PASSWORD }));
      expect(right.status).toBe(40001);
      expect(right.message).toContain('停用');
    } finally {
      await t.db.query(`UPDATE users SET status = 1 WHERE username = 'nursery'`);
    }
    expect((await login({ username: 'nursery', password: DEMO_PASSWORD })).json().status).toBe(200);
  });

  it('refuses a disabled account’s existing token with 40101', async () => {
    const token = await t.login('center');
    await t.db.query(`UPDATE users SET status = 0 WHERE username = 'center'`);
    try {
      const res = await t.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${token}`, headers: auth(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json().status).toBe(40101);
    } finally {
      await t.db.query(`UPDATE users SET status = 1 WHERE username = 'center'`);
    }
  });

  it('refuses missing, empty, mistyped and overlong fields with field errors', async () => {
    const missing = expectClean(await login({ username: 'farm' }));
    expect(missing.status).toBe(40001);
    expect(missing.data.errors.map((e: { field: string }) => e.field)).toContain('password');
    const noUser = expectClean(await login({ password: 'x' }));
    expect(noUser.data.errors.map((e: { field: string }) => e.field)).toContain('username');
    const blank = expectClean(await login({ username: '   ', password: 'x' }));
    expect(blank.data.errors).toEqual([{ field: 'username', message: '请输入用户名' }]);
    const emptyPass = expectClean(await login({ username: 'farm', password: '' }));
    expect(emptyPass.data.errors).toEqual([{ field: 'password', message: '请输入密码' }]);
    const long = expectClean(await login({ username: 'a'.repeat(65), password: 'x' }));
    expect(long.status).toBe(40001);
    expect(long.data.errors[0].field).toBe('username');
    const longPass = expectClean(await login({ username: 'farm', password: 'p'.repeat(129) }));
    expect(longPass.data.errors[0].field).toBe('password');
    const typed = expectClean(await login({ username: { $ne: 1 }, password: ['x'] }));
    expect(typed.status).toBe(40001);
  });

  it('refuses malformed JSON with a clear message and no detail of the parser', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/jwt/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "admin", "password": ',
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(400);
    const body = expectClean(res);
    expect(body.status).toBe(40001);
    expect(body.message).toBe('请求体不是合法的 JSON');
  });

  it('treats SQL and script fragments as plain, wrong credentials', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0].n;
    for (const bad of HOSTILE) {
      for (const payload of [{ username: bad, password: DEMO_PASSWORD }, { username: 'admin', password: bad }, { username: bad, password: bad }]) {
        const body = expectClean(await login(payload));
        expect(body.status).toBe(40001);
      }
    }
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(before);
    expect((await t.db.query(`SELECT 1 FROM users WHERE username = 'admin' AND status = 1`)).rows).toHaveLength(1);
  });

  const wrongOrThrottled = (bodies: { status: number; message: string }[]) => ({
    checked: bodies.filter((b) => b.message === '用户名或密码错误').length,
    throttled: bodies.filter((b) => b.message.includes('分钟后再试')).length,
    tokens: bodies.filter((b) => b.status === 200).length,
  });

  it('counts concurrent attempts exactly: 29 wrong then the right one at once, on two instances', async () => {
    // Two API instances on one database, as behind a load balancer.
    const second = await buildApp({ db: t.db, config: t.config, tokens: t.app.tokens });
    try {
      const ip = '198.51.100.30';
      const attempts = Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? second : t.app).inject({
          method: 'POST',
          url: '/api/auth/jwt/token',
          payload: { username: 'factory', password: i === 29 ? DEMO_PASSWORD : `wrong_${i}` },
          remoteAddress: ip,
        }),
      );
      const replies = (await Promise.all(attempts)).map((r) => expectClean(r));
      expect(wrongOrThrottled(replies)).toEqual({ checked: THROTTLE.perPair, throttled: 30 - THROTTLE.perPair, tokens: 0 });
      const failed = await t.db.query(`SELECT 1 FROM operation_log WHERE action = 'login.failed' AND username = 'factory'`);
      expect(failed.rows).toHaveLength(THROTTLE.perPair);
    } finally {
      await second.close();
      await t.db.query(`DELETE FROM login_throttle WHERE key LIKE '%factory'`);
    }
  });

  it('limits one account from one address, says when to retry, and leaves other addresses and accounts alone', async () => {
    const ip = '198.51.100.40';
    for (let i = 0; i < THROTTLE.perPair; i++) {
      expect((await login({ username: 'agent', password: `wrong_${i}` }, ip)).json().message).toBe('用户名或密码错误');
    }
    const blocked = expectClean(await login({ username: 'agent', password: DEMO_PASSWORD }, ip));
    expect(blocked.status).toBe(40001);
    expect(blocked.message).toMatch(/登录失败次数过多，请 1[45] 分钟后再试/);
    // The same account from elsewhere, and another account from here, are not affected.
    expect((await login({ username: 'agent', password: DEMO_PASSWORD }, '198.51.100.41')).json().status).toBe(200);
    expect((await login({ username: 'provider', password: DEMO_PASSWORD }, ip)).json().status).toBe(200);
    // The refused attempts were not counted; once the window has passed the right password works again.
    expect((await t.db.query<{ n: number }>(`SELECT n FROM login_throttle WHERE key = $1`, [`p:${ip} agent`])).rows[0].n).toBe(THROTTLE.perPair);
    await t.db.query(`UPDATE login_throttle SET since = since - interval '16 minutes' WHERE key = $1`, [`p:${ip} agent`]);
    expect((await login({ username: 'agent', password: DEMO_PASSWORD }, ip)).json().status).toBe(200);
    expect((await t.db.query(`SELECT 1 FROM login_throttle WHERE key = $1`, [`p:${ip} agent`])).rows).toHaveLength(0);
  });

  it('bounds guesses at one account from many addresses, case-insensitively', async () => {
    const addresses = THROTTLE.perUsername / THROTTLE.perPair;
    for (let a = 0; a < addresses; a++) {
      for (let i = 0; i < THROTTLE.perPair; i++) {
        const res = await login({ username: i % 2 ? 'TECH' : 'tech', password: `wrong_${i}` }, `203.0.113.${a + 1}`);
        expect(res.json().message).toBe('用户名或密码错误');
      }
    }
    const blocked = expectClean(await login({ username: 'tech', password: DEMO_PASSWORD }, '203.0.113.200'));
    expect(blocked.message).toContain('分钟后再试');
    await t.db.query(`UPDATE login_throttle SET since = since - interval '16 minutes' WHERE key = 'u:tech'`);
    expect((await login({ username: 'tech', password: DEMO_PASSWORD }, '203.0.113.200')).json().status).toBe(200);
  });

  it('never refuses an address: past its free failures it only waits before checking', async () => {
    const ip = '192.0.2.77';
    const failures = THROTTLE.addressFree + 3;
    for (let i = 0; i < failures; i++) {
      expect((await login({ username: `ghost${i}`, password: 'nope_nope' }, ip)).json().message).toBe('用户名或密码错误');
    }
    expect((await t.db.query<{ n: number }>(`SELECT n FROM login_throttle WHERE key = $1`, [`ip:${ip}`])).rows[0].n).toBe(failures);
    const started = Date.now();
    expect((await login({ username: 'device', password: DEMO_PASSWORD }, ip)).json().status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(addressDelayMs(failures) - 5);
    expect(addressDelayMs(THROTTLE.addressFree)).toBe(0);
    expect(addressDelayMs(failures)).toBe(3 * THROTTLE.addressDelayStepMs);
    expect(addressDelayMs(10_000)).toBe(THROTTLE.addressDelayMaxMs);
  });

  it('does not count a disabled account’s right password against it', async () => {
    const ip = '198.51.100.50';
    await t.db.query(`UPDATE users SET status = 0 WHERE username = 'farm2'`);
    try {
      for (let i = 0; i < THROTTLE.perPair + 2; i++) {
        expect((await login({ username: 'farm2', password: DEMO_PASSWORD }, ip)).json().message).toContain('停用');
      }
    } finally {
      await t.db.query(`UPDATE users SET status = 1 WHERE username = 'farm2'`);
    }
    expect((await login({ username: 'farm2', password: DEMO_PASSWORD }, ip)).json().status).toBe(200);
  });

  it('records logins, failures and refusals in the operation log', async () => {
    await login({ username: 'device', password: DEMO_PASSWORD });
    await login({ username: 'device', password: 'bad_bad_bad' });
    const { rows } = await t.db.query<{ action: string; username: string; user_id: number | null }>(
      `SELECT action, username, user_id FROM operation_log WHERE username = 'device' ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['login', 'login.failed']));
    expect(rows.every((r) => r.user_id !== null)).toBe(true);
    const changes = await t.db.query<{ changes: unknown }>(`SELECT changes FROM operation_log WHERE username = 'device'`);
    expect(JSON.stringify(changes.rows)).not.toContain('bad_bad_bad');
  });

  it('logs out: the token is revoked and gets 40101 everywhere afterwards', async () => {
    const token = await t.login('farm');
    const other = await t.login('farm');
    const res = await t.app.inject({ method: 'POST', url: `/api/auth/jwt/invalid?token=${token}`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe(200);
    for (const url of [
      `/api/admin/user/front/info?token=${token}`,
      `/api/admin/user/front/menus2?token=${token}`,
      '/api/admin/user/front/baseInfo',
      '/api/admin/user/front/baseInfo1?phone=13800000002',
    ]) {
      const r = await t.app.inject({ method: 'GET', url, headers: auth(token) });
      expect(r.statusCode, url).toBe(401);
      expect(r.json().status, url).toBe(40101);
    }
    const pw = await t.app.inject({ method: 'POST', url: '/api/admin/user/front/changePasswordWithoutVerify?username=farm&password=abc_123456', headers: auth(token) });
    expect(pw.statusCode).toBe(401);
    const again = await t.app.inject({ method: 'POST', url: `/api/auth/jwt/invalid?token=${token}` });
    expect(again.statusCode).toBe(401);
    expect(again.json().status).toBe(40101);
    // Another session of the same user is untouched.
    const ok = await t.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${other}`, headers: auth(other) });
    expect(ok.json().status).toBe(200);
    const { rows } = await t.db.query(`SELECT 1 FROM operation_log WHERE action = 'logout' AND username = 'farm'`);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('refuses logout of a bad, forged or missing token', async () => {
    // Change the signature's first character: its last one carries padding bits, and A/B
    // there can decode to the same bytes, leaving the token valid.
    const [head, body, sig] = (await t.login('agent')).split('.');
    const forged = `${head}.${body}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    for (const url of ['/api/auth/jwt/invalid?token=abc', `/api/auth/jwt/invalid?token=${forged}`, `/api/auth/jwt/invalid?token=${encodeURIComponent(HOSTILE[2])}`]) {
      const res = await t.app.inject({ method: 'POST', url });
      expect(res.statusCode, url).toBe(401);
      expect(expectClean(res).status).toBe(40101);
    }
    const missing = expectClean(await t.app.inject({ method: 'POST', url: '/api/auth/jwt/invalid' }));
    expect(missing.status).toBe(40001);
    const long = expectClean(await t.app.inject({ method: 'POST', url: `/api/auth/jwt/invalid?token=${'a'.repeat(5000)}` }));
    expect(long.status).toBe(40001);
  });

  it('answers calls without a token or with a bad one with HTTP 401 and 40101', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: '' }, { authorization: `Bearer ${'x'.repeat(5000)}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/user/front/info?token=x', headers });
      expect(res.statusCode).toBe(401);
      expect(expectClean(res).status).toBe(40101);
    }
  });

  it('refuses an expired token', async () => {
    const { rows } = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'admin'`);
    const expired = await t.app.tokens.issue({ id: rows[0].id, username: 'admin' }, -10);
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/user/front/info?token=${expired}`, headers: auth(expired) });
    expect(res.statusCode).toBe(401);
    expect(res.json().status).toBe(40101);
  });
});
