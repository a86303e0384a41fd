import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { createMemoryEventBus } from '../events/event-bus.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { insertUser, ledgerAmounts } from '../test/factories.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import * as ledger from '../ledger/index.ts';
import { fulfilPaymentIntent, type IntentFacts } from './fulfil-payment.ts';
import type { PaymentsContext } from './payment-record.ts';
import { paymentsRepo, type NewPayment } from './payments-repo.ts';
import { recordDispute, recordRefund } from './reverse-payment.ts';
import { assertCanSpendIn, DISPUTE_HOLD_MESSAGE } from './spend-guard.ts';

// The payments repository and the exactly-once rules above it (fulfilment, reversals), held to the
// same cases on both engines (decision 034). The API behaviour (webhooks, sync, checkout) is in
// webhook.test.ts, reverse-payment.test.ts and create-payment-intent.test.ts against the fake Stripe.

const now = Date.UTC(2026, 0, 1);
const pgEnabled = await pgTestsEnabled();

const ledgerRows = ledgerAmounts;

let paymentCounter = 0;
/** A medium pack's payment: 10.00 USD for 550.00 coins. */
const newPayment = (userId: string): NewPayment => ({
  id: `pi_contract_${++paymentCounter}_${Math.random().toString(36).slice(2, 8)}`,
  userId,
  packId: 'medium',
  amountCents: 1000,
  currency: 'usd',
  coins: 55_000,
  createdAt: now,
});

const succeeded = (p: NewPayment): IntentFacts => ({
  id: p.id,
  amount: p.amountCents,
  currency: 'usd',
  status: 'succeeded',
  metadata: { userId: p.userId, packId: p.packId, coins: '550' },
});

