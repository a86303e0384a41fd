import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MINUTE } from '../clock.ts';
import * as ledger from '../ledger/index.ts';
import { backupDatabase, restoreDatabase } from '../ops/backup.ts';
import { startFakeStripe, type FakeStripe } from '../sim/stripe/index.ts';
import { testEngine } from '../test/db.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { jobsForRole } from '../background.ts';
import { reconcileStripe } from './reconcile-stripe.ts';
import {
  WEBHOOK_SECRET,
  buyPack,
  paymentRow,
  purchaseRows,
  startPaymentsTestApp,
  type PaymentsTestEnv,
} from './test-support.ts';

// Issue 29 item 3: payments reconciled with Stripe. A periodic job lists recent payment intents,
// refunds and disputes from Stripe (the fake implements Stripe's list endpoints) and settles what the
// database does not know or has not applied, exactly once, through the same ledger paths.

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

describe.skipIf(testEngine() === 'pg')('a purchase made after the backup, then a restore (SQLite)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-reconcile-'));
  const dbPath = path.join(dir, 'live.db');
  const backupPath = path.join(dir, 'before-purchase.db');
  let stripe: FakeStripe;
  let before: TestApp | null = null;
  let after: TestApp | null = null;

  beforeAll(async () => {
    stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await before?.close();
    await after?.close();
    await stripe.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is credited once by the reconciliation job (the webhook redelivery and /sync cannot)', async () => {
    const env = { ...STRIPE_ENV, STRIPE_API_URL: stripe.url, DATABASE_PATH: dbPath };
    before = await startTestApp({ env, engine: 'sqlite' });
    stripe.connect({ webhookUrl: `${before.url}/api/stripe/webhook`, now: () => before!.clock.now() });
    const buyer = await before.signIn('restore_buyer');
    const userId = buyer.user!.id;
    const welcome = await buyer.balanceCents();
    backupDatabase(dbPath, backupPath);

    // After the backup: the purchase, credited by its webhook.
    const { id } = await buyPack(buyer, 'medium');
    stripe.succeed(id);
    expect(
      (await stripe.deliver(stripe.event('payment_intent.succeeded', stripe.intents.get(id)!))).status,
    ).toBe(200);
    expect(await buyer.balanceCents()).toBe(welcome + 55_000);
    await before.close();
    before = null;

    // The restore: the payment and its credit are gone.
    restoreDatabase(backupPath, dbPath);
    after = await startTestApp({ env, engine: 'sqlite' });
    stripe.connect({ webhookUrl: `${after.url}/api/stripe/webhook`, now: () => after!.clock.now() });
    const store = after.server.ctx.store;
    expect(await ledger.getBalance(store, userId)).toBe(welcome);
    expect(await paymentRow(after, id)).toBeUndefined();
    // Stripe's redelivery is accepted and credits nothing: the database does not know the intent.
    expect(
      (await stripe.deliver(stripe.event('payment_intent.succeeded', stripe.intents.get(id)!))).status,
    ).toBe(200);
    expect(await ledger.getBalance(store, userId)).toBe(welcome);

    const first = await reconcileStripe(after.server.ctx);
    expect(first).toMatchObject({ restored: 1, credited: 1, unmatched: 0 });
    expect(await ledger.getBalance(store, userId)).toBe(welcome + 55_000);
    expect(await paymentRow(after, id)).toMatchObject({ userId, packId: 'medium', amountCents: 1000 });
    // Again, and a webhook redelivered now: nothing more.
    expect(await reconcileStripe(after.server.ctx)).toMatchObject({ restored: 0, credited: 0 });
    await stripe.deliver(stripe.event('payment_intent.succeeded', stripe.intents.get(id)!));
    expect(await purchaseRows(after, userId)).toHaveLength(1);
    expect(await ledger.getBalance(store, userId)).toBe(welcome + 55_000);
    await after.checkLedger();
  });
});

