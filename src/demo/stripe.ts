import { randomBytes } from 'node:crypto';
import express, { type Router } from 'express';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { startFakeStripe, type FakeStripe } from '../sim/stripe/index.ts';

/** Where demo mode mounts the fake Stripe's browser side (Stripe.js stand-in, 3-D Secure page). */
export const DEMO_STRIPE_PATH = '/stripe-sim';

/**
 * Demo mode's Stripe, when no Stripe keys are configured: the local fake of Stripe's API (src/sim/stripe)
 * with test keys and a webhook secret of this process. The product's Stripe SDK talks to it on its own
 * loopback port (the SDK has no base path), the browser through `/stripe-sim` on our own server (the
 * Stripe.js stand-in and the 3-D Secure page). A confirmation delivers a really signed webhook to
 * /api/stripe/webhook, as Stripe does. server.ts loads this module on demand, so production code paths
 * never import src/sim. Sets `config.stripe` before the Stripe client is built.
 */
export async function startDemoStripe(
  config: Config,
  logger: Logger,
  options: {
    /** The product's clock: webhook signatures carry its time. */
    now?: () => number;
    /** Tests: mount it in a configuration that is not a demo (never in production). */
    force?: boolean;
  } = {},
): Promise<{ fake: FakeStripe; route: { path: string; router: Router } } | undefined> {
  if (config.production || (!config.demoMode && !options.force) || config.stripe.secretKey) return undefined;
  const webhookSecret = `whsec_demo_${randomBytes(18).toString('hex')}`;
  const fake = await startFakeStripe({
    webhookUrl: `${config.publicUrl.replace(/\/$/, '')}/api/stripe/webhook`,
    webhookSecret,
    autoWebhooks: true,
    now: options.now,
    browserUrl: DEMO_STRIPE_PATH,
    // Beside the database, like the Discord simulator's state: a restart keeps the intents.
    statePath:
      config.databasePath === ':memory:' || config.database.kind === 'pg'
        ? undefined
        : config.databasePath.replace(/\.db$/, '') + '.stripe-sim.json',
  });
  config.stripe = {
    secretKey: `sk_test_demo_${randomBytes(18).toString('hex')}`,
    publishableKey: 'pk_test_demo_coinsync',
    webhookSecret,
    apiUrl: fake.url,
    jsUrl: `${DEMO_STRIPE_PATH}/stripe.js`,
  };
  logger.info(`demo payments: fake Stripe at ${fake.url}, Stripe.js stand-in at ${config.stripe.jsUrl}`);
  const router = express.Router();
  // The browser side holds the publishable key only: a secret key is not taken here.
  router.use((req, res) => {
    if (/^Bearer sk_/i.test(req.headers.authorization ?? '')) {
      res.status(403).json({ error: { type: 'invalid_request_error', message: 'Use the API port.' } });
      return;
    }
    fake.handler(req, res);
  });
  return { fake, route: { path: DEMO_STRIPE_PATH, router } };
}
