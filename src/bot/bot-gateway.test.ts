import { Events, GatewayIntentBits, type GuildMember } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { shardOf } from '../sim/discord/gateway.ts';
import { startTestApp, TEST_DISCORD, type TestApp } from '../test/harness.ts';
import { explainGatewayFailure, startBot, type Bot } from './bot.ts';
import { waitFor } from './bot-test-kit.ts';

// The product's bot against the simulator's gateway refusals and sharding, as a deployment meets them:
// each refusal reaches the bot, which logs the one line an operator needs, while the web app keeps
// serving; past Discord's per-shard limit the bot shards ('auto') and every guild lands on its shard.

let app: TestApp;
let bot: Bot | null = null;
const defaults = { maxGuildsPerShard: 2500, guildsPerRecommendedShard: 1000 };

beforeAll(async () => {
  app = await startTestApp(); // no background: each test starts the bot itself
});
afterAll(() => app.close());
afterEach(async () => {
  await bot?.stop();
  bot = null;
  app.sim.state.gateway = {
    ...app.sim.state.gateway,
    ...defaults,
    allowedPrivilegedIntents: (1 << 1) | (1 << 8) | (1 << 15),
  };
});

const lineWith = (text: string) => app.logLines.find((l) => l.includes(text));

async function expectWebAppServing(): Promise<void> {
  expect((await app.anonymous().get('/api/health')).status).toBe(200);
  // Sign-in (OAuth2 against Discord) and Discover work without the bot.
  const viewer = await app.signIn(`gw_viewer_${(viewers += 1)}`);
  expect((await viewer.get('/api/servers')).status).toBe(200);
}
let viewers = 0;