describe('webhooks that never arrive (both engines)', () => {
  let env: PaymentsTestEnv;
  beforeAll(async () => {
    env = await startPaymentsTestApp();
  });
  afterAll(() => env.close());

  it('after a clock jump every webhook fails its signature tolerance; the job still credits, once', async () => {
    const { app, stripe } = env;
    const buyer = await app.signIn('jump_buyer');
    const start = await buyer.balanceCents();
    const { id } = await buyPack(buyer, 'small');
    stripe.succeed(id);
    // Our clock jumped 10 minutes ahead of Stripe's: the 300 s tolerance refuses every delivery.
    stripe.connect({ now: () => app.clock.now() - 10 * MINUTE });
    try {
      const delivered = await stripe.deliver(
        stripe.event('payment_intent.succeeded', stripe.intents.get(id)!),
      );
      expect(delivered.status).toBe(400);
      expect(await buyer.balanceCents()).toBe(start);
      expect(await reconcileStripe(app.server.ctx)).toMatchObject({ credited: 1, restored: 0 });
      expect(await buyer.balanceCents()).toBe(start + 25_000);
      expect(await reconcileStripe(app.server.ctx)).toMatchObject({ credited: 0 });
    } finally {
      stripe.connect({ now: () => app.clock.now() });
    }
    expect(await purchaseRows(app, buyer.user!.id)).toHaveLength(1);
    await app.checkLedger();
  });

  it('applies refunds and disputes the webhooks missed, and replays change nothing', async () => {
    const { app, stripe } = env;
    const buyer = await app.signIn('reversal_buyer');
    const start = await buyer.balanceCents();
    const { id } = await buyPack(buyer, 'large');
    stripe.succeed(id);
    await reconcileStripe(app.server.ctx);
    expect(await buyer.balanceCents()).toBe(start + 150_000);
    stripe.refund(id, 500); // a fifth of 25.00: 300 coins back to Stripe
    const refunded = await reconcileStripe(app.server.ctx);
    expect(refunded.reversedCents).toBe(30_000);
    expect(await buyer.balanceCents()).toBe(start + 120_000);
    const dispute = stripe.dispute(id, 2000); // the rest of the charge, disputed
    await reconcileStripe(app.server.ctx);
    expect(await buyer.balanceCents()).toBe(start);
    expect(await paymentRow(app, id)).toMatchObject({ disputeStatus: 'open' });
    expect((await reconcileStripe(app.server.ctx)).reversedCents).toBe(0);
    stripe.closeDispute(dispute.id, 'won');
    await reconcileStripe(app.server.ctx);
    expect(await buyer.balanceCents()).toBe(start + 120_000);
    expect((await reconcileStripe(app.server.ctx)).reversedCents).toBe(0);
    await app.checkLedger();
  });

  it('pages through Stripe lists (limit, starting_after, created[gte]) like Stripe', async () => {
    const { app } = env;
    const buyer = await app.signIn('pager_buyer');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await buyPack(buyer, i === 0 ? 'small' : i === 1 ? 'medium' : 'large')).id);
    const sdk = app.server.ctx.stripe!;
    const page1 = await sdk.paymentIntents.list({ limit: 2 });
    expect(page1.has_more).toBe(true);
    expect(page1.data.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const page2 = await sdk.paymentIntents.list({ limit: 2, starting_after: ids[1] });
    expect(page2.data[0]?.id).toBe(ids[0]);
    const future = await sdk.paymentIntents.list({
      created: { gte: Math.floor(app.clock.now() / 1000) + 3600 },
    });
    expect(future.data).toEqual([]);
    const all: string[] = [];
    for await (const pi of sdk.paymentIntents.list({ limit: 1 })) all.push(pi.id);
    expect(all.slice(0, 3)).toEqual([ids[2], ids[1], ids[0]]);
  });
});

describe('the job', () => {
  it('runs with the other periodic jobs (once across processes), not in web-only processes', () => {
    expect(jobsForRole('all', 'auto').map((j) => j.name)).toContain('stripe reconcile');
    expect(jobsForRole('bot', 'auto').map((j) => j.name)).toContain('stripe reconcile');
    expect(jobsForRole('web', 'auto')).toEqual([]);
  });
});
