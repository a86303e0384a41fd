import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2E, waitUntilInteractive, type E2E, renderedHtml } from './support.ts';

// Demo mode's payments at phone width, offline: the fake Stripe mounted on the product's own server with
// its Stripe.js stand-in (src/demo/stripe.ts). Nothing here routes or stubs a request: the page loads the
// stand-in from /stripe-sim, confirms at the fake, and the fake's signed webhook reaches /api/stripe/webhook.

const PHONE = { width: 390, height: 844 };

async function balance(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/user')).json()) as { coins: string }).coins;
}

async function openCheckout(page: Page): Promise<void> {
  await page.goto('/buy-coins');
  await waitUntilInteractive(page);
  await page.getByRole('button', { name: 'Purchase Now: Starter Pack' }).click();
  await page.waitForURL((url) => url.pathname === '/checkout');
  await page.getByRole('heading', { name: 'Complete Purchase' }).waitFor();
  await page.getByText('Demo mode: no real card is charged. Test cards:').waitFor();
}

describe('demo mode: buying a pack offline', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ demoStripe: true });
  });
  afterAll(() => e2e.close());

  it('a declined card says so and keeps the form; the accepted card credits the pack', async () => {
    const { page, context, errors } = await e2e.newPage(PHONE);
    const outside: string[] = [];
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
      outside.push(route.request().url());
      return route.abort();
    });
    await e2e.signIn(page, 'demo_card', { open: false });
    await openCheckout(page);
    const pay = page.getByRole('button', { name: 'Pay $5' });
    await expect.poll(() => pay.isEnabled()).toBe(true);

    await page.getByRole('button', { name: /Use test card 4000 0000 0000 0002/ }).click();
    expect(await page.getByRole('textbox', { name: 'Card number' }).inputValue()).toBe('4000 0000 0000 0002');
    await pay.click();
    await page.getByText('Payment Failed').waitFor();
    await page.getByText('Your card was declined.').waitFor();
    await expect.poll(() => pay.isEnabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/checkout');
    expect(await balance(page)).toBe('5.00');

    await page.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
    await pay.click();
    await page.getByText('Payment Successful').waitFor();
    await page.getByText('Your coins have been added!').waitFor();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByText('255.00').first().waitFor();
    expect(await balance(page)).toBe('255.00');
    e2e.app.assertLedger();
    expect(outside).toEqual([]);
    // The browser logs the decline's 402 from the fake's API (real Stripe.js makes that request in its
    // own frame); nothing else may go wrong.
    expect(errors.filter((e) => !/402 \(Payment Required\) @ \S+\/stripe-sim\/v1\//.test(e))).toEqual([]);
  });

  it('a 3-D Secure card goes to the bank page and back; completing it credits the pack', async () => {
    const { page, errors } = await e2e.newPage(PHONE);
    await e2e.signIn(page, 'demo_3ds', { open: false });
    await openCheckout(page);
    const pay = page.getByRole('button', { name: 'Pay $5' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Card number' }).fill('4000 0027 6000 3184');
    await pay.click();
    await page.waitForURL((url) => url.pathname.startsWith('/stripe-sim/authenticate/'));
    await page.getByRole('heading', { name: 'Confirm your payment' }).waitFor();
    expect(await balance(page)).toBe('5.00');
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByText('Payment Successful').waitFor();
    // The return's Stripe parameters are removed from the address bar.
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await page.getByText('255.00').first().waitFor();
    expect(await balance(page)).toBe('255.00');
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });

  it('failing the 3-D Secure check comes back as a failed payment and credits nothing', async () => {
    const { page, errors } = await e2e.newPage(PHONE);
    await e2e.signIn(page, 'demo_3ds_fail', { open: false });
    await openCheckout(page);
    const pay = page.getByRole('button', { name: 'Pay $5' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await page.getByRole('button', { name: /Use test card 4000 0027 6000 3184/ }).click();
    await pay.click();
    await page.waitForURL((url) => url.pathname.startsWith('/stripe-sim/authenticate/'));
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByText('Payment Failed').waitFor();
    expect(await balance(page)).toBe('5.00');
    expect(errors).toEqual([]);
  });
});

describe('payments off (no Stripe keys, not a demo)', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it('Buy Coins says so before any click and offers no pack to buy', async () => {
    const { page, errors } = await e2e.newPage(PHONE);
    await e2e.signIn(page, 'no_payments', { open: false });
    await page.goto('/buy-coins');
    await waitUntilInteractive(page);
    await page.getByText('Card payments are not available right now').waitFor();
    for (const name of ['Starter Pack', 'Growth Pack', 'Pro Pack', 'Ultimate Pack']) {
      const button = page.getByRole('button', { name: `Unavailable: ${name}` });
      expect(await button.isDisabled()).toBe(true);
    }
    expect(await page.getByRole('button', { name: /^Purchase Now/ }).count()).toBe(0);
    // The server's HTML already says it (the config is in the boot data): no flash of packs for sale.
    const html = await renderedHtml(page.request, '/buy-coins');
    expect(html).toContain('Card payments are not available right now');
    // The API refuses too.
    const res = await page.request.post('/api/create-payment-intent', {
      data: { packageType: 'small' },
      headers: { origin: e2e.app.url },
    });
    expect(res.status()).toBe(503);
    expect(await res.json()).toEqual({
      message: 'Payment processing is currently unavailable. Please contact support.',
    });
    expect(errors).toEqual([]);
  });
});
