import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Worker } from 'node:worker_threads';
import { eq, sql } from 'drizzle-orm';
import { transactions } from '../db/schema.ts';
import { transactions as pgTransactions } from '../db/schema.pg.ts';
import { createSqliteStore, type DataStore, type SqliteStore } from '../db/engine.ts';
import { createTestDatabase, createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { insertUser } from '../test/factories.ts';
import { createPgTestDatabase, pgTestsEnabled, type PgTestDatabase } from '../test/pg.ts';
import { checkLedgerRace, runLedgerRace } from '../test/ledger-pg-race.ts';
import { AppError } from '../shared/errors.ts';
import {
  assertLedgerInvariant,
  assertLedgerInvariantSync,
  credit,
  debit,
  findLedgerMismatches,
  findLedgerMismatchesSync,
  getBalance,
  type LedgerEntry,
} from './ledger.ts';

// The ledger (decisions 001, 028, 056): one definition, held to the same cases on both engines, plus
// each engine's own race (SQLite: separate connections on OS threads; PostgreSQL: several processes).

const now = Date.UTC(2026, 0, 1);
const pgEnabled = await pgTestsEnabled();

/** A raw SQL write outside the ledger, in a store transaction (to break or mend the invariant on purpose). */
async function execOutsideLedger(store: DataStore, statement: ReturnType<typeof sql>): Promise<void> {
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.run(statement);
    else await tx.db.execute(statement);
  });
}

