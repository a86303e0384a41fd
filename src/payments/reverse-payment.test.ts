import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createGuildWithInvite } from '../campaigns/test-support.ts';
import { grantCoins } from '../test/factories.ts';
import type { TestClient } from '../test/harness.ts';
import { DISPUTE_HOLD_MESSAGE } from './spend-guard.ts';
import {
  buyPack,
  paymentRow,
  purchaseRows,
  startPaymentsTestApp,
  type PaymentsTestEnv,
} from './test-support.ts';

// Refunds and disputes, delivered as really signed webhooks from the fake Stripe, in every order.

let env: PaymentsTestEnv;
beforeAll(async () => {
  env = await startPaymentsTestApp();
});
afterAll(async () => {
  await env.close();
});
afterEach(() => env.app.checkLedger());

const WELCOME = 500;
const SMALL = 25_000; // Starter Pack: 250 coins, $5

async function fulfilled(username: string, pack = 'small') {
  const client = await env.app.signIn(username);
  const { id } = await buyPack(client, pack);
  const intent = env.stripe.succeed(id);
  expect((await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent))).status).toBe(200);
  return { client, id, userId: client.user!.id };
}

/** Spends coins through the real API: a regular campaign with `coins` member slots. */
async function submitCampaign(client: TestClient, coins: number, name = 'Spent Server') {
  const { link } = createGuildWithInvite(env.app, client);
  return client.post<{ id: string }>('/api/servers', { name, inviteLink: link, coinReward: String(coins) });
}

async function deliver(type: string, object: object) {
  const res = await env.stripe.deliver(env.stripe.event(type, object));
  expect(res.status).toBe(200);
}

async function reversals(userId: string) {
  return (await purchaseRows(env.app, userId)).filter((t) => t.type === 'purchase_reversal');
}

/** What create-payment-intent, submit, no-bot submit and promote answer (statuses). */
async function spendStatuses(client: TestClient, campaignId: string) {
  const { link } = createGuildWithInvite(env.app, client);
  const { link: noBotLink } = createGuildWithInvite(env.app, client, { botMember: false });
  return {
    buy: (await client.post('/api/create-payment-intent', { packageType: 'small' })).status,
    submit: (await client.post('/api/servers', { name: 'Held', inviteLink: link, coinReward: '3' })).status,
    noBot: (
      await client.post('/api/servers/no-bot', { name: 'Held NB', inviteLink: noBotLink, memberCount: '3' })
    ).status,
    promote: (await client.post(`/api/servers/${campaignId}/promote`)).status,
  };
}

