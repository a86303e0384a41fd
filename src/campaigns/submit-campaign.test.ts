import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { ApiServer } from '../shared/api-types.ts';
import { DiscordApi } from '../discord/discord-api.ts';
import { AppError } from '../shared/errors.ts';
import { submitCampaign } from './submit-campaign.ts';
import {
  createGuildWithInvite,
  giveCoins,
  campaignsOf,
  signInWithCoins,
  transactionsOf,
} from './test-support.ts';

let app: TestApp;
let owner: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'submit_owner', 45); // 50.00 with the welcome bonus
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('POST /api/servers (regular)', () => {
  it('debits the coins, creates the campaign with 1 slot per coin (rounded down) and returns it', async () => {
    const { guild, link } = createGuildWithInvite(app, owner, { name: 'Pixel Raiders', icon: 'abc123' });
    const before = await owner.balanceCents();
    const res = await owner.post<ApiServer>('/api/servers', {
      name: '  Pixel Raiders ',
      inviteLink: link,
      coinReward: '10.9',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Pixel Raiders',
      serverId: guild.id,
      serverIcon: 'abc123',
      iconUrl: `https://cdn.discordapp.com/icons/${guild.id}/abc123.png?size=128`,
      coinReward: '0.50',
      membersRemaining: 10,
      initialMemberSlots: 10,
      isFeatured: false,
      ownerId: owner.user!.id,
    });
    expect(await owner.balanceCents()).toBe(before - 1000);
    const last = (await transactionsOf(app, owner)).find((t) => t.type === 'campaign');
    expect(last).toMatchObject({ amount: -1000, description: 'Campaign: Pixel Raiders (10 members)' });
  });

  it('accepts discord.com/invite and discordapp.com/invite links and stores a normalised link', async () => {
    for (const host of ['discord.com', 'discordapp.com']) {
      const { code } = createGuildWithInvite(app, owner);
      const res = await owner.post<ApiServer>('/api/servers', {
        name: 'Long Link',
        inviteLink: `https://${host}/invite/${code}`,
        coinReward: '3',
      });
      expect(res.status).toBe(201);
      expect(res.body.inviteLink).toBe(`https://discord.gg/${code}`);
    }
  });

  it.each([
    ['2', 'Minimum 3 coins required'],
    ['2.99', 'Minimum 3 coins required'],
    ['abc', 'Minimum 3 coins required'],
    ['', 'Minimum 3 coins required'],
    ['-5', 'Minimum 3 coins required'],
    ['1e12', 'Minimum 3 coins required'],
    ['0b11', 'Minimum 3 coins required'],
    ['0x10', 'Minimum 3 coins required'],
    ['5.001', 'Minimum 3 coins required'],
    ['100000000', 'Please enter at most 99999999 coins'],
  ])('refuses coinReward %j with 400 %j', async (coinReward, message) => {
    const { link } = createGuildWithInvite(app, owner);
    const before = await owner.balanceCents();
    const count = (await campaignsOf(app, owner)).length;
    const res = await owner.post('/api/servers', { name: 'Too Cheap', inviteLink: link, coinReward });
    expect(res).toMatchObject({ status: 400, body: { message } });
    expect(await owner.balanceCents()).toBe(before);
    expect(await campaignsOf(app, owner)).toHaveLength(count);
  });

  it.each([
    [{ inviteLink: 'https://discord.gg/abc', coinReward: '5' }, 'Server name is required'],
    [{ name: '   ', inviteLink: 'https://discord.gg/abc', coinReward: '5' }, 'Server name is required'],
    [
      { name: 'A', inviteLink: 'https://discord.gg/abc', coinReward: '5' },
      'Server name must be at least 2 characters',
    ],
    [
      { name: 'x'.repeat(101), inviteLink: 'https://discord.gg/abc', coinReward: '5' },
      'Server name must be at most 100 characters',
    ],
    [{ name: 'Fine Name', coinReward: '5' }, 'Invite link is required'],
    [{ name: 'Fine Name', inviteLink: '', coinReward: '5' }, 'Invite link is required'],
    [
      { name: 'Fine Name', inviteLink: 'https://example.com/invite/abc', coinReward: '5' },
      'Please enter a valid Discord invite link (https://discord.gg/...)',
    ],
    [
      { name: 'Fine Name', inviteLink: 'http://discord.gg/abc', coinReward: '5' },
      'Please enter a valid Discord invite link (https://discord.gg/...)',
    ],
    [
      { name: 'Fine Name', inviteLink: 'https://discord.gg.evil.com/abc', coinReward: '5' },
      'Please enter a valid Discord invite link (https://discord.gg/...)',
    ],
    [
      { name: 'Fine Name', inviteLink: 'https://discord.com/channels/1/2', coinReward: '5' },
      'Please enter a valid Discord invite link (https://discord.gg/...)',
    ],
    [
      { name: 'Fine Name', inviteLink: 'not a url', coinReward: '5' },
      'Please enter a valid Discord invite link (https://discord.gg/...)',
    ],
    [{ name: 42, inviteLink: 'https://discord.gg/abc', coinReward: '5' }, 'Server name is required'],
  ])('refuses %j with 400 %j', async (body, message) => {
    const res = await owner.post('/api/servers', body);
    expect(res).toMatchObject({ status: 400, body: { message } });
  });

  it('refuses an unknown invite and an expiring one', async () => {
    const unknown = await owner.post('/api/servers', {
      name: 'Ghost',
      inviteLink: 'https://discord.gg/doesnotexist',
      coinReward: '5',
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: { message: 'This invite link is invalid or has expired. Please use a permanent invite link.' },
    });
    const { guild } = createGuildWithInvite(app, owner);
    app.sim.state.createInvite(guild.id, { code: 'expiring1', maxAge: 3600 });
    const expiring = await owner.post('/api/servers', {
      name: 'Soon Gone',
      inviteLink: 'https://discord.gg/expiring1',
      coinReward: '5',
    });
    expect(expiring).toMatchObject({
      status: 400,
      body: { message: 'This invite link expires. Please create a permanent (never-expiring) invite link.' },
    });
  });

  it('answers botMissing with the bot invite URL when our bot is not in the guild, and charges nothing', async () => {
    const { guild, link } = createGuildWithInvite(app, owner, { botMember: false });
    const before = await owner.balanceCents();
    const res = await owner.post<{ message: string; botMissing: boolean; inviteUrl: string }>(
      '/api/servers',
      {
        name: 'No Bot Yet',
        inviteLink: link,
        coinReward: '5',
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please invite our bot to your server first, then submit again.');
    expect(res.body.botMissing).toBe(true);
    const url = new URL(res.body.inviteUrl);
    expect(url.searchParams.get('guild_id')).toBe(guild.id);
    expect(await owner.balanceCents()).toBe(before);

    // Once the bot is invited, the same submission goes through.
    app.sim.state.setBotInGuild(guild.id, true);
    expect(
      (await owner.post('/api/servers', { name: 'No Bot Yet', inviteLink: link, coinReward: '5' })).status,
    ).toBe(201);
  });

  it('refuses an amount above the balance with the spec text and changes nothing', async () => {
    const poor = await signInWithCoins(app, 'submit_poor', 2); // 7.00
    const { link } = createGuildWithInvite(app, poor);
    const res = await poor.post('/api/servers', { name: 'Big Dreams', inviteLink: link, coinReward: '8' });
    expect(res).toMatchObject({
      status: 402,
      body: { message: 'You need 8 coins to submit this server. You have 7.00 coins.' },
    });
    expect(await poor.balanceCents()).toBe(700);
    expect(await campaignsOf(app, poor)).toHaveLength(0);
    expect((await poor.get<unknown[]>('/api/campaigns')).body).toEqual([]);
  });

  it('20 parallel 10-coin submissions on a 50-coin balance create exactly 5 campaigns', async () => {
    const racer = await signInWithCoins(app, 'submit_racer', 45);
    const { link } = createGuildWithInvite(app, racer);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        racer.post('/api/servers', { name: `Race ${i}`, inviteLink: link, coinReward: '10' }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 402)).toHaveLength(15);
    expect(await racer.balanceCents()).toBe(0);
    expect(await campaignsOf(app, racer)).toHaveLength(5);
    expect((await transactionsOf(app, racer)).filter((t) => t.type === 'campaign')).toHaveLength(5);
  });

  it('requires a session', async () => {
    const res = await app
      .anonymous()
      .post('/api/servers', { name: 'Anon', inviteLink: 'https://discord.gg/x1', coinReward: '5' });
    expect(res.status).toBe(401);
  });

  it('turns a Discord outage into a 502 with a friendly message and writes nothing', async () => {
    const { link } = createGuildWithInvite(app, owner);
    // The same app wiring, with Discord unreachable (nothing listens on port 9 of loopback).
    const down = {
      ...app.server.ctx,
      discord: new DiscordApi({ baseUrl: 'http://127.0.0.1:9', botToken: 'x' }),
    };
    const count = (await campaignsOf(app, owner)).length;
    const err = await submitCampaign(down, owner.user!.id, {
      name: 'Outage',
      inviteLink: link,
      coinReward: '5',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 502, message: 'Could not reach Discord. Please try again.' });
    expect(await campaignsOf(app, owner)).toHaveLength(count);
  });
});

describe('POST /api/servers/no-bot', () => {
  it('creates a no-bot campaign (no guild id, 0.20 reward) for 1 coin per member, without needing the bot', async () => {
    const client = await signInWithCoins(app, 'nobot_owner', 10); // 15.00
    const { link } = createGuildWithInvite(app, client, { botMember: false });
    const res = await client.post<ApiServer>('/api/servers/no-bot', {
      name: 'Quiet Corner',
      inviteLink: link,
      memberCount: '12',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      serverId: null,
      coinReward: '0.20',
      membersRemaining: 12,
      initialMemberSlots: 12,
      isFeatured: false,
    });
    expect(await client.balanceCents()).toBe(300);
    expect((await transactionsOf(app, client)).find((t) => t.type === 'campaign')).toMatchObject({
      amount: -1200,
      description: 'No-bot campaign: Quiet Corner (12 members)',
    });
  });

  it.each(['2', '3.5', 'abc', '', '-4', '1e3'])('refuses memberCount %j', async (memberCount) => {
    const res = await owner.post('/api/servers/no-bot', {
      name: 'Quiet',
      inviteLink: 'https://discord.gg/abc',
      memberCount,
    });
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'Please enter a valid number of members (minimum 3)' },
    });
  });

  it('refuses above the balance with the spec text', async () => {
    const client = await signInWithCoins(app, 'nobot_poor', 0); // 5.00
    const { link } = createGuildWithInvite(app, client);
    const res = await client.post('/api/servers/no-bot', {
      name: 'Quiet',
      inviteLink: link,
      memberCount: '6',
    });
    expect(res).toMatchObject({
      status: 402,
      body: { message: 'You need 6 coins for 6 members. You have 5.00 coins.' },
    });
    expect(await client.balanceCents()).toBe(500);
    expect(await campaignsOf(app, client)).toHaveLength(0);
  });

  it('still resolves the invite', async () => {
    const res = await owner.post('/api/servers/no-bot', {
      name: 'Quiet',
      inviteLink: 'https://discord.gg/nope404',
      memberCount: '5',
    });
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'This invite link is invalid or has expired. Please use a permanent invite link.' },
    });
  });
});

