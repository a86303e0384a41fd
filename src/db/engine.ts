import { AsyncResource } from 'node:async_hooks';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema.ts';
import { recordStoreGroup } from '../metrics.ts';
import type { Connection, Database_, Db } from './client.ts';
import type { PgDatabase, PgDb, PgDbOrTx } from './pg-client.ts';
import { sqliteQueries, type Q } from './query.ts';

// The data layer both engines share (decision 028): a `DataStore` gives feature code
//
// - `read`: a handle for reads outside a transaction (SQLite: a second, read-only connection, so reads
//   never wait for a writer; PostgreSQL: the pool);
// - `transaction(fn)`: the only way to write. `fn` receives a transaction handle; `tx.transaction(fn)`
//   inside it is a savepoint (on both engines) that rolls back alone when its body throws;
// - `groupTransaction(fn)`: the same to its caller, for the hot short writes; on SQLite the bodies of one
//   event-loop turn share one BEGIN … COMMIT, a savepoint each (a group commit, decision 046 "Session 16");
// - `close()`.
//
// A handle is `{ kind, q, db }`: repositories run their one query definition on `q` (src/db/query.ts,
// decision 044), on either engine; `db` is drizzle typed for the handle's dialect, for code not yet
// converted.
//
// SQLite: better-sqlite3 has one writer connection per process, and once a transaction body awaits,
// another request's statements would run inside the open transaction. So `transaction` takes a
// per-connection async mutex around BEGIN IMMEDIATE … COMMIT/ROLLBACK: transactions run one after the
// other (SQLite allows one writer at a time anyway). Rule that keeps this cheap, and that PostgreSQL
// needs too: no network I/O inside a transaction body (Discord, Stripe, Redis before or after it).
//
// PostgreSQL: READ COMMITTED through `withPgTransaction`, retried on deadlock (40P01) and serialization
// failure (40001) — a body may run more than once, so it must have no side effects outside the database.
//
// Conversion period (until step 4 of decision 028): the SQLite store's writer is the same connection
// as the synchronous `ctx.db`/`ctx.sqlite` that unconverted code still uses. Synchronous code runs to the
// end within one event-loop task; a store transaction whose body awaits only the store (the rule above)
// runs within one task plus microtasks too, so the two cannot interleave on the connection.

export type EngineKind = 'sqlite' | 'pg';

export interface SqliteHandle {
  readonly kind: 'sqlite';
  /** drizzle on the writer (in a transaction) or on the read-only connection (`store.read`). */
  readonly db: Db;
  /** The engine-neutral query handle on the same connection (decision 044). */
  readonly q: Q;
}
export interface PgHandle {
  readonly kind: 'pg';
  readonly db: PgDbOrTx;
  /** The engine-neutral query handle on the same pool or transaction client (decision 044). */
  readonly q: Q;
}
/** What a repository receives: either engine's drizzle handle, tagged with its kind. */
export type DbHandle = SqliteHandle | PgHandle;

interface Savepoints {
  /** A savepoint of this transaction: rolled back alone when `fn` throws, then the error is rethrown. */
  transaction<T>(fn: (tx: TxHandle) => Promise<T>): Promise<T>;
}
/** A handle inside a transaction. */
export type TxHandle = (SqliteHandle & Savepoints) | (PgHandle & Savepoints);