describe('gateway refusals reach the operator', () => {
  it('4014: falls back at once to identifying without the Server Members intent, says so once; the web app keeps serving', async () => {
    app.sim.state.gateway.allowedPrivilegedIntents = 0; // a new application, or a refused review
    // A retry wait would be a 100 s offline period: the fall-back must not wait for it.
    bot = startBot(app.server.ctx, { loginRetryMs: 100_000 });
    await bot.ready;
    expect(bot.client?.isReady()).toBe(true);
    expect(bot.membersIntent()).toBe('refused');
    expect(bot.client!.options.intents.has(GatewayIntentBits.GuildMembers)).toBe(false);
    expect(bot.client!.options.intents.has(GatewayIntentBits.GuildModeration)).toBe(true);
    const lines = app.logLines.filter((l) => l.includes('gateway close 4014'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Server Members Intent');
    expect(lines[0]).toContain('running without it');
    expect(lines[0]).toContain('Privileged Gateway Intents');
    // Without the intent the bot never asks for member chunks (Discord would close the session).
    const guild = app.sim.state.createGuild({
      name: 'No intent guild',
      ownerId: app.sim.state.createUser({ username: 'gw_4014_owner' }).id,
    });
    await waitFor(() => bot!.client!.guilds.cache.has(guild.id), 5000, 'the guild');
    expect(bot.members.memberCount(guild.id)).toBeNull();
    app.sim.state.deleteGuild(guild.id); // later tests count the bot's guilds
    await expectWebAppServing();
  }, 20_000);

  it('DISCORD_MEMBERS_INTENT=off: never asks for the intent, even where Discord allows it', async () => {
    const ctx: AppContext = {
      ...app.server.ctx,
      config: { ...app.server.ctx.config, membersIntent: 'off' },
    };
    bot = startBot(ctx, { loginRetryMs: 100_000 });
    await bot.ready;
    expect(bot.membersIntent()).toBe('configured-off');
    expect(bot.client!.options.intents.has(GatewayIntentBits.GuildMembers)).toBe(false);
  });

  it('with the intent allowed: identifies with it', async () => {
    bot = startBot(app.server.ctx, { loginRetryMs: 100_000 });
    await bot.ready;
    expect(bot.membersIntent()).toBe('on');
    expect(bot.client!.options.intents.has(GatewayIntentBits.GuildMembers)).toBe(true);
  });

  it('4004 / 401: a wrong token names DISCORD_BOT_TOKEN; the web app keeps serving', async () => {
    const discord = { ...app.server.ctx.config.discord, botToken: 'not-the-token' };
    const ctx: AppContext = { ...app.server.ctx, config: { ...app.server.ctx.config, discord } };
    bot = startBot(ctx, { loginRetryMs: 100 });
    await waitFor(() => lineWith('rejected the bot token') !== undefined, 10_000, 'the token line');
    expect(lineWith('rejected the bot token')).toContain('DISCORD_BOT_TOKEN');
    await expectWebAppServing();
    discord.botToken = TEST_DISCORD.botToken;
    await bot.ready;
  }, 20_000);

  it('4011: sharding required is logged, and the bot connects once Discord recommends enough shards', async () => {
    const owner = app.sim.state.createUser({ username: 'shard_owner_4011' });
    const guilds = app.sim.state.createGuilds({ count: 6, ownerId: owner.id, namePrefix: 'Tiny shard' });
    try {
      // Discord says one shard is enough, but closes with 4011 above 3 guilds per shard.
      app.sim.state.gateway.maxGuildsPerShard = 3;
      app.sim.state.gateway.guildsPerRecommendedShard = 1_000_000;
      bot = startBot(app.server.ctx, { loginRetryMs: 100 });
      await waitFor(() => lineWith('gateway close 4011') !== undefined, 10_000, 'the 4011 line');
      await expectWebAppServing();
      app.sim.state.gateway.guildsPerRecommendedShard = 3; // GET /gateway/bot now says more shards
      await bot.ready;
      const client = bot.client!;
      expect(client.ws.shards.size).toBeGreaterThan(1);
      await waitFor(() => client.guilds.cache.size === guilds.length, 5000, 'all guilds');
      for (const guild of client.guilds.cache.values())
        expect(guild.shardId).toBe(shardOf(guild.id, client.ws.shards.size));
    } finally {
      await bot?.stop();
      for (const g of guilds) app.sim.state.deleteGuild(g.id);
    }
  }, 20_000);

  it('has a line for each fatal code discord.js reports (4013 cannot be provoked with valid intents)', () => {
    for (const code of [4004, 4011, 4013, 4014])
      expect(explainGatewayFailure(code)).toContain(`gateway close ${code}`);
    expect(explainGatewayFailure(4000)).toBeNull();
  });
});

describe('3,000 guilds over 2 shards', () => {
  it('delivers every GUILD_CREATE to the shard (guild_id >> 22) % 2, and member events from both shards', async () => {
    const owner = app.sim.state.createUser({ username: 'shard_owner_3000' });
    const member = app.sim.state.createUser({ username: 'shard_member_3000' });
    const guilds = app.sim.state.createGuilds({ count: 3000, ownerId: owner.id, namePrefix: 'Sharded' });
    // One shard would be over Discord's limit (4011); Discord recommends 2.
    app.sim.state.gateway.guildsPerRecommendedShard = 1500;
    bot = startBot(app.server.ctx, { loginRetryMs: 100 });
    await bot.ready;
    const client = bot.client!;
    expect(client.ws.shards.size).toBe(2);
    await waitFor(() => client.guilds.cache.size === 3000, 30_000, 'all guilds');
    const perShard = [0, 0];
    for (const guild of guilds) {
      const cached = client.guilds.cache.get(guild.id);
      expect(cached?.available, guild.id).toBe(true);
      expect(cached?.shardId).toBe(shardOf(guild.id, 2));
      perShard[cached!.shardId]! += 1;
    }
    // The simulator spreads ids evenly (1 ms apart): both shards carry half.
    expect(perShard).toEqual([1500, 1500]);

    // Member events from guilds on both shards arrive, each on its guild's shard.
    const seen = new Map<string, number>();
    const onAdd = (m: GuildMember) => {
      if (m.id === member.id) seen.set(m.guild.id, m.guild.shardId);
    };
    client.on(Events.GuildMemberAdd, onAdd);
    const sample = Array.from({ length: 20 }, (_, k) => guilds[k * 149]!); // odd step: both shards
    for (const guild of sample) app.sim.state.addMember(guild.id, member.id);
    await waitFor(() => seen.size === sample.length, 10_000, 'member events');
    client.off(Events.GuildMemberAdd, onAdd);
    expect(new Set(seen.values())).toEqual(new Set([0, 1]));
    for (const guild of sample) expect(seen.get(guild.id)).toBe(shardOf(guild.id, 2));
  }, 90_000);
});