describe('refunds', () => {
  test('a full refund after the coins were spent takes the whole pack back as a debt, once', async () => {
    const { client, id, userId } = await fulfilled('refund_after_spend');
    expect((await submitCampaign(client, 255)).status).toBe(201);
    expect(await client.balanceCents()).toBe(0);

    const event = env.stripe.event('charge.refunded', env.stripe.refund(id));
    for (let i = 0; i < 3; i++) expect((await env.stripe.deliver(event)).status).toBe(200);
    expect(await client.balanceCents()).toBe(-SMALL);
    expect(await paymentRow(env.app, id)).toMatchObject({ status: 'refunded', reversedCoins: SMALL });
    expect(await reversals(userId)).toHaveLength(1);
    expect((await reversals(userId))[0]).toMatchObject({
      amount: -SMALL,
      description: 'Payment refunded: Starter Pack (250 coins)',
    });

    // A debt cannot be spent against, and later earnings repay it.
    expect((await submitCampaign(client, 3)).status).toBe(402);
    await grantCoins(env.app.server.ctx.store, userId, 30_000, env.app.clock.now());
    expect(await client.balanceCents()).toBe(5_000);
  });

  test('partial refunds take coins pro rata, step by step', async () => {
    const { client, id } = await fulfilled('partial_refund', 'xlarge');
    await deliver('charge.refunded', env.stripe.refund(id, 1000)); // $10 of $50
    expect(await client.balanceCents()).toBe(WELCOME + 350_000 - 70_000);
    const second = env.stripe.event('charge.refunded', env.stripe.refund(id, 1500)); // now $25 of $50
    await env.stripe.deliver(second);
    await env.stripe.deliver(second);
    expect(await client.balanceCents()).toBe(WELCOME + 175_000);
    expect((await paymentRow(env.app, id))?.reversedCoins).toBe(175_000);
  });

  test('a refund that fails gives the coins back; a late redelivery of the refund takes nothing again', async () => {
    const { client, id, userId } = await fulfilled('refund_fails');
    const charge = env.stripe.refund(id);
    const refundId = charge.refunds.data[0]!.id;
    const refunded = env.stripe.event('charge.refunded', charge);
    await env.stripe.deliver(refunded);
    await deliver('refund.created', charge.refunds.data[0]!);
    expect(await client.balanceCents()).toBe(WELCOME);

    const failed = env.stripe.failRefund(refundId);
    await deliver('refund.failed', failed);
    await deliver('charge.refund.updated', failed);
    expect(await client.balanceCents()).toBe(WELCOME + SMALL);
    expect(await paymentRow(env.app, id)).toMatchObject({ status: 'succeeded', reversedCoins: 0 });

    // Stripe retries older deliveries for days: the refund's earlier states change nothing now.
    await env.stripe.deliver(refunded);
    await deliver('refund.updated', { ...failed, status: 'succeeded' });
    expect(await client.balanceCents()).toBe(WELCOME + SMALL);
    expect((await reversals(userId)).map((t) => t.amount)).toEqual([-SMALL, SMALL]);
    expect((await reversals(userId))[1]?.description).toBe(
      'Refund failed, coins restored: Starter Pack (250 coins)',
    );
  });

  test('with the pinned API version charge.refunded lists no refunds: refund events alone are enough', async () => {
    const { client, id } = await fulfilled('refund_events_only', 'medium');
    const charge = env.stripe.refund(id, 500); // half of $10
    const refund = charge.refunds.data[0]!;
    await deliver('refund.created', { ...refund, status: 'pending' });
    expect(await client.balanceCents()).toBe(WELCOME + 27_500);
    await deliver('charge.refunded', { ...charge, refunds: undefined });
    await deliver('refund.updated', refund);
    expect(await client.balanceCents()).toBe(WELCOME + 27_500);
    await deliver('refund.failed', env.stripe.failRefund(refund.id));
    expect(await client.balanceCents()).toBe(WELCOME + 55_000);
  });

  test('a refund failure delivered before the refund itself takes nothing', async () => {
    const { client, id } = await fulfilled('failure_first');
    const charge = env.stripe.refund(id);
    const failed = env.stripe.failRefund(charge.refunds.data[0]!.id);
    await deliver('refund.failed', failed);
    await deliver('refund.created', { ...failed, status: 'succeeded' });
    await deliver('charge.refunded', {
      ...charge,
      refunds: { object: 'list', data: [{ ...failed, status: 'succeeded' }] },
    });
    expect(await client.balanceCents()).toBe(WELCOME + SMALL);
  });

  test('a refund arriving before the success event credits then reverses; the late success adds nothing', async () => {
    const client = await env.app.signIn('out_of_order');
    const { id } = await buyPack(client, 'medium');
    const intent = env.stripe.succeed(id);
    await deliver('charge.refunded', env.stripe.refund(id));
    expect(await client.balanceCents()).toBe(WELCOME);
    await deliver('payment_intent.succeeded', intent);
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(await paymentRow(env.app, id)).toMatchObject({ status: 'refunded', reversedCoins: 55_000 });
    expect((await purchaseRows(env.app, client.user!.id)).map((t) => t.amount).sort()).toEqual([
      -55_000, 55_000,
    ]);
  });
});

