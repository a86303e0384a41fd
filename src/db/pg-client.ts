import type { Socket } from 'node:net';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PG_MIGRATIONS_DIR } from '../paths.ts';
import * as schema from './schema.pg.ts';
import { isRetryablePgError } from './pg-lib.ts';

// The PostgreSQL connection (decision 028): the pool behind the PostgreSQL DataStore (src/db/engine.ts,
// opened by src/server.ts when DATABASE_URL is set; the ledger and the repositories run on it through
// src/db/query.ts), the run-once jobs (src/ops/run-once.ts) and the session store (src/auth/pg-session-store.ts).

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** The handle given to code running inside `db.transaction(async (tx) => …)`. */
export type PgTx = Parameters<Parameters<PgDb['transaction']>[0]>[0];
export type PgDbOrTx = PgDb | PgTx;

export interface PgDatabase {
  db: PgDb;
  pool: pg.Pool;
  close(): Promise<void>;
}

const INT8_OID = 20;
/**
 * node-postgres returns int8 (bigint) as a string. Every bigint here is money in hundredths (at most
 * ±9999999999) or epoch milliseconds, all far below 2^53, so it is parsed as a JS number: raw SQL then
 * sees the same numbers as drizzle's `bigint({ mode: 'number' })` columns and as the SQLite code. It is
 * set on node-postgres's global parsers because drizzle's driver passes its own per-query type table
 * that falls back to them (a Pool-level `types` option would be bypassed by every drizzle query).
 * SUM() and COUNT() are bigint/numeric too: cast a SUM to ::bigint and a COUNT to ::int in raw SQL.
 */
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));

/** Any key of the migration advisory lock: one number for "coinsync migrations" (fits int8). */
const MIGRATION_LOCK_KEY = 0x636f696e_7379;

export interface OpenPgOptions {
  /** Connections in this process's pool (node-postgres default 10). */
  max?: number;
  /** Apply drizzle-pg/ migrations before returning (default true). */
  migrate?: boolean;
  applicationName?: string;
  /** Waiting for a connection (a new one, or a free one in the pool) at most this long (default 5 s). */
  connectionTimeoutMs?: number;
  /** One query's answer at most this long, then the query fails (default 10 s; 0 = no limit). */
  queryTimeoutMs?: number;
}

/**
 * A database server that stops answering (a hung host, a network partition) must not hold a member's
 * request for ever: without these, node-postgres waits without limit (the fault drill measured requests
 * unanswered for as long as the hang lasted). Past them the query fails with an error that
 * storageFailureCode recognises, so the API answers 503 with Retry-After and the bot says so.
 */
export const PG_CONNECTION_TIMEOUT_MS = 5_000;
export const PG_QUERY_TIMEOUT_MS = 10_000;

/**
 * Opens a pool on `url` and applies the drizzle-pg/ migrations. Several processes may start at once:
 * migrations run under a session advisory lock, so exactly one applies them and the others wait, then
 * find nothing left to do.
 */
export async function openPgDatabase(url: string, options: OpenPgOptions = {}): Promise<PgDatabase> {
  const pool = new pg.Pool({
    connectionString: url,
    // Queries issued on a client without waiting for the previous answer go out at once (one write,
    // one wake-up of the backend): a transaction's BEGIN travels with its first statement
    // (`withPgTransaction`), and statements a transaction issues together (Promise.all) share a round
    // trip. Each query keeps its own Sync, so an error ends only its own query (inside a transaction,
    // the ones after it fail with "current transaction is aborted", as they would one by one).
    pipeline: true,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'coinsync',
    connectionTimeoutMillis: options.connectionTimeoutMs ?? PG_CONNECTION_TIMEOUT_MS,
    ...((options.queryTimeoutMs ?? PG_QUERY_TIMEOUT_MS) > 0
      ? { query_timeout: options.queryTimeoutMs ?? PG_QUERY_TIMEOUT_MS }
      : {}),
  });
  // An idle client that loses its server (restart, failover) emits 'error' on the pool; without a
  // listener that would crash the process. The next query simply gets a fresh connection.
  pool.on('error', () => undefined);
  try {
    if (options.migrate !== false) await migratePg(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const db: PgDb = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

export async function migratePg(pool: pg.Pool): Promise<void> {
  // Its own connection, without the pool's query time limit: waiting for another process's migrations
  // (the advisory lock) may take longer than any one query of a request should.
  const { query_timeout: _noLimit, ...options } = pool.options;
  const client = new pg.Client(options);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder: PG_MIGRATIONS_DIR });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/**
 * A top-level READ COMMITTED transaction that is retried (a few times, with a short jittered wait) when
 * PostgreSQL aborts it as a deadlock victim or a serialization failure. `fn` must therefore have no
 * side effects outside the database (no Discord calls, no events) — do those after it returns.
 */
export async function withPgTransaction<T>(
  db: PgDb,
  fn: (tx: PgTx) => Promise<T>,
  { attempts = 5 }: { attempts?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transactionOnce(db, fn);
    } catch (err) {
      if (attempt >= attempts || !isRetryablePgError(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * drizzle's `db.transaction(fn)` with BEGIN sent with the first statement instead of a round trip of its
 * own (the pool's clients pipeline): the client is taken from the pool, BEGIN is written without waiting
 * for its answer, and `fn` runs on drizzle's transaction over that client (savepoints for nested
 * `tx.transaction` as before). BEGIN can only fail with the connection itself, and then every statement
 * behind it fails too. COMMIT (or ROLLBACK after a failure) ends it; a client whose ROLLBACK failed is
 * discarded, not returned to the pool.
 */
async function transactionOnce<T>(db: PgDb, fn: (tx: PgTx) => Promise<T>): Promise<T> {
  // drizzle's own session and transaction classes over the client, with the database's dialect: what
  // `db.transaction` builds (drizzle-orm/node-postgres/session.js), minus the BEGIN round trip, and
  // without the relational-query schema (nothing here uses `tx.query.*`; with it every transaction and
  // savepoint object built a query builder per table).
  const internals = db as unknown as {
    dialect: ConstructorParameters<typeof NodePgSession>[1];
    session: { options: ConstructorParameters<typeof NodePgSession>[3] };
  };
  if (!(db.$client instanceof pg.Pool)) return db.transaction(fn);
  const client = await db.$client.connect();
  const session = new NodePgSession(client, internals.dialect, undefined, internals.session.options);
  const tx = new NodePgTransaction(internals.dialect, session, undefined) as unknown as PgTx;
  // BEGIN and the statements `fn` issues before its first await leave in one write (one syscall here,
  // one read in the backend) instead of one each: the socket is corked until this turn's code has run.
  const socket = (client as unknown as { connection?: { stream?: Partial<Pick<Socket, 'cork' | 'uncork'>> } })
    .connection?.stream;
  socket?.cork?.();
  process.nextTick(() => socket?.uncork?.());
  const begun = client.query('begin');
  // Its failure is the transaction's (awaited below); never an unhandled rejection meanwhile.
  begun.catch(() => undefined);
  let broken: unknown;
  try {
    const result = await fn(tx);
    await begun;
    await client.query('commit');
    return result;
  } catch (err) {
    try {
      await client.query('rollback');
    } catch (rollbackFailed) {
      broken = rollbackFailed;
    }
    throw err;
  } finally {
    client.release(broken instanceof Error ? broken : broken === undefined ? undefined : true);
  }
}
