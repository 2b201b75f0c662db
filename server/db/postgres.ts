import pg from 'pg';
import { createHash } from 'node:crypto';
import type { Database, QueryResult, Queryable } from './database.ts';

// int8 (count(*), bigserial) as a JS number, as PGlite returns it: our ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface PostgresOptions {
  connectionString: string;
  /** Tests isolate themselves in a schema of their own. */
  searchPath?: string;
  max?: number;
}

export async function openPostgres(opts: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? 10,
    options: opts.searchPath ? `-c search_path=${opts.searchPath}` : undefined,
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', (err) => console.error('[db] idle client error:', err.message));
  const run = async <T>(c: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult<T>> => {
    const r = await c.query(params?.length ? { name: statementName(sql), text: sql, values: params } : sql);
    return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
  };
  return {
    engine: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const scoped: Queryable = { query: (sql, params) => run(client, sql, params) };
        const result = await fn(scoped);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

/**
 * Every query with parameters is a named prepared statement, one per SQL text: each
 * connection parses and plans it once and then reuses it (PostgreSQL switches to a generic
 * plan after five executions when that plan is not worse). Planning the resource engine's
 * page query over a table with many partial indexes costs more than running it (about
 * 1 ms against 0.4 ms, tools/resource-plan.ts). SQL texts are built from code and loaded
 * documents, never from values, so their number stays bounded.
 */
const names = new Map<string, string>();
function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `q${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}
