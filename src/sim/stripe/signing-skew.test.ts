import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { startFakeStripe } from './index.ts';

// The fault drill's clock jump (issue 29 item 6): the fake can sign its webhooks with a clock that
// disagrees with the receiver's. Stripe's library refuses a signature older than its 5-minute tolerance.
const SECRET = 'whsec_skew_test_0123456789';

async function signedDelivery(signingSkewSeconds?: number) {
  const received: { body: string; signature: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['stripe-signature']) });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const fake = await startFakeStripe({
    webhookUrl,
    webhookSecret: SECRET,
    ...(signingSkewSeconds === undefined ? {} : { signingSkewSeconds }),
  });
  try {
    await fake.deliver(fake.event('payment_intent.succeeded', { id: 'pi_skew', object: 'payment_intent' }));
  } finally {
    await fake.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return received[0]!;
}

it('signs webhooks with a skewed clock when asked: 10 minutes behind fails the tolerance, none passes', async () => {
  const stripe = new Stripe('sk_test_x');
  const plain = await signedDelivery();
  expect(stripe.webhooks.constructEvent(plain.body, plain.signature, SECRET, 300).type).toBe(
    'payment_intent.succeeded',
  );
  const behind = await signedDelivery(-600);
  expect(() => stripe.webhooks.constructEvent(behind.body, behind.signature, SECRET, 300)).toThrow(
    /Timestamp outside the tolerance zone/,
  );
});
