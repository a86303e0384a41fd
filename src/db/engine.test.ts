import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { users } from './schema.ts';
import { users as pgUsers } from './schema.pg.ts';
import { AsyncMutex, type DbHandle, type SqliteStore } from './engine.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { readMetric } from '../metrics.ts';
import { pgTestsEnabled } from '../test/pg.ts';

// The DataStore port on both engines (decision 028): commit, rollback, savepoints, and on SQLite the
// async mutex that keeps interleaved transactions apart on the one writer connection.

const pgEnabled = await pgTestsEnabled();

let n = 0;
function newUser(name: string) {
  n += 1;
  return { discordId: `52000000000${String(n).padStart(6, '0')}`, discordUsername: name, createdAt: 1 };
}

async function insert(h: DbHandle, name: string): Promise<string> {
  if (h.kind === 'sqlite') return h.db.insert(users).values(newUser(name)).returning().get().id;
  const [row] = await h.db.insert(pgUsers).values(newUser(name)).returning();
  return row!.id;
}

async function exists(h: DbHandle, name: string): Promise<boolean> {
  if (h.kind === 'sqlite')
    return h.db.select().from(users).where(eq(users.discordUsername, name)).get() !== undefined;
  return (await h.db.select().from(pgUsers).where(eq(pgUsers.discordUsername, name))).length > 0;
}

async function coinsOf(h: DbHandle, id: string): Promise<number> {
  if (h.kind === 'sqlite') return h.db.select().from(users).where(eq(users.id, id)).get()!.coins;
  const [row] = await h.db.select().from(pgUsers).where(eq(pgUsers.id, id));
  return row!.coins;
}

async function setCoins(h: DbHandle, id: string, coins: number): Promise<void> {
  if (h.kind === 'sqlite') h.db.update(users).set({ coins }).where(eq(users.id, id)).run();
  else await h.db.update(pgUsers).set({ coins }).where(eq(pgUsers.id, id));
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe.each(ENGINES)('DataStore on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    it('commits what the body wrote when it resolves, and returns its value', async () => {
      const id = await t.store.transaction((tx) => insert(tx, 'commit-1'));
      expect(typeof id).toBe('string');
      expect(await exists(t.store.read, 'commit-1')).toBe(true);
    });

    it('rolls back everything the body wrote when it throws, and rethrows', async () => {
      const attempt = t.store.transaction(async (tx) => {
        await insert(tx, 'rollback-1');
        await insert(tx, 'rollback-2');
        throw new Error('refused');
      });
      await expect(attempt).rejects.toThrow('refused');
      expect(await exists(t.store.read, 'rollback-1')).toBe(false);
      expect(await exists(t.store.read, 'rollback-2')).toBe(false);
      // The store is usable afterwards.
      await t.store.transaction((tx) => insert(tx, 'after-rollback'));
      expect(await exists(t.store.read, 'after-rollback')).toBe(true);
    });

    it('nests as a savepoint: an inner throw undoes only the inner writes', async () => {
      await t.store.transaction(async (tx) => {
        await insert(tx, 'outer-1');
        await expect(
          tx.transaction(async (inner) => {
            await insert(inner, 'inner-1');
            throw new Error('inner refused');
          }),
        ).rejects.toThrow('inner refused');
        await tx.transaction((inner) => insert(inner, 'inner-2'));
        // The outer transaction sees its own writes and the released savepoint's.
        expect(await exists(tx, 'outer-1')).toBe(true);
        expect(await exists(tx, 'inner-1')).toBe(false);
      });
      expect(await exists(t.store.read, 'outer-1')).toBe(true);
      expect(await exists(t.store.read, 'inner-1')).toBe(false);
      expect(await exists(t.store.read, 'inner-2')).toBe(true);
    });

    it('rolls a released savepoint back with its outer transaction', async () => {
      await expect(
        t.store.transaction(async (tx) => {
          await tx.transaction((inner) => insert(inner, 'released-1'));
          throw new Error('outer refused');
        }),
      ).rejects.toThrow('outer refused');
      expect(await exists(t.store.read, 'released-1')).toBe(false);
    });

    it('groupTransaction: each body is a transaction to its caller; one that throws rolls back alone', async () => {
      const results = await Promise.allSettled([
        t.store.groupTransaction((tx) => insert(tx, 'group-ok-1')),
        t.store.groupTransaction(async (tx) => {
          await insert(tx, 'group-refused');
          throw new Error('refused');
        }),
        t.store.groupTransaction(async (tx) => {
          await tx.transaction((inner) => insert(inner, 'group-nested'));
          return insert(tx, 'group-ok-2');
        }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
      expect(await exists(t.store.read, 'group-ok-1')).toBe(true);
      expect(await exists(t.store.read, 'group-refused')).toBe(false);
      expect(await exists(t.store.read, 'group-nested')).toBe(true);
      expect(await exists(t.store.read, 'group-ok-2')).toBe(true);
    });

    it('reads outside a transaction never see a transaction in progress', async () => {
      const gate = deferred();
      const inserted = deferred();
      const open = t.store.transaction(async (tx) => {
        await insert(tx, 'uncommitted-1');
        inserted.resolve();
        await gate.promise; // a real wait: other tasks run while the transaction is open
      });
      await inserted.promise;
      expect(await exists(t.store.read, 'uncommitted-1')).toBe(false);
      gate.resolve();
      await open;
      expect(await exists(t.store.read, 'uncommitted-1')).toBe(true);
    });
  });
});

