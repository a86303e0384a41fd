import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  buyPack,
  paymentRow,
  purchaseRows,
  startPaymentsTestApp,
  type PaymentsTestEnv,
} from './test-support.ts';
import type { SyncPaymentResponse } from '../shared/payment-schemas.ts';
import { HANDLED_EVENT_TYPES } from './handle-stripe-event.ts';

let env: PaymentsTestEnv;
beforeAll(async () => {
  env = await startPaymentsTestApp();
});
afterAll(async () => {
  await env.close();
});
afterEach(() => env.app.checkLedger());

const WELCOME = 500;

async function paidIntent(username: string, pack = 'medium') {
  const client = await env.app.signIn(username);
  const { id } = await buyPack(client, pack);
  const intent = env.stripe.succeed(id);
  return { client, id, intent };
}

describe('webhook signature', () => {
  test('missing, wrong-secret, altered and stale deliveries are refused with 400 and credit nothing', async () => {
    const { client, id, intent } = await paidIntent('sig_user');
    const event = env.stripe.event('payment_intent.succeeded', intent);

    const missing = await env.stripe.deliver(event, { omitSignature: true });
    const wrongSecret = await env.stripe.deliver(event, { secret: 'whsec_not_the_right_one' });
    const altered = await env.stripe.deliver(event, {
      alterBody: (body) => body.replace('"amount": 1000', '"amount": 100000'),
    });
    const stale = await env.stripe.deliver(event, { timestampOffsetSeconds: -301 });

    for (const res of [missing, wrongSecret, altered, stale]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: expect.any(String) as string });
    }
    expect(await client.balanceCents()).toBe(WELCOME);
    expect((await paymentRow(env.app, id))?.status).toBe('created');
    expect((await paymentRow(env.app, id))?.fulfilledAt).toBeNull();

    // The same event, correctly signed, is accepted: the refusals above were about the signature.
    const ok = await env.stripe.deliver(event);
    expect(ok.status).toBe(200);
    expect(await client.balanceCents()).toBe(WELCOME + 55_000);
  });

  test('a forged signature header is refused', async () => {
    const res = await fetch(`${env.app.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      body: '{"id":"evt_1"}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Invalid Stripe signature' });
  });
});

describe('exactly-once fulfilment', () => {
  test('one event delivered 10 times in sequence credits the pack once', async () => {
    const { client, id, intent } = await paidIntent('seq_user', 'small');
    const event = env.stripe.event('payment_intent.succeeded', intent);
    for (let i = 0; i < 10; i++) {
      const res = await env.stripe.deliver(event);
      expect(res.status).toBe(200);
    }
    expect(await client.balanceCents()).toBe(WELCOME + 25_000);
    const row = await paymentRow(env.app, id);
    expect(row?.status).toBe('succeeded');
    expect(row?.fulfilledAt).toBe(env.app.clock.now());
    expect(await purchaseRows(env.app, client.user!.id)).toHaveLength(1);
    expect((await purchaseRows(env.app, client.user!.id))[0]?.description).toBe(
      'Coin purchase: Starter Pack (250 coins)',
    );
  });

  test('10 concurrent deliveries (distinct event ids for the same intent) credit once', async () => {
    const { client, intent } = await paidIntent('concurrent_user', 'xlarge');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await client.balanceCents()).toBe(WELCOME + 350_000);
    expect(await purchaseRows(env.app, client.user!.id)).toHaveLength(1);
  });

  test('webhook first, then /sync: credited once and sync reports it', async () => {
    const { client, id, intent } = await paidIntent('hook_then_sync');
    await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent));
    const sync = await client.post<SyncPaymentResponse>(`/api/payments/${id}/sync`);
    expect(sync.status).toBe(200);
    expect(sync.body).toEqual({ status: 'succeeded', credited: true, failureMessage: null });
    expect(await client.balanceCents()).toBe(WELCOME + 55_000);
  });

  test('/sync first, then webhook: credited once', async () => {
    const { client, id, intent } = await paidIntent('sync_then_hook');
    const sync = await client.post<SyncPaymentResponse>(`/api/payments/${id}/sync`);
    expect(sync.body).toEqual({ status: 'succeeded', credited: true, failureMessage: null });
    const again = await client.post<SyncPaymentResponse>(`/api/payments/${id}/sync`);
    expect(again.body).toEqual({ status: 'succeeded', credited: true, failureMessage: null });
    await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent));
    expect(await client.balanceCents()).toBe(WELCOME + 55_000);
    expect(await purchaseRows(env.app, client.user!.id)).toHaveLength(1);
  });

  test('webhooks and syncs racing together credit once', async () => {
    const { client, id, intent } = await paidIntent('racer', 'large');
    const event = env.stripe.event('payment_intent.succeeded', intent);
    const calls = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? env.stripe.deliver(event).then((r) => r.status)
        : client.post(`/api/payments/${id}/sync`).then((r) => r.status),
    );
    expect(await Promise.all(calls)).toEqual(Array(12).fill(200));
    expect(await client.balanceCents()).toBe(WELCOME + 150_000);
    expect(await purchaseRows(env.app, client.user!.id)).toHaveLength(1);
  });

  test('/sync before the payment succeeded credits nothing and reports Stripe status', async () => {
    const client = await env.app.signIn('not_paid_yet');
    const { id } = await buyPack(client, 'small');
    const sync = await client.post<SyncPaymentResponse>(`/api/payments/${id}/sync`);
    expect(sync.body).toEqual({ status: 'requires_payment_method', credited: false, failureMessage: null });
    expect(await client.balanceCents()).toBe(WELCOME);
  });

  test('a delayed payment: /sync reports processing and credits nothing; the later success credits once', async () => {
    const client = await env.app.signIn('bank_debit');
    const { id } = await buyPack(client, 'medium');
    env.stripe.process(id);
    const sync = await client.post<SyncPaymentResponse>(`/api/payments/${id}/sync`);
    expect(sync.body).toEqual({ status: 'processing', credited: false, failureMessage: null });
    await env.stripe.deliver(env.stripe.event('payment_intent.processing', env.stripe.intents.get(id)!));
    expect(await client.balanceCents()).toBe(WELCOME);
    const intent = env.stripe.succeed(id);
    await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent));
    const after = await client.post<SyncPaymentResponse>(`/api/payments/${id}/sync`);
    expect(after.body).toEqual({ status: 'succeeded', credited: true, failureMessage: null });
    expect(await client.balanceCents()).toBe(WELCOME + 55_000);
    expect(await purchaseRows(env.app, client.user!.id)).toHaveLength(1);
  });

  test('/sync reports requires_action, a failed attempt with its reason, and a canceled intent, crediting nothing', async () => {
    const client = await env.app.signIn('not_finished');
    const a = await buyPack(client, 'small');
    env.stripe.requireAction(a.id);
    expect((await client.post<SyncPaymentResponse>(`/api/payments/${a.id}/sync`)).body).toEqual({
      status: 'requires_action',
      credited: false,
      failureMessage: null,
    });
    env.stripe.fail(a.id, 'Your bank declined the debit.');
    expect((await client.post<SyncPaymentResponse>(`/api/payments/${a.id}/sync`)).body).toEqual({
      status: 'requires_payment_method',
      credited: false,
      failureMessage: 'Your bank declined the debit.',
    });
    const b = await buyPack(client, 'medium');
    env.stripe.cancel(b.id);
    expect((await client.post<SyncPaymentResponse>(`/api/payments/${b.id}/sync`)).body).toMatchObject({
      status: 'canceled',
      credited: false,
    });
    expect(await client.balanceCents()).toBe(WELCOME);
  });

  test('the fake confirms like Stripe: 3-D Secure cards need action, bank debits go processing', async () => {
    const client = await env.app.signIn('confirm_methods');
    const headers = {
      authorization: 'Bearer sk_test_fake',
      'content-type': 'application/x-www-form-urlencoded',
    };
    const confirm = async (id: string, pm: string) =>
      (await (
        await fetch(`${env.stripe.url}/v1/payment_intents/${id}/confirm`, {
          method: 'POST',
          headers,
          body: `payment_method=${pm}`,
        })
      ).json()) as {
        status: string;
        next_action: unknown;
      };
    const a = await buyPack(client, 'small');
    expect(await confirm(a.id, 'pm_card_authenticationRequired')).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk' },
    });
    const b = await buyPack(client, 'medium');
    expect(await confirm(b.id, 'pm_usBankAccount_success')).toMatchObject({
      status: 'processing',
      next_action: null,
    });
    expect(await client.balanceCents()).toBe(WELCOME);
  });

  test("/sync on another user's payment or an unknown id is a 404", async () => {
    const { id } = await paidIntent('owner_of_payment');
    const mallory = await env.app.signIn('mallory');
    const res = await mallory.post(`/api/payments/${id}/sync`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Payment not found' });
    expect((await mallory.post('/api/payments/pi_doesnotexist/sync')).status).toBe(404);
    expect((await mallory.post('/api/payments/not-an-id/sync')).status).toBe(404);
    expect(await mallory.balanceCents()).toBe(WELCOME);
    expect((await paymentRow(env.app, id))?.fulfilledAt).toBeNull();
    expect((await env.app.anonymous().post(`/api/payments/${id}/sync`)).status).toBe(401);
  });
});

describe('events that do not match the payment record', () => {
  test('an amount mismatch credits nothing and logs a warning', async () => {
    const { client, id, intent } = await paidIntent('amount_mismatch');
    const forged = { ...intent, amount: 100 };
    const res = await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', forged));
    expect(res.status).toBe(200);
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(
      env.app.logLines.some((l) => l.includes('WARN') && l.includes(id) && l.includes('amount 100 != 1000')),
    ).toBe(true);
  });

  test('a different user in the metadata credits nobody and logs a warning', async () => {
    const { client, id, intent } = await paidIntent('user_mismatch');
    const bob = await env.app.signIn('bob_the_other');
    const forged = { ...intent, metadata: { ...intent.metadata, userId: bob.user!.id } };
    await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', forged));
    expect(await client.balanceCents()).toBe(WELCOME);
    expect(await bob.balanceCents()).toBe(WELCOME);
    expect(
      env.app.logLines.some((l) => l.includes('WARN') && l.includes(id) && l.includes('metadata.userId')),
    ).toBe(true);
    expect((await paymentRow(env.app, id))?.status).toBe('created');
  });

  test('an intent the server never created is acknowledged, logged and credits nothing', async () => {
    const stranger = await env.app.signIn('stranger');
    const res = await env.stripe.deliver(
      env.stripe.event('payment_intent.succeeded', {
        id: 'pi_unknown123',
        object: 'payment_intent',
        amount: 5000,
        currency: 'usd',
        status: 'succeeded',
        metadata: { userId: stranger.user!.id, packId: 'xlarge', coins: '3500' },
      }),
    );
    expect(res.status).toBe(200);
    expect(await stranger.balanceCents()).toBe(WELCOME);
    expect(env.app.logLines.some((l) => l.includes('WARN') && l.includes('pi_unknown123'))).toBe(true);
  });

  test.each(HANDLED_EVENT_TYPES.map((type) => [type]))(
    '%s about a payment the server never created is acknowledged and logged',
    async (type) => {
      const paymentIntent = `pi_stranger${type.replace(/[^a-z]/g, '')}`;
      const object = type.startsWith('payment_intent')
        ? {
            id: paymentIntent,
            object: 'payment_intent',
            amount: 500,
            currency: 'usd',
            status: 'succeeded',
            metadata: {},
          }
        : type.startsWith('charge.dispute')
          ? {
              id: 'dp_x',
              object: 'dispute',
              amount: 500,
              currency: 'usd',
              payment_intent: paymentIntent,
              status: 'needs_response',
            }
          : type === 'charge.refunded'
            ? {
                id: 'ch_x',
                object: 'charge',
                amount: 500,
                amount_refunded: 500,
                currency: 'usd',
                payment_intent: paymentIntent,
              }
            : {
                id: 're_x',
                object: 'refund',
                amount: 500,
                currency: 'usd',
                payment_intent: paymentIntent,
                status: 'succeeded',
              };
      const res = await env.stripe.deliver(env.stripe.event(type, object));
      expect(res.status).toBe(200);
      expect(env.app.logLines.some((l) => l.includes('WARN') && l.includes(paymentIntent))).toBe(true);
    },
  );

  test('events the product does not use are acknowledged', async () => {
    const res = await env.stripe.deliver(
      env.stripe.event('customer.created', { id: 'cus_1', object: 'customer' }),
    );
    expect(res.status).toBe(200);
  });
});