describe('disputes', () => {
  test('a dispute after spending reverses the full pack into debt and holds buying and spending', async () => {
    const { client, id, userId } = await fulfilled('dispute_after_spend');
    const campaign = await submitCampaign(client, 255);
    expect(campaign.status).toBe(201);

    const event = env.stripe.event('charge.dispute.created', env.stripe.dispute(id));
    const results = await Promise.all([
      env.stripe.deliver(event),
      env.stripe.deliver(event),
      env.stripe.deliver(event),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await client.balanceCents()).toBe(-SMALL);
    expect(await paymentRow(env.app, id)).toMatchObject({
      status: 'disputed',
      disputeStatus: 'open',
      reversedCoins: SMALL,
    });
    expect(await reversals(userId)).toHaveLength(1);
    expect((await reversals(userId))[0]?.description).toBe('Payment disputed: Starter Pack (250 coins)');

    // Even with coins earned meanwhile, nothing can be bought or spent while the dispute is open.
    await grantCoins(env.app.server.ctx.store, userId, 40_000, env.app.clock.now());
    const stripeCalls = env.stripe.requests.length;
    expect(await spendStatuses(client, campaign.body.id)).toEqual({
      buy: 403,
      submit: 403,
      noBot: 403,
      promote: 403,
    });
    expect(env.stripe.requests.length).toBe(stripeCalls);
    const res = await client.post('/api/create-payment-intent', { packageType: 'small' });
    expect(res.body).toEqual({ message: DISPUTE_HOLD_MESSAGE });
    expect(await client.balanceCents()).toBe(15_000);
  });

  test('a dispute before spending takes the coins at once and the spend is refused', async () => {
    const { client, id } = await fulfilled('dispute_before_spend');
    await deliver('charge.dispute.created', env.stripe.dispute(id));
    expect(await client.balanceCents()).toBe(WELCOME);
    const res = await submitCampaign(client, 3);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: DISPUTE_HOLD_MESSAGE });
    expect(await client.balanceCents()).toBe(WELCOME);
  });

  test('a dispute won restores the coins once and lifts the hold; late "open" deliveries change nothing', async () => {
    const { client, id, userId } = await fulfilled('dispute_won');
    const { body: campaign } = await submitCampaign(client, 200);
    const opened = env.stripe.dispute(id);
    const created = env.stripe.event('charge.dispute.created', opened);
    await env.stripe.deliver(created);
    await deliver('charge.dispute.updated', { ...opened, status: 'under_review' });
    expect(await client.balanceCents()).toBe(WELCOME + SMALL - 20_000 - SMALL);

    const won = env.stripe.closeDispute(opened.id, 'won');
    await Promise.all([
      deliver('charge.dispute.closed', won),
      deliver('charge.dispute.funds_reinstated', won),
    ]);
    await deliver('charge.dispute.closed', won);
    expect(await client.balanceCents()).toBe(WELCOME + SMALL - 20_000);
    expect(await paymentRow(env.app, id)).toMatchObject({
      status: 'succeeded',
      disputeStatus: 'won',
      reversedCoins: 0,
    });

    await env.stripe.deliver(created);
    await deliver('charge.dispute.updated', { ...opened, status: 'under_review' });
    expect(await client.balanceCents()).toBe(WELCOME + SMALL - 20_000);
    expect((await paymentRow(env.app, id))?.disputeStatus).toBe('won');
    expect((await reversals(userId)).map((t) => t.amount)).toEqual([-SMALL, SMALL]);
    expect((await reversals(userId))[1]?.description).toBe(
      'Dispute won, coins restored: Starter Pack (250 coins)',
    );

    expect(await spendStatuses(client, campaign.id)).toEqual({
      buy: 200,
      submit: 201,
      noBot: 201,
      promote: 402,
    });
  });

  test('a dispute lost keeps the coins taken (the debt stays) and lifts the hold', async () => {
    const { client, id, userId } = await fulfilled('dispute_lost');
    const { body: campaign } = await submitCampaign(client, 255);
    const opened = env.stripe.dispute(id);
    await deliver('charge.dispute.created', opened);
    const lost = env.stripe.closeDispute(opened.id, 'lost');
    await deliver('charge.dispute.closed', lost);
    await deliver('charge.dispute.closed', lost);
    await deliver('charge.dispute.created', opened);
    expect(await client.balanceCents()).toBe(-SMALL);
    expect(await paymentRow(env.app, id)).toMatchObject({
      status: 'disputed',
      disputeStatus: 'lost',
      reversedCoins: SMALL,
    });
    expect(await reversals(userId)).toHaveLength(1);
    // Buying is allowed again (it repays the debt); spending is refused for want of coins, not by the hold.
    expect(await spendStatuses(client, campaign.id)).toEqual({
      buy: 200,
      submit: 402,
      noBot: 402,
      promote: 402,
    });
  });

  test('"won" delivered before "created" takes nothing and holds nothing', async () => {
    const { client, id, userId } = await fulfilled('won_first');
    const opened = env.stripe.dispute(id);
    const won = env.stripe.closeDispute(opened.id, 'won');
    await deliver('charge.dispute.closed', won);
    await deliver('charge.dispute.created', opened);
    await deliver('charge.dispute.funds_withdrawn', opened);
    expect(await client.balanceCents()).toBe(WELCOME + SMALL);
    expect(await reversals(userId)).toHaveLength(0);
    expect((await submitCampaign(client, 3)).status).toBe(201);
  });

  test('"lost" delivered before "created" takes the pack once', async () => {
    const { client, id, userId } = await fulfilled('lost_first');
    const opened = env.stripe.dispute(id);
    const lost = env.stripe.closeDispute(opened.id, 'lost');
    await deliver('charge.dispute.closed', lost);
    await deliver('charge.dispute.created', opened);
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(await reversals(userId)).toHaveLength(1);
    expect((await paymentRow(env.app, id))?.disputeStatus).toBe('lost');
  });

  test('a dispute arriving before the success event credits then reverses; the late success adds nothing', async () => {
    const client = await env.app.signIn('dispute_first');
    const { id } = await buyPack(client, 'small');
    const intent = env.stripe.succeed(id);
    await deliver('charge.dispute.created', env.stripe.dispute(id));
    await deliver('payment_intent.succeeded', intent);
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(await paymentRow(env.app, id)).toMatchObject({ status: 'disputed', reversedCoins: SMALL });
  });

  test('a partial dispute takes the disputed share', async () => {
    const { client, id } = await fulfilled('partial_dispute', 'medium');
    await deliver('charge.dispute.created', env.stripe.dispute(id, 250)); // a quarter of $10
    expect(await client.balanceCents()).toBe(WELCOME + 55_000 - 13_750);
    expect(await paymentRow(env.app, id)).toMatchObject({ status: 'disputed', reversedCoins: 13_750 });
  });

  test('a refund and a dispute on the same charge never take more than the pack', async () => {
    const { client, id } = await fulfilled('refund_then_dispute');
    await deliver('charge.refunded', env.stripe.refund(id));
    const opened = env.stripe.dispute(id);
    await deliver('charge.dispute.created', opened);
    expect(await client.balanceCents()).toBe(WELCOME);
    expect((await paymentRow(env.app, id))?.reversedCoins).toBe(SMALL);
    // Winning the dispute does not undo the refund.
    await deliver('charge.dispute.closed', env.stripe.closeDispute(opened.id, 'won'));
    expect(await client.balanceCents()).toBe(WELCOME);
  });

  test('a dispute racing a spend: either the spend went first and the debt covers it, or the spend is refused', async () => {
    const { client, id, userId } = await fulfilled('dispute_race');
    const [spend, hook] = await Promise.all([
      submitCampaign(client, 200),
      env.stripe.deliver(env.stripe.event('charge.dispute.created', env.stripe.dispute(id))),
    ]);
    expect(hook.status).toBe(200);
    expect([201, 403]).toContain(spend.status);
    expect(await client.balanceCents()).toBe(spend.status === 201 ? WELCOME - 20_000 : WELCOME);
    expect(await reversals(userId)).toHaveLength(1);
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
        status: 'needs_response',
      }),
    );
    expect(res.status).toBe(200);
    expect(env.app.logLines.some((l) => l.includes('WARN') && l.includes('pi_nobody'))).toBe(true);
  });

  test('a dispute in another currency than the payment is logged and changes nothing', async () => {
    const { client, id } = await fulfilled('wrong_currency');
    await deliver('charge.dispute.created', { ...env.stripe.dispute(id), currency: 'eur' });
    expect(await client.balanceCents()).toBe(WELCOME + SMALL);
    expect((await paymentRow(env.app, id))?.disputeStatus).toBeNull();
  });
});