describe('GET /api/bot/invite', () => {
  it('builds the authorize URL with the bot permissions, pre-selecting the guild when given', async () => {
    const plain = await owner.get<{ inviteUrl: string }>('/api/bot/invite');
    expect(plain.status).toBe(200);
    const url = new URL(plain.body.inviteUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${app.sim.url}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(app.server.ctx.config.discord.clientId);
    expect(url.searchParams.get('scope')).toBe('bot');
    expect(url.searchParams.get('permissions')).toBe('129');
    expect(url.searchParams.has('guild_id')).toBe(false);

    const withGuild = new URL(
      (await owner.get<{ inviteUrl: string }>('/api/bot/invite?guildId=123456789012345678')).body.inviteUrl,
    );
    expect(withGuild.searchParams.get('guild_id')).toBe('123456789012345678');
    expect(withGuild.searchParams.get('disable_guild_select')).toBe('true');

    expect((await owner.get('/api/bot/invite?guildId=abc')).status).toBe(400);
  });
});

describe('GET /api/transactions', () => {
  it('lists the latest 50 of the user own entries, newest first, with signed 2-decimal amounts', async () => {
    const client = await signInWithCoins(app, 'tx_lister', 0);
    for (let i = 0; i < 55; i++) {
      app.clock.advance(1000);
      await giveCoins(app, client, 1);
    }
    const res =
      await client.get<{ amount: string; type: string; description: string | null; userId: string }[]>(
        '/api/transactions',
      );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(50);
    expect(res.body.every((t) => t.userId === client.user!.id)).toBe(true);
    expect(res.body[0]).toMatchObject({ amount: '1.00', type: 'purchase' });
    // The welcome bonus is the oldest entry and falls outside the latest 50.
    expect(res.body.some((t) => t.type === 'welcome')).toBe(false);
  });

  it('summarises lifetime earned and spent coins', async () => {
    const client = await signInWithCoins(app, 'tx_summary', 20); // earned 25.00
    const { link } = createGuildWithInvite(app, client);
    expect(
      (await client.post('/api/servers', { name: 'Summed', inviteLink: link, coinReward: '7' })).status,
    ).toBe(201);
    const res = await client.get('/api/transactions/summary');
    expect(res).toMatchObject({ status: 200, body: { earned: '25.00', spent: '7.00' } });
  });
});
