import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { startFakeStripe, type FakeStripe } from '../sim/stripe/index.ts';
import { buyPack, WEBHOOK_SECRET } from './test-support.ts';

// Issue 27 item 3: payment routes must not amplify into Stripe (live limits: 100 requests/s per
// account, 25/s per endpoint). Counted at the Stripe fake: a terminal payment's sync answers from the
// database, concurrent syncs of one intent make one Stripe call, and each member's payment calls are
// limited per minute.

let app: TestApp;
let stripe: FakeStripe;

const retrieves = (id: string) =>
  stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${id}`).length;
const creates = () =>
  stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length;

beforeAll(async () => {
  stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  app = await startTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    },
    // The real per-user payment limit (20 a minute); the other limits out of the way.
    writeLimits: { perUser: { claim: 10_000 }, perAddress: 100_000 },
  });
  stripe.connect({ webhookUrl: `${app.url}/api/stripe/webhook`, now: () => app.clock.now() });
});
afterAll(async () => {
  await app.close();
  await stripe.close();
});

describe('payment routes and Stripe', () => {
  it('answers the sync of a fulfilled payment from the database, without asking Stripe', async () => {
    const member = await app.signIn('pay_terminal');
    const { id } = await buyPack(member, 'small');
    stripe.succeed(id);
    const first = await member.post<{ status: string; credited: boolean }>(`/api/payments/${id}/sync`);
    expect(first.body).toMatchObject({ status: 'succeeded', credited: true });
    const before = retrieves(id);
    for (let i = 0; i < 10; i++) {
      const res = await member.post<{ status: string; credited: boolean }>(`/api/payments/${id}/sync`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'succeeded', credited: true, failureMessage: null });
    }
    expect(retrieves(id)).toBe(before);
  });

  it('makes one Stripe call for concurrent syncs of one intent', async () => {
    const member = await app.signIn('pay_concurrent');
    const { id } = await buyPack(member, 'small');
    stripe.process(id);
    const release = stripe.holdRetrieves();
    const syncs = Array.from({ length: 12 }, () =>
      member.post<{ status: string }>(`/api/payments/${id}/sync`),
    );
    // Every sync is waiting on the held call before it is released: the first has reached Stripe, and the
    // others get time to arrive. 200 ms was not enough when the PostgreSQL suites run beside the browser
    // tests (load ~15, decision 060): a sync arriving after the release is a new call, rightly.
    for (let i = 0; i < 500 && retrieves(id) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 1500));
    release();
    const answers = await Promise.all(syncs);
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(answers.every((a) => a.body.status === 'processing')).toBe(true);
    expect(retrieves(id)).toBe(1);
  });

  it('limits each member’s payment calls per minute (429 with a message), not other members’', async () => {
    const member = await app.signIn('pay_limited');
    const other = await app.signIn('pay_other');
    const before = creates();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push((await member.post('/api/create-payment-intent', { packageType: 'small' })).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual(Array(5).fill(429));
    expect(creates() - before).toBe(20);
    const refused = await member.post<{ message: string }>('/api/create-payment-intent', {
      packageType: 'small',
    });
    expect(refused.body.message).toMatch(/Too many requests/);
    expect((await other.post('/api/create-payment-intent', { packageType: 'small' })).status).toBe(200);
  });
});