describe('SQLite store: the async mutex', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await createTestStore('sqlite');
  });
  afterAll(() => t?.dispose());

  it('runs a second transaction only after the first has committed, so it never sees its uncommitted writes', async () => {
    const gate = deferred();
    const firstInserted = deferred();
    const seen: string[] = [];
    const first = t.store.transaction(async (tx) => {
      await insert(tx, 'mutex-a');
      seen.push('first wrote');
      firstInserted.resolve();
      await gate.promise;
      seen.push('first commits');
    });
    await firstInserted.promise;
    const second = t.store.transaction(async (tx) => {
      seen.push(`second sees a: ${await exists(tx, 'mutex-a')}`);
      await insert(tx, 'mutex-b');
    });
    // A write that is not part of either would be one too: it waits as well.
    const third = t.store.transaction((tx) => insert(tx, 'mutex-c'));
    // Let every queued task run: the second and third are still waiting for the first.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['first wrote']);
    expect(await exists(t.store.read, 'mutex-b')).toBe(false);
    gate.resolve();
    await Promise.all([first, second, third]);
    expect(seen).toEqual(['first wrote', 'first commits', 'second sees a: true']);
    expect(await exists(t.store.read, 'mutex-c')).toBe(true);
  });

  it('keeps a read-modify-write across awaits correct when 50 run at once', async () => {
    const id = await t.store.transaction((tx) => insert(tx, 'counter'));
    await Promise.all(
      Array.from({ length: 50 }, () =>
        t.store.transaction(async (tx) => {
          const coins = await coinsOf(tx, id);
          await new Promise((resolve) => setImmediate(resolve)); // another request's turn
          await setCoins(tx, id, coins + 1);
        }),
      ),
    );
    expect(await coinsOf(t.store.read, id)).toBe(50);
  });

  it('does not let a failed transaction stop the ones queued behind it', async () => {
    const results = await Promise.allSettled([
      t.store.transaction(async (tx) => {
        await insert(tx, 'queued-fail');
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('no');
      }),
      t.store.transaction((tx) => insert(tx, 'queued-ok')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(await exists(t.store.read, 'queued-fail')).toBe(false);
    expect(await exists(t.store.read, 'queued-ok')).toBe(true);
    expect((t.store as SqliteStore).busy).toBe(false);
  });

  it('group commit: the bodies of one turn share one transaction, and each caller hears only after its COMMIT', async () => {
    const store = t.store as SqliteStore;
    const seenAtAnswer: boolean[] = [];
    const names = Array.from({ length: 6 }, (_, i) => `grouped-${i}`);
    const counted = () =>
      Promise.all([
        readMetric('coinsync_store_groups_total', { outcome: 'committed' }),
        readMetric('coinsync_store_group_bodies_total'),
      ]);
    const [groupsBefore, bodiesBefore] = await counted();
    const answered = Promise.all(
      names.map((name) =>
        store
          .groupTransaction((tx) => insert(tx, name))
          // Checked through the read-only connection, which sees committed data only.
          .then(async () => seenAtAnswer.push(await exists(store.read, name))),
      ),
    );
    // Queued, not yet run: the store counts as busy.
    expect(store.busy).toBe(true);
    await answered;
    expect(store.busy).toBe(false);
    expect(store.groupSizes.at(-1)).toBe(names.length);
    expect(seenAtAnswer).toEqual(names.map(() => true));
    // Operators see the mean group on /metrics. (Other files' stores share the registry: deltas.)
    const [groupsAfter, bodiesAfter] = await counted();
    expect(groupsAfter - groupsBefore).toBe(1);
    expect(bodiesAfter - bodiesBefore).toBe(names.length);
    // A body of a later turn is a group of its own.
    await store.groupTransaction((tx) => insert(tx, 'grouped-later'));
    expect(store.groupSizes.at(-1)).toBe(1);
  });

  it("group commit: the bodies run in no caller's async context; each caller goes on in its own", async () => {
    const store = t.store as SqliteStore;
    const scope = new AsyncLocalStorage<string>();
    const callers = ['first', 'second'].map((name) =>
      scope.run(name, async () => {
        const inBody = await store.groupTransaction(() => Promise.resolve(scope.getStore()));
        return { inBody, after: scope.getStore() };
      }),
    );
    expect(await Promise.all(callers)).toEqual([
      { inBody: undefined, after: 'first' },
      { inBody: undefined, after: 'second' },
    ]);
  });

  it('group commit: a transaction lost before its COMMIT (SQLite ended it) acknowledges none of the group', async () => {
    const store = t.store as SqliteStore;
    const results = await Promise.allSettled([
      store.groupTransaction((tx) => insert(tx, 'lost-1')),
      store.groupTransaction(async (tx) => {
        await insert(tx, 'lost-2');
        // What SQLite does by itself on a full disk or an I/O error: the whole transaction is gone.
        store.writer.exec('ROLLBACK');
        throw new Error('disk I/O error');
      }),
      store.groupTransaction((tx) => insert(tx, 'lost-3')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const name of ['lost-1', 'lost-2', 'lost-3']) expect(await exists(store.read, name)).toBe(false);
    expect(store.writer.inTransaction).toBe(false);
    await store.groupTransaction((tx) => insert(tx, 'after-lost'));
    expect(await exists(store.read, 'after-lost')).toBe(true);
  });

  it('group commit: a COMMIT that fails fails every caller of the group and keeps nothing', async () => {
    const store = t.store as SqliteStore;
    const results = await Promise.allSettled([
      store.groupTransaction((tx) => insert(tx, 'uncommitted-group-1')),
      store.groupTransaction(() => {
        // A foreign-key violation checked only at COMMIT.
        store.writer.pragma('defer_foreign_keys = ON');
        store.writer
          .prepare(
            "INSERT INTO transactions (id, user_id, amount, type, description, created_at) VALUES ('orphan', 'no such user', 1, 'hourly', 'x', 1)",
          )
          .run();
        return Promise.resolve();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await exists(store.read, 'uncommitted-group-1')).toBe(false);
    expect(store.writer.inTransaction).toBe(false);
    await store.groupTransaction((tx) => insert(tx, 'after-failed-commit'));
    expect(await exists(store.read, 'after-failed-commit')).toBe(true);
  });

  it('reads through a read-only connection', () => {
    const read = t.store.read;
    if (read.kind !== 'sqlite') throw new Error('expected SQLite');
    expect(() => read.db.$client.exec('DELETE FROM users')).toThrow(/readonly/);
    expect(read.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM users`).n).toBeGreaterThan(0);
  });
});

describe('AsyncMutex', () => {
  it('serves waiters in arrival order', async () => {
    const mutex = new AsyncMutex();
    const order: number[] = [];
    const gate = deferred();
    const first = mutex.run(async () => {
      await gate.promise;
      order.push(1);
    });
    const rest = [2, 3, 4].map((i) => mutex.run(() => Promise.resolve(void order.push(i))));
    expect(mutex.locked).toBe(true);
    gate.resolve();
    await Promise.all([first, ...rest]);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(mutex.locked).toBe(false);
  });
});
