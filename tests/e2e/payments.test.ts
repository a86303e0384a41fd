import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../src/payments/fake-stripe/index.ts';
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
    await e2e.signIn(page, 'no_keys');
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
      for (const part of [name, coins, price, per100, 'Purchase Now', ...(note ? [note] : [])]) expect(text).toContain(part);
    }
    expect(await page.getByTestId('pack-medium').innerText()).toMatch(/most popular/i);
    for (const step of ['Choose a package', 'Secure card payment', 'Instant delivery']) await page.getByText(step, { exact: true }).waitFor();
    await page.getByText('All purchases are final and non-refundable.').waitFor();
    const support = page.getByRole('link', { name: 'Join Support Server' });
    expect(await support.getAttribute('href')).toBe('https://discord.gg/coinsync-support');

    await page.getByRole('button', { name: 'Purchase Now: Pro Pack' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout' && url.searchParams.get('package') === 'large');
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
    await e2e.signIn(page, 'bad_pack');
    await page.goto('/checkout?package=gigantic');
    await page.waitForURL((url) => url.pathname === '/buy-coins');
  });

  it('checkout shows the summary, a declined card re-enables the form, a good card credits the pack', async () => {
    const { page, context, errors } = await e2e.newPage();
    const stub = await installStripeStub(context, fake);
    await e2e.signIn(page, 'card_buyer');
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

  it('returning to /dashboard?payment_intent=... syncs the payment once and cleans the URL', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'redirect_buyer');
    const res = await page.request.post('/api/create-payment-intent', { data: { packageType: 'medium' } });
    const { clientSecret } = (await res.json()) as { clientSecret: string };
    const id = clientSecret.split('_secret_')[0]!;
    fake.succeed(id);
    await page.goto(`/dashboard?payment_intent=${id}&payment_intent_client_secret=${clientSecret}&redirect_status=succeeded`);
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.search === '');
    await page.getByText('Payment Successful').waitFor();
    await page.getByText('555.00').first().waitFor();
    await page.reload();
    await page.getByText('555.00').first().waitFor();
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });
});
