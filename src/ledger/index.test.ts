import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { transactions } from '../db/schema.ts';
import { transactions as pgTransactions } from '../db/schema.pg.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { insertUser } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { AppError } from '../shared/errors.ts';
import {
  assertLedgerInvariant,
  credit,
  debit,
  findLedgerMismatches,
  getBalance,
  type LedgerEntry,
} from './index.ts';

// The async ledger facade (decision 028) held to the same cases on both engines: ledger.ts under the
// SQLite store's mutex, ledger-pg.ts on PostgreSQL.

const now = Date.UTC(2026, 0, 1);
const pgEnabled = await pgTestsEnabled();

describe.each(ENGINES)('ledger facade on %s', (kind) => {
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
      const result = await debit(t.store, { userId: user.id, cents: 300, type: 'campaign', now });
      expect(result.balance).toBe(950);
      expect(await getBalance(t.store, user.id)).toBe(950);
      expect(await amountsOf(user.id)).toEqual([-300, 1250]);
      expect(await findLedgerMismatches(t.store)).toEqual([]);
    });

    it('refuses a debit larger than the balance with insufficient_coins and writes nothing', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 500, type: 'welcome', now });
      await expect(debit(t.store, { userId: user.id, cents: 501, type: 'campaign', now })).rejects.toThrow(
        /you need 5\.01 coins and you have 5\.00/,
      );
      expect(await getBalance(t.store, user.id)).toBe(500);
      expect(await amountsOf(user.id)).toEqual([500]);
    });

    it('lets only allowNegative debits take a balance below zero', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 100, type: 'hourly', now });
      await debit(t.store, { userId: user.id, cents: 200, type: 'leave_penalty', allowNegative: true, now });
      expect(await getBalance(t.store, user.id)).toBe(-100);
      await expect(debit(t.store, { userId: user.id, cents: 1, type: 'campaign', now })).rejects.toThrow(
        /Insufficient/,
      );
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
    });

    it('rolls back the transaction row when a credit would overflow decimal(10,2)', async () => {
      const user = await insertUser(t.store);
      await credit(t.store, { userId: user.id, cents: 9_999_999_000, type: 'purchase', now });
      await expect(credit(t.store, { userId: user.id, cents: 1000, type: 'purchase', now })).rejects.toThrow(
        /maximum/,
      );
      expect(await getBalance(t.store, user.id)).toBe(9_999_999_000);
      expect(await amountsOf(user.id)).toHaveLength(1);
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
      await t.store.transaction(async (tx) => {
        if (tx.kind === 'sqlite') tx.db.run(sql`UPDATE users SET coins = 7 WHERE id = ${user.id}`);
        else await tx.db.execute(sql`UPDATE users SET coins = 7 WHERE id = ${user.id}`);
      });
      expect(await findLedgerMismatches(t.store)).toEqual([{ userId: user.id, balance: 7, sum: 0 }]);
      await expect(assertLedgerInvariant(t.store)).rejects.toThrow(/invariant broken/);
      await t.store.transaction(async (tx) => {
        if (tx.kind === 'sqlite') tx.db.run(sql`UPDATE users SET coins = 0 WHERE id = ${user.id}`);
        else await tx.db.execute(sql`UPDATE users SET coins = 0 WHERE id = ${user.id}`);
      });
    });
  });
});
