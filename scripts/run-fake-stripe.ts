// Runs the local fake of Stripe's HTTP API as its own process, for a production-mode product pointed
// at it with STRIPE_API_URL (the production-mode test). Prints one line with its URL. Confirmations
// through its API deliver signed webhook events on their own, as Stripe does.
//
//   node --import tsx scripts/run-fake-stripe.ts [--port 0] --webhook-url http://127.0.0.1:5000/api/stripe/webhook
// The signing secret comes from FAKE_STRIPE_WEBHOOK_SECRET (the product's STRIPE_WEBHOOK_SECRET).
// FAKE_STRIPE_SIGNING_SKEW_SECONDS (default 0) moves the webhook signatures' clock only: the fault
// drill's clock jump (Stripe's signature tolerance is 5 minutes).
import { parseArgs } from 'node:util';
import { startFakeStripe } from '../src/sim/stripe/index.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'webhook-url': { type: 'string' } },
});
const webhookSecret = process.env.FAKE_STRIPE_WEBHOOK_SECRET;
if (!values['webhook-url'] || !webhookSecret) {
  console.error(
    'usage: FAKE_STRIPE_WEBHOOK_SECRET=whsec_… run-fake-stripe.ts --webhook-url <product>/api/stripe/webhook [--port N]',
  );
  process.exit(2);
}
const fake = await startFakeStripe({
  port: Number(values.port),
  webhookUrl: values['webhook-url'],
  webhookSecret,
  autoWebhooks: true,
  signingSkewSeconds: Number(process.env.FAKE_STRIPE_SIGNING_SKEW_SECONDS ?? 0),
});
console.log(`Fake Stripe listening on ${fake.url}`);
const stop = () => {
  fake.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
