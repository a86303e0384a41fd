import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DAY } from '../clock.ts';
import { insertCampaign } from '../test/factories.ts';
import type { TestClient } from '../test/harness.ts';
import { buyPack, startPaymentsTestApp, type PaymentsTestEnv } from '../payments/test-support.ts';

// Issue 27 item 4 (decision 048): deleting the account and signing up again shed a dispute's hold and
// its chargeback debt. Deletion now waits while a chargeback can still come: a dispute is open, or a
// payment is inside its dispute window (120 days); nothing changes and the member is told until when.

let env: PaymentsTestEnv;
beforeAll(async () => {
  env = await startPaymentsTestApp();
});
afterAll(() => env.close());

async function bought(username: string): Promise<{ client: TestClient; id: string }> {
  const client = await env.app.signIn(username);
  const { id } = await buyPack(client, 'small');
  const intent = env.stripe.succeed(id);
  expect((await env.stripe.deliver(env.stripe.event('payment_intent.succeeded', intent))).status).toBe(200);
  return { client, id };
}

describe('account deletion and disputes', () => {
  it('is refused inside the dispute window with the date it becomes possible, and works after it', async () => {
    const { client } = await bought('dispute_window_member');
    const before = await client.balanceCents();
    const refused = await client.request<{ message: string }>('DELETE', '/api/account', {
      confirmUsername: 'dispute_window_member',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/can still be disputed .* until \d{4}-\d{2}-\d{2}/);
    expect(await client.balanceCents()).toBe(before);
    env.app.clock.advance(121 * DAY);
    // Sessions end after 30 days at most: the member signs in again.
    const later = await env.app.signIn('dispute_window_member');
    const res = await later.request('DELETE', '/api/account', { confirmUsername: 'dispute_window_member' });
    expect(res.status).toBe(200);
    await env.app.checkLedger();
  });

  it('is refused while a dispute is open, even after the window', async () => {
    const { client, id } = await bought('dispute_open_member');
    const res = await env.stripe.deliver(env.stripe.event('charge.dispute.created', env.stripe.dispute(id)));
    expect(res.status).toBe(200);
    env.app.clock.advance(200 * DAY);
    const later = await env.app.signIn('dispute_open_member');
    const refused = await later.request<{ message: string }>('DELETE', '/api/account', {
      confirmUsername: 'dispute_open_member',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/while a payment dispute is open/);
    expect((await later.get('/api/auth/user')).status).toBe(200);
    expect(client.user).toBeDefined();
  });

  it('is not held up for members who never bought coins, and blanks their campaigns’ names and invites', async () => {
    const client = await env.app.signIn('never_bought_member');
    const campaign = await insertCampaign(env.app.server.ctx.store, { ownerId: client.user!.id });
    expect(
      (await client.request('DELETE', '/api/account', { confirmUsername: 'never_bought_member' })).status,
    ).toBe(200);
    const [row] = await env.app.query<{ name: string; invite: string; code: string | null }>(
      sql`SELECT name, invite_link AS invite, invite_code AS code FROM servers WHERE id = ${campaign.id}`,
    );
    expect(row).toEqual({ name: 'Deleted campaign', invite: '', code: null });
  });
});
