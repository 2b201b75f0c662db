import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult, Queryable } from './database.ts';

/** Embedded PostgreSQL. `dataDir` undefined means in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Database> {
  const pg = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const run = async <T>(q: Pick<PGlite, 'query'>, sql: string, params?: unknown[]): Promise<QueryResult<T>> => {
    const r = await q.query<T>(sql, params as unknown[] | undefined);
    // PGlite reports affectedRows 0 for a SELECT; pg's rowCount counts the rows returned.
    return { rows: r.rows, rowCount: Math.max(r.affectedRows ?? 0, r.rows.length) };
  };
  return {
    engine: 'pglite',
    query: (sql, params) => run(pg, sql, params),
    transaction: (fn) =>
      pg.transaction(async (tx) => {
        const scoped: Queryable = { query: (sql, params) => run(tx, sql, params) };
        return fn(scoped);
      }),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    close: () => pg.close(),
  };
}
