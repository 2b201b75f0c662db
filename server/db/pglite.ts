import { PGlite, parse, protocol, type ExecProtocolResult } from '@electric-sql/pglite';
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
  const prepared = preparedReads(pg);
  return {
    engine: 'pglite',
    query: (sql, params) => (params?.length && READ.test(sql) ? prepared(sql, params) : run(pg, sql, params)),
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

const READ = /^\s*(SELECT|EXPLAIN)\b/i;

type Message = ExecProtocolResult['messages'][number];

/**
 * Reads with parameters as named prepared statements, parsed once per SQL text and this
 * database (PostgreSQL switches to a generic plan after five runs when that plan is not
 * worse). PGlite's own `query` parses and plans every call; planning the resource
 * engine's page query over a table with 135 indexes takes ~4 ms there against
 * ~0.9 ms of execution (tools/resource-plan.ts). This speaks the extended protocol the way
 * PGlite's `query` does (Parse and Describe once, then Bind, Execute and Sync in one call into
 * the WASM module instead of PGlite's five), under the same two locks,
 * so it never interleaves with a transaction. Reads only: they need no sync to the file system.
 */
function preparedReads(pg: PGlite) {
  const statements = new Map<string, { name: string; paramTypes: number[]; rowDescription: Message[] }>();
  const { serialize } = protocol;
  // One call into PostgreSQL per step, each ending with Sync: an error anywhere still
  // leaves the session ready for the next query (PostgreSQL skips to the Sync).
  const exec = async (...messages: Uint8Array[]) => {
    const batch = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
    let at = 0;
    for (const m of messages) {
      batch.set(m, at);
      at += m.length;
    }
    return (await pg.execProtocol(batch, { syncToFs: false })).messages;
  };
  return <T>(sql: string, params: unknown[]): Promise<QueryResult<T>> =>
    pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        let statement = statements.get(sql);
        if (!statement) {
          const name = `r${statements.size}`;
          const described = await exec(serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync());
          statement = {
            name,
            paramTypes: parse.parseDescribeStatementResults(described),
            rowDescription: described.filter((m) => m.name === 'rowDescription'),
          };
          statements.set(sql, statement);
        }
        const { paramTypes } = statement;
        const values = params.map((v, i) => (v == null ? null : (pg.serializers[paramTypes[i]]?.(v) ?? String(v))));
        const messages = await exec(serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync());
        const r = parse.parseResults([...statement.rowDescription, ...messages], pg.parsers)[0] as unknown as { rows: T[] };
        return { rows: r.rows, rowCount: r.rows.length };
      }),
    );
}
