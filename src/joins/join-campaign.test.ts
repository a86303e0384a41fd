import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, readCampaign, readJoins } from '../test/factories.ts';
import type { JoinServerResponse } from '../shared/join-schemas.ts';

let app: TestApp;
let owner: TestClient;
let member: TestClient;
const store = () => app.server.ctx.store;
const id = (c: TestClient) => c.user!.id;

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.signIn('join_owner');
  member = await app.signIn('join_member');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('POST /api/servers/:id/join', () => {
  it('records a pending join and returns the reward, invite and campaign id', async () => {
    const campaign = await insertCampaign(store(), {
      ownerId: id(owner),
      name: 'Pixel Test',
      inviteLink: 'https://discord.gg/pixel',
    });
    const before = await member.balanceCents();
    const res = await member.post<JoinServerResponse>(`/api/servers/${campaign.id}/join`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      potentialReward: '0.50',
      inviteLink: 'https://discord.gg/pixel',
      serverId: campaign.id,
    });
    const [join, ...rest] = await readJoins(store(), campaign.id);
    expect(rest).toHaveLength(0);
    expect(join).toMatchObject({
      userId: id(member),
      joinedAt: app.clock.now(),
      verified: false,
      coinsAwarded: false,
    });
    // Nothing is paid and no slot is taken until the bot (or the no-bot claim) confirms the join.
    expect(await member.balanceCents()).toBe(before);
    expect((await readCampaign(store(), campaign.id))?.membersRemaining).toBe(10);
  });

  it('reports the stored reward of featured and no-bot campaigns', async () => {
    const featured = await insertCampaign(store(), { ownerId: id(owner), kind: 'featured' });
    const nobot = await insertCampaign(store(), { ownerId: id(owner), kind: 'nobot' });
    expect(
      (await member.post<JoinServerResponse>(`/api/servers/${featured.id}/join`)).body.potentialReward,
    ).toBe('0.75');
    expect(
      (await member.post<JoinServerResponse>(`/api/servers/${nobot.id}/join`)).body.potentialReward,
    ).toBe('0.20');
  });

  it('refuses the owner, also for their featured server', async () => {
    for (const kind of ['regular', 'featured', 'nobot'] as const) {
      const campaign = await insertCampaign(store(), { ownerId: id(owner), kind });
      const res = await owner.post(`/api/servers/${campaign.id}/join`);
      expect(res).toMatchObject({ status: 400, body: { message: 'You cannot join your own server' } });
      expect(await readJoins(store(), campaign.id)).toHaveLength(0);
    }
  });

  it('refuses a campaign without slots', async () => {
    const campaign = await insertCampaign(store(), {
      ownerId: id(owner),
      membersRemaining: 0,
      initialMemberSlots: 5,
    });
    const res = await member.post(`/api/servers/${campaign.id}/join`);
    expect(res).toMatchObject({ status: 409, body: { message: 'This server has no member slots left' } });
  });

  it('lets a pending join be tried again (its clock restarts) and refuses one that completed', async () => {
    const campaign = await insertCampaign(store(), { ownerId: id(owner) });
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    app.clock.advance(60_000);
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    const [join, ...rest] = await readJoins(store(), campaign.id);
    expect(rest).toHaveLength(0);
    expect(join?.joinedAt).toBe(app.clock.now());

    await app.exec(sql`UPDATE server_joins SET verified = TRUE, coins_awarded = TRUE WHERE id = ${join!.id}`);
    const again = await member.post(`/api/servers/${campaign.id}/join`);
    expect(again).toMatchObject({ status: 409, body: { message: 'You have already joined this server' } });
    expect(await readJoins(store(), campaign.id)).toHaveLength(1);
  });

  it('turns concurrent double requests into one join row', async () => {
    const campaign = await insertCampaign(store(), { ownerId: id(owner) });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => member.post(`/api/servers/${campaign.id}/join`)),
    );
    // Each is the join or a retry of the pending join: one row either way.
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await readJoins(store(), campaign.id)).toHaveLength(1);
  });

  it('refuses someone who is already in the Discord server', async () => {
    const discordOwner = app.sim.state.findUserByUsername('join_owner')!;
    const guild = app.sim.state.createGuild({ name: 'Existing Members', ownerId: discordOwner.id });
    const campaign = await insertCampaign(store(), { ownerId: id(owner), guildId: guild.id });
    const newcomer = await app.signIn('join_newcomer');
    app.sim.state.addMember(guild.id, member.user!.discordId);

    const res = await member.post(`/api/servers/${campaign.id}/join`);
    expect(res).toMatchObject({
      status: 409,
      body: { message: 'You are already a member of this server. Only new members earn coins.' },
    });
    // Someone who is not in the guild yet may join.
    expect((await newcomer.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    expect((await readJoins(store(), campaign.id)).map((j) => j.userId)).toEqual([id(newcomer)]);
  });

  it('answers 404 for unknown, canceled and broken-invite campaigns', async () => {
    const canceled = await insertCampaign(store(), { ownerId: id(owner), canceledAt: app.clock.now() });
    const broken = await insertCampaign(store(), { ownerId: id(owner), inviteValid: false });
    for (const campaignId of ['00000000-0000-4000-8000-000000000000', 'nope', canceled.id, broken.id]) {
      const res = await member.post(`/api/servers/${campaignId}/join`);
      expect(res).toMatchObject({ status: 404, body: { message: 'Server not found' } });
    }
    expect(await readJoins(store(), canceled.id)).toHaveLength(0);
  });

  it('requires sign-in', async () => {
    const campaign = await insertCampaign(store(), { ownerId: id(owner) });
    expect((await app.anonymous().post(`/api/servers/${campaign.id}/join`)).status).toBe(401);
  });
});

describe('POST /api/servers/:id/join while Discord is down', () => {
  it('answers 502 for bot servers and records nothing', async () => {
    const local = await startTestApp();
    try {
      const localOwner = await local.signIn('down_owner');
      const localMember = await local.signIn('down_member');
      const guild = local.sim.state.createGuild({ name: 'Down Guild', ownerId: localOwner.user!.discordId });
      const campaign = await insertCampaign(local.server.ctx.store, {
        ownerId: localOwner.user!.id,
        guildId: guild.id,
      });
      const nobot = await insertCampaign(local.server.ctx.store, {
        ownerId: localOwner.user!.id,
        kind: 'nobot',
      });
      await local.sim.close();

      const res = await localMember.post(`/api/servers/${campaign.id}/join`);
      expect(res).toMatchObject({
        status: 502,
        body: { message: 'Could not reach Discord. Please try again.' },
      });
      expect(await readJoins(local.server.ctx.store, campaign.id)).toHaveLength(0);
      // No-bot servers need no Discord check.
      expect((await localMember.post(`/api/servers/${nobot.id}/join`)).status).toBe(200);
      await local.checkLedger();
    } finally {
      await local.close();
    }
  });
});
