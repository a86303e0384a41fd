import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { debit } from '../ledger/ledger.ts';
import { buyPack, paymentRow, purchaseRows, startPaymentsTestApp, type PaymentsTestEnv } from './test-support.ts';

let env: PaymentsTestEnv;
beforeAll(async () => {
  env = await startPaymentsTestApp();
});
afterAll(async () => {
  await env.close();
});
afterEach(() => {
  env.app.assertLedger();
});

const WELCOME = 500;

async function fulfilled(username: string, pack: string) {
  const client = await env.app.signIn(username);
  const { id } = await buyPack(client, pack);
  const intent = env.stripe.succeed(id);
  expect((await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent))).status).toBe(200);
  return { client, id, userId: client.user!.id };
}

/** The member spends coins elsewhere in the product (a campaign). */
function spend(userId: string, cents: number) {
  const ctx = env.app.server.ctx;
  ctx.db.transaction((tx) => debit(tx, { userId, cents, type: 'campaign', description: 'Campaign: test', now: ctx.clock.now() }));
}

describe('refunds', () => {
  test('a full refund takes the pack back once, however often the event arrives', async () => {
    const { client, id } = await fulfilled('full_refund', 'medium');
    const event = env.stripe.event('charge.refunded', env.stripe.refund(id));
    for (let i = 0; i < 3; i++) expect((await env.stripe.deliver(event)).status).toBe(200);
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(paymentRow(env.app, id)).toMatchObject({ status: 'refunded', reversedCoins: 55_000 });
    const reversal = purchaseRows(env.app, client.user!.id).filter((t) => t.type === 'purchase_reversal');
    expect(reversal).toHaveLength(1);
    expect(reversal[0]).toMatchObject({ amount: -55_000, description: 'Payment refunded: Growth Pack (550 coins)' });
  });

  test('partial refunds take coins pro rata, step by step', async () => {
    const { client, id } = await fulfilled('partial_refund', 'xlarge');
    await env.stripe.deliver(env.stripe.event('charge.refunded', env.stripe.refund(id, 1000))); // $10 of $50
    expect(await client.balanceCents()).toBe(WELCOME + 350_000 - 70_000);
    const second = env.stripe.event('charge.refunded', env.stripe.refund(id, 1500)); // now $25 of $50
    await env.stripe.deliver(second);
    await env.stripe.deliver(second);
    expect(await client.balanceCents()).toBe(WELCOME + 175_000);
    expect(paymentRow(env.app, id)?.reversedCoins).toBe(175_000);
  });

  test('a refund takes no more than the balance and never goes below zero', async () => {
    const { client, id, userId } = await fulfilled('spent_it', 'small');
    spend(userId, WELCOME + 20_000); // 50 coins left of the 250 + 5
    const event = env.stripe.event('charge.refunded', env.stripe.refund(id));
    await env.stripe.deliver(event);
    expect(await client.balanceCents()).toBe(0);
    expect(paymentRow(env.app, id)).toMatchObject({ status: 'refunded', reversedCoins: 5_000 });
    await env.stripe.deliver(event);
    expect(await client.balanceCents()).toBe(0);
    expect(paymentRow(env.app, id)?.reversedCoins).toBe(5_000);
  });

  test('a refund arriving before the success event credits then reverses; the late success adds nothing', async () => {
    const client = await env.app.signIn('out_of_order');
    const { id } = await buyPack(client, 'medium');
    const intent = env.stripe.succeed(id);
    await env.stripe.deliver(env.stripe.event('charge.refunded', env.stripe.refund(id)));
    expect(await client.balanceCents()).toBe(WELCOME);
    await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent));
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(paymentRow(env.app, id)).toMatchObject({ status: 'refunded', reversedCoins: 55_000 });
    expect(purchaseRows(env.app, client.user!.id).map((t) => t.amount).sort()).toEqual([-55_000, 55_000]);
  });
});

describe('disputes', () => {
  test('a dispute takes the pack back once, capped at the balance', async () => {
    const { client, id, userId } = await fulfilled('disputer', 'large');
    spend(userId, 100_000); // 505 coins left, the pack was 1500
    const event = env.stripe.event('charge.dispute.created', env.stripe.dispute(id));
    await Promise.all([env.stripe.deliver(event), env.stripe.deliver(event), env.stripe.deliver(event)]);
    expect(await client.balanceCents()).toBe(0);
    expect(paymentRow(env.app, id)).toMatchObject({ status: 'disputed', reversedCoins: 50_500 });
    expect(purchaseRows(env.app, userId).filter((t) => t.type === 'purchase_reversal')).toHaveLength(1);
  });

  test('a partial dispute takes the disputed share', async () => {
    const { client, id } = await fulfilled('partial_dispute', 'medium');
    const dispute = { ...env.stripe.dispute(id), amount: 250 }; // a quarter of $10
    await env.stripe.deliver(env.stripe.event('charge.dispute.created', dispute));
    expect(await client.balanceCents()).toBe(WELCOME + 55_000 - 13_750);
    expect(paymentRow(env.app, id)).toMatchObject({ status: 'disputed', reversedCoins: 13_750 });
  });

  test('a dispute after a full refund takes nothing more', async () => {
    const { client, id } = await fulfilled('refund_then_dispute', 'small');
    await env.stripe.deliver(env.stripe.event('charge.refunded', env.stripe.refund(id)));
    await env.stripe.deliver(env.stripe.event('charge.dispute.created', env.stripe.dispute(id)));
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(paymentRow(env.app, id)?.reversedCoins).toBe(25_000);
  });

  test('a dispute for an unknown payment is logged and changes nothing', async () => {
    const res = await env.stripe.deliver(
      env.stripe.event('charge.dispute.created', {
        id: 'dp_unknown',
        object: 'dispute',
        amount: 500,
        currency: 'usd',
        charge: 'ch_x',
        payment_intent: 'pi_nobody',
      }),
    );
    expect(res.status).toBe(200);
    expect(env.app.logLines.some((l) => l.includes('WARN') && l.includes('pi_nobody'))).toBe(true);
  });
});
