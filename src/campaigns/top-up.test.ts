import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { ApiServer } from '../shared/api-types.ts';
import type { ApiMyServer } from '../shared/campaign-schemas.ts';
import { createGuildWithInvite, giveCoins, signInWithCoins, transactionsOf } from './test-support.ts';

// Issue 31 item 4: POST /api/campaigns/:id/top-up, through the API on the engine the suite runs on
// (the race with coins for one is held on both engines in campaigns-repo.test.ts, and this file runs
// again on PostgreSQL in the pg step).

let app: TestApp;
let owner: TestClient;
let stranger: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'topup_owner', 95); // 100.00
  stranger = await signInWithCoins(app, 'topup_stranger', 95);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

async function submit(client: TestClient, coins: number, opts: { nobot?: boolean } = {}) {
  const { guild, link } = createGuildWithInvite(app, client, { botMember: !opts.nobot });
  const res = opts.nobot
    ? await client.post<ApiServer>('/api/servers/no-bot', {
        name: 'Quiet Place',
        inviteLink: link,
        memberCount: String(coins),
      })
    : await client.post<ApiServer>('/api/servers', {
        name: 'Busy Place',
        inviteLink: link,
        coinReward: String(coins),
      });
  expect(res.status).toBe(201);
  return { server: res.body, guild };
}

