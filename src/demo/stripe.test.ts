// Demo mode's payments: the fake Stripe mounted on our own server with its Stripe.js stand-in, driven as
// the stand-in drives it from a browser (publishable key + client secret), with coins arriving only
// through the fake's signed webhook. And never outside a demo: production cannot mount it.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { startDemoStripe } from './stripe.ts';

const WELCOME_CENTS = 500;
const SMALL_PACK_CENTS = 250 * 100;

interface Intent {
  id: string;
  status: string;
  next_action?: { type: string; redirect_to_url?: { url: string; return_url: string } } | null;
}

describe('demo payments (fake Stripe mounted at /stripe-sim)', () => {
  let app: TestApp;
  let publishableKey: string;
  beforeAll(async () => {
    app = await startTestApp({ demoStripe: true });
    const config = (await (await fetch(`${app.url}/api/config`)).json()) as {
      stripePublishableKey: string;
      stripeJsUrl: string;
    };
    publishableKey = config.stripePublishableKey;
  });
  afterAll(() => app?.close());

  /** What the stand-in's confirmPayment sends (src/sim/stripe/browser.ts). */
  async function confirm(
    clientSecret: string,
    paymentMethod: string,
    extra: Record<string, string> = {},
    key = publishableKey,
  ): Promise<{ status: number; body: Intent & { error?: { code: string; message: string } } }> {
    const id = clientSecret.split('_secret_')[0]!;
    const res = await fetch(`${app.url}/stripe-sim/v1/payment_intents/${id}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: clientSecret, payment_method: paymentMethod, ...extra }),
    });
    return { status: res.status, body: (await res.json()) as never };
  }

  async function startCheckout(client: TestClient): Promise<string> {
    const res = await client.post<{ clientSecret: string }>('/api/create-payment-intent', {
      packageType: 'small',
    });
    expect(res.status).toBe(200);
    return res.body.clientSecret;
  }

  it('serves the Stripe.js stand-in and names it and the test publishable key in the public config', async () => {
    const config = (await (await fetch(`${app.url}/api/config`)).json()) as Record<string, unknown>;
    expect(config.stripePublishableKey).toMatch(/^pk_test_/);
    expect(config.stripeJsUrl).toBe('/stripe-sim/stripe.js');
    expect(JSON.stringify(config)).not.toMatch(/sk_test|whsec/);
    const script = await fetch(`${app.url}/stripe-sim/stripe.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    const text = await script.text();
    expect(text).toContain('window.Stripe');
    expect(text).toContain('confirmPayment');
  });

  it('card accepted: the coins arrive through the signed webhook', async () => {
    const client = await app.signIn('demo_buyer_ok');
    const { status, body } = await confirm(await startCheckout(client), 'pm_card_visa');
    expect(status).toBe(200);
    expect(body.status).toBe('succeeded');
    // Nobody calls sync and no background job runs: only the fake's webhook, signed with this process's
    // secret, can credit.
    await expect.poll(() => client.balanceCents()).toBe(WELCOME_CENTS + SMALL_PACK_CENTS);
    const [row] = await app.query<{ status: string }>(sql`SELECT status FROM payments WHERE id = ${body.id}`);
    expect(row?.status).toBe('succeeded');
    // Its state is kept beside the SQLite database, so the payment still exists at the fake after a
    // restart (on PostgreSQL there is no database file to keep it beside: src/demo/stripe.ts).
    if (app.server.config.database.kind === 'sqlite') {
      expect(existsSync(app.server.config.databasePath.replace(/\.db$/, '') + '.stripe-sim.json')).toBe(true);
    }
    await app.checkLedger();
  });

  it('card declined: 402 card_declined and no coins', async () => {
    const client = await app.signIn('demo_buyer_declined');
    const { status, body } = await confirm(await startCheckout(client), 'pm_card_chargeDeclined');
    expect(status).toBe(402);
    expect(body.error).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    expect(await client.balanceCents()).toBe(WELCOME_CENTS);
  });

  it('3-D Secure: a redirect to the bank page, completed there, back to the return URL, coins credited', async () => {
    const client = await app.signIn('demo_buyer_3ds');
    const returnUrl = `${app.url}/dashboard`;
    const { body } = await confirm(await startCheckout(client), 'pm_card_authenticationRequired', {
      return_url: returnUrl,
    });
    expect(body.status).toBe('requires_action');
    expect(body.next_action?.type).toBe('redirect_to_url');
    const challengeUrl = new URL(body.next_action!.redirect_to_url!.url, app.url);
    expect(challengeUrl.pathname).toBe(`/stripe-sim/authenticate/${body.id}`);
    const page = await fetch(challengeUrl);
    const html = await page.text();
    expect(html).toContain('Complete authentication');
    expect(await client.balanceCents()).toBe(WELCOME_CENTS);

    const form = new URLSearchParams({
      client_secret: challengeUrl.searchParams.get('client_secret')!,
      return_url: challengeUrl.searchParams.get('return_url')!,
      outcome: 'complete',
    });
    const done = await fetch(challengeUrl, { method: 'POST', body: form, redirect: 'manual' });
    expect(done.status).toBe(303);
    const back = new URL(done.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(returnUrl);
    expect(back.searchParams.get('payment_intent')).toBe(body.id);
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    await expect.poll(() => client.balanceCents()).toBe(WELCOME_CENTS + SMALL_PACK_CENTS);
    await app.checkLedger();
  });

  it('3-D Secure failed: back with redirect_status=failed and no coins', async () => {
    const client = await app.signIn('demo_buyer_3ds_fail');
    const { body } = await confirm(await startCheckout(client), 'pm_card_authenticationRequired', {
      return_url: `${app.url}/dashboard`,
    });
    const challengeUrl = new URL(body.next_action!.redirect_to_url!.url, app.url);
    const form = new URLSearchParams({
      client_secret: challengeUrl.searchParams.get('client_secret')!,
      return_url: challengeUrl.searchParams.get('return_url')!,
      outcome: 'fail',
    });
    const done = await fetch(challengeUrl, { method: 'POST', body: form, redirect: 'manual' });
    expect(new URL(done.headers.get('location')!).searchParams.get('redirect_status')).toBe('failed');
    expect(await client.balanceCents()).toBe(WELCOME_CENTS);
  });

  it('the browser side takes only the publishable key with the intent own client secret', async () => {
    const client = await app.signIn('demo_buyer_keys');
    const clientSecret = await startCheckout(client);
    const wrongSecret = clientSecret.replace(/_secret_.*/, '_secret_nope');
    expect((await confirm(wrongSecret, 'pm_card_visa')).status).toBe(404);
    // The secret key is the server's, on the API port: refused on the mounted path even if known.
    const secretKey = app.server.ctx.config.stripe.secretKey!;
    expect((await confirm(clientSecret, 'pm_card_visa', {}, secretKey)).status).toBe(403);
    expect((await confirm(clientSecret, 'pm_card_visa', {}, 'pk_test_other')).status).toBe(200);
    await expect.poll(() => client.balanceCents()).toBe(WELCOME_CENTS + SMALL_PACK_CENTS);
  });
});

describe('outside a demo', () => {
  it('a configuration that is not a demo mounts nothing at /stripe-sim and keeps payments off', async () => {
    const app = await startTestApp();
    try {
      expect((await fetch(`${app.url}/stripe-sim/stripe.js`)).status).toBe(404);
      const confirm = await fetch(`${app.url}/stripe-sim/v1/payment_intents/pi_x/confirm`, {
        method: 'POST',
      });
      expect(confirm.status).toBe(404);
      const config = (await (await fetch(`${app.url}/api/config`)).json()) as Record<string, unknown>;
      expect(config.stripePublishableKey).toBeNull();
      expect(config.stripeJsUrl).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('production never starts it, even when asked', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DISCORD_CLIENT_ID: '1',
      DISCORD_CLIENT_SECRET: 's',
      DISCORD_BOT_TOKEN: 't',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://coinsync.example',
      TOKEN_ENCRYPTION_KEY: 'a'.repeat(64),
    });
    expect(await startDemoStripe(config, createLogger('silent'), { force: true })).toBeUndefined();
    expect(config.stripe.secretKey).toBeUndefined();
  });
});
