import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult, Queryable } from './database.ts';

export interface PgliteDatabase extends Database {
  /** The whole data folder as a tarball, to open copies of this database (tests clone a seeded one). */
  dump(): Promise<Blob>;
}

/**
 * Embedded PostgreSQL. `dataDir` undefined means in memory (tests); `image` starts the
 * database from a tarball made by `dump()`.
 */
export async function openPglite(dataDir?: string, image?: Blob): Promise<PgliteDatabase> {
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), ...(image ? { loadDataDir: image } : {}) });
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
    dump: async () => pg.dumpDataDir('none'),
  };
}
