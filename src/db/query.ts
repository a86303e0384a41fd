import type Database from 'better-sqlite3';
import type pg from 'pg';
import { drizzle, type SqliteRemoteDatabase, type SqliteRemoteResult } from 'drizzle-orm/sqlite-proxy';
import {
  SQLiteAsyncDialect,
  type PreparedQueryConfig,
  type SQLitePreparedQuery,
} from 'drizzle-orm/sqlite-core';
import { fillPlaceholders, sql as sqlTag, type SQL } from 'drizzle-orm';
import { driverErrorCode } from '../shared/errors.ts';
import { pgLib } from './pg-lib.ts';

// One query definition for both engines (decision 044). Repositories build their queries once, with
// drizzle's SQLite query builder over the one schema (src/db/schema.ts: typed columns, typed results),
// and run them through `Q`, an async drizzle database whose driver is a thin executor we own:
//
// - SQLite: the better-sqlite3 connection of the handle (the writer in a transaction, the read-only
//   connection for `store.read`), each SQL text prepared once per connection and kept (a statement
//   cache keyed by the text), so every query is a prepared statement without hand-written `.prepare()`.
// - PostgreSQL: the pool (reads) or the transaction's client, with `?` placeholders numbered `$1…` and
//   each SQL text a named prepared statement (parsed and planned once per connection).
//
// The SQL drizzle's SQLite dialect writes (double-quoted identifiers, `?` parameters, `on conflict … do
// update … where`, `returning`, `limit ?`) is also PostgreSQL's. What differs is handled here, once:
// booleans (SQLite stores 0/1; drizzle's boolean columns map PostgreSQL's true/false and send 1/0, which
// PostgreSQL reads as booleans), int8 and numeric results (numbers on both: SUM, COUNT), row locks
// (`forUpdate`), and the few functions spelled differently (`greatest`, `fragment`). A query that needs
// another difference takes `h.kind` for one fragment, never a second copy of the query.

/** The query handle repositories use (typed by the SQLite schema; runs on either engine). */
export type Q = SqliteRemoteDatabase;

/** A handle (src/db/engine.ts): its engine and its query handle. */
export interface Kinded {
  readonly kind: 'sqlite' | 'pg';
  readonly q: Q;
}

type Method = 'run' | 'all' | 'values' | 'get';
interface Exec {
  (sql: string, params: unknown[], method: Method, objects: boolean): Promise<{ rows: unknown }>;
}

const dialect = new SQLiteAsyncDialect();

// ---------------------------------------------------------------- SQLite

const STATEMENT_CACHE_LIMIT = 2000;
const sqliteStatements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function sqliteStatement(conn: Database.Database, text: string): Database.Statement {
  let cache = sqliteStatements.get(conn);
  if (!cache) sqliteStatements.set(conn, (cache = new Map<string, Database.Statement>()));
  let stmt = cache.get(text);
  if (!stmt) {
    // Queries with a list (`in (?, ?, …)`) make one text per length: keep the cache bounded.
    if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
    stmt = conn.prepare(text);
    cache.set(text, stmt);
  }
  return stmt;
}

function sqliteExec(conn: Database.Database): Exec {
  return (text, params, method, objects) => {
    const stmt = sqliteStatement(conn, text);
    if (!stmt.reader) {
      const info = stmt.run(...params);
      return Promise.resolve({ rows: [], changes: info.changes });
    }
    stmt.raw(!objects);
    if (method === 'get') return Promise.resolve({ rows: stmt.get(...params) });
    const rows = stmt.all(...params);
    return Promise.resolve(method === 'run' ? { rows, changes: rows.length } : { rows });
  };
}

// ---------------------------------------------------------------- PostgreSQL

