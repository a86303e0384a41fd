import { Events, Status, type Client, type GuildMember } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { JobMonitor } from '../ops/job-monitor.ts';
import { createReadiness } from '../ops/readiness.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { ledgerRows } from '../test/factories.ts';
import type { SimGuild } from '../sim/discord/index.ts';
import { startBot, type Bot } from './bot.ts';
import { createBotCampaign, findJoin, joinViaWebsite, waitFor } from './bot-test-kit.ts';
import { reconcile } from './reconcile.ts';
import { shardOfGuild } from './shards.ts';

// Two bot processes, each with one shard of two (ROLE=bot, SHARD_COUNT=2, SHARD_IDS=0 and =1), against
// the simulator, which applies Discord's rule: a guild's events go to shard (guild_id >> 22) % 2 only.
// Here both clients live in one test process over one database, as two bot processes would share one.

let app: TestApp;
let owner: TestClient;
const bots: Bot[] = [];
const count = 2;
/** The first test's campaigns (one per shard) and the clients the stopped bots left behind. */
let firstTargets: { guild: SimGuild; campaignId: string }[] = [];
const stopped: { bot: Bot; client: Client }[] = [];

const shardCtx = (id: number): AppContext => ({
  ...app.server.ctx,
  config: { ...app.server.ctx.config, role: 'bot', shards: { ids: [id], count } },
});

/** Campaign guilds until there is one on each shard (the simulator's ids are 1 ms apart). */
async function guildsOnBothShards(prefix: string): Promise<{ guild: SimGuild; campaignId: string }[]> {
  const found = new Map<number, { guild: SimGuild; campaignId: string }>();
  for (let i = 0; found.size < count && i < 20; i++) {
    const { guild, campaign } = await createBotCampaign(app, owner, { name: `${prefix} ${i}`, slots: 5 });
    const shard = shardOfGuild(guild.id, count);
    if (!found.has(shard)) found.set(shard, { guild, campaignId: campaign.id });
  }
  expect([...found.keys()].sort()).toEqual([0, 1]);
  return [0, 1].map((s) => found.get(s)!);
}

const rewards = (member: TestClient) => ledgerRows(app.server.ctx.store, member.user!.id, 'join_reward');

beforeAll(async () => {
  app = await startTestApp(); // no background: the two shard clients are started below
  owner = await app.signIn('shard_owner');
});
afterAll(async () => {
  for (const bot of bots) await bot.stop();
  await app.close();
});

describe('a bot process per shard (SHARD_COUNT=2)', () => {
  it('each shard gets only its guilds and their events; joins on either shard are verified and paid once; readiness names the shard', async () => {
    const targets = await guildsOnBothShards('Sharded campaign');
    firstTargets = targets;
    for (const id of [0, 1]) bots.push(startBot(shardCtx(id), { loginRetryMs: 100 }));
    await Promise.all(bots.map((b) => b.ready));
    const seen: string[][] = [[], []];
    bots.forEach((bot, id) =>
      bot.client!.on(Events.GuildMemberAdd, (m: GuildMember) => seen[id]!.push(m.guild.id)),
    );

    // Each client identified as its shard of two and holds only the guilds on it.
    for (const [id, bot] of bots.entries()) {
      const client = bot.client!;
      expect([...client.ws.shards.keys()]).toEqual([id]);
      expect(client.options.shardCount).toBe(count);
      for (const { guild } of targets)
        expect(client.guilds.cache.has(guild.id), `shard ${id} holds ${guild.id}`).toBe(
          shardOfGuild(guild.id, count) === id,
        );
      for (const guild of client.guilds.cache.values()) expect(shardOfGuild(guild.id, count)).toBe(id);
    }

    // Members join both campaigns on the website, then the guilds.
    const members = [await app.signIn('shard_member_a'), await app.signIn('shard_member_b')];
    for (const member of members) {
      for (const { guild, campaignId } of targets) {
        await joinViaWebsite(member, campaignId);
        app.sim.state.addMember(guild.id, member.user!.discordId);
      }
    }
    for (const member of members)
      for (const { campaignId } of targets)
        await waitFor(
          async () => (await findJoin(app, campaignId, member.user!.id))?.verified === true,
          10_000,
          'verification on both shards',
        );
    for (const bot of bots) await bot.idle();

    // Shard 0 saw the shard-0 guild's arrivals only, shard 1 the other's.
    for (const [id, { guild }] of targets.entries()) {
      expect(seen[id]!.filter((g) => g === guild.id)).toHaveLength(members.length);
      expect(seen[1 - id]!).not.toContain(guild.id);
    }
    // Verified and paid exactly once per join.
    for (const member of members) expect(await rewards(member)).toHaveLength(targets.length);
    await app.checkLedger();

    // Readiness of each process reports its own shard.
    for (const [id, bot] of bots.entries()) {
      const readiness = createReadiness({
        store: app.server.ctx.store,
        now: () => app.clock.now(),
        startedAt: app.clock.now(),
        botClient: () => bot.client,
        jobs: new JobMonitor(() => app.clock.now()),
      });
      expect((await readiness()).checks.gateway).toEqual({
        ok: true,
        detail: `connected (shard ${id} of ${count} ready)`,
      });
    }
  }, 60_000);

  it("a shard that is down is named in its process's readiness", async () => {
    const bot = bots[1]!;
    const readiness = createReadiness({
      store: app.server.ctx.store,
      now: () => app.clock.now(),
      startedAt: app.clock.now(),
      botClient: () => bot.client,
      jobs: new JobMonitor(() => app.clock.now()),
    });
    // Seen connected first: a bot that has never connected is "not connected yet since start" instead.
    expect((await readiness()).checks.gateway!.ok).toBe(true);
    app.sim.state.setGatewayOnline(false);
    try {
      await waitFor(() => bot.client?.ws.shards.get(1)?.status !== Status.Ready, 10_000, 'shard 1 down');
      const report = await readiness();
      expect(report.checks.gateway!.detail).toMatch(
        /^connecting \(not connected for \d+ s; shard 1 of 2 \w+\)$/,
      );
    } finally {
      app.sim.state.setGatewayOnline(true);
    }
    // Both processes lost the gateway: wait for both shards, so the next test stops settled clients.
    for (const [id, each] of bots.entries())
      await waitFor(
        () => each.client?.ws.shards.get(id)?.status === Status.Ready,
        20_000,
        `shard ${id} back`,
      );
  }, 40_000);
});