describe.each(ENGINES)('payments repository on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    let ctx: PaymentsContext & { logger: ReturnType<typeof createLogger> };
    beforeAll(async () => {
      t = await createTestStore(kind);
      const logger = createLogger('silent');
      ctx = { store: t.store, clock: new ManualClock(now), logger, events: createMemoryEventBus(logger) };
    });
    afterAll(() => t?.dispose());

    const insert = (p: NewPayment) => t.store.transaction((tx) => paymentsRepo(tx).insertIfNew(p));

    it('insertIfNew: once per id (a second insert returns the first row), find and lock read it', async () => {
      const [a, b] = [await insertUser(t.store), await insertUser(t.store)];
      const p = newPayment(a.id);
      const first = await insert(p);
      expect(first).toMatchObject({
        ...p,
        status: 'created',
        fulfilledAt: null,
        reversedCoins: 0,
        adjustments: 0,
      });
      expect(await insert({ ...p, userId: b.id, createdAt: now + 1 })).toEqual(first);
      expect(await paymentsRepo(t.store.read).find(p.id)).toEqual(first);
      expect(await t.store.transaction((tx) => paymentsRepo(tx).lock(p.id))).toEqual(first);
      expect(await paymentsRepo(t.store.read).find('pi_unknown')).toBeUndefined();
      const same = await Promise.all([insert(newPayment(a.id)), insert(newPayment(a.id))]);
      expect(same.map((r) => r.userId)).toEqual([a.id, a.id]);
    });

    it('markFulfilled: once; created becomes succeeded, a reversal status recorded first stays', async () => {
      const user = await insertUser(t.store);
      const p = await insert(newPayment(user.id));
      const mark = (id: string, at: number) =>
        t.store.transaction((tx) => paymentsRepo(tx).markFulfilled(id, at));
      expect([await mark(p.id, now), await mark(p.id, now + 1)]).toEqual([true, false]);
      expect(await paymentsRepo(t.store.read).find(p.id)).toMatchObject({
        status: 'succeeded',
        fulfilledAt: now,
      });
      const q = await insert(newPayment(user.id));
      await t.store.transaction((tx) => paymentsRepo(tx).setStatus(q.id, 'refunded'));
      expect(await mark(q.id, now)).toBe(true);
      expect(await paymentsRepo(t.store.read).find(q.id)).toMatchObject({
        status: 'refunded',
        fulfilledAt: now,
      });
    });

    it('refunds: upserted by id, a failed one stays failed, a refund id stays with its payment', async () => {
      const user = await insertUser(t.store);
      const p = await insert(newPayment(user.id));
      const q = await insert(newPayment(user.id));
      const upsert = (paymentId: string, amountCents: number, status: string, at = now) =>
        t.store.transaction((tx) =>
          paymentsRepo(tx).upsertRefund({ id: `re_${p.id}`, paymentId, amountCents, status }, at),
        );
      await upsert(p.id, 300, 'pending');
      await upsert(p.id, 400, 'succeeded', now + 1);
      expect(await paymentsRepo(t.store.read).listRefunds(p.id)).toEqual([
        { id: `re_${p.id}`, paymentId: p.id, amountCents: 400, status: 'succeeded', updatedAt: now + 1 },
      ]);
      await upsert(p.id, 400, 'failed', now + 2);
      await upsert(p.id, 400, 'succeeded', now + 3);
      expect((await paymentsRepo(t.store.read).listRefunds(p.id))[0]?.status).toBe('failed');
      await upsert(q.id, 999, 'succeeded', now + 4);
      expect(await paymentsRepo(t.store.read).listRefunds(q.id)).toEqual([]);
      expect((await paymentsRepo(t.store.read).listRefunds(p.id))[0]?.amountCents).toBe(400);
    });

    it('charge refunded total, dispute, status and adjustments', async () => {
      const user = await insertUser(t.store);
      const p = await insert(newPayment(user.id));
      await t.store.transaction(async (tx) => {
        const repo = paymentsRepo(tx);
        await repo.raiseChargeRefunded(p.id, 600);
        await repo.raiseChargeRefunded(p.id, 200);
        await repo.setDispute(p.id, { disputeId: 'dp_1', cents: 1000, state: 'open', at: null });
        await repo.recordAdjustment(p.id, 'disputed', 30_000);
        await repo.recordAdjustment(p.id, 'refunded', -5_000);
      });
      expect(await paymentsRepo(t.store.read).find(p.id)).toMatchObject({
        chargeRefundedCents: 600,
        disputeId: 'dp_1',
        disputeCents: 1000,
        disputeStatus: 'open',
        status: 'refunded',
        reversedCoins: 25_000,
        adjustments: 2,
      });
    });

    it('spend guard: refused while a payment of the user has an open dispute, only for that user', async () => {
      const [a, b] = [await insertUser(t.store), await insertUser(t.store)];
      const p = await insert(newPayment(a.id));
      await expect(assertCanSpendIn(t.store.read, a.id)).resolves.toBeUndefined();
      await t.store.transaction((tx) =>
        paymentsRepo(tx).setDispute(p.id, { disputeId: 'dp', cents: 1000, state: 'open', at: null }),
      );
      await expect(assertCanSpendIn(t.store.read, a.id)).rejects.toThrow(DISPUTE_HOLD_MESSAGE);
      await t.store.transaction(async (tx) => {
        await expect(assertCanSpendIn(tx, a.id)).rejects.toThrow(DISPUTE_HOLD_MESSAGE);
        await assertCanSpendIn(tx, b.id);
      });
      await t.store.transaction((tx) =>
        paymentsRepo(tx).setDispute(p.id, { disputeId: 'dp', cents: 1000, state: 'won', at: null }),
      );
      expect(await paymentsRepo(t.store.read).hasOpenDispute(a.id)).toBe(false);
    });

    it('fulfilment: unknown, mismatching or unfinished intents credit nothing; a succeeded one once', async () => {
      const user = await insertUser(t.store);
      const p = newPayment(user.id);
      expect(await fulfilPaymentIntent(ctx, succeeded(p), 'webhook')).toEqual({
        fulfilled: false,
        creditedNow: false,
      });
      await insert(p);
      for (const wrong of [
        { ...succeeded(p), amount: 100_000 },
        { ...succeeded(p), currency: 'eur' },
        { ...succeeded(p), metadata: { userId: 'someone-else', packId: 'medium' } },
        { ...succeeded(p), status: 'processing' },
      ])
        expect(await fulfilPaymentIntent(ctx, wrong, 'webhook')).toEqual({
          fulfilled: false,
          creditedNow: false,
        });
      expect(await ledger.getBalance(t.store, user.id)).toBe(0);
      expect(await fulfilPaymentIntent(ctx, succeeded(p), 'webhook')).toEqual({
        fulfilled: true,
        creditedNow: true,
      });
      expect(await fulfilPaymentIntent(ctx, succeeded(p), 'sync')).toEqual({
        fulfilled: true,
        creditedNow: false,
      });
      expect(await ledgerRows(t.store.read, user.id, 'purchase')).toEqual([55_000]);
      expect(ctx.logger.lines.some((l) => l.includes('stripe: payment fulfilled'))).toBe(true);
    });

    it('a spend holds its spender: a dispute reversal of that user waits for the spend to commit', async () => {
      const u = await insertUser(t.store);
      await ledger.credit(t.store, {
        userId: u.id,
        cents: 10_000,
        type: 'purchase',
        description: 'seed',
        now,
      });
      const order: string[] = [];
      let releaseSpend!: () => void;
      const spendHeld = new Promise<void>((resolve) => (releaseSpend = resolve));
      let spendLocked!: () => void;
      const locked = new Promise<void>((resolve) => (spendLocked = resolve));
      const spend = t.store.transaction(async (tx) => {
        await assertCanSpendIn(tx, u.id, { lockSpender: true });
        spendLocked();
        await spendHeld;
        await ledger.debit(tx, {
          userId: u.id,
          cents: 2_000,
          type: 'campaign',
          description: 'spend',
          now,
        });
        order.push('spend committed');
      });
      await locked;
      // The reversal's debit reaches the same user row (SQLite: the writer's mutex; PostgreSQL: the row lock).
      const reversal = ledger
        .debit(t.store, {
          userId: u.id,
          cents: 9_000,
          type: 'purchase_reversal',
          description: 'dispute',
          allowNegative: true,
          now,
        })
        .then(() => order.push('reversal committed'));
      await new Promise((resolve) => setTimeout(resolve, 150));
      order.push('spend released');
      releaseSpend();
      await Promise.all([spend, reversal]);
      expect(order).toEqual(['spend released', 'spend committed', 'reversal committed']);
      expect(await ledger.getBalance(t.store, u.id)).toBe(10_000 - 2_000 - 9_000);
      await ledger.assertLedgerInvariant(t.store);
    });

    it('exactly once: 8 concurrent fulfilments of one payment credit once', async () => {
      const user = await insertUser(t.store);
      const p = newPayment(user.id);
      await insert(p);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          fulfilPaymentIntent(ctx, succeeded(p), i % 2 ? 'sync' : 'webhook'),
        ),
      );
      expect(results.filter((r) => r.creditedNow)).toHaveLength(1);
      expect(results.every((r) => r.fulfilled)).toBe(true);
      expect(await ledgerRows(t.store.read, user.id, 'purchase')).toEqual([55_000]);
      expect(await ledger.getBalance(t.store, user.id)).toBe(55_000);
      await ledger.assertLedgerInvariant(t.store);
    });

    it('reversals: concurrent refund and dispute events on one payment converge, also before its success', async () => {
      for (const fulfilledFirst of [true, false]) {
        const user = await insertUser(t.store);
        const p = newPayment(user.id);
        await insert(p);
        if (fulfilledFirst) await fulfilPaymentIntent(ctx, succeeded(p), 'webhook');
        // Delivered at once, in no order: two halves refunded (one delivered twice), a full dispute.
        const refund = (n: number) => ({
          id: `re_${n}_${p.id}`,
          paymentIntentId: p.id,
          amount: 500,
          currency: 'usd',
          status: 'succeeded',
        });
        const dispute = {
          id: `dp_${p.id}`,
          paymentIntentId: p.id,
          amount: 1000,
          currency: 'usd',
          status: 'needs_response',
        };
        await Promise.all([
          recordRefund(ctx, refund(1)),
          recordDispute(ctx, dispute),
          recordRefund(ctx, refund(2)),
          recordRefund(ctx, refund(1)),
          ...(fulfilledFirst ? [] : [fulfilPaymentIntent(ctx, succeeded(p), 'webhook')]),
        ]);
        expect(await ledgerRows(t.store.read, user.id, 'purchase')).toEqual([55_000]);
        expect(await paymentsRepo(t.store.read).find(p.id)).toMatchObject({
          status: 'disputed',
          reversedCoins: 55_000,
        });
        expect(await ledger.getBalance(t.store, user.id)).toBe(0);
        // The dispute is won, the refunds stand: nothing comes back.
        await recordDispute(ctx, { ...dispute, status: 'won' });
        expect(await paymentsRepo(t.store.read).find(p.id)).toMatchObject({
          status: 'refunded',
          reversedCoins: 55_000,
        });
        expect(await ledger.getBalance(t.store, user.id)).toBe(0);
      }
      await ledger.assertLedgerInvariant(t.store);
    });

    it('reversals: a refund failing restores its coins; a refund after the coins were spent is a debt', async () => {
      const user = await insertUser(t.store);
      const p = newPayment(user.id);
      await insert(p);
      await fulfilPaymentIntent(ctx, succeeded(p), 'webhook');
      const refund = {
        id: `re_${p.id}`,
        paymentIntentId: p.id,
        amount: 500,
        currency: 'usd',
        status: 'pending',
      };
      expect(await recordRefund(ctx, refund)).toEqual({ movedCents: 27_500 });
      expect(await recordRefund(ctx, { ...refund, status: 'failed' })).toEqual({ movedCents: -27_500 });
      expect(await recordRefund(ctx, { ...refund, status: 'succeeded' })).toEqual({ movedCents: 0 });
      await ledger.debit(t.store, { userId: user.id, cents: 55_000, type: 'campaign', now });
      await recordRefund(ctx, { ...refund, id: `re2_${p.id}`, amount: 1000, status: 'succeeded' });
      expect(await ledger.getBalance(t.store, user.id)).toBe(-55_000);
      expect(await paymentsRepo(t.store.read).find(p.id)).toMatchObject({
        status: 'refunded',
        reversedCoins: 55_000,
      });
      await ledger.assertLedgerInvariant(t.store);
    });
  });
});
