import { MIGRATIONS_DIR } from '../paths.ts';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import * as schema from './schema.ts';
import { assertDatabaseIntact, DatabaseIntegrityError, isCorruptionError } from './integrity.ts';
import { errorMessage } from '../ops/error-text.ts';

export { DatabaseIntegrityError } from './integrity.ts';

/** The better-sqlite3 connection (the store's writer; synchronous checks such as the backup's take it). */
export type Connection = Database.Database;
/** The drizzle handle; `$client` is its connection (drizzle's public field). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Connection };
/** The handle given to code running inside `db.transaction(...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database_ {
  db: Db;
  sqlite: Database.Database;
  close(): void;
}

const MIGRATIONS = MIGRATIONS_DIR;

/**
 * Opens (creating if needed), checks and migrates the SQLite database at `path`. A damaged file
 * (PRAGMA quick_check fails, or SQLite calls it corrupt or not a database) throws
 * DatabaseIntegrityError: the process refuses to start rather than serve from it.
 */
export function openDatabase(path: string): Database_ {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    assertDatabaseIntact(sqlite, path);
    const db = drizzle(sqlite, { schema });
    migrate(db, { migrationsFolder: MIGRATIONS });
    return { db, sqlite, close: () => sqlite.close() };
  } catch (err) {
    sqlite.close();
    if (isCorruptionError(err)) throw new DatabaseIntegrityError(path, [errorMessage(err)]);
    throw err;
  }
}