describe('reconcile per shard', () => {
  it('reconcile:shard-<id> settles only the guilds on its shard', async () => {
    for (const bot of bots.splice(0)) {
      stopped.push({ bot, client: bot.client! });
      await bot.stop(); // events missed: only reconciliation sees the arrivals
    }
    const targets = await guildsOnBothShards('Reconciled campaign');
    const member = await app.signIn('shard_member_offline');
    for (const { guild, campaignId } of targets) {
      await joinViaWebsite(member, campaignId);
      app.sim.state.addMember(guild.id, member.user!.discordId);
    }
    const verified = async () =>
      (await Promise.all(targets.map((t) => findJoin(app, t.campaignId, member.user!.id)))).map(
        (j) => j?.verified,
      );
    expect(await verified()).toEqual([false, false]);

    const first = await reconcile(app.server.ctx, { shard: { id: 1, count } });
    expect(first.verified).toBe(1);
    expect(await verified()).toEqual([false, true]);
    const second = await reconcile(app.server.ctx, { shard: { id: 0, count } });
    expect(second.verified).toBe(1);
    expect(await verified()).toEqual([true, true]);
    // Nothing left for either shard, and each join was paid once.
    expect((await reconcile(app.server.ctx, { shard: { id: 1, count } })).verified).toBe(0);
    expect(await rewards(member)).toHaveLength(2);
    await app.checkLedger();
  }, 30_000);

  it("a stopped bot's client acts on nothing, even if its gateway session comes back", async () => {
    // discord.js can finish a shard's reconnect after destroy(); such a zombie session's events must not
    // verify joins. Here the stopped shard-0 client delivers an arrival into a campaign's guild it held.
    const { guild, campaignId } = firstTargets[0]!;
    const { bot, client } = stopped[0]!;
    const member = await app.signIn('shard_member_zombie');
    await joinViaWebsite(member, campaignId);
    app.sim.state.addMember(guild.id, member.user!.discordId);
    const cached = client.guilds.cache.get(guild.id)!;
    const arrival = (cached.members as unknown as { _add(data: unknown): GuildMember })._add({
      user: { id: member.user!.discordId, username: 'shard_member_zombie', discriminator: '0', avatar: null },
      joined_at: new Date(app.clock.now()).toISOString(),
      roles: [],
      deaf: false,
      mute: false,
      flags: 0,
    });
    client.emit(Events.GuildMemberAdd, arrival);
    await bot.idle();
    expect((await findJoin(app, campaignId, member.user!.id))?.verified).toBe(false);
    expect(await rewards(member)).toHaveLength(0);
  });
});