const INT8_OID = 20;
const NUMERIC_OID = 1700;
/** Results as numbers on both engines: int8 (money, epoch ms, COUNT) and numeric (SUM of int8). */
const toNumber = (value: string): number => Number(value);
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? toNumber
      : (pgLib().types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

interface PgText {
  text: string;
  name: string | undefined;
}
const PG_NAMED_LIMIT = 2000;
const pgTexts = new Map<string, PgText>();

/**
 * SQLite's text as PostgreSQL's: `?` → `$1, $2…` outside quoted strings and identifiers, the conflict
 * target unqualified; and a statement name for the first texts seen.
 */
function pgText(sqliteSql: string): PgText {
  let found = pgTexts.get(sqliteSql);
  if (found) return found;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sqliteSql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') out += `$${++n}`;
    else out += ch;
  }
  // SQLite's dialect qualifies the conflict target's columns; PostgreSQL wants bare column names.
  out = out.replace(
    / on conflict \(([^)]*)\)/g,
    (_m, cols: string) => ` on conflict (${cols.replace(/"[^"]+"\./g, '')})`,
  );
  found = { text: out, name: pgTexts.size < PG_NAMED_LIMIT ? `q${pgTexts.size + 1}` : undefined };
  if (pgTexts.size < PG_NAMED_LIMIT * 2) pgTexts.set(sqliteSql, found);
  return found;
}

function pgExec(client: pg.Pool | pg.PoolClient): Exec {
  return async (sqliteSql, params, method, objects) => {
    const { text, name } = pgText(sqliteSql);
    const result = await client.query({
      text,
      ...(name ? { name } : {}),
      values: params,
      ...(objects ? {} : { rowMode: 'array' as const }),
      types: pgTypes,
    });
    if (method === 'get') return { rows: result.rows[0] };
    return method === 'run' ? { rows: result.rows, changes: result.rowCount ?? 0 } : { rows: result.rows };
  };
}

// ---------------------------------------------------------------- the query handle

const EXEC = Symbol('exec');
const CALLBACK = Symbol('callback');
type Callback = (sql: string, params: unknown[], method: Method) => Promise<never>;
type WithExec = Q & { [EXEC]: Exec; [CALLBACK]: Callback };

function queryHandle(exec: Exec): Q {
  const callback: Callback = (text, params, method) => exec(text, params, method, false) as Promise<never>;
  const q = drizzle(callback) as WithExec;
  q[EXEC] = exec;
  q[CALLBACK] = callback;
  return q;
}

const templateQ = queryHandle(() =>
  Promise.reject(new Error('a prepared query runs through `prepared(…)(h)`')),
);

/** A query compiled once (`prepared`): bound to a handle by calling it; `template` is the compiled query. */
export interface Prepared<P> {
  (h: Kinded): P;
  readonly template: P;
}

/**
 * A query built and compiled once (drizzle's `.prepare()`, values as `sql.placeholder(name)`), run on any
 * handle: `const claim = prepared((q) => q.update(…).set({ at: sql.placeholder('now') }).…prepare());`
 * then `await claim(h).get({ now })`. Building and compiling a drizzle query costs more CPU than running
 * it on SQLite: hot paths (the claim) prepare; everything else simply builds on `h.q`.
 */
export function prepared<P extends object>(build: (q: Q) => P): Prepared<P> {
  const template = build(templateQ);
  const bind = (h: Kinded): P => {
    // The template's compiled SQL, field mapping and methods, on this handle's connection.
    const query = Object.create(template) as P & { client: Callback };
    query.client = (h.q as WithExec)[CALLBACK];
    return query;
  };
  return Object.assign(bind, { template });
}

/** A raw statement compiled once (`preparedSql`): its rows as arrays of the selected columns, in order. */
export interface PreparedRows<Row extends unknown[]> {
  get(values?: Record<string, unknown>): Promise<Row | undefined>;
  all(values?: Record<string, unknown>): Promise<Row[]>;
}

/**
 * `prepared` for a statement the builder cannot write (e.g. PostgreSQL's data-modifying `with`), written
 * with `sql` over the schema's tables and columns and `sql.placeholder(name)` values: compiled once, run on
 * any handle, failures wrapped as the builder's are ("Failed query: …", the driver's error as the cause).
 * The builder's queries can be parts of it (`(q) => sql\`with x as (${q.insert(…)…}) select …\``).
 */
export function preparedSql<Row extends unknown[]>(
  query: SQL | ((q: Q) => SQL),
): Prepared<PreparedRows<Row>> {
  // A function receives a query handle to build parts with the builder (e.g. an upsert inside a `with`).
  const compiled = dialect.sqlToQuery(typeof query === 'function' ? query(templateQ) : query);
  return prepared((q) => {
    const { session } = q as unknown as {
      session: { prepareQuery(...a: unknown[]): PreparedRows<Row> };
    };
    return session.prepareQuery(compiled, undefined, 'all', true);
  });
}

