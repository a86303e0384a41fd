import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createPgTestDatabase, createPgUser, pgTestsEnabled, type PgTestDatabase } from '../test/pg.ts';
import { checkLedgerRace, runLedgerRace } from '../test/ledger-pg-race.ts';
import { credit, debit, findLedgerMismatches, getBalance } from './ledger-pg.ts';
import { AppError } from '../shared/errors.ts';

// The PostgreSQL ledger (decision 028) held to ledger.test.ts's rules, plus several processes at once.
const now = Date.UTC(2026, 0, 1);

describe.skipIf(!(await pgTestsEnabled()))('ledger on PostgreSQL', () => {
  let database: PgTestDatabase;
  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 4 });
  });
  afterAll(async () => {
    await database?.dispose();
  });
  const rowsOf = async (userId: string) =>
    (
      await database.pool.query<{ amount: number }>('SELECT amount FROM transactions WHERE user_id = $1', [
        userId,
      ])
    ).rows.map((r) => r.amount);

  it('credits and debits write one transaction row each, signed', async () => {
    const user = await createPgUser(database);
    await credit(database.db, { userId: user.id, cents: 1250, type: 'purchase', description: 'Pack', now });
    const result = await debit(database.db, { userId: user.id, cents: 300, type: 'campaign', now });
    expect(result.balance).toBe(950);
    expect(await getBalance(database.db, user.id)).toBe(950);
    expect((await rowsOf(user.id)).sort((a, b) => a - b)).toEqual([-300, 1250]);
    expect(await findLedgerMismatches(database.db)).toEqual([]);
  });

  it('refuses a debit larger than the balance with insufficient_coins and writes nothing', async () => {
    const user = await createPgUser(database);
    await credit(database.db, { userId: user.id, cents: 500, type: 'welcome', now });
    await expect(debit(database.db, { userId: user.id, cents: 501, type: 'campaign', now })).rejects.toThrow(
      /you need 5\.01 coins and you have 5\.00/,
    );
    expect(await getBalance(database.db, user.id)).toBe(500);
    expect(await rowsOf(user.id)).toEqual([500]);
  });

  it('lets only allowNegative debits take a balance below zero', async () => {
    const user = await createPgUser(database);
    await credit(database.db, { userId: user.id, cents: 100, type: 'hourly', now });
    await debit(database.db, {
      userId: user.id,
      cents: 200,
      type: 'leave_penalty',
      allowNegative: true,
      now,
    });
    expect(await getBalance(database.db, user.id)).toBe(-100);
    await expect(debit(database.db, { userId: user.id, cents: 1, type: 'campaign', now })).rejects.toThrow(
      /Insufficient/,
    );
    expect(await findLedgerMismatches(database.db)).toEqual([]);
  });

  it('makes keyed credits exactly-once and refuses a reused debit key with conflict', async () => {
    const user = await createPgUser(database);
    const entry = {
      userId: user.id,
      cents: 500,
      type: 'welcome' as const,
      idempotencyKey: `welcome:${user.id}`,
      now,
    };
    expect(await credit(database.db, entry)).not.toBeNull();
    expect(await credit(database.db, entry)).toBeNull();
    const spend = {
      userId: user.id,
      cents: 100,
      type: 'promote' as const,
      idempotencyKey: `promote:${user.id}`,
      now,
    };
    await debit(database.db, spend);
    await expect(debit(database.db, spend)).rejects.toMatchObject({ code: 'conflict' });
    expect(await getBalance(database.db, user.id)).toBe(400);
    expect(await rowsOf(user.id)).toHaveLength(2);
  });

  it('rolls back the transaction row when a credit would overflow decimal(10,2)', async () => {
    const user = await createPgUser(database);
    await credit(database.db, { userId: user.id, cents: 9_999_999_000, type: 'purchase', now });
    await expect(
      credit(database.db, { userId: user.id, cents: 1000, type: 'purchase', now }),
    ).rejects.toThrow(/maximum/);
    expect(await getBalance(database.db, user.id)).toBe(9_999_999_000);
    expect(await rowsOf(user.id)).toHaveLength(1);
  });

  it('says not_found for an unknown user and rejects non-integer or non-positive amounts', async () => {
    const ghost = crypto.randomUUID();
    await expect(credit(database.db, { userId: ghost, cents: 5, type: 'hourly', now })).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
    await expect(
      debit(database.db, { userId: ghost, cents: 5, type: 'campaign', now }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    const user = await createPgUser(database);
    await expect(credit(database.db, { userId: user.id, cents: 1.5, type: 'hourly', now })).rejects.toThrow(
      RangeError,
    );
    await expect(debit(database.db, { userId: user.id, cents: 0, type: 'campaign', now })).rejects.toThrow(
      RangeError,
    );
  });

  it("joins the caller's transaction: the entry rolls back with it, and a refused entry leaves the caller's work", async () => {
    const user = await createPgUser(database);
    await credit(database.db, { userId: user.id, cents: 1000, type: 'purchase', now });
    await expect(
      database.db.transaction(async (tx) => {
        await debit(tx, { userId: user.id, cents: 400, type: 'campaign', now });
        throw new Error('the caller fails after the debit');
      }),
    ).rejects.toThrow(/caller fails/);
    expect(await getBalance(database.db, user.id)).toBe(1000);
    // A refused debit inside the caller's transaction rolls back only its savepoint.
    await database.db.transaction(async (tx) => {
      await expect(debit(tx, { userId: user.id, cents: 5000, type: 'campaign', now })).rejects.toBeInstanceOf(
        AppError,
      );
      await debit(tx, { userId: user.id, cents: 250, type: 'campaign', now });
    });
    expect(await getBalance(database.db, user.id)).toBe(750);
    expect(await findLedgerMismatches(database.db)).toEqual([]);
  });

  it('detects a balance changed outside the ledger', async () => {
    const user = await createPgUser(database);
    await database.db.execute(sql`UPDATE users SET coins = 123 WHERE id = ${user.id}`);
    expect(await findLedgerMismatches(database.db)).toEqual([{ userId: user.id, balance: 123, sum: 0 }]);
    await database.db.execute(sql`UPDATE users SET coins = 0 WHERE id = ${user.id}`);
  });

  it('never overdraws and always matches its transactions for any sequence of operations', async () => {
    const op = fc.record({
      kind: fc.constantFrom('credit', 'debit', 'penalty'),
      cents: fc.integer({ min: 1, max: 5000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 15 }), async (ops) => {
        const user = await createPgUser(database);
        let model = 0;
        for (const { kind, cents } of ops) {
          if (kind === 'credit') {
            await credit(database.db, { userId: user.id, cents, type: 'hourly', now });
            model += cents;
          } else if (kind === 'penalty') {
            await debit(database.db, {
              userId: user.id,
              cents,
              type: 'leave_penalty',
              allowNegative: true,
              now,
            });
            model -= cents;
          } else if (model >= cents) {
            await debit(database.db, { userId: user.id, cents, type: 'campaign', now });
            model -= cents;
          } else {
            await expect(
              debit(database.db, { userId: user.id, cents, type: 'campaign', now }),
            ).rejects.toMatchObject({
              code: 'insufficient_coins',
            });
          }
        }
        expect(await getBalance(database.db, user.id)).toBe(model);
      }),
      { numRuns: 15 },
    );
    expect(await findLedgerMismatches(database.db)).toEqual([]);
  });
});

describe.skipIf(!(await pgTestsEnabled()))('ledger on PostgreSQL, several processes at once', () => {
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
