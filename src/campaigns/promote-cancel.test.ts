import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { ApiCampaign, ApiServer } from '../shared/api-types.ts';
import type { ApiMyServer } from '../shared/campaign-schemas.ts';
import {
  addJoin,
  createGuildWithInvite,
  campaignsOf,
  signInWithCoins,
  transactionsOf,
} from './test-support.ts';

let app: TestApp;
let owner: TestClient;
let stranger: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'promo_owner', 995); // 1000.00
  stranger = await signInWithCoins(app, 'promo_stranger', 195); // 200.00
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

async function submitRegular(client: TestClient, coins = 5, name = 'Regular Place') {
  const { guild, link } = createGuildWithInvite(app, client);
  const res = await client.post<ApiServer>('/api/servers', {
    name,
    inviteLink: link,
    coinReward: String(coins),
  });
  expect(res.status).toBe(201);
  return { server: res.body, guild, link };
}

describe('featured: create with isFeaturedIntent, then promote', () => {
  it('creates an unfunded row, then promote takes 100 coins for 100 featured slots at 0.75', async () => {
    const { link } = createGuildWithInvite(app, owner, { name: 'Star Base' });
    const before = await owner.balanceCents();
    const created = await owner.post<ApiServer>('/api/servers', {
      name: 'Star Base',
      inviteLink: link,
      coinReward: '100',
      isFeaturedIntent: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ membersRemaining: 0, initialMemberSlots: 0, isFeatured: false });
    expect(await owner.balanceCents()).toBe(before);

    const promoted = await owner.post<ApiServer>(`/api/servers/${created.body.id}/promote`);
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({
      isFeatured: true,
      membersRemaining: 100,
      initialMemberSlots: 100,
      coinReward: '0.75',
    });
    expect(await owner.balanceCents()).toBe(before - 10_000);
    expect((await transactionsOf(app, owner)).find((t) => t.type === 'promote')).toMatchObject({
      amount: -10_000,
      description: 'Featured: Star Base (100 members)',
    });

    const again = await owner.post(`/api/servers/${created.body.id}/promote`);
    expect(again).toMatchObject({ status: 409, body: { message: 'Already featured' } });
    expect(await owner.balanceCents()).toBe(before - 10_000);
  });

  it('promoting a regular campaign keeps its slots and adds 100', async () => {
    const { server } = await submitRegular(owner, 7);
    const res = await owner.post<ApiServer>(`/api/servers/${server.id}/promote`);
    expect(res.body).toMatchObject({
      isFeatured: true,
      membersRemaining: 107,
      initialMemberSlots: 107,
      coinReward: '0.75',
    });
  });

  it('refuses a second featured campaign of a guild that is already featured (another campaign)', async () => {
    const { server, link } = await submitRegular(owner, 3, 'Twin A');
    expect((await owner.post(`/api/servers/${server.id}/promote`)).status).toBe(200);
    const twin = await owner.post<ApiServer>('/api/servers', {
      name: 'Twin B',
      inviteLink: link,
      coinReward: '3',
    });
    expect(twin.status).toBe(201);
    const before = await owner.balanceCents();
    const res = await owner.post(`/api/servers/${twin.body.id}/promote`);
    expect(res).toMatchObject({ status: 409, body: { message: 'Already featured (another campaign)' } });
    expect(await owner.balanceCents()).toBe(before);
    // A featured submission for that guild is refused up front, leaving no unfunded row.
    const count = (await campaignsOf(app, owner)).length;
    const intent = await owner.post('/api/servers', {
      name: 'Twin C',
      inviteLink: link,
      coinReward: '100',
      isFeaturedIntent: true,
    });
    expect(intent).toMatchObject({ status: 409, body: { message: 'Already featured (another campaign)' } });
    expect(await campaignsOf(app, owner)).toHaveLength(count);

    const mine = await owner.get<ApiMyServer[]>('/api/servers/mine');
    expect(mine.body.find((s) => s.id === twin.body.id)).toMatchObject({
      featuredElsewhere: true,
      isFeatured: false,
    });
    expect(mine.body.find((s) => s.id === server.id)).toMatchObject({
      featuredElsewhere: false,
      isFeatured: true,
    });

    // Once the featured one is canceled, the twin can be promoted.
    expect((await owner.delete(`/api/campaigns/${server.id}`)).status).toBe(200);
    expect((await owner.post(`/api/servers/${twin.body.id}/promote`)).status).toBe(200);
  });

  it('refuses with the spec text below 100 coins, for the intent and for promote', async () => {
    const poor = await signInWithCoins(app, 'promo_poor', 90); // 95.00
    const { server, link } = await submitRegular(poor, 3);
    const intent = await poor.post('/api/servers', {
      name: 'Wish',
      inviteLink: link,
      coinReward: '100',
      isFeaturedIntent: true,
    });
    expect(intent).toMatchObject({
      status: 402,
      body: { message: 'You need 100 coins to promote a server.' },
    });
    const res = await poor.post(`/api/servers/${server.id}/promote`);
    expect(res).toMatchObject({ status: 402, body: { message: 'You need 100 coins to promote a server.' } });
    expect(await poor.balanceCents()).toBe(9200);
    expect((await campaignsOf(app, poor)).filter((s) => s.isFeatured)).toHaveLength(0);
  });

  it('featured needs the bot too', async () => {
    const { link } = createGuildWithInvite(app, owner, { botMember: false });
    const res = await owner.post<{ botMissing?: boolean }>('/api/servers', {
      name: 'Botless',
      inviteLink: link,
      coinReward: '100',
      isFeaturedIntent: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.botMissing).toBe(true);
  });

  it("another user's server cannot be promoted: 404 and nothing changes", async () => {
    const { server } = await submitRegular(owner, 4);
    const before = await stranger.balanceCents();
    const res = await stranger.post(`/api/servers/${server.id}/promote`);
    expect(res).toMatchObject({ status: 404, body: { message: 'Server not found' } });
    expect(await stranger.balanceCents()).toBe(before);
    expect((await campaignsOf(app, owner)).find((s) => s.id === server.id)).toMatchObject({
      isFeatured: false,
      membersRemaining: 4,
    });
    expect((await owner.post('/api/servers/not-a-real-id/promote')).status).toBe(404);
  });

  it('no-bot and canceled campaigns cannot be promoted', async () => {
    const { link } = createGuildWithInvite(app, owner);
    const nobot = await owner.post<ApiServer>('/api/servers/no-bot', {
      name: 'Quiet',
      inviteLink: link,
      memberCount: '3',
    });
    expect((await owner.post(`/api/servers/${nobot.body.id}/promote`)).status).toBe(400);
    const { server } = await submitRegular(owner, 3);
    await owner.delete(`/api/campaigns/${server.id}`);
    expect((await owner.post(`/api/servers/${server.id}/promote`)).status).toBe(409);
  });

  it('parallel promotions of one server charge once', async () => {
    const { server } = await submitRegular(owner, 3);
    const before = await owner.balanceCents();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => owner.post(`/api/servers/${server.id}/promote`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await owner.balanceCents()).toBe(before - 10_000);
  });
});

describe('GET /api/campaigns and DELETE /api/campaigns/:id', () => {
  it('lists only the active campaigns of the user, newest first, with joinCount', async () => {
    const lister = await signInWithCoins(app, 'camp_lister', 100);
    const member = await app.signIn('camp_member');
    const member2 = await app.signIn('camp_member2');
    const { server: older } = await submitRegular(lister, 5, 'Older');
    app.clock.advance(1000);
    const { server: newer } = await submitRegular(lister, 6, 'Newer');
    const { link } = createGuildWithInvite(app, lister);
    app.clock.advance(1000);
    const nobot = (
      await lister.post<ApiServer>('/api/servers/no-bot', {
        name: 'Silent',
        inviteLink: link,
        memberCount: '4',
      })
    ).body;
    const { link: l2 } = createGuildWithInvite(app, lister);
    await lister.post('/api/servers', {
      name: 'Unfunded',
      inviteLink: l2,
      coinReward: '100',
      isFeaturedIntent: true,
    });

    await addJoin(app, older.id, member, { verified: true });
    await addJoin(app, older.id, member2, { verified: false });
    await addJoin(app, nobot.id, member, { coinsAwarded: true });
    await addJoin(app, nobot.id, member2, { coinsAwarded: false });

    const res = await lister.get<ApiCampaign[]>('/api/campaigns');
    expect(res.status).toBe(200);
    expect(res.body.map((c) => c.name)).toEqual(['Silent', 'Newer', 'Older']);
    expect(res.body.map((c) => c.joinCount)).toEqual([1, 0, 1]);
    expect((await member.get<unknown[]>('/api/campaigns')).body).toEqual([]);
    void newer;
  });

  it('cancel is owner-only, irreversible and refunds nothing', async () => {
    const canceler = await signInWithCoins(app, 'camp_canceler', 20);
    const { server } = await submitRegular(canceler, 8, 'To Cancel');
    const balance = await canceler.balanceCents();

    const foreign = await stranger.delete(`/api/campaigns/${server.id}`);
    expect(foreign).toMatchObject({ status: 404, body: { message: 'Campaign not found' } });
    expect((await campaignsOf(app, canceler)).find((s) => s.id === server.id)).toMatchObject({
      membersRemaining: 8,
      canceledAt: null,
    });

    const res = await canceler.delete(`/api/campaigns/${server.id}`);
    expect(res.status).toBe(200);
    const row = (await campaignsOf(app, canceler)).find((s) => s.id === server.id);
    expect(row).toMatchObject({ membersRemaining: 0, canceledAt: app.clock.now() });
    expect(await canceler.balanceCents()).toBe(balance);
    expect((await canceler.get<ApiCampaign[]>('/api/campaigns')).body.some((c) => c.id === server.id)).toBe(
      false,
    );
    expect((await canceler.delete(`/api/campaigns/${server.id}`)).status).toBe(404);
    const mine = await canceler.get<ApiMyServer[]>('/api/servers/mine');
    expect(mine.body.find((s) => s.id === server.id)).toMatchObject({ canceled: true, active: false });
  });
});
