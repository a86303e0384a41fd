import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp } from '../test/harness.ts';
import type { CreatePaymentIntentResponse } from '../shared/payment-schemas.ts';
import Stripe from 'stripe';
import { INTENT_IDEMPOTENCY_WINDOW_MS, PAYMENT_IN_PROGRESS_MESSAGE } from './create-payment-intent.ts';
import { STRIPE_API_VERSION } from './stripe-client.ts';
import { buyPack, paymentRow, startPaymentsTestApp, type PaymentsTestEnv } from './test-support.ts';

let env: PaymentsTestEnv;
beforeAll(async () => {
  env = await startPaymentsTestApp();
});
afterAll(async () => {
  await env.close();
});
afterEach(() => env.app.checkLedger());

describe('POST /api/create-payment-intent', () => {
  test('creates a USD intent for the pack price with checkable metadata and records the payment', async () => {
    const client = await env.app.signIn('buyer_one');
    const res = await client.post<CreatePaymentIntentResponse>('/api/create-payment-intent', {
      packageType: 'large',
    });
    expect(res.status).toBe(200);
    expect(res.body.package).toEqual({ coins: 1500, price: 25 });
    expect(res.body.clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    const id = res.body.clientSecret.split('_secret_')[0]!;
    const intent = env.stripe.intents.get(id);
    expect(intent).toMatchObject({
      amount: 2500,
      currency: 'usd',
      status: 'requires_payment_method',
      automatic_payment_methods: { enabled: true },
      metadata: { userId: client.user!.id, packId: 'large', coins: '1500' },
    });
    expect(await paymentRow(env.app, id)).toMatchObject({
      userId: client.user!.id,
      packId: 'large',
      amountCents: 2500,
      currency: 'usd',
      coins: 150_000,
      status: 'created',
      fulfilledAt: null,
      reversedCoins: 0,
    });
  });

  test.each([[{ packageType: 'mega' }], [{ packageType: 'toString' }], [{ packageType: 5 }], [{}]])(
    'unknown package %j is a 400',
    async (body) => {
      const client = await env.app.signIn('bad_package');
      const before = env.stripe.requests.length;
      const res = await client.post('/api/create-payment-intent', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Unknown coin package' });
      expect(env.stripe.requests.length).toBe(before);
    },
  );

  test('requires sign-in', async () => {
    const res = await env.app.anonymous().post('/api/create-payment-intent', { packageType: 'small' });
    expect(res.status).toBe(401);
  });

  test('a double click gets the same intent (Idempotency-Key), a later purchase a new one', async () => {
    const client = await env.app.signIn('double_clicker');
    const [a, b] = await Promise.all([buyPack(client, 'small'), buyPack(client, 'small')]);
    expect(a.id).toBe(b.id);
    expect(a.body.clientSecret).toBe(b.body.clientSecret);
    const keys = env.stripe.requests
      .filter((r) => r.path === '/v1/payment_intents')
      .map((r) => r.idempotencyKey);
    expect(keys.at(-1)).toBe(keys.at(-2));
    expect(keys.at(-1)).toMatch(new RegExp(`^coinsync:pi:${client.user!.id}:small:`));
    const rows = await env.app.query(sql`SELECT id FROM payments WHERE user_id = ${client.user!.id}`);
    expect(rows).toHaveLength(1);

    // A different pack is a different purchase.
    const other = await buyPack(client, 'medium');
    expect(other.id).not.toBe(a.id);

    // After the window, the same pack gets a fresh intent.
    env.app.clock.advance(INTENT_IDEMPOTENCY_WINDOW_MS);
    const later = await buyPack(client, 'small');
    expect(later.id).not.toBe(a.id);
  });

  test('buying the same pack again right after paying gets a new intent, not the paid one', async () => {
    const client = await env.app.signIn('repeat_buyer');
    const first = await buyPack(client, 'small');
    env.stripe.succeed(first.id);
    expect((await client.post(`/api/payments/${first.id}/sync`)).status).toBe(200);
    const second = await buyPack(client, 'small');
    expect(second.id).not.toBe(first.id);
    expect(env.stripe.intents.get(second.id)?.status).toBe('requires_payment_method');
    expect(await client.balanceCents()).toBe(500 + 25_000);
  });

  test('the fake refuses a reused idempotency key with different parameters, like Stripe', async () => {
    const headers = {
      authorization: 'Bearer sk_test_fake',
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': 'k1',
    };
    const first = await fetch(`${env.stripe.url}/v1/payment_intents`, {
      method: 'POST',
      headers,
      body: 'amount=500&currency=usd',
    });
    const replay = await fetch(`${env.stripe.url}/v1/payment_intents`, {
      method: 'POST',
      headers,
      body: 'amount=500&currency=usd',
    });
    const changed = await fetch(`${env.stripe.url}/v1/payment_intents`, {
      method: 'POST',
      headers,
      body: 'amount=900&currency=usd',
    });
    expect(((await first.json()) as { id: string }).id).toBe(((await replay.json()) as { id: string }).id);
    expect(changed.status).toBe(400);
    expect(((await changed.json()) as { error: { type: string } }).error.type).toBe('idempotency_error');
  });
});

describe('talking to Stripe', () => {
  test('every request carries the pinned API version (the one this SDK is typed for)', async () => {
    const client = await env.app.signIn('versioned');
    const before = env.stripe.requests.length;
    const { id } = await buyPack(client, 'small');
    await client.post(`/api/payments/${id}/sync`);
    const seen = env.stripe.requests.slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen.map((r) => r.stripeVersion))).toEqual(new Set([STRIPE_API_VERSION]));
    // An SDK upgrade that changes its API version fails here: move the pin (and the webhook endpoint) on purpose.
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  async function untilSeen(predicate: () => boolean) {
    await expect.poll(predicate, { timeout: 5000, interval: 10 }).toBe(true);
  }

  test('a duplicate create while the first is still running is retried by the SDK and gets the same intent', async () => {
    const client = await env.app.signIn('two_tabs_wait');
    const release = env.stripe.holdCreates();
    const before = env.stripe.requests.length;
    const first = client.post<CreatePaymentIntentResponse>('/api/create-payment-intent', {
      packageType: 'medium',
    });
    await untilSeen(() => env.stripe.requests.length > before);
    const second = client.post<CreatePaymentIntentResponse>('/api/create-payment-intent', {
      packageType: 'medium',
    });
    await untilSeen(() => env.stripe.requests.slice(before).some((r) => r.status === 409));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.clientSecret).toBe(a.body.clientSecret);
    const creates = env.stripe.requests.slice(before).filter((r) => r.path === '/v1/payment_intents');
    expect(creates.length).toBeGreaterThanOrEqual(3); // first, the 409, the SDK's retry
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(1);
    const rows = await env.app.query(sql`SELECT id FROM payments WHERE user_id = ${client.user!.id}`);
    expect(rows).toHaveLength(1);
  });

  test('a duplicate create still in progress after the retries answers 409 "already in progress", not 502', async () => {
    const client = await env.app.signIn('two_tabs_busy');
    const release = env.stripe.holdCreates();
    const before = env.stripe.requests.length;
    const first = client.post<CreatePaymentIntentResponse>('/api/create-payment-intent', {
      packageType: 'large',
    });
    try {
      await untilSeen(() => env.stripe.requests.length > before);
      const second = await client.post('/api/create-payment-intent', { packageType: 'large' });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ message: PAYMENT_IN_PROGRESS_MESSAGE });
      // 1 + STRIPE_MAX_NETWORK_RETRIES attempts, each refused while the first holds the key.
      expect(env.stripe.requests.slice(before).filter((r) => r.status === 409)).toHaveLength(3);
    } finally {
      release();
    }
    expect((await first).status).toBe(200);
    const rows = await env.app.query(sql`SELECT id FROM payments WHERE user_id = ${client.user!.id}`);
    expect(rows).toHaveLength(1);
  });
});

describe('without Stripe configured', () => {
  test('checkout answers 503 with the spec message and the webhook refuses', async () => {
    const app = await startTestApp();
    try {
      const client = await app.signIn('no_stripe');
      const res = await client.post('/api/create-payment-intent', { packageType: 'small' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        message: 'Payment processing is currently unavailable. Please contact support.',
      });
      const config = await client.get<{ stripePublishableKey: string | null }>('/api/config');
      expect(config.body.stripePublishableKey).toBeNull();
      const hook = await fetch(`${app.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
        body: '{}',
      });
      expect(hook.status).toBe(503);
      expect(await client.balanceCents()).toBe(500);
      await app.checkLedger();
    } finally {
      await app.close();
    }
  });
});
