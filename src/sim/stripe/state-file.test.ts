import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startFakeStripe } from './index.ts';

// Demo mode keeps the fake's state beside the database: a payment the product recorded still exists at
// the fake after a restart (its sync and reconciliation ask Stripe about it).
const dir = mkdtempSync(path.join(tmpdir(), 'fake-stripe-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function post(url: string, body: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });
  return (await res.json()) as { id: string; status: string; latest_charge: string | null };
}

it('survives a restart through statePath: intents and their charges', async () => {
  const statePath = path.join(dir, 'stripe.json');
  const first = await startFakeStripe({ statePath });
  const created = await post(`${first.url}/v1/payment_intents`, { amount: '500', currency: 'usd' });
  const paid = await post(`${first.url}/v1/payment_intents/${created.id}/confirm`, {
    payment_method: 'pm_card_visa',
  });
  const declined = await post(`${first.url}/v1/payment_intents`, { amount: '1000', currency: 'usd' });
  await post(`${first.url}/v1/payment_intents/${declined.id}/confirm`, {
    payment_method: 'pm_card_chargeDeclined',
  });
  await first.close();

  const second = await startFakeStripe({ statePath });
  try {
    const read = async (p: string) =>
      (await (
        await fetch(`${second.url}${p}`, { headers: { authorization: 'Bearer sk_test_x' } })
      ).json()) as {
        status: string;
        amount: number;
        last_payment_error: { code: string } | null;
      };
    expect(await read(`/v1/payment_intents/${created.id}`)).toMatchObject({
      status: 'succeeded',
      amount: 500,
    });
    expect(await read(`/v1/charges/${paid.latest_charge}`)).toMatchObject({ amount: 500 });
    expect(await read(`/v1/payment_intents/${declined.id}`)).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
  } finally {
    await second.close();
  }
});

it('keeps nothing without statePath', async () => {
  const fake = await startFakeStripe();
  try {
    expect(fake.intents.size).toBe(0);
  } finally {
    await fake.close();
  }
});
