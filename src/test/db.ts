import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database_ } from '../db/client.ts';
import { users } from '../db/schema.ts';

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
