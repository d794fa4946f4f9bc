import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PgliteProxy, type PgliteClient } from './pglite-proxy.ts';
import { lockPgliteFolder } from './pglite-lock.ts';
import * as schema from '../db/schema/index.ts';

export type Schema = typeof schema;
/** One handle type for PGlite and PostgreSQL: the same code path runs on both. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run queries: the db or a transaction. */
export type Queryable = Db | Tx;

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../db/migrations');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs fn while holding the cluster-wide lock used by migrations and seeding. */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  migrate(): Promise<void>;
  /**
   * Runs a read as a named prepared statement: PostgreSQL plans it once per connection instead of
   * on every call (planning was most of the cost of the list queries). Without a name, the name is
   * taken from the SQL text, so each combination of filters gets its own statement. On PGlite a
   * plain query.
   */
  prepared<T>(name: string | null, query: SQL): Promise<T[]>;
  /**
   * Runs a statement of `compileStatement` (rendered once, at load) with these values for its
   * placeholders: a named prepared statement on PostgreSQL, a plain query on PGlite.
   */
  run<T>(statement: CompiledStatement, values: Record<string, unknown>): Promise<T[]>;
  /** PGlite only: the data folder as a gzipped tarball (test databases are copied from it). */
  dump?(): Promise<Blob>;
  /**
   * The connections at this moment, for the metrics: open ones, those running a query, and queries
   * waiting for one. PostgreSQL: the pools' counts; PGlite in its worker: its one connection and the
   * statements queued for it. Absent for PGlite on the calling thread (its queue is not visible).
   */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  inUse: number;
  waiting: number;
}

const STARTUP_LOCK_KEY = 726_351_001;
const dialect = new PgDialect();

/** A statement of the hot path rendered to text once; its `sql.placeholder(name)`s take values per call (Database.run). */
export interface CompiledStatement {
  name: string;
  text: string;
  params: unknown[];
  /**
   * Always run with the generic plan (PostgreSQL): for a statement that costs far more to plan than
   * to run, whose best plan does not depend on its values, and which PostgreSQL's own choice would
   * plan again on every call.
   */
  generic?: boolean;
}

/**
 * Renders `query` once: the calls of every request then skip drizzle's SQL building. Without a
 * name, the name is taken from the SQL text, as `prepared` does.
 */
export function compileStatement(name: string | null, query: SQL, opts: { generic?: boolean } = {}): CompiledStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name: name ?? statementName(text), text, params, generic: opts.generic };
}

const statementName = (text: string) => `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

export function openPostgres(url: string, poolSize = Number(process.env.DB_POOL_SIZE ?? 20)): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on the next query.
  pool.on('error', (err) => console.warn(`PostgreSQL idle connection error: ${err.message}`));
  // Timestamps as Date, numerics handled by drizzle's mode: 'number'.
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Statements that always run with their generic plan (CompiledStatement.generic) have a few
  // connections of their own, set so from the start: no setting to change around each call.
  let generic: pg.Pool | undefined;
  const genericPool = () => {
    if (!generic) {
      generic = new pg.Pool({ connectionString: url, max: Math.max(2, Math.ceil(poolSize / 2)), options: '-c plan_cache_mode=force_generic_plan' });
      generic.on('error', (err) => console.warn(`PostgreSQL idle connection error: ${err.message}`));
    }
    return generic;
  };
  return {
    db,
    kind: 'postgres',
    async withStartupLock(fn) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async migrate() {
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
    },
    async prepared<T>(name: string | null, query: SQL) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const statement = name ?? statementName(text);
      const result = await pool.query({ name: statement, text, values: params as unknown[] });
      return result.rows as T[];
    },
    async run<T>(statement: CompiledStatement, values: Record<string, unknown>) {
      const query = { name: statement.name, text: statement.text, values: fillPlaceholders(statement.params, values) };
      return (await (statement.generic ? genericPool() : pool).query(query)).rows as T[];
    },
    poolStats() {
      const pools = generic ? [pool, generic] : [pool];
      const sum = (count: (p: pg.Pool) => number) => pools.reduce((n, p) => n + count(p), 0);
      return { total: sum((p) => p.totalCount), inUse: sum((p) => p.totalCount - p.idleCount), waiting: sum((p) => p.waitingCount) };
    },
    close: async () => {
      await pool.end();
      await generic?.end();
    },
  };
}

/**
 * Where PGlite runs: in a worker thread (the default, decision 033: its statements, WAL and
 * checkpoints never block the request thread) or, with `PGLITE_WORKER=0`, on the calling thread.
 */
export function pgliteInWorker(): boolean {
  return process.env.PGLITE_WORKER !== '0';
}

/**
 * PGlite in a folder (the embedded default) or in memory (no folder), optionally loaded from a dump;
 * in its worker thread unless `worker: false` (or PGLITE_WORKER=0).
 */
export async function openPglite(dataDir: string | undefined, opts: { loadDataDir?: Blob; worker?: boolean } = {}): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  // A folder is one process's at a time (pglite-lock.ts): a second app or a backup refuses.
  const release = dataDir ? lockPgliteFolder(dataDir) : () => undefined;
  let client: PgliteClient;
  try {
    client =
      (opts.worker ?? pgliteInWorker())
        ? await PgliteProxy.start({ dataDir, loadDataDir: opts.loadDataDir })
        : // pg_trgm: trigram indexes for the substring searches (titles), as on the PostgreSQL server.
          await PGlite.create(dataDir, { loadDataDir: opts.loadDataDir, extensions: { pg_trgm } });
  } catch (err) {
    release();
    throw err;
  }
  // drizzle's pglite driver only calls query and transaction (and the transaction's query).
  const driverClient = client as PGlite;
  const proxy = client instanceof PgliteProxy ? client : null;
  const db = drizzlePglite(driverClient, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // One process owns a PGlite folder, so there is no one to race with.
    withStartupLock: (fn) => fn(),
    async migrate() {
      await migratePglite(drizzlePglite(driverClient, { schema }), { migrationsFolder });
    },
    dump: async () => (await client.dumpDataDir('gzip')) as Blob,
    async prepared<T>(_name: string | null, query: SQL) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return (await client.query<T>(text, params as unknown[])).rows;
    },
    async run<T>(statement: CompiledStatement, values: Record<string, unknown>) {
      return (await client.query<T>(statement.text, fillPlaceholders(statement.params, values))).rows;
    },
    poolStats: proxy ? () => ({ total: 1, ...proxy.stats() }) : undefined,
    async close() {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(path.join(opts.dataDir, 'pglite'));
}

/** Rows of a raw SQL query, the same on both drivers. */
export async function rows<T>(q: Queryable, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
