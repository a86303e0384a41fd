import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { signInWithCoins } from './test-support.ts';
import type { ApiServer } from '../shared/api-types.ts';
import type { GuildInviteResponse } from '../shared/campaign-schemas.ts';

// Issue 31 item 3: the picker's "Create invite link". Our bot makes a never-expiring invite to a server
// the user owns or manages, through the simulator's POST /channels/{id}/invites (Discord's contract,
// src/sim/discord/contract.test.ts); the link is the one a submission accepts.

let app: TestApp;
let owner: TestClient;
let stranger: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'invite_owner', 45);
  stranger = await app.signIn('invite_stranger');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('POST /api/guilds/:id/invite', () => {
  it('makes a never-expiring invite that a campaign can be submitted with, and reuses it when asked again', async () => {
    const guild = app.sim.state.createGuild({ name: 'Invite Works', ownerId: owner.user!.discordId });
    const res = await owner.post<GuildInviteResponse>(`/api/guilds/${guild.id}/invite`);
    expect(res.status).toBe(200);
    expect(res.body.guildName).toBe('Invite Works');
    const code = res.body.inviteLink.replace('https://discord.gg/', '');
    const invite = app.sim.state.findInvite(code)!;
    expect(invite).toMatchObject({
      guildId: guild.id,
      channelId: guild.channelId,
      maxAge: 0,
      expiresAt: null,
    });
    expect(invite.inviterId).toBe(app.sim.state.botId);

    const again = await owner.post<GuildInviteResponse>(`/api/guilds/${guild.id}/invite`);
    expect(again.body.inviteLink).toBe(res.body.inviteLink);
    expect([...app.sim.state.invites.values()].filter((i) => i.guildId === guild.id)).toHaveLength(1);

    const submitted = await owner.post<ApiServer>('/api/servers', {
      name: 'Invite Works',
      inviteLink: res.body.inviteLink,
      coinReward: '3',
    });
    expect(submitted.body).toMatchObject({ serverId: guild.id });
    expect(submitted.status).toBe(201);
    expect(submitted.body.serverId).toBe(guild.id);
  });

  it('works for a manager, not for a plain member or a stranger', async () => {
    const s = app.sim.state;
    const guild = s.createGuild({ name: 'Managed Place', ownerId: stranger.user!.discordId });
    s.addMember(guild.id, owner.user!.discordId);
    const plain = await owner.post(`/api/guilds/${guild.id}/invite`);
    expect(plain.status).toBe(403);
    expect(plain.body).toEqual({
      message:
        'Only the owner of Managed Place or members with the Manage Server permission can list it. ' +
        'Sign in with the Discord account that owns or manages that server.',
    });
    s.setManageGuild(guild.id, owner.user!.discordId, true);
    expect((await owner.post(`/api/guilds/${guild.id}/invite`)).status).toBe(200);

    const elsewhere = s.createGuild({ name: 'Not Mine', ownerId: owner.user!.discordId });
    expect((await stranger.post(`/api/guilds/${elsewhere.id}/invite`)).status).toBe(403);
  });

  it('asks for the bot first where it is not, and says how to make one by hand where it may not', async () => {
    const s = app.sim.state;
    const noBot = s.createGuild({ name: 'No Bot Yet', ownerId: owner.user!.discordId, botMember: false });
    const missing = await owner.post<{ message: string; botMissing: boolean; inviteUrl: string }>(
      `/api/guilds/${noBot.id}/invite`,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.botMissing).toBe(true);
    expect(missing.body.inviteUrl).toContain(`guild_id=${noBot.id}`);

    const locked = s.createGuild({ name: 'Locked Down', ownerId: owner.user!.discordId });
    s.setBotCanCreateInvite(locked.id, false);
    const refused = await owner.post(`/api/guilds/${locked.id}/invite`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message:
        'Our bot may not create invites in Locked Down. In Discord, open Invite People → Edit invite link, ' +
        'set Expire After: Never and paste the link below.',
    });
    expect([...s.invites.values()].some((i) => i.guildId === locked.id)).toBe(false);
  });

  it('refuses a malformed id and anonymous callers without asking Discord', async () => {
    const bad = await owner.post('/api/guilds/not-a-guild/invite');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'That is not a Discord server id.' });
    expect((await app.anonymous().post('/api/guilds/123456789012345678/invite')).status).toBe(401);
  });
});