/** A `prepared` query run synchronously on one better-sqlite3 connection (`sqliteSync`). */
export interface SyncQuery<All, Get> {
  all(values?: Record<string, unknown>): All;
  get(values?: Record<string, unknown>): Get;
}

/**
 * A `prepared` query, synchronously on a better-sqlite3 connection: the same compiled SQL, parameters and
 * result mapping as `prepared(…)(h)`, without a promise. Only for code that answers synchronously by
 * design (Discover on SQLite, decisions 033, 034 and 057); everything else awaits `h.q`.
 */
export function sqliteSync<T extends PreparedQueryConfig>(
  conn: Database.Database,
  query: Prepared<SQLitePreparedQuery<T>>,
): SyncQuery<T['all'], T['get']> {
  const template = query.template;
  const { sql: text, params } = template.getQuery();
  // Its own statement, always in raw mode (rows as arrays, mapped by the template as drizzle does).
  const stmt = conn.prepare(text).raw(true);
  return {
    all: (values = {}) => template.mapAllResult(stmt.all(...fillPlaceholders(params, values))),
    get: (values = {}) => template.mapGetResult(stmt.get(...fillPlaceholders(params, values))),
  };
}

/** The value type of a one-field selection's rows (`{ id: string }` → `string`). */
type FieldOf<Row> = Row extends Record<string, infer V> ? V : never;

/**
 * `sqliteSync` for a select of one column, as SQLite returns it — no row objects, no decoding (better-sqlite3's
 * `pluck`): for text and integer columns on a per-request path (a member's joined campaign ids); a boolean
 * column would come back as 0/1.
 */
export function sqliteSyncColumn<T extends PreparedQueryConfig>(
  conn: Database.Database,
  query: Prepared<SQLitePreparedQuery<T>>,
): SyncQuery<FieldOf<NonNullable<T['get']>>[], FieldOf<NonNullable<T['get']>> | undefined> {
  const { sql: text, params } = query.template.getQuery();
  const stmt = conn.prepare(text);
  if (stmt.columns().length !== 1) throw new Error(`sqliteSyncColumn: one column, not ${text}`);
  stmt.pluck();
  return {
    all: (values = {}) => stmt.all(...fillPlaceholders(params, values)) as FieldOf<NonNullable<T['get']>>[],
    get: (values = {}) =>
      stmt.get(...fillPlaceholders(params, values)) as FieldOf<NonNullable<T['get']>> | undefined,
  };
}

/** A prepared query (see `prepared`) read by one key or by a list of keys. */
interface KeyedRead<R> {
  get(values: { key: string }): Promise<R | undefined>;
}
interface KeysRead<R> {
  all(values: { keys: string[] }): Promise<(R & { key: string })[]>;
}

/** Most keys one batched statement carries (more wait for the next statement of the same turn). */
const BATCH_LIMIT = 500;

/**
 * One row per key, read for many concurrent requests at once (issue 33 item 2). On PostgreSQL every key
 * asked for on the pool (`store.read`) within one event-loop turn is read by ONE statement, `many`
 * (`where key = any(?)`, bound to `{ keys }`, each row carrying its `key`), in the turn's check phase:
 * under load the requests a web process takes in at once share one round trip instead of one each.
 * Each caller gets its own key's row (undefined when there is none) or the statement's error. A read
 * inside a transaction (a transaction handle) is never batched: it runs `one` (`{ key }`) on its own
 * client, seeing its own writes. SQLite runs `one` at once: its reads are in-process calls, nothing to
 * save. What a batched read sees is what `one` would see a turn later (committed data, READ COMMITTED).
 */
