import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { users } from './schema.ts';
import { batchedByKey, prepared, type Kinded } from './query.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';

// `batchedByKey` (src/db/query.ts, issue 33 item 2): on PostgreSQL the lookups one event-loop turn asks
// of the pool are one statement; each caller still gets exactly its own key's row. Inside a transaction
// and on SQLite every lookup is its own statement.

const pgEnabled = await pgTestsEnabled();

let n = 0;
const newUser = (name: string) => {
  n += 1;
  return { discordId: `53000000000${String(n).padStart(6, '0')}`, discordUsername: name, createdAt: n };
};

const ONE = prepared((q) =>
  q
    .select({ name: users.discordUsername })
    .from(users)
    .where(eq(users.id, sql.placeholder('key')))
    .prepare(),
);
const MANY = prepared((q) =>
  q
    .select({ key: users.id, name: users.discordUsername })
    .from(users)
    .where(sql`${users.id} = any(${sql.placeholder('keys')})`)
    .prepare(),
);

/** A lookup whose statements are counted: `one` and `many` calls, and the keys each `many` carried. */
function countedLookup() {
  const calls = { one: 0, many: [] as number[] };
  const lookup = batchedByKey<{ name: string }>(
    (h) => {
      calls.one += 1;
      return ONE(h);
    },
    (h) => {
      const query = MANY(h);
      return {
        all: (values: { keys: string[] }) => {
          calls.many.push(values.keys.length);
          return query.all(values);
        },
      };
    },
  );
  return { calls, lookup };
}

describe.each(ENGINES)('batchedByKey on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    const ids: string[] = [];
    beforeAll(async () => {
      t = await createTestStore(kind);
      await t.store.transaction(async (tx) => {
        for (const name of ['ann', 'bob', 'cat'])
          ids.push((await tx.q.insert(users).values(newUser(name)).returning({ id: users.id }).get()).id);
      });
    });
    afterAll(() => t?.dispose());

    it('answers each caller with its own key, the same key twice, and undefined for no row', async () => {
      const { calls, lookup } = countedLookup();
      const read = t.store.read as Kinded;
      const answers = await Promise.all([
        lookup(read, ids[2]!),
        lookup(read, ids[0]!),
        lookup(read, 'no-such-user'),
        lookup(read, ids[1]!),
        lookup(read, ids[0]!),
      ]);
      expect(answers).toEqual([
        { name: 'cat' },
        { name: 'ann' },
        undefined,
        { name: 'bob' },
        { name: 'ann' },
      ]);
      if (kind === 'pg') {
        // One statement for the turn, each distinct key once.
        expect(calls).toEqual({ one: 0, many: [4] });
      } else {
        expect(calls).toEqual({ one: 5, many: [] });
      }
    });

    it('starts a new statement for the lookups of a later turn', async () => {
      const { calls, lookup } = countedLookup();
      const read = t.store.read as Kinded;
      expect(await lookup(read, ids[0]!)).toEqual({ name: 'ann' });
      expect(await lookup(read, ids[1]!)).toEqual({ name: 'bob' });
      expect(calls.many.length + calls.one).toBe(2);
    });

    it("inside a transaction reads on its own client, seeing the transaction's writes", async () => {
      const { calls, lookup } = countedLookup();
      const seen = await t.store.transaction(async (tx) => {
        const id = (await tx.q.insert(users).values(newUser('dan')).returning({ id: users.id }).get()).id;
        return Promise.all([lookup(tx, id), lookup(tx, ids[1]!)]);
      });
      expect(seen).toEqual([{ name: 'dan' }, { name: 'bob' }]);
      expect(calls).toEqual({ one: 2, many: [] });
    });

    it.runIf(kind === 'pg')('gives every caller of a failed statement its error', async () => {
      const failing = batchedByKey<{ name: string }>(ONE, () => ({
        all: () => Promise.reject(new Error('database gone')),
      }));
      const read = t.store.read as Kinded;
      const settled = await Promise.allSettled([failing(read, ids[0]!), failing(read, ids[1]!)]);
      expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
      expect((settled[0] as PromiseRejectedResult).reason).toEqual(new Error('database gone'));
    });
  });
});
