import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { grantCoins, insertCampaign } from '../test/factories.ts';
import { credit } from '../ledger/index.ts';
import type { ApiTransaction, ApiUser } from '../shared/api-types.ts';
import type { EarningsDay } from '../shared/history-schemas.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const HOUR = 3_600_000;

describe('transaction history', () => {
  it('keeps the spec shape without parameters, and pages and filters with them (total in X-Total-Count)', async () => {
    const client = await app.signIn('historian');
    const { store } = app.server.ctx;
    const userId = client.user!.id;
    for (let i = 0; i < 25; i += 1) {
      await credit(store, {
        userId,
        cents: 100,
        type: 'hourly',
        description: `Hourly ${i}`,
        now: app.clock.now() + 1 + i, // after the welcome (a tie in one ms has no order on PostgreSQL)
      });
    }
    await grantCoins(store, userId, 5000, app.clock.now() + 100);

    const plain = await client.get<ApiTransaction[]>('/api/transactions');
    expect(plain.status).toBe(200);
    expect(Array.isArray(plain.body)).toBe(true);
    expect(plain.body).toHaveLength(27); // welcome + 25 hourly + purchase
    expect(plain.body[0]).toMatchObject({ type: 'purchase', amount: '50.00' });
    expect(Object.keys(plain.body[0]!).sort()).toEqual([
      'amount',
      'createdAt',
      'description',
      'id',
      'type',
      'userId',
    ]);

    const page1 = await client.get<ApiTransaction[]>('/api/transactions?page=1&pageSize=10&filter=rewards');
    expect(page1.headers.get('x-total-count')).toBe('26'); // welcome + 25 hourly
    expect(page1.body.map((t) => t.description)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Hourly ${24 - i}`),
    );
    const page3 = await client.get<ApiTransaction[]>('/api/transactions?page=3&pageSize=10&filter=rewards');
    expect(page3.body).toHaveLength(6);
    expect(page3.body.at(-1)).toMatchObject({ type: 'welcome' });

    const purchases = await client.get<ApiTransaction[]>('/api/transactions?filter=purchases');
    expect(purchases.body.map((t) => t.type)).toEqual(['purchase']);
  });

  it('refuses bad paging input with a 400 message', async () => {
    const client = await app.signIn('bad_pager');
    for (const q of ['page=0', 'page=abc', 'pageSize=1000', 'filter=nope', 'page=1.5']) {
      const res = await client.get<{ message: string }>(`/api/transactions?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it('sums credits per day of the user over the last 30 days (debits and older days left out)', async () => {
    const client = await app.signIn('earner');
    const { store } = app.server.ctx;
    const userId = client.user!.id;
    const now = app.clock.now();
    await credit(store, { userId, cents: 250, type: 'daily', now: now - 40 * 24 * HOUR }); // too old
    await credit(store, { userId, cents: 300, type: 'bonus', now: now - 2 * 24 * HOUR });
    await credit(store, { userId, cents: 100, type: 'hourly', now: now - 2 * 24 * HOUR + 1 });
    await grantCoins(store, userId, 1000, now);
    const res = await client.get<EarningsDay[]>('/api/transactions/earnings?tzOffset=0');
    expect(res.body).toHaveLength(30);
    const today = new Date(now).toISOString().slice(0, 10);
    const twoDaysAgo = new Date(now - 2 * 24 * HOUR).toISOString().slice(0, 10);
    expect(res.body.at(-1)).toEqual({ date: today, earned: '15.00' }); // 5.00 welcome + 10.00
    expect(res.body.find((d) => d.date === twoDaysAgo)?.earned).toBe('4.00');
    const total = res.body.reduce((sum, d) => sum + Number(d.earned), 0);
    expect(total).toBe(19);
  });
});

describe('account', () => {
  it("exports the user's data as a JSON download", async () => {
    const client = await app.signIn('exporter');
    await insertCampaign(app.server.ctx.store, { ownerId: client.user!.id, name: 'Exported Server' });
    const res = await client.raw('/api/account/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="coinsync-data-\d{4}-\d{2}-\d{2}\.json"/,
    );
    const data = (await res.json()) as {
      profile: { discordUsername: string; coins: string };
      transactions: unknown[];
      servers: { name: string }[];
    };
    expect(data.profile).toMatchObject({ discordUsername: 'exporter', coins: '5.00' });
    expect(data.transactions).toHaveLength(1);
    expect(data.servers.map((s) => s.name)).toEqual(['Exported Server']);
    expect((await app.anonymous().raw('/api/account/export')).status).toBe(401);
  });

  it('deletes by anonymising: ledger consistent, campaigns ended, every session gone, Discord id released', async () => {
    const client = await app.signIn('leaver');
    const secondDevice = await app.signIn('leaver');
    const { store } = app.server.ctx;
    const userId = client.user!.id;
    await grantCoins(store, userId, 1234);
    const campaign = await insertCampaign(store, { ownerId: userId, name: 'Leaving Server' });
    await app.exec(
      sql`INSERT INTO oauth_tokens (user_id, access_token_enc, refresh_token_enc, scope, expires_at, updated_at)
        VALUES (${userId}, 'x', 'y', 'identify', 1, 1) ON CONFLICT DO NOTHING`,
    );
    const userRow = async () =>
      (
        await app.query<{
          discordUsername: string;
          discordId: string;
          discordAvatar: string | null;
          email: string | null;
          coins: number;
        }>(
          sql`SELECT discord_username AS "discordUsername", discord_id AS "discordId", discord_avatar AS "discordAvatar",
            email, coins FROM users WHERE id = ${userId}`,
        )
      )[0];

    const wrong = await client.request<{ message: string }>('DELETE', '/api/account', {
      confirmUsername: 'someone',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('The username you typed does not match your account');
    const missing = await client.request<{ message: string }>('DELETE', '/api/account', {});
    expect(missing.status).toBe(400);
    expect((await userRow())?.discordUsername).toBe('leaver');

    const res = await client.request('DELETE', '/api/account', { confirmUsername: 'leaver' });
    expect(res.status).toBe(200);

    const row = (await userRow())!;
    expect(row).toMatchObject({
      discordUsername: 'Deleted user',
      discordAvatar: null,
      email: null,
      coins: 0,
    });
    expect(row.discordId).toBe(`deleted:${userId}`);
    const entries = await app.query<{ type: string; amount: number }>(
      sql`SELECT type, amount FROM transactions WHERE user_id = ${userId}`,
    );
    expect(entries.map((t) => t.type).sort()).toEqual(['account_deleted', 'purchase', 'welcome']);
    expect(entries.reduce((sum, t) => sum + t.amount, 0)).toBe(0);
    await app.checkLedger();
    expect(
      await app.query(
        sql`SELECT members_remaining AS "membersRemaining" FROM servers WHERE id = ${campaign.id}`,
      ),
    ).toEqual([{ membersRemaining: 0 }]);

    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await secondDevice.get('/api/auth/user')).status).toBe(401);

    // The same Discord account signing in again starts a new account.
    const again = await app.signIn('leaver');
    const me = await again.get<ApiUser>('/api/auth/user');
    expect(me.body.id).not.toBe(userId);
    expect(me.body.discordUsername).toBe('leaver');
  });
});