export function batchedByKey<R>(
  one: (h: Kinded) => KeyedRead<R>,
  many: (h: Kinded) => KeysRead<R>,
): (h: Kinded, key: string) => Promise<R | undefined> {
  interface Waiting {
    resolve: (row: R | undefined) => void;
    reject: (err: unknown) => void;
  }
  const batches = new WeakMap<Q, Map<string, Waiting[]>>();
  const flush = (h: Kinded, waiting: Map<string, Waiting[]>) => {
    batches.delete(h.q);
    const keys = [...waiting.keys()];
    for (let i = 0; i < keys.length; i += BATCH_LIMIT) {
      const slice = keys.slice(i, i + BATCH_LIMIT);
      many(h)
        .all({ keys: slice })
        .then(
          (rows) => {
            const byKey = new Map(rows.map((row) => [row.key, row]));
            for (const key of slice) {
              const row = byKey.get(key);
              let found: R | undefined;
              if (row) {
                const { key: _key, ...rest } = row;
                found = rest as R;
              }
              for (const w of waiting.get(key)!) w.resolve(found);
            }
          },
          (err: unknown) => {
            for (const key of slice) for (const w of waiting.get(key)!) w.reject(err);
          },
        );
    }
  };
  return (h, key) => {
    if (h.kind !== 'pg' || 'transaction' in h) return one(h).get({ key });
    let waiting = batches.get(h.q);
    if (!waiting) {
      const batch = new Map<string, Waiting[]>();
      waiting = batch;
      batches.set(h.q, batch);
      setImmediate(() => flush(h, batch));
    }
    const batch = waiting;
    return new Promise<R | undefined>((resolve, reject) => {
      const list = batch.get(key);
      if (list) list.push({ resolve, reject });
      else batch.set(key, [{ resolve, reject }]);
    });
  };
}

/** The query handle on a better-sqlite3 connection. */
export function sqliteQueries(conn: Database.Database): Q {
  return queryHandle(sqliteExec(conn));
}

/** The query handle on the PostgreSQL pool or on one transaction's client. */
export function pgQueries(client: pg.Pool | pg.PoolClient): Q {
  return queryHandle(pgExec(client));
}

// ---------------------------------------------------------------- helpers for repositories

/** Rows a `.run()` changed (SQLite `changes`, PostgreSQL `rowCount`). */
export function changes(result: SqliteRemoteResult): number {
  return (result as { changes?: number }).changes ?? 0;
}

/** A raw SQL query's rows as objects keyed by the column names it selects (for what the builder lacks). */
export async function rawAll<T>(h: Kinded, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (await (h.q as WithExec)[EXEC](text, params, 'all', true)).rows as T[];
}

/** The first row of `rawAll`, or undefined. */
export async function rawGet<T>(h: Kinded, query: SQL): Promise<T | undefined> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (await (h.q as WithExec)[EXEC](text, params, 'get', true)).rows as T | undefined;
}

interface Preparable<T> {
  prepare(): { get(): Promise<T>; all(): Promise<T[]> } & object;
}

function lockingPrepared<T>(h: Kinded, query: Preparable<T>) {
  const prepared = query.prepare();
  if (h.kind === 'pg') {
    // PostgreSQL locks the rows it reads until the transaction ends. SQLite needs nothing: its
    // transactions are BEGIN IMMEDIATE under the store's mutex, so no other writer runs meanwhile.
    const p = prepared as unknown as { query: { sql: string; params: unknown[] } };
    p.query = { ...p.query, sql: `${p.query.sql} for update` };
  }
  return prepared;
}

/** A select's first row, locked until the transaction ends (PostgreSQL `FOR UPDATE`). */
export function getForUpdate<T>(h: Kinded, query: Preparable<T>): Promise<T> {
  return lockingPrepared(h, query).get();
}

/** A select's rows, locked until the transaction ends (PostgreSQL `FOR UPDATE`). */
export function allForUpdate<T>(h: Kinded, query: Preparable<T>): Promise<T[]> {
  return lockingPrepared(h, query).all();
}

/** The larger of two values: SQLite's two-argument `max`, PostgreSQL's `greatest`. */
export function greatest(h: Kinded, a: unknown, b: unknown): SQL {
  return h.kind === 'pg' ? sqlTag`greatest(${a}, ${b})` : sqlTag`max(${a}, ${b})`;
}

/** A fragment spelled differently on each engine (keep it to a function call or a cast). */
export function fragment(h: Kinded, forms: { sqlite: SQL; pg: SQL }): SQL {
  return h.kind === 'pg' ? forms.pg : forms.sqlite;
}

/** A foreign key violated (SQLite `SQLITE_CONSTRAINT_FOREIGNKEY`, PostgreSQL 23503), also when wrapped. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = driverErrorCode(err);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