describe.each(ENGINES)('ledger on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    const amountsOf = async (userId: string): Promise<number[]> => {
      const h = t.store.read;
      const rows =
        h.kind === 'sqlite'
          ? h.db.select().from(transactions).where(eq(transactions.userId, userId)).all()
          : await h.db.select().from(pgTransactions).where(eq(pgTransactions.userId, userId));
      return rows.map((r) => r.amount).sort((a, b) => a - b);
    };

    it('credits and debits write one transaction row each, signed', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 1250, type: 'purchase', description: 'Pack', now });
      const result = await debit(t.store, {
        userId: user.id,
        cents: 300,
        type: 'campaign',
        description: 'Campaign',
        now,
      });
      expect(result.balance).toBe(950);
      expect(await getBalance(t.store, user.id)).toBe(950);
      expect(await amountsOf(user.id)).toEqual([-300, 1250]);
      expect(await findLedgerMismatches(t.store)).toEqual([]);
    });

    it('refuses a debit larger than the balance with insufficient_coins (402) and writes nothing', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 500, type: 'welcome', now });
      const attempt = () => debit(t.store, { userId: user.id, cents: 501, type: 'campaign', now });
      await expect(attempt()).rejects.toBeInstanceOf(AppError);
      await expect(attempt()).rejects.toMatchObject({ code: 'insufficient_coins' });
      await expect(attempt()).rejects.toThrow(/you need 5\.01 coins and you have 5\.00/);
      expect(await getBalance(t.store, user.id)).toBe(500);
      expect(await amountsOf(user.id)).toEqual([500]);
    });

    it('lets only allowNegative debits (penalties, chargebacks) take a balance below zero', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 100, type: 'hourly', now });
      await debit(t.store, { userId: user.id, cents: 200, type: 'leave_penalty', allowNegative: true, now });
      expect(await getBalance(t.store, user.id)).toBe(-100);
      await expect(debit(t.store, { userId: user.id, cents: 1, type: 'campaign', now })).rejects.toThrow(
        /Insufficient/,
      );
      expect(await findLedgerMismatches(t.store)).toEqual([]);
      await assertLedgerInvariant(t.store);
    });

    it('makes keyed credits exactly-once and refuses a reused debit key with conflict', async () => {
      const user = await insertUser(t.store);
      const entry: LedgerEntry = {
        userId: user.id,
        cents: 500,
        type: 'welcome',
        idempotencyKey: `welcome:${user.id}`,
        now,
      };
      expect(await credit(t.store, entry)).not.toBeNull();
      expect(await credit(t.store, entry)).toBeNull();
      expect(await getBalance(t.store, user.id)).toBe(500);
      const spend: LedgerEntry = {
        userId: user.id,
        cents: 100,
        type: 'promote',
        idempotencyKey: `promote:${user.id}`,
        now,
      };
      await debit(t.store, spend);
      await expect(debit(t.store, spend)).rejects.toMatchObject({ code: 'conflict' });
      expect(await getBalance(t.store, user.id)).toBe(400);
      expect(await amountsOf(user.id)).toEqual([-100, 500]);
      await assertLedgerInvariant(t.store);
    });

    it('rolls back the balance change when a credit would overflow decimal(10,2)', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 9_999_999_000, type: 'purchase', now });
      await expect(credit(t.store, { userId: user.id, cents: 1000, type: 'purchase', now })).rejects.toThrow(
        /maximum/,
      );
      expect(await getBalance(t.store, user.id)).toBe(9_999_999_000);
      expect(await amountsOf(user.id)).toHaveLength(1);
      expect(await findLedgerMismatches(t.store)).toEqual([]);
    });

    it('says not_found for an unknown user and rejects non-integer or non-positive amounts', async () => {
      const ghost = crypto.randomUUID();
      await expect(credit(t.store, { userId: ghost, cents: 5, type: 'hourly', now })).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(debit(t.store, { userId: ghost, cents: 5, type: 'campaign', now })).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(getBalance(t.store, ghost)).rejects.toMatchObject({ code: 'not_found' });
      const user = await insertUser(t.store);
      await expect(credit(t.store, { userId: user.id, cents: 1.5, type: 'hourly', now })).rejects.toThrow(
        RangeError,
      );
      await expect(debit(t.store, { userId: user.id, cents: 0, type: 'campaign', now })).rejects.toThrow(
        RangeError,
      );
      await expect(credit(t.store, { userId: user.id, cents: -5, type: 'hourly', now })).rejects.toThrow(
        RangeError,
      );
    });

    it("joins the caller's store transaction: the entry rolls back with it, and a refused entry leaves the caller's work", async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 1000, type: 'purchase', now });
      await expect(
        t.store.transaction(async (tx) => {
          await debit(tx, { userId: user.id, cents: 400, type: 'campaign', now });
          expect(await getBalance(tx, user.id)).toBe(600);
          throw new Error('the caller fails after the debit');
        }),
      ).rejects.toThrow(/caller fails/);
      expect(await getBalance(t.store, user.id)).toBe(1000);
      await t.store.transaction(async (tx) => {
        await expect(
          debit(tx, { userId: user.id, cents: 5000, type: 'campaign', now }),
        ).rejects.toBeInstanceOf(AppError);
        await debit(tx, { userId: user.id, cents: 250, type: 'campaign', now });
      });
      expect(await getBalance(t.store, user.id)).toBe(750);
      expect(await amountsOf(user.id)).toEqual([-250, 1000]);
      await assertLedgerInvariant(t.store);
    });

    it("leaves the caller's transaction whole when a keyed entry finds its key taken inside it", async () => {
      const user = await insertUser(t.store);
      const key = `stripe:${user.id}`;
      await credit(t.store, { userId: user.id, cents: 700, type: 'purchase', idempotencyKey: key, now });
      await t.store.transaction(async (tx) => {
        expect(
          await credit(tx, { userId: user.id, cents: 700, type: 'purchase', idempotencyKey: key, now }),
        ).toBeNull();
        expect(await getBalance(tx, user.id)).toBe(700);
        await debit(tx, {
          userId: user.id,
          cents: 100,
          type: 'promote',
          idempotencyKey: `p:${user.id}`,
          now,
        });
        await expect(
          debit(tx, { userId: user.id, cents: 100, type: 'promote', idempotencyKey: `p:${user.id}`, now }),
        ).rejects.toMatchObject({ code: 'conflict' });
        expect(await getBalance(tx, user.id)).toBe(600);
        await credit(tx, { userId: user.id, cents: 50, type: 'hourly', now });
      });
      expect(await getBalance(t.store, user.id)).toBe(650);
      expect(await amountsOf(user.id)).toEqual([-100, 50, 700]);
      await assertLedgerInvariant(t.store);
    });

    it('undoes the balance change when the transaction row cannot be written', async () => {
      // drizzle wraps the driver's error ("Failed query: …") with it as the cause.
      const REFUSED_BY_TRIGGER = { cause: { message: expect.stringMatching(/refused by the test trigger/) } };
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 1000, type: 'purchase', now });
      // A trigger refuses one transaction row: the insert fails after the balance was changed.
      await execOutsideLedger(
        t.store,
        kind === 'sqlite'
          ? sql`CREATE TRIGGER refuse_entry BEFORE INSERT ON transactions WHEN NEW.description = 'refuse'
                BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END`
          : sql`CREATE FUNCTION refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF NEW.description = 'refuse' THEN RAISE EXCEPTION 'refused by the test trigger'; END IF;
                  RETURN NEW;
                END $$`,
      );
      if (kind === 'pg')
        await execOutsideLedger(
          t.store,
          sql`CREATE TRIGGER refuse_entry BEFORE INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION refuse_entry()`,
        );
      try {
        const refused = {
          userId: user.id,
          cents: 300,
          type: 'campaign',
          description: 'refuse',
          now,
        } as const;
        await expect(credit(t.store, refused)).rejects.toMatchObject(REFUSED_BY_TRIGGER);
        await expect(debit(t.store, refused)).rejects.toMatchObject(REFUSED_BY_TRIGGER);
        expect(await getBalance(t.store, user.id)).toBe(1000);
        // Inside a caller's transaction that catches the failure and goes on: SQLite undid the balance
        // change, so the caller's transaction stays balanced; PostgreSQL aborted it, so it all rolls back.
        const caller = t.store.transaction(async (tx) => {
          await expect(debit(tx, refused)).rejects.toMatchObject(REFUSED_BY_TRIGGER);
          await credit(tx, { userId: user.id, cents: 5, type: 'hourly', now });
        });
        if (kind === 'sqlite') {
          await caller;
          expect(await getBalance(t.store, user.id)).toBe(1005);
        } else {
          await expect(caller).rejects.toThrow();
          expect(await getBalance(t.store, user.id)).toBe(1000);
        }
        await assertLedgerInvariant(t.store);
      } finally {
        await execOutsideLedger(
          t.store,
          sql`DROP TRIGGER refuse_entry${kind === 'pg' ? sql` ON transactions` : sql``}`,
        );
      }
    });

    it('never overdraws when debits race for the last coins', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 1000, type: 'purchase', now });
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () =>
          debit(t.store, { userId: user.id, cents: 300, type: 'campaign', now }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(await getBalance(t.store, user.id)).toBe(100);
      await assertLedgerInvariant(t.store);
    });

    it('detects a balance changed outside the ledger', async () => {
      const user = await insertUser(t.store);
      await execOutsideLedger(t.store, sql`UPDATE users SET coins = 7 WHERE id = ${user.id}`);
      expect(await findLedgerMismatches(t.store)).toEqual([{ userId: user.id, balance: 7, sum: 0 }]);
      await expect(assertLedgerInvariant(t.store)).rejects.toThrow(/invariant broken/);
      if (kind === 'sqlite') {
        // The synchronous check (backup, simulator, harness) runs the same query.
        const store = t.store as SqliteStore;
        expect(findLedgerMismatchesSync(store.writer)).toEqual([{ userId: user.id, balance: 7, sum: 0 }]);
        expect(() => assertLedgerInvariantSync(store.writer)).toThrow(/invariant broken/);
      }
      await execOutsideLedger(t.store, sql`UPDATE users SET coins = 0 WHERE id = ${user.id}`);
      expect(await findLedgerMismatches(t.store)).toEqual([]);
    });

    it('never overdraws and always matches its transactions for any sequence of operations', async () => {
      const op = fc.record({
        kind: fc.constantFrom('credit', 'debit', 'penalty'),
        cents: fc.integer({ min: 1, max: 5000 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: kind === 'sqlite' ? 40 : 15 }), async (ops) => {
          const user = await insertUser(t.store);
          let model = 0;
          for (const { kind: opKind, cents } of ops) {
            if (opKind === 'credit') {
              await credit(t.store, { userId: user.id, cents, type: 'hourly', now });
              model += cents;
            } else if (opKind === 'penalty') {
              await debit(t.store, {
                userId: user.id,
                cents,
                type: 'leave_penalty',
                allowNegative: true,
                now,
              });
              model -= cents;
            } else if (model >= cents) {
              await debit(t.store, { userId: user.id, cents, type: 'campaign', now });
              model -= cents;
            } else {
              await expect(
                debit(t.store, { userId: user.id, cents, type: 'campaign', now }),
              ).rejects.toMatchObject({ code: 'insufficient_coins' });
            }
            expect(await getBalance(t.store, user.id)).toBe(model);
          }
          expect(await findLedgerMismatches(t.store)).toEqual([]);
        }),
        { numRuns: kind === 'sqlite' ? 60 : 15 },
      );
    });
  });
});

