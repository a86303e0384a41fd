import type pg from 'pg';
import type { PgStore, TxHandle } from './engine.ts';
import { openPgDatabase, withPgTransaction, type PgDatabase, type PgDbOrTx } from './pg-client.ts';
import { pgQueries, type Q } from './query.ts';

// The data store on PostgreSQL (engine.ts's DataStore, decision 028). Apart from engine.ts so that a
// process on the embedded SQLite default never loads node-postgres (pg-lib.ts): the server imports this
// module with `import()` when DATABASE_URL names PostgreSQL.

/** The connection drizzle's transaction runs on (its session's client: one PoolClient per transaction). */
function transactionClient(tx: PgDbOrTx): pg.PoolClient {
  return (tx as unknown as { session: { client: pg.PoolClient } }).session.client;
}

function pgHandle(tx: PgDbOrTx, q?: Q): TxHandle {
  let query = q;
  return {
    kind: 'pg',
    db: tx,
    // Made on first use: a transaction that only calls unconverted code needs none.
    get q() {
      return (query ??= pgQueries(transactionClient(tx)));
    },
    // drizzle's nested transaction on a transaction handle is a SAVEPOINT (same client, same `q`).
    transaction: <T>(fn: (inner: TxHandle) => Promise<T>) =>
      tx.transaction((inner) => fn(pgHandle(inner, query))),
  };
}

/** The PostgreSQL store on an open pool (`openPgDatabase`); `close` ends the pool. */
export function createPgStore(database: PgDatabase): PgStore {
  return {
    kind: 'pg',
    read: { kind: 'pg', db: database.db, q: pgQueries(database.pool) },
    db: database.db,
    pool: database.pool,
    transaction: <T>(fn: (tx: TxHandle) => Promise<T>) =>
      withPgTransaction(database.db, (tx) => fn(pgHandle(tx))),
    // Transactions run side by side on the pool; a claim is usually one statement there (decision 062).
    groupTransaction: <T>(fn: (tx: TxHandle) => Promise<T>) =>
      withPgTransaction(database.db, (tx) => fn(pgHandle(tx))),
    close: () => database.close(),
  };
}

export async function openPgStore(url: string, options: { max?: number } = {}): Promise<PgStore> {
  return createPgStore(await openPgDatabase(url, options));
}
