import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { users } from './schema.ts';
import type { PgStore } from './engine.ts';
import { createPgStore } from './pg-store.ts';
import { createPgTestDatabase, pgTestsEnabled, type PgTestDatabase } from '../test/pg.ts';

// PostgreSQL transactions with BEGIN sent together with the first statement and the pool's clients in
// pipeline mode (src/db/pg-client.ts, issue 33 item 2): statements a transaction issues together share
// a round trip, and everything still commits or rolls back as one.

const pgEnabled = await pgTestsEnabled();

let n = 0;
const newUser = (name: string) => {
  n += 1;
  return { discordId: `54000000000${String(n).padStart(6, '0')}`, discordUsername: name, createdAt: n };
};

describe.skipIf(!pgEnabled)('PostgreSQL transactions, pipelined', () => {
  let database: PgTestDatabase;
  let store: PgStore;
  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 2 });
    store = createPgStore(database);
  });
  afterAll(() => database?.dispose());

  const names = async () =>
    (await store.read.q.select({ name: users.discordUsername }).from(users).all()).map((r) => r.name).sort();

  it('runs statements issued together in order, in one transaction', async () => {
    const [a, b] = await store.transaction((tx) =>
      Promise.all([
        tx.q.insert(users).values(newUser('p1')).returning({ id: users.id }).get(),
        tx.q.insert(users).values(newUser('p2')).returning({ id: users.id }).get(),
      ]),
    );
    const status = await store.transaction(async (tx) => {
      const [row] = await Promise.all([
        tx.q
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .get(),
        tx.q.update(users).set({ coins: 5 }).where(eq(users.id, a.id)).run(),
      ]);
      return row;
    });
    expect(status?.n).toBe(2);
    expect(a.id).not.toBe(b.id);
    expect(await names()).toEqual(['p1', 'p2']);
  });

  it('rolls back everything when a statement of a pipelined batch fails, and the pool stays usable', async () => {
    const before = await names();
    await expect(
      store.transaction((tx) =>
        Promise.all([
          tx.q.insert(users).values(newUser('gone1')).run(),
          // Same Discord id twice: the second insert violates the unique index.
          tx.q
            .insert(users)
            .values({ ...newUser('gone2'), discordId: '54000000000999999' })
            .run(),
          tx.q
            .insert(users)
            .values({ ...newUser('gone3'), discordId: '54000000000999999' })
            .run(),
          tx.q.insert(users).values(newUser('gone4')).run(),
        ]),
      ),
    ).rejects.toThrow();
    expect(await names()).toEqual(before);
    // Every pooled client is usable again (max 2: more transactions than clients).
    await Promise.all(
      ['ok1', 'ok2', 'ok3', 'ok4'].map((name) =>
        store.transaction((tx) => tx.q.insert(users).values(newUser(name)).run()),
      ),
    );
    expect(await names()).toEqual([...before, 'ok1', 'ok2', 'ok3', 'ok4'].sort());
  });

  it('rolls back when the body throws before any statement, and savepoints still roll back alone', async () => {
    const before = await names();
    await expect(
      store.transaction(() => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await store.transaction(async (tx) => {
      await tx.q.insert(users).values(newUser('kept')).run();
      await expect(
        tx.transaction(async (inner) => {
          await inner.q.insert(users).values(newUser('undone')).run();
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
    });
    expect(await names()).toEqual([...before, 'kept'].sort());
  });
});
