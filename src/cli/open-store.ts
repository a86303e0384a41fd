import type { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createSqliteStore, type DataStore } from '../db/engine.ts';

/**
 * The operator CLIs' store (ops.ts, tasks.ts): DATABASE_URL's PostgreSQL with one connection, else the
 * SQLite file at DATABASE_PATH; `close()` also closes the SQLite file.
 */
export async function openCliStore(database: ReturnType<typeof loadConfig>['database']): Promise<DataStore> {
  if (database.kind === 'pg') {
    const { openPgStore } = await import('../db/pg-store.ts');
    return openPgStore(database.url, { max: 1 });
  }
  const sqlite = openDatabase(database.path);
  const store = createSqliteStore(sqlite, database.path);
  return {
    ...store,
    async close() {
      await store.close();
      sqlite.close();
    },
  };
}
