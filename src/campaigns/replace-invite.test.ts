import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, readCampaign } from '../test/factories.ts';
import type { ApiCampaign, ApiDiscoverServer } from '../shared/api-types.ts';
import type { ApiMyServer } from '../shared/campaign-schemas.ts';
import { CAMPAIGN_MESSAGES, inviteOtherServerMessage } from '../shared/campaign-schemas.ts';
import { INVITE_DEAD, INVITE_EXPIRES } from './discord-checks.ts';
import { recheckInvites } from './recheck-invites.ts';

// Issue 12 item 8: a campaign whose invite died says "Invite expired — update it" (inviteExpired on
// My Campaigns and the Dashboard's list) and the owner replaces the invite, same guild only.

let app: TestApp;
let owner: TestClient;
let member: TestClient;
let counter = 0;

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.signIn('invite_owner');
  member = await app.signIn('invite_member');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

/** A guild of the owner with a permanent invite and a campaign on it. */
async function campaignWithInvite() {
  counter += 1;
  const guild = app.sim.state.createGuild({
    name: `Invite Guild ${counter}`,
    ownerId: owner.user!.discordId,
  });
  const invite = app.sim.state.createInvite(guild.id, { maxAge: 0 });
  const campaign = await insertCampaign(app.server.ctx.store, {
    ownerId: owner.user!.id,
    name: guild.name,
    guildId: guild.id,
    inviteCode: invite.code,
    inviteLink: `https://discord.gg/${invite.code}`,
  });
  return { guild, invite, campaign };
}

const onDiscover = async (campaignId: string) =>
  (await member.get<ApiDiscoverServer[]>('/api/servers')).body.some((s) => s.id === campaignId);

describe('campaign invite health', () => {
  it('flags a dead invite on My Campaigns and the Dashboard, and a same-guild replacement puts the campaign back', async () => {
    const { guild, invite, campaign } = await campaignWithInvite();
    expect(await onDiscover(campaign.id)).toBe(true);

    app.sim.state.invites.delete(invite.code); // the owner deleted the invite on Discord
    await recheckInvites(app.server.ctx);
    const campaigns = await owner.get<ApiCampaign[]>('/api/campaigns');
    expect(campaigns.body.find((c) => c.id === campaign.id)).toMatchObject({
      inviteExpired: true,
      botRemoved: false,
    });
    const mine = await owner.get<ApiMyServer[]>('/api/servers/mine');
    expect(mine.body.find((s) => s.id === campaign.id)?.inviteExpired).toBe(true);
    expect(await onDiscover(campaign.id)).toBe(false);

    const fresh = app.sim.state.createInvite(guild.id, { maxAge: 0 });
    const res = await owner.post<ApiCampaign>(`/api/campaigns/${campaign.id}/invite`, {
      inviteLink: `https://discord.com/invite/${fresh.code}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.inviteLink).toBe(`https://discord.gg/${fresh.code}`);
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      inviteValid: true,
      inviteCode: fresh.code,
    });
    const after = await owner.get<ApiCampaign[]>('/api/campaigns');
    expect(after.body.find((c) => c.id === campaign.id)?.inviteExpired).toBe(false);
    expect(await onDiscover(campaign.id)).toBe(true);
  });

  it('refuses an invite to another server with a message that says so, and changes nothing', async () => {
    const { campaign } = await campaignWithInvite();
    const other = app.sim.state.createGuild({ name: 'Somewhere Else', ownerId: owner.user!.discordId });
    const otherInvite = app.sim.state.createInvite(other.id, { maxAge: 0 });
    const res = await owner.post(`/api/campaigns/${campaign.id}/invite`, {
      inviteLink: `https://discord.gg/${otherInvite.code}`,
    });
    expect(res).toMatchObject({
      status: 400,
      body: { message: inviteOtherServerMessage(campaign.name, 'Somewhere Else') },
    });
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.inviteCode).toBe(campaign.inviteCode);
  });

  it('refuses bad input with 400 and a message: missing, not a Discord link, unknown, expiring', async () => {
    const { guild, campaign } = await campaignWithInvite();
    const expiring = app.sim.state.createInvite(guild.id, { maxAge: 3600 });
    const cases: [unknown, string][] = [
      [{}, CAMPAIGN_MESSAGES.inviteRequired],
      [{ inviteLink: 'https://example.com/x' }, CAMPAIGN_MESSAGES.inviteInvalid],
      [{ inviteLink: 42 }, CAMPAIGN_MESSAGES.inviteRequired],
      [{ inviteLink: 'https://discord.gg/no-such-invite' }, INVITE_DEAD],
      [{ inviteLink: `https://discord.gg/${expiring.code}` }, INVITE_EXPIRES],
    ];
    for (const [body, message] of cases) {
      const res = await owner.post<{ message: string }>(`/api/campaigns/${campaign.id}/invite`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.message).toBe(message);
    }
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.inviteCode).toBe(campaign.inviteCode);
  });

  it('is the owner’s alone: another user, a canceled campaign and signed-out requests are refused', async () => {
    const { guild, campaign } = await campaignWithInvite();
    const fresh = app.sim.state.createInvite(guild.id, { maxAge: 0 });
    const body = { inviteLink: `https://discord.gg/${fresh.code}` };
    expect((await member.post(`/api/campaigns/${campaign.id}/invite`, body)).status).toBe(404);
    expect((await app.anonymous().post(`/api/campaigns/${campaign.id}/invite`, body)).status).toBe(401);
    expect((await owner.post('/api/campaigns/no-such-campaign/invite', body)).status).toBe(404);
    expect((await owner.delete(`/api/campaigns/${campaign.id}`)).status).toBe(200);
    expect((await owner.post(`/api/campaigns/${campaign.id}/invite`, body)).status).toBe(404);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.inviteCode).toBe(campaign.inviteCode);
  });
});