describe('ledger on SQLite under concurrency', () => {
  it('lets separate connections race on one balance without overdrawing', async () => {
    const database = createTestDatabase();
    const store = createSqliteStore(database, database.path);
    try {
      const user = await insertUser(store);
      await credit(store, { userId: user.id, cents: 5000, type: 'purchase', now });
      // 4 OS threads, each with its own connection, each trying 10 debits of 2.00 against 50.00.
      const workerCode = `
        const { parentPort, workerData } = require('node:worker_threads');
        const Database = require('better-sqlite3');
        const db = new Database(workerData.file);
        db.pragma('busy_timeout = 5000');
        const debit = db.transaction((id) => {
          const r = db.prepare('UPDATE users SET coins = coins - 200 WHERE id = ? AND coins >= 200').run(id);
          if (r.changes === 0) return false;
          db.prepare("INSERT INTO transactions (id, user_id, amount, type, created_at) VALUES (lower(hex(randomblob(16))), ?, -200, 'campaign', 0)").run(id);
          return true;
        });
        let ok = 0;
        for (let i = 0; i < 10; i++) if (debit.immediate(workerData.userId)) ok++;
        parentPort.postMessage(ok);
      `;
      const results = await Promise.all(
        Array.from(
          { length: 4 },
          () =>
            new Promise<number>((resolve, reject) => {
              const w = new Worker(workerCode, {
                eval: true,
                workerData: { file: database.path, userId: user.id },
              });
              w.once('message', resolve);
              w.once('error', reject);
            }),
        ),
      );
      expect(results.reduce((a, b) => a + b, 0)).toBe(25);
      expect(await getBalance(store, user.id)).toBe(0);
      expect(await findLedgerMismatches(store)).toEqual([]);
    } finally {
      await store.close();
      database.dispose();
    }
  });
});

