import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import type { Database } from '../../server/db/database.ts';

// Reads with parameters run as named prepared statements on both engines
// (server/db/postgres.ts, server/db/pglite.ts): the same SQL text with other values, errors
// that leave the session usable, and reads racing a transaction.
describe.each(engines())('prepared reads on $name', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await engine.open();
    await db.exec(`CREATE TABLE prep_t (id int PRIMARY KEY, v text, n numeric); INSERT INTO prep_t SELECT g, 'v' || g, g * 1.5 FROM generate_series(1, 50) g`);
  });
  afterAll(async () => {
    await db?.close();
  });

  const sql = 'SELECT id, v, n, 30 / $2::int AS q FROM prep_t WHERE id > $1 ORDER BY id LIMIT 2';

  it('gives each run its own values, types parsed as by a plain query', async () => {
    for (let i = 0; i < 8; i++) {
      const { rows, rowCount } = await db.query<{ id: number; v: string; q: number }>(sql, [i * 5, 3]);
      expect(rowCount).toBe(2);
      expect(rows.map((r) => r.id)).toEqual([i * 5 + 1, i * 5 + 2]);
      expect(rows[0].v).toBe(`v${i * 5 + 1}`);
      expect(Number(rows[0].q)).toBe(10);
    }
    const none = await db.query(sql, [1000, 1]);
    expect(none.rows).toEqual([]);
    const nulls = await db.query<{ x: string | null }>('SELECT $1::text AS x', [null]);
    expect(nulls.rows[0].x).toBeNull();
    const list = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM prep_t WHERE v = ANY($1::text[])', [['v1', 'v2', 'nope']]);
    expect(list.rows[0].n).toBe(2);
  });

  it('stays usable after a read fails', async () => {
    await expect(db.query(sql, [1, 0])).rejects.toThrow(/division by zero/);
    await expect(db.query('SELECT nope FROM prep_t WHERE id = $1', [1])).rejects.toThrow(/nope/);
    const { rows } = await db.query<{ id: number }>(sql, [10, 1]);
    expect(rows.map((r) => r.id)).toEqual([11, 12]);
  });

  it('runs EXPLAIN with values', async () => {
    const { rows } = await db.query<Record<string, unknown>>('EXPLAIN (FORMAT JSON) SELECT 1 FROM prep_t WHERE id > $1', [40]);
    const raw = Object.values(rows[0])[0];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
    expect(plan[0].Plan['Plan Rows']).toBeGreaterThan(0);
  });

  it('never reads inside another caller’s open transaction', async () => {
    let inside!: () => void;
    const gate = new Promise<void>((resolve) => (inside = resolve));
    const tx = db.transaction(async (t) => {
      await t.query("UPDATE prep_t SET v = 'changed' WHERE id = $1", [1]);
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await t.query("UPDATE prep_t SET v = 'v1' WHERE id = $1", [1]);
    });
    await gate;
    // Outside the transaction: its intermediate state is never visible.
    const { rows } = await db.query<{ v: string }>('SELECT v FROM prep_t WHERE id = $1', [1]);
    expect(rows[0].v).toBe('v1');
    await tx;
  });
});
