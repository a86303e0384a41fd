import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database_ } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { createSqliteStore, type DataStore, type EngineKind } from '../db/engine.ts';
import { createPgStore } from '../db/pg-store.ts';
import { createPgTestDatabase } from './pg.ts';

/** A fresh migrated SQLite file for one test file. */
export function createTestDatabase(): Database_ & { path: string; dispose(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-db-'));
  const file = path.join(dir, 'test.db');
  const database = openDatabase(file);
  return {
    ...database,
    path: file,
    dispose() {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** Factory: a user with a zero balance (credit through the ledger to give coins). */
export function createUser(database: Database_, overrides: Partial<typeof users.$inferInsert> = {}) {
  counter += 1;
  return database.db
    .insert(users)
    .values({
      discordId: `3000000000000${String(counter).padStart(5, '0')}`,
      discordUsername: `user${counter}`,
      createdAt: Date.UTC(2026, 0, 1),
      ...overrides,
    })
    .returning()
    .get();
}

// ---------------------------------------------------------------- both engines (decision 028)

/** The engine converted suites run on: TEST_DB=sqlite (default) or TEST_DB=pg. */
export function testEngine(): EngineKind {
  const value = process.env.TEST_DB ?? 'sqlite';
  if (value !== 'sqlite' && value !== 'pg') throw new Error(`TEST_DB must be sqlite or pg, not ${value}`);
  return value;
}

export interface TestStore {
  kind: EngineKind;
  store: DataStore;
  dispose(): Promise<void>;
}

/**
 * A fresh migrated database of either engine behind a DataStore (SQLite: a temp file with its
 * read-only reader; PostgreSQL: a new database from PG_TEST_URL, see src/test/pg.ts). Contract tests:
 *
 *   describe.each(ENGINES)('%s', (kind) => {
 *     let t: TestStore;
 *     beforeAll(async () => (t = await createTestStore(kind)));
 *     afterAll(() => t.dispose());
 *   });
 *
 * with `describe.skipIf(kind === 'pg' && !pgEnabled)` around the PostgreSQL run (pgTestsEnabled()).
 */
export async function createTestStore(kind: EngineKind = testEngine()): Promise<TestStore> {
  if (kind === 'sqlite') {
    const database = createTestDatabase();
    const store = createSqliteStore(database, database.path);
    return {
      kind,
      store,
      async dispose() {
        await store.close();
        database.dispose();
      },
    };
  }
  const database = await createPgTestDatabase();
  const store = createPgStore(database);
  // dispose() closes the pool (store.close) and drops the database.
  return { kind, store, dispose: () => database.dispose() };
}

/** Both engines, for `describe.each(ENGINES)`. */
export const ENGINES: readonly EngineKind[] = ['sqlite', 'pg'];