describe('top-up', () => {
  it('adds slots to a running campaign at 1 coin per member, as one campaign ledger entry', async () => {
    const { server } = await submit(owner, 5);
    const before = await owner.balanceCents();
    const res = await owner.post<ApiServer>(`/api/campaigns/${server.id}/top-up`, { members: '7' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: server.id,
      membersRemaining: 12,
      initialMemberSlots: 12,
      coinReward: '0.50',
    });
    expect(await owner.balanceCents()).toBe(before - 700);
    const entry = (await transactionsOf(app, owner)).at(-1);
    expect(entry).toMatchObject({
      type: 'campaign',
      amount: -700,
      description: 'Top-up: Busy Place (+7 members)',
    });
    const mine = await owner.get<ApiMyServer[]>('/api/servers/mine');
    expect(mine.body.find((s) => s.id === server.id)).toMatchObject({ membersRemaining: 12, active: true });
  });

  it('refills a campaign that ran out: it is active again and back on Discover', async () => {
    const { server } = await submit(owner, 3);
    await app.exec(
      sql`UPDATE servers SET members_remaining = 0, completion_notification_sent = (1 = 1) WHERE id = ${server.id}`,
    );
    await app.discoverSettled();
    const listed = async () =>
      (await stranger.get<{ id: string }[]>('/api/servers?limit=100')).body.some((s) => s.id === server.id);
    expect(await listed()).toBe(false);
    const res = await owner.post<ApiServer>(`/api/campaigns/${server.id}/top-up`, { members: 3 });
    expect(res.status).toBe(200);
    expect(res.body.membersRemaining).toBe(3);
    await app.discoverSettled();
    expect(await listed()).toBe(true);
    const [row] = await app.query<{ sent: unknown }>(
      sql`SELECT completion_notification_sent AS "sent" FROM servers WHERE id = ${server.id}`,
    );
    expect(Boolean(row!.sent)).toBe(false);
  });

  it('tops up a no-bot campaign at its price, without the bot', async () => {
    const { server } = await submit(owner, 3, { nobot: true });
    const before = await owner.balanceCents();
    const res = await owner.post<ApiServer>(`/api/campaigns/${server.id}/top-up`, { members: '4' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ membersRemaining: 7, coinReward: '0.20' });
    expect(await owner.balanceCents()).toBe(before - 400);
  });

  it('refuses bad input with a clear 400 that changes nothing', async () => {
    const { server } = await submit(owner, 3);
    const before = await owner.balanceCents();
    for (const body of [
      {},
      { members: '2' },
      { members: 'ten' },
      { members: -5 },
      { members: '3.5' },
      { members: [3] },
    ]) {
      const res = await owner.post(`/api/campaigns/${server.id}/top-up`, body);
      expect(res).toMatchObject({
        status: 400,
        body: { message: 'Please enter a valid number of members (minimum 3)' },
      });
    }
    expect(await owner.balanceCents()).toBe(before);
  });

  it('refuses more than the balance pays (402, as a submission) with the amounts, and changes nothing', async () => {
    const poor = await signInWithCoins(app, 'topup_poor', 0); // 5.00 welcome
    const { server } = await submit(poor, 3);
    const res = await poor.post(`/api/campaigns/${server.id}/top-up`, { members: '3' });
    expect(res).toMatchObject({
      status: 402,
      body: { message: 'You need 3 coins to add 3 members. You have 2.00 coins.' },
    });
    expect(await poor.balanceCents()).toBe(200);
    const mine = await poor.get<ApiMyServer[]>('/api/servers/mine');
    expect(mine.body[0]).toMatchObject({ membersRemaining: 3 });
  });

  it('another user’s campaign is not found; a canceled one is refused; signed out is 401', async () => {
    const { server } = await submit(owner, 3);
    expect(await stranger.post(`/api/campaigns/${server.id}/top-up`, { members: 3 })).toMatchObject({
      status: 404,
      body: { message: 'Campaign not found' },
    });
    expect((await app.anonymous().post(`/api/campaigns/${server.id}/top-up`, { members: 3 })).status).toBe(
      401,
    );
    expect((await owner.delete(`/api/campaigns/${server.id}`)).status).toBe(200);
    const before = await owner.balanceCents();
    expect(await owner.post(`/api/campaigns/${server.id}/top-up`, { members: 3 })).toMatchObject({
      status: 409,
      body: { message: 'This campaign was canceled and cannot be topped up.' },
    });
    expect(await owner.balanceCents()).toBe(before);
  });

  it('needs the bot still in the guild and the owner still managing it', async () => {
    await giveCoins(app, owner, 20);
    const { server, guild } = await submit(owner, 3);
    app.sim.state.setBotInGuild(guild.id, false);
    const gone = await owner.post<{ botMissing?: boolean }>(`/api/campaigns/${server.id}/top-up`, {
      members: 3,
    });
    expect(gone.status).toBe(400);
    expect(gone.body.botMissing).toBe(true);
    app.sim.state.setBotInGuild(guild.id, true);

    // A manager (not the owner) lists the stranger's guild, then loses Manage Server.
    const managed = createGuildWithInvite(app, stranger, { name: 'Managed Hall' });
    app.sim.state.addMember(managed.guild.id, owner.user!.discordId);
    app.sim.state.setManageGuild(managed.guild.id, owner.user!.discordId, true);
    const listed = await owner.post<ApiServer>('/api/servers', {
      name: 'Managed Hall',
      inviteLink: managed.link,
      coinReward: '3',
    });
    expect(listed.status).toBe(201);
    app.sim.state.setManageGuild(managed.guild.id, owner.user!.discordId, false);
    const before = await owner.balanceCents();
    const res = await owner.post(`/api/campaigns/${listed.body.id}/top-up`, { members: 3 });
    expect(res.status).toBe(403);
    expect(await owner.balanceCents()).toBe(before);
  });

  it('two top-ups at once with coins for one pay once', async () => {
    const racer = await signInWithCoins(app, 'topup_racer', 3); // 8.00
    const { server } = await submit(racer, 3); // 5.00 left
    const results = await Promise.all(
      Array.from({ length: 3 }, () => racer.post(`/api/campaigns/${server.id}/top-up`, { members: '5' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 402, 402]);
    expect(await racer.balanceCents()).toBe(0);
    const mine = await racer.get<ApiMyServer[]>('/api/servers/mine');
    expect(mine.body[0]).toMatchObject({ membersRemaining: 8, initialMemberSlots: 8 });
  });
});