export interface DataStore {
  readonly kind: EngineKind;
  /** Reads outside a transaction (they see committed data only). Never write through it. */
  readonly read: DbHandle;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws (the error is
   * rethrown). Call it only at the top; inside, nest with `tx.transaction` (a savepoint) — calling
   * `store.transaction` from a transaction body waits for itself on SQLite.
   */
  transaction<T>(fn: (tx: TxHandle) => Promise<T>): Promise<T>;
  /**
   * As `transaction` to its caller (committed when it resolves, nothing written when it throws), for the
   * hot short writes (a reward claim, an address recording). On SQLite the bodies queued in one
   * event-loop turn share ONE transaction (a group commit): each body runs in a savepoint of its own, so
   * one that throws rolls back alone, and every caller is answered with its own outcome only after the
   * shared COMMIT (a COMMIT that fails fails them all: nothing is acknowledged before it). On PostgreSQL,
   * whose transactions run side by side on the pool, it is `transaction`.
   */
  groupTransaction<T>(fn: (tx: TxHandle) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A FIFO async mutex: `run` waits for every earlier holder to finish. */
export class AsyncMutex {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  get locked(): boolean {
    return this.held;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held = true;
    try {
      return await fn();
    } finally {
      // Hand over directly (held stays true), so no newcomer can overtake the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    }
  }
}

let savepointCounter = 0;

// ---------------------------------------------------------------- SQLite

export interface SqliteStore extends DataStore {
  readonly kind: 'sqlite';
  readonly read: SqliteHandle;
  /** The writer connection (shared with the synchronous ctx.db until decision 028's step 4). */
  readonly writer: Connection;
  /** Whether a store transaction is open or queued (tests). */
  readonly busy: boolean;
  /** How many group-committed bodies each of the last shared transactions held, newest last (tests, bench). */
  readonly groupSizes: readonly number[];
}

/** A body waiting for the next group commit, and how to settle its caller. */
interface GroupMember {
  fn: (tx: TxHandle) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** How many recent group sizes `groupSizes` keeps. */
const GROUP_SIZES_KEPT = 64;

/**
 * The SQLite store on an open (migrated) database: its connection is the writer; `path` is opened a
 * second time read-only for `read`. An in-memory database (demo only) has no second connection: its
 * reads go to the writer and may see a transaction in progress.
 */
export function createSqliteStore(database: Pick<Database_, 'db' | 'sqlite'>, path: string): SqliteStore {
  const writer = database.sqlite;
  const mutex = new AsyncMutex();
  const begin = writer.prepare('BEGIN IMMEDIATE');
  const commit = writer.prepare('COMMIT');
  const rollback = writer.prepare('ROLLBACK');
  let reader: Connection | null = null;
  let readDb: Db = database.db;
  const writerQ = sqliteQueries(writer);
  let readQ = writerQ;
  if (path !== ':memory:' && !path.startsWith('file::memory:')) {
    reader = new Database(path, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    readDb = drizzle(reader, { schema });
    readQ = sqliteQueries(reader);
  }

  const handle = (): TxHandle => {
    const nested = new AsyncMutex();
    return {
      kind: 'sqlite',
      db: database.db,
      q: writerQ,
      // Savepoints of one transaction run one at a time (their statements share the connection).
      transaction: <T>(fn: (tx: TxHandle) => Promise<T>) =>
        nested.run(async () => {
          savepointCounter += 1;
          const name = `sp_${savepointCounter}`;
          writer.exec(`SAVEPOINT ${name}`);
          try {
            const result = await fn(handle());
            writer.exec(`RELEASE ${name}`);
            return result;
          } catch (err) {
            if (writer.inTransaction) {
              writer.exec(`ROLLBACK TO ${name}`);
              writer.exec(`RELEASE ${name}`);
            }
            throw err;
          }
        }),
    };
  };
  const top = handle();
  const groupCommit = sqliteGroupCommit(writer, mutex, top);

  return {
    kind: 'sqlite',
    read: { kind: 'sqlite', db: readDb, q: readQ },
    writer,
    get busy() {
      return mutex.locked || groupCommit.queued() > 0;
    },
    groupSizes: groupCommit.sizes,
    groupTransaction: groupCommit.run,
    transaction<T>(fn: (tx: TxHandle) => Promise<T>): Promise<T> {
      return mutex.run(async () => {
        if (writer.inTransaction)
          // Only a synchronous transaction left open (a bug) can get here: never join it.
          throw new Error('SQLite store: the connection is already inside a transaction');
        begin.run();
        let result: T;
        try {
          result = await fn(top);
        } catch (err) {
          if (writer.inTransaction) rollback.run();
          throw err;
        }
        commit.run();
        return result;
      });
    },
    async close() {
      // Let a transaction in progress, and a group queued this turn, finish before the reader goes; the
      // writer is closed by its owner.
      await new Promise((resolve) => setImmediate(resolve));
      await mutex.run(() => Promise.resolve());
      reader?.close();
    },
  };
}

/**
 * The SQLite store's group commit (`groupTransaction`). Bodies queued during one event-loop turn (the
 * requests node parsed in one poll phase, and whatever their promises led to) are run at the turn's end
 * (`setImmediate`), under the writer's mutex, as savepoints of one BEGIN IMMEDIATE … COMMIT: a claim
 * then pays a SAVEPOINT and a RELEASE (prepared, a few µs) instead of the mutex, BEGIN and COMMIT, and
 * SQLite writes the pages the group shares (the transactions table's last page, the indexes) to the
 * WAL once. Each body is still its own rule check and its own ledger row; a body that throws is rolled
 * back to its savepoint and its caller gets the error, the others go on. Callers are settled only
 * after the COMMIT. If the connection left the transaction (SQLite rolls a transaction back by itself
 * on a full disk or an I/O error) or the COMMIT fails, every caller of the group gets that error:
 * nothing of it was acknowledged, and nothing of it stays.
 */
function sqliteGroupCommit(writer: Connection, mutex: AsyncMutex, top: TxHandle) {
  const begin = writer.prepare('BEGIN IMMEDIATE');
  const commit = writer.prepare('COMMIT');
  const rollback = writer.prepare('ROLLBACK');
  const savepoint = writer.prepare('SAVEPOINT group_member');
  const release = writer.prepare('RELEASE group_member');
  const rollbackTo = writer.prepare('ROLLBACK TO group_member');
  const sizes: number[] = [];
  let queue: GroupMember[] = [];

  const runGroup = async (group: GroupMember[]) => {
    if (writer.inTransaction) throw new Error('SQLite store: the connection is already inside a transaction');
    begin.run();
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      for (const member of group) {
        savepoint.run();
        try {
          const value = await member.fn(top);
          release.run();
          outcomes.push({ ok: true, value });
        } catch (err) {
          // The transaction itself is gone (SQLite ended it): the whole group with it.
          if (!writer.inTransaction) throw err;
          rollbackTo.run();
          release.run();
          outcomes.push({ ok: false, value: err });
        }
      }
      commit.run();
    } catch (err) {
      if (writer.inTransaction) rollback.run();
      throw err;
    }
    return outcomes;
  };

  const flush = () => {
    const group = queue;
    queue = [];
    sizes.push(group.length);
    if (sizes.length > GROUP_SIZES_KEPT) sizes.shift();
    mutex
      .run(() => runGroup(group))
      .then(
        (outcomes) => {
          recordStoreGroup(group.length, 'committed');
          outcomes.forEach(({ ok, value }, i) => (ok ? group[i]!.resolve(value) : group[i]!.reject(value)));
        },
        (err: unknown) => {
          recordStoreGroup(group.length, 'failed');
          group.forEach((member) => member.reject(err));
        },
      );
  };

  // The group runs in the store's own async context, not in the first caller's (whose person's Discord
  // deadline, decision 037, is no other body's); each caller continues in its own context after it.
  const flushOutsideCallers = AsyncResource.bind(flush);
  return {
    sizes: sizes as readonly number[],
    queued: () => queue.length,
    run: <T>(fn: (tx: TxHandle) => Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flushOutsideCallers);
        queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      }),
  };
}

// ---------------------------------------------------------------- PostgreSQL

export interface PgStore extends DataStore {
  readonly kind: 'pg';
  readonly read: PgHandle;
  readonly db: PgDb;
  readonly pool: PgDatabase['pool'];
}

// createPgStore and openPgStore are in pg-store.ts: importing this module loads no PostgreSQL driver
// (pg-lib.ts).

// ---------------------------------------------------------------- helpers for feature code

/** Where a write runs: a transaction of its own (the store) or inside the caller's (`tx`). */
export type WriteTarget = DataStore | TxHandle;
/** Where a read runs: the store's read handle, or a handle (inside a transaction: see its own writes). */
export type ReadTarget = DataStore | DbHandle;

export function isStore(target: DataStore | DbHandle): target is DataStore {
  return 'read' in target;
}

/** Runs `fn` in the caller's transaction, or in one of its own when given the store. */
export function inTransaction<T>(target: WriteTarget, fn: (tx: TxHandle) => Promise<T>): Promise<T> {
  return isStore(target) ? target.transaction(fn) : fn(target);
}

/** The handle to read through: the store's read handle, or the handle given. */
export function readHandle(target: ReadTarget): DbHandle {
  return isStore(target) ? target.read : target;
}

/**
 * PostgreSQL: the handle for a write that is ONE statement, its own transaction (it commits when it
 * returns, or fails whole): the pool, without BEGIN and COMMIT (the one-statement claim, decision 062).
 * Undefined on SQLite, whose writes go through `transaction` (its writer is serialised).
 */
export function autocommitHandle(store: DataStore): PgHandle | undefined {
  return store.kind === 'pg' ? (store.read as PgHandle) : undefined;
}
