import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, readCampaign, readJoins } from '../test/factories.ts';
import { createGuildWithInvite, giveCoins, campaignsOf, signInWithCoins } from '../campaigns/test-support.ts';

// Issue 26 item 3 through the API: one 429 with Retry-After: 120, or Cloudflare's ban page with
// Retry-After: 3600, answers the member at once with a 503 that says when to come back, and writes
// nothing (no pending join, no campaign, no debit, no reward). Before, the request waited it out.

let app: TestApp;
let owner: TestClient;
let member: TestClient;
const store = () => app.server.ctx.store;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'busy_owner', 45);
  member = await app.signIn('busy_member');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('Discord asks for a long wait while a member waits', () => {
  it('Join: one 429 with Retry-After: 120 → 503 "try again in 2 min", no join recorded', async () => {
    const campaign = await insertCampaign(store(), { ownerId: owner.user!.id });
    app.sim.state.unreliable.inject({ fault: 'rate-limit', retryAfterSeconds: 120, path: '/members/' });
    const res = await member.post(`/api/servers/${campaign.id}/join`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('120');
    expect(res.body).toEqual({ message: 'Discord is busy — try again in 2 min' });
    expect(await readJoins(store(), campaign.id)).toHaveLength(0);
    expect((await readCampaign(store(), campaign.id))?.membersRemaining).toBe(10);
  });

  it('a no-bot Join whose guild list Discord holds for 90 s → 503, no join recorded', async () => {
    const guild = app.sim.state.createGuild({
      name: 'Quiet',
      ownerId: owner.user!.discordId,
      botMember: false,
    });
    const campaign = await insertCampaign(store(), {
      ownerId: owner.user!.id,
      kind: 'nobot',
      guildId: guild.id,
    });
    app.sim.state.unreliable.inject({
      fault: 'rate-limit',
      retryAfterSeconds: 90,
      path: '/users/@me/guilds',
    });
    const res = await member.post(`/api/servers/${campaign.id}/join`);
    expect(res).toMatchObject({ status: 503, body: { message: 'Discord is busy — try again in 2 min' } });
    expect(res.headers.get('retry-after')).toBe('90');
    expect(await readJoins(store(), campaign.id)).toHaveLength(0);
  });

  describe('Cloudflare bans our address (HTML 429, Retry-After: 3600)', () => {
    // Last in the file: the product honours the ban for its hour.
    it('Join, submit, invite replacement, promote and the no-bot claim each answer 503 at once, writing nothing', async () => {
      // Set up before the ban: a pending no-bot join, a campaign of the owner. (Another member: the
      // first one's guild list is still held for the 90 s Discord asked for above.)
      const member = await app.signIn('busy_member_2');
      const quiet = app.sim.state.createGuild({
        name: 'Quiet 2',
        ownerId: owner.user!.discordId,
        botMember: false,
      });
      const nobot = await insertCampaign(store(), {
        ownerId: owner.user!.id,
        kind: 'nobot',
        guildId: quiet.id,
      });
      expect((await member.post(`/api/servers/${nobot.id}/join`)).status).toBe(200);
      app.sim.state.addMember(quiet.id, member.user!.discordId);
      app.clock.advance(60_000);
      const regular = await insertCampaign(store(), { ownerId: owner.user!.id });
      const { link } = createGuildWithInvite(app, owner, { name: 'Banned Day' });
      const ownerBalance = await owner.balanceCents();
      const memberBalance = await member.balanceCents();
      const campaignsBefore = (await campaignsOf(app, owner)).length;

      app.sim.state.rateLimits.ban(3_600_000);
      const busy = { status: 503, body: { message: 'Discord is busy — try again in 60 min' } };

      const join = await member.post(`/api/servers/${regular.id}/join`);
      expect(join).toMatchObject(busy);
      expect(join.headers.get('retry-after')).toBe('3600');
      expect(await readJoins(store(), regular.id)).toHaveLength(0);

      const submit = await owner.post('/api/servers', {
        name: 'Banned Day',
        inviteLink: link,
        coinReward: '5',
      });
      expect(submit).toMatchObject(busy);
      expect(await owner.balanceCents()).toBe(ownerBalance);
      expect((await campaignsOf(app, owner)).length).toBe(campaignsBefore);

      const replace = await owner.post(`/api/campaigns/${regular.id}/invite`, { inviteLink: link });
      expect(replace).toMatchObject(busy);
      expect((await readCampaign(store(), regular.id))?.inviteLink).toBe(regular.inviteLink);

      await giveCoins(app, owner, 100);
      const promoteBalance = await owner.balanceCents();
      const promote = await owner.post(`/api/servers/${regular.id}/promote`);
      expect(promote).toMatchObject(busy);
      expect(await owner.balanceCents()).toBe(promoteBalance);
      expect((await readCampaign(store(), regular.id))?.isFeatured).toBe(false);

      const claim = await member.post(`/api/servers/${nobot.id}/claim-nobot`);
      expect(claim).toMatchObject(busy);
      expect(await member.balanceCents()).toBe(memberBalance);
      expect((await readJoins(store(), nobot.id))[0]).toMatchObject({ coinsAwarded: false });
      // Cloudflare saw one request; the others were answered without asking again.
      expect(app.sim.state.rateLimits.stats().cloudflareBanned).toBe(1);
    });
  });
});
