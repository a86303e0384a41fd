import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgStore, SqliteStore } from '../db/engine.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { grantCoins, insertUser, ledgerAmounts } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { HOUR } from '../clock.ts';
import { MAX_CENTS } from '../shared/money.ts';
import { claimReward } from './claim-reward.ts';
import { getRewardStatus } from './get-reward-status.ts';
import { rewardsRepo } from './rewards-repo.ts';
import { getDailyStreak } from './streak.ts';
import { recentClaimGroups } from './claim-group.ts';
import { updateReminderSettings } from '../reminders/reminder-settings.ts';
import { remindersDue } from '../db/schema.ts';
import { eq } from 'drizzle-orm';

// The rewards repository and the claim above it, held to the same cases on both engines (decision 034).

const now = Date.UTC(2026, 0, 1);
const pgEnabled = await pgTestsEnabled();

const amountsOf = ledgerAmounts;

describe.each(ENGINES)('rewards repository on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await createTestStore(kind);
    });
    afterAll(() => t?.dispose());

    it('find: nothing before the first claim; claim records each reward in its own column', async () => {
      const user = await insertUser(t.store);
      expect(await rewardsRepo(t.store.read).find(user.id)).toBeUndefined();
      const claimed = await t.store.transaction(async (tx) => [
        await rewardsRepo(tx).claim(user.id, 'bonus', now, now - 6 * HOUR),
        await rewardsRepo(tx).claim(user.id, 'daily', now + 1, now + 1 - 24 * HOUR),
      ]);
      expect(claimed).toEqual([true, true]);
      expect(await rewardsRepo(t.store.read).find(user.id)).toMatchObject({
        userId: user.id,
        lastClaimDate: 0,
        lastBonusClaimDate: now,
        lastDailyClaimDate: now + 1,
      });
    });

    it('claim: refused (nothing written) until the cutoff reaches the last claim, accepted on it', async () => {
      const user = await insertUser(t.store);
      const claim = (at: number) =>
        t.store.transaction((tx) => rewardsRepo(tx).claim(user.id, 'regular', at, at - HOUR));
      expect(await claim(now)).toBe(true);
      expect(await claim(now + HOUR - 1)).toBe(false);
      expect((await rewardsRepo(t.store.read).find(user.id))?.lastClaimDate).toBe(now);
      expect(await claim(now + HOUR)).toBe(true);
      expect((await rewardsRepo(t.store.read).find(user.id))?.lastClaimDate).toBe(now + HOUR);
    });

    it('claimReward: credits through the ledger; too early is 425 with the wait and credits nothing', async () => {
      const user = await insertUser(t.store);
      expect(await claimReward(t.store, user.id, 'daily', now)).toEqual({ type: 'daily', earned: '5.00' });
      const early = claimReward(t.store, user.id, 'daily', now + 60_000);
      await expect(early).rejects.toBeInstanceOf(AppError);
      await expect(early).rejects.toThrow('You can claim your daily reward again in 23 hours 59 minutes.');
      expect(await amountsOf(t.store.read, user.id, 'daily')).toEqual([500]);
      expect(await ledger.getBalance(t.store, user.id)).toBe(500);
      const status = await getRewardStatus(t.store.read, user.id, now + HOUR);
      expect(status).toMatchObject({ canClaimDaily: false, dailyHoursRemaining: 23, canClaimRegular: true });
    });

    it('dailyClaimTimes: the daily transactions only, oldest first; the streak is computed from them', async () => {
      const user = await insertUser(t.store);
      const other = await insertUser(t.store);
      await claimReward(t.store, user.id, 'daily', now);
      await claimReward(t.store, user.id, 'regular', now + HOUR);
      await claimReward(t.store, other.id, 'daily', now + HOUR);
      await claimReward(t.store, user.id, 'daily', now + 30 * HOUR);
      expect(await rewardsRepo(t.store.read).dailyClaimTimes(user.id)).toEqual([now, now + 30 * HOUR]);
      expect(await getDailyStreak(t.store.read, user.id, now + 31 * HOUR)).toEqual({ current: 2, best: 2 });
      expect(await getDailyStreak(t.store.read, user.id, now + 79 * HOUR)).toEqual({ current: 0, best: 2 });
    });

    it('claimReward for an unknown user: not_found, nothing recorded', async () => {
      await expect(claimReward(t.store, crypto.randomUUID(), 'regular', now)).rejects.toThrow();
      await ledger.assertLedgerInvariant(t.store);
    });

    it('a claim the ledger refuses (above the maximum balance) records nothing: the reward stays claimable', async () => {
      // A first claim (the reward row is inserted) and a later one (the row is updated), both undone.
      const fresh = await insertUser(t.store);
      const later = await insertUser(t.store);
      await grantCoins(t.store, fresh.id, MAX_CENTS - 50);
      await grantCoins(t.store, later.id, MAX_CENTS - 350);
      expect(await claimReward(t.store, later.id, 'bonus', now)).toEqual({ type: 'bonus', earned: '3.00' });
      for (const user of [fresh, later]) {
        await expect(claimReward(t.store, user.id, 'regular', now + 1)).rejects.toThrow(
          'This would take the balance above the maximum of 99999999.99 coins.',
        );
        expect(await ledger.getBalance(t.store, user.id)).toBe(MAX_CENTS - 50);
        expect(await amountsOf(t.store.read, user.id, 'hourly')).toEqual([]);
      }
      expect(await rewardsRepo(t.store.read).find(fresh.id)).toBeUndefined();
      expect(await rewardsRepo(t.store.read).find(later.id)).toMatchObject({
        lastClaimDate: 0,
        lastBonusClaimDate: now,
      });
      await ledger.assertLedgerInvariant(t.store);
    });

    it('exactly once: 12 concurrent claims of one reward give one credit, also on a first claim', async () => {
      for (const type of ['regular', 'bonus'] as const) {
        const user = await insertUser(t.store);
        if (type === 'bonus') await claimReward(t.store, user.id, 'regular', now); // the row exists already
        const results = await Promise.allSettled(
          Array.from({ length: 12 }, () => claimReward(t.store, user.id, type, now + 1)),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const refused = results.filter((r) => r.status === 'rejected');
        expect(refused.every((r) => (r.reason as AppError).code === 'too_early')).toBe(true);
        expect(await amountsOf(t.store.read, user.id, type === 'regular' ? 'hourly' : 'bonus')).toHaveLength(
          1,
        );
      }
      await ledger.assertLedgerInvariant(t.store);
    });

    it('claims arriving together (a group commit on SQLite): each answered with its own outcome, each paid once', async () => {
      // Members who may claim, one who already has (too early), one the ledger refuses, one unknown
      // user: all in one event-loop turn, each twice.
      const members = await Promise.all(Array.from({ length: 8 }, () => insertUser(t.store)));
      const early = await insertUser(t.store);
      await claimReward(t.store, early.id, 'regular', now);
      const full = await insertUser(t.store);
      await grantCoins(t.store, full.id, MAX_CENTS - 50);
      const claimants = [...members.map((m) => m.id), early.id, full.id, crypto.randomUUID()];
      const results = await Promise.allSettled(
        [...claimants, ...claimants].map((id) => claimReward(t.store, id, 'regular', now + 1)),
      );
      const outcome = (r: PromiseSettledResult<unknown>) =>
        r.status === 'fulfilled' ? 'paid' : r.reason instanceof AppError ? r.reason.code : 'failed';
      const first = results.slice(0, claimants.length).map(outcome);
      const second = results.slice(claimants.length).map(outcome);
      expect(first).toEqual([...members.map(() => 'paid'), 'too_early', 'bad_request', 'failed']);
      expect(second).toEqual([...members.map(() => 'too_early'), 'too_early', 'bad_request', 'failed']);
      if (kind === 'sqlite') {
        // They did share transactions: every claim of the turn above was in one group.
        expect(Math.max(...(t.store as SqliteStore).groupSizes)).toBeGreaterThanOrEqual(claimants.length * 2);
      }
      for (const member of members) {
        expect(await amountsOf(t.store.read, member.id, 'hourly')).toEqual([100]);
        expect(await ledger.getBalance(t.store, member.id)).toBe(100);
      }
      expect(await amountsOf(t.store.read, early.id, 'hourly')).toEqual([100]);
      expect(await ledger.getBalance(t.store, full.id)).toBe(MAX_CENTS - 50);
      await ledger.assertLedgerInvariant(t.store);
    });
    it('claims of one turn (ONE statement on PostgreSQL): mixed outcomes, each its own, the ledger exact', async () => {
      // Members who may claim, one too early, one who wants the "ready" reminder (the transaction's).
      const members = await Promise.all(Array.from({ length: 6 }, () => insertUser(t.store)));
      const early = await insertUser(t.store);
      await claimReward(t.store, early.id, 'bonus', now);
      const wanter = await insertUser(t.store);
      await updateReminderSettings(t.store, wanter.id, { kinds: { bonus: true } }, now);
      const claimants = [...members.map((m) => m.id), early.id, wanter.id];
      const groupsBefore = recentClaimGroups.length;
      const results = await Promise.allSettled(
        claimants.map((id) => claimReward(t.store, id, 'bonus', now + 1)),
      );
      const outcomes = results.map((r) =>
        r.status === 'fulfilled' ? 'paid' : r.reason instanceof AppError ? r.reason.code : 'failed',
      );
      expect(outcomes).toEqual([...members.map(() => 'paid'), 'too_early', 'paid']);
      if (kind === 'pg') {
        // They went out as one statement, which committed.
        expect(recentClaimGroups.slice(groupsBefore)).toEqual([{ size: claimants.length, committed: true }]);
      }
      for (const member of [...members, wanter]) {
        expect(await amountsOf(t.store.read, member.id, 'bonus')).toEqual([300]);
        expect(await ledger.getBalance(t.store, member.id)).toBe(300);
        expect((await rewardsRepo(t.store.read).find(member.id))?.lastBonusClaimDate).toBe(now + 1);
      }
      expect(await amountsOf(t.store.read, early.id, 'bonus')).toEqual([300]);
      expect((await rewardsRepo(t.store.read).find(early.id))?.lastBonusClaimDate).toBe(now);
      const reminders = await t.store.read.q
        .select()
        .from(remindersDue)
        .where(eq(remindersDue.userId, wanter.id));
      expect(reminders).toMatchObject([{ kind: 'bonus', subjectId: 'bonus', dueAt: now + 1 + 6 * HOUR }]);
      await ledger.assertLedgerInvariant(t.store);
    });

    it.runIf(kind === 'pg')(
      'a too-early claim on PostgreSQL is one statement: its wait comes with the refusal, alone or in a group',
      async () => {
        const early = await insertUser(t.store);
        const fresh = await insertUser(t.store);
        await claimReward(t.store, early.id, 'bonus', now);
        // Every statement the store sends goes through its pool's query (the pool reads and autocommits).
        const pool = (t.store as PgStore).pool;
        const query = pool.query.bind(pool);
        let statements = 0;
        pool.query = ((...args: unknown[]) => {
          statements += 1;
          return (query as (...a: unknown[]) => unknown)(...args);
        }) as typeof pool.query;
        try {
          const alone = claimReward(t.store, early.id, 'bonus', now + 10 * 60_000);
          await expect(alone).rejects.toThrow('You can claim your bonus reward again in 5 hours 50 minutes.');
          expect(statements).toBe(1);
          statements = 0;
          const together = await Promise.allSettled([
            claimReward(t.store, fresh.id, 'bonus', now + HOUR),
            claimReward(t.store, early.id, 'bonus', now + HOUR),
          ]);
          expect(together[0].status).toBe('fulfilled');
          expect(together[1]).toMatchObject({
            status: 'rejected',
            reason: { message: 'You can claim your bonus reward again in 5 hours.' },
          });
          expect(statements).toBe(1);
        } finally {
          pool.query = query;
        }
        expect(await amountsOf(t.store.read, early.id, 'bonus')).toEqual([300]);
        await ledger.assertLedgerInvariant(t.store);
      },
    );

    it('claims of one turn where one credit is refused: the group writes nothing, each claim then decides alone', async () => {
      const members = await Promise.all(Array.from({ length: 5 }, () => insertUser(t.store)));
      const full = await insertUser(t.store);
      await grantCoins(t.store, full.id, MAX_CENTS - 50);
      const claimants = [...members.map((m) => m.id), full.id];
      const groupsBefore = recentClaimGroups.length;
      const results = await Promise.allSettled(claimants.map((id) => claimReward(t.store, id, 'daily', now)));
      expect(results.map((r) => r.status)).toEqual([...members.map(() => 'fulfilled'), 'rejected']);
      if (kind === 'pg') {
        // The one statement failed (its undo), and nothing of it stayed: each member was then paid once, alone.
        expect(recentClaimGroups.slice(groupsBefore)).toEqual([{ size: claimants.length, committed: false }]);
      }
      for (const member of members) expect(await amountsOf(t.store.read, member.id, 'daily')).toEqual([500]);
      expect(await amountsOf(t.store.read, full.id, 'daily')).toEqual([]);
      expect(await rewardsRepo(t.store.read).find(full.id)).toBeUndefined();
      expect(await ledger.getBalance(t.store, full.id)).toBe(MAX_CENTS - 50);
      await ledger.assertLedgerInvariant(t.store);
    });
  });
});
