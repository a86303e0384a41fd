import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../src/sim/stripe/index.ts';
import { installStripeStub } from './payments-stripe-stub.ts';
import { startE2E, type E2E } from './support.ts';

describe('without Stripe keys', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it('checkout shows the Stripe Not Configured panel and never loads Stripe.js', async () => {
    const { page, context, errors } = await e2e.newPage({ width: 390, height: 844 });
    const stripeRequests: string[] = [];
    await context.route('https://*.stripe.com/**', (route) => {
      stripeRequests.push(route.request().url());
      return route.abort();
    });
    await e2e.signIn(page, 'no_keys', { open: false });
    await page.goto('/checkout?package=medium');
    await page.getByRole('heading', { name: 'Stripe Not Configured' }).waitFor();
    await page.getByText('Payment processing is currently unavailable. Please contact support.').waitFor();
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0);
    expect(stripeRequests).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('with Stripe (local fake, Stripe.js stubbed)', () => {
  let e2e: E2E;
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe({ webhookSecret: 'whsec_test' });
    e2e = await startE2E({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
        STRIPE_WEBHOOK_SECRET: 'whsec_test',
        STRIPE_API_URL: fake.url,
      },
    });
    fake.connect({ webhookUrl: `${e2e.app.url}/api/stripe/webhook`, now: () => e2e.app.clock.now() });
  });
  afterAll(async () => {
    await e2e.close();
    await fake.close();
  });

  it('Buy Coins shows the four packs, prices per 100 coins, how it works, help and the no-refund note', async () => {
    const { page, context, errors } = await e2e.newPage();
    const stripeRequests: string[] = [];
    await context.route('https://*.stripe.com/**', (route) => {
      stripeRequests.push(route.request().url());
      return route.abort();
    });
    await e2e.signIn(page, 'browser');
    await page.getByRole('link', { name: 'Buy Coins', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Buy Coins' }).waitFor();

    const expected = [
      ['small', 'Starter Pack', '250', '$5', '$2.00 per 100 coins', null],
      ['medium', 'Growth Pack', '550', '$10', '$1.82 per 100 coins', '+50 bonus coins'],
      ['large', 'Pro Pack', '1,500', '$25', '$1.67 per 100 coins', '+250 bonus'],
      ['xlarge', 'Ultimate Pack', '3,500', '$50', '$1.43 per 100 coins', '+1000 bonus'],
    ] as const;
    for (const [id, name, coins, price, per100, note] of expected) {
      const card = page.getByTestId(`pack-${id}`);
      const text = await card.innerText();
      for (const part of [name, coins, price, per100, 'Purchase Now', ...(note ? [note] : [])])
        expect(text).toContain(part);
    }
    expect(await page.getByTestId('pack-medium').innerText()).toMatch(/most popular/i);
    for (const step of ['Choose a package', 'Secure card payment', 'Instant delivery'])
      await page.getByText(step, { exact: true }).waitFor();
    await page.getByText('All purchases are final and non-refundable.').waitFor();
    const support = page.getByRole('link', { name: 'Join Support Server' });
    expect(await support.getAttribute('href')).toBe('https://discord.gg/coinsync-support');

    await page.getByRole('button', { name: 'Purchase Now: Pro Pack' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/checkout' && url.searchParams.get('package') === 'large',
    );
    expect(stripeRequests.every((u) => u.startsWith('https://js.stripe.com/'))).toBe(true);
    expect(errors.filter((e) => !/stripe/i.test(e))).toEqual([]);
  });

  it('a failed payment session sends the user back to Buy Coins without a message', async () => {
    const { page, errors } = await e2e.newPage();
    await e2e.signIn(page, 'session_fail');
    await page.route('**/api/create-payment-intent', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await page.goto('/checkout?package=small');
    await page.waitForURL((url) => url.pathname === '/buy-coins');
    await page.getByRole('heading', { name: 'Buy Coins' }).waitFor();
    expect(await page.getByText('boom').count()).toBe(0);
    // The browser logs the failed request itself; nothing else may go wrong.
    expect(errors.filter((e) => !/500 \(Internal Server Error\)/.test(e))).toEqual([]);
  });

  it('an unknown package bounces back to Buy Coins', async () => {
    const { page } = await e2e.newPage();
    await e2e.signIn(page, 'bad_pack', { open: false });
    await page.goto('/checkout?package=gigantic');
    await page.waitForURL((url) => url.pathname === '/buy-coins');
  });

  it('checkout shows the summary, a declined card re-enables the form, a good card credits the pack', async () => {
    const { page, context, errors } = await e2e.newPage();
    const stub = await installStripeStub(context, fake);
    await e2e.signIn(page, 'card_buyer', { open: false });
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Complete Purchase' }).waitFor();
    expect(await page.getByTestId('summary-coins').innerText()).toBe('250 coins');
    expect(await page.getByTestId('summary-total').innerText()).toBe('$5');
    const pay = page.getByRole('button', { name: 'Pay $5' });
    // Disabled until the payment form reports ready.
    await expect.poll(() => pay.isEnabled()).toBe(true);

    stub.outcome = 'decline';
    await pay.click();
    await page.getByText('Payment Failed').waitFor();
    await page.getByText('Your card was declined.').waitFor();
    expect(await pay.isEnabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/checkout');

    stub.outcome = 'succeed';
    await pay.click();
    await page.getByText('Payment Successful').waitFor();
    await page.getByText('Your coins have been added!').waitFor();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByText('255.00').first().waitFor();
    expect(stub.confirmed).toHaveLength(1);

    // The webhook arriving afterwards changes nothing.
    const intent = fake.intents.get(stub.confirmed[0]!)!;
    expect((await fake.deliver(fake.event('payment_intent.succeeded', intent))).status).toBe(200);
    const me = await page.request.get('/api/auth/user');
    expect(((await me.json()) as { coins: string }).coins).toBe('255.00');
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });

  it('a delayed payment says processing, not added; the coins arrive with the webhook', async () => {
    const { page, context, errors } = await e2e.newPage();
    const stub = await installStripeStub(context, fake);
    await e2e.signIn(page, 'bank_buyer', { open: false });
    await page.goto('/checkout?package=medium');
    const pay = page.getByRole('button', { name: 'Pay $10' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    stub.outcome = 'processing';
    await pay.click();
    await page.getByText('Payment processing — your coins arrive when your bank confirms').waitFor();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(await page.getByText('Your coins have been added!').count()).toBe(0);
    const balance = async () =>
      ((await (await page.request.get('/api/auth/user')).json()) as { coins: string }).coins;
    expect(await balance()).toBe('5.00');

    const intent = fake.succeed(stub.confirmed[0]!);
    expect((await fake.deliver(fake.event('payment_intent.succeeded', intent))).status).toBe(200);
    expect(await balance()).toBe('555.00');
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });

  it('an unfinished bank authentication (requires_action) is a failure and the form stays usable', async () => {
    const { page, context, errors } = await e2e.newPage({ width: 390, height: 844 });
    const stub = await installStripeStub(context, fake);
    await e2e.signIn(page, 'sca_buyer', { open: false });
    await page.goto('/checkout');
    const pay = page.getByRole('button', { name: 'Pay $5' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    stub.outcome = 'requires_action';
    await pay.click();
    await page.getByText('Payment Failed').waitFor();
    await page
      .getByText('The payment was not authenticated with your bank. No coins were added. Please try again.')
      .waitFor();
    await expect.poll(() => pay.isEnabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/checkout');
    expect(errors).toEqual([]);
  });

  for (const [name, setUp, expected] of [
    [
      "redirect_status=failed with the bank's reason",
      (id: string) => fake.fail(id, 'Your bank declined the debit.'),
      'Your bank declined the debit.',
    ],
    [
      'a canceled payment',
      (id: string) => fake.cancel(id),
      'This payment was canceled. No coins were added.',
    ],
    ['a payment still processing', (id: string) => fake.process(id), 'No need to pay again'],
  ] as const) {
    it(`returning after ${name} says so and credits nothing`, async () => {
      const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
      await e2e.signIn(page, `return_${name.length}`, { open: false });
      const res = await page.request.post('/api/create-payment-intent', { data: { packageType: 'small' } });
      const { clientSecret } = (await res.json()) as { clientSecret: string };
      const id = clientSecret.split('_secret_')[0]!;
      const intent = setUp(id);
      const redirectStatus = intent.status === 'processing' ? 'processing' : 'failed';
      await page.goto(
        `/dashboard?payment_intent=${id}&payment_intent_client_secret=${clientSecret}&redirect_status=${redirectStatus}`,
      );
      await page.waitForURL((url) => url.pathname === '/dashboard' && url.search === '');
      await page.getByText(expected, { exact: false }).waitFor();
      expect(await page.getByText('Payment Successful').count()).toBe(0);
      const me = await page.request.get('/api/auth/user');
      expect(((await me.json()) as { coins: string }).coins).toBe('5.00');
      expect(errors).toEqual([]);
    });
  }

  it('while a dispute is open, checkout explains that purchases are paused', async () => {
    const { page, context, errors } = await e2e.newPage();
    const stub = await installStripeStub(context, fake);
    await e2e.signIn(page, 'disputer', { open: false });
    await page.goto('/checkout');
    const pay = page.getByRole('button', { name: 'Pay $5' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await pay.click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(
      (await fake.deliver(fake.event('charge.dispute.created', fake.dispute(stub.confirmed[0]!)))).status,
    ).toBe(200);

    await page.goto('/checkout?package=large');
    await page.getByRole('heading', { name: 'Purchases paused' }).waitFor();
    await page
      .getByText(
        'A payment on your account is disputed. Buying and spending coins is paused until the dispute is resolved.',
      )
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/checkout');
    e2e.app.assertLedger();
    // The browser logs the refused request itself; nothing else may go wrong.
    expect(errors.filter((e) => !/403 \(Forbidden\)/.test(e))).toEqual([]);
  });

  it('two tabs opening the same checkout at once both get the one payment session', async () => {
    const first = await e2e.newPage();
    await installStripeStub(first.context, fake);
    await e2e.signIn(first.page, 'two_tabs');
    const second = await first.context.newPage();
    const release = fake.holdCreates();
    const before = fake.requests.length;
    try {
      await Promise.all([
        first.page.goto('/checkout?package=xlarge'),
        second.goto('/checkout?package=xlarge'),
      ]);
      await expect
        .poll(() => fake.requests.slice(before).some((r) => r.status === 409), { timeout: 10_000 })
        .toBe(true);
    } finally {
      release();
    }
    for (const page of [first.page, second])
      await page.getByRole('heading', { name: 'Complete Purchase' }).waitFor();
    const creates = fake.requests
      .slice(before)
      .filter((r) => r.path === '/v1/payment_intents' && r.status === 200);
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(await second.getByTestId('summary-total').innerText()).toBe('$50');
    expect(first.errors.filter((e) => !/409 \(Conflict\)/.test(e))).toEqual([]);
  });

  it('returning to /dashboard?payment_intent=... syncs the payment once and cleans the URL', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'redirect_buyer', { open: false });
    const res = await page.request.post('/api/create-payment-intent', { data: { packageType: 'medium' } });
    const { clientSecret } = (await res.json()) as { clientSecret: string };
    const id = clientSecret.split('_secret_')[0]!;
    fake.succeed(id);
    await page.goto(
      `/dashboard?payment_intent=${id}&payment_intent_client_secret=${clientSecret}&redirect_status=succeeded`,
    );
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.search === '');
    await page.getByText('Payment Successful').waitFor();
    await page.getByText('555.00').first().waitFor();
    await page.reload();
    await page.getByText('555.00').first().waitFor();
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });
});
