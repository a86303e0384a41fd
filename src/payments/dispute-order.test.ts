import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TestClient } from '../test/harness.ts';
import { buyPack, startPaymentsTestApp, type PaymentsTestEnv } from './test-support.ts';

// Issue 27 item 4 (decision 048): dispute events are applied by Stripe's own time (the event's
// `created`), so any delivery order of one dispute's history converges on what the history ends in —
// like the ledger's property tests. In particular a "lost" delivered after a later "won" takes nothing
// again. Each run buys a pack for a fresh member and delivers a shuffled history as signed webhooks.

let env: PaymentsTestEnv;
beforeAll(async () => {
  env = await startPaymentsTestApp();
});
afterAll(() => env.close());
afterEach(() => env.app.checkLedger());

const WELCOME = 500;
const SMALL = 25_000;

type Step = { type: string; status: string; at: number };
/** Dispute histories as Stripe has them in time order, and the balance each ends in. */
const HISTORIES: { steps: Step[]; ends: number }[] = [
  {
    steps: [
      { type: 'charge.dispute.created', status: 'needs_response', at: 100 },
      { type: 'charge.dispute.closed', status: 'won', at: 200 },
    ],
    ends: WELCOME + SMALL,
  },
  {
    steps: [
      { type: 'charge.dispute.created', status: 'needs_response', at: 100 },
      { type: 'charge.dispute.updated', status: 'under_review', at: 150 },
      { type: 'charge.dispute.closed', status: 'lost', at: 200 },
    ],
    ends: WELCOME,
  },
  {
    // Lost, then won on appeal: won is the later state.
    steps: [
      { type: 'charge.dispute.created', status: 'needs_response', at: 100 },
      { type: 'charge.dispute.closed', status: 'lost', at: 200 },
      { type: 'charge.dispute.funds_reinstated', status: 'won', at: 300 },
    ],
    ends: WELCOME + SMALL,
  },
];

let counter = 0;
async function boughtMember(): Promise<{ client: TestClient; id: string }> {
  const client = await env.app.signIn(`dispute_order_${++counter}`);
  const { id } = await buyPack(client, 'small');
  const intent = env.stripe.succeed(id);
  expect((await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent))).status).toBe(200);
  return { client, id };
}

describe('dispute events in any delivery order', () => {
  it('converge on the history’s last state (property over orders, with a duplicate delivery)', async () => {
    const base = Math.floor(env.app.clock.now() / 1000);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: HISTORIES.length - 1 }).chain((h) =>
          fc.tuple(
            fc.constant(h),
            fc.shuffledSubarray(HISTORIES[h]!.steps, {
              minLength: HISTORIES[h]!.steps.length,
              maxLength: HISTORIES[h]!.steps.length,
            }),
            fc.integer({ min: 0, max: HISTORIES[h]!.steps.length - 1 }),
          ),
        ),
        async ([h, order, repeat]) => {
          const { client, id } = await boughtMember();
          const dispute = env.stripe.dispute(id);
          for (const step of [...order, order[repeat]!]) {
            const event = env.stripe.event(step.type, { ...dispute, status: step.status });
            const res = await env.stripe.deliver({ ...event, created: base + step.at });
            expect(res.status).toBe(200);
          }
          expect(await client.balanceCents()).toBe(HISTORIES[h]!.ends);
        },
      ),
      { numRuns: 12 },
    );
  });
});