describe.skipIf(!pgEnabled)('ledger on PostgreSQL, several processes at once', () => {
  let database: PgTestDatabase;
  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('4 processes racing on shared users: no overdraft, each key once, balance = sum of transactions', async () => {
    // 4 × 300 operations, 4 in flight per process (16 at once) on 6 plain users with small balances, so
    // debits contend for the last coins and keyed entries are replayed across processes. Kept small for
    // the unit loop; the heavier run (4 × 5000, 8 in flight each) is `npm run test:pg-stress`.
    const outcome = await runLedgerRace(database, {
      processes: 4,
      opsPerProcess: 300,
      concurrency: 4,
      users: 6,
      penaltyUsers: 2,
      keySpace: 80,
    });
    const check = await checkLedgerRace(database, outcome);
    expect(check.unexpected).toEqual([]);
    expect(check.overdrawn).toEqual([]);
    expect(check.mismatches).toBe(0);
    expect(check.keyProblems).toEqual([]);
    // What every process was told happened is exactly what the database holds.
    expect(check.databaseNet).toBe(check.reportedNet);
    expect(check.databasePositive).toBe(check.reportedPositive);
    // The race was real: some debits found too few coins, some keys were tried again elsewhere.
    expect(check.debitsRefused).toBeGreaterThan(0);
    expect(check.replaysAndConflicts).toBeGreaterThan(0);
    expect(check.keysAccepted).toBeGreaterThan(0);
  }, 120_000);
});
