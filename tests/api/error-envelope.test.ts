import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { engines } from '../support/engines.ts';

/**
 * The central error handler: database refusals caused by input come back as 40001 in
 * the request's language, never as a 500 carrying SQL.
 */
describe.each(engines())('error envelope on $name', (engine) => {
  const t = {} as { app: FastifyInstance; db: Database };
  beforeAll(async () => {
    t.db = await engine.open();
    t.app = await buildApp({ db: t.db, config: { ...loadConfig({}), distDir: '/nonexistent' } });
    // A throwaway public route that hits the database the way a racing writer or odd input would.
    t.app.get('/api/__probe/:kind', { config: { public: true } }, async (req) => {
      const kind = (req.params as { kind: string }).kind;
      if (kind === 'duplicate') {
        await t.db.query(`INSERT INTO roles(code, name) VALUES ('twice', '{}')`);
        await t.db.query(`INSERT INTO roles(code, name) VALUES ('twice', '{}')`);
      }
      if (kind === 'reference') await t.db.query(`INSERT INTO user_roles(user_id, role_id) VALUES (999999, 999999)`);
      if (kind === 'nul') await t.db.query(`SELECT $1::text`, ['a\u0000b']);
      if (kind === 'crash') await t.db.query(`SELECT * FROM no_such_table`);
      return { status: 200, message: 'ok', data: null };
    });
  });
  afterAll(async () => {
    await t.app?.close();
    await t.db?.close();
  });

  const probe = (kind: string, lang = 'en') => t.app.inject({ method: 'GET', url: `/api/__probe/${kind}`, headers: { 'accept-language': lang } });

  it('answers a unique-rule violation with 40001 in the caller language', async () => {
    const res = await probe('duplicate', 'es');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 40001, message: 'Este valor ya está en uso, elija otro' });
  });

  it('answers a reference violation with 40001', async () => {
    const res = await probe('reference', 'zh');
    expect(res.json()).toMatchObject({ status: 40001, message: '关联的记录不存在或仍被引用' });
  });

  it('answers a NUL byte with 40001', async () => {
    const res = await probe('nul');
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe(40001);
  });

  it('hides the SQL of a real server fault behind a 500 envelope', async () => {
    const res = await probe('crash');
    expect(res.statusCode).toBe(500);
    expect(res.json().status).toBe(50001);
    expect(res.body).not.toMatch(/no_such_table|SELECT|stack/i);
  });
});
