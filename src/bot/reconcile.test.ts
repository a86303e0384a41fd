import { Events } from 'discord.js';
import { readCampaign, insertCampaign } from '../test/factories.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../clock.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import {
  balanceOf,
  createBotCampaign,
  findJoin,
  joinViaWebsite,
  startBotTestApp,
  waitFor,
} from './bot-test-kit.ts';
import { reconcile } from './reconcile.ts';
import { recordVerifiedJoin } from './verify-join.ts';
import { DEFAULT_RATE_LIMITS } from '../sim/discord/rate-limits.ts';

// Reconciliation must leave the database exactly as the missed gateway events would have.

let app: TestApp;
let count = 0;
const signIn = (prefix: string) => app.signIn(`${prefix}_${++count}`);
const discordId = (c: TestClient) => c.user!.discordId;

beforeAll(async () => {
  app = await startBotTestApp();
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

async function verifiedLive(guildId: string, campaignId: string, member: TestClient): Promise<void> {
  await joinViaWebsite(member, campaignId);
  app.sim.state.addMember(guildId, discordId(member));
  await waitFor(async () => (await findJoin(app, campaignId, member.user!.id))?.verified === true);
}

/**
 * Three paid members (B, C, D) fill a 3-slot campaign; then B leaves inside the stay, C is kicked,
 * A (a pending website join) arrives, E never arrives. With the gateway down, reconcile() has to
 * find all of that out through REST.
 */
async function runScenario(mode: 'live' | 'offline') {
  const owner = await signIn(`${mode}_owner`);
  const { guild, campaign } = await createBotCampaign(app, owner, { slots: 3, name: `Reconcile ${mode}` });
  const [a, b, c, d, e] = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((r) => signIn(`${mode}_${r}`)));
  const members = { a: a!, b: b!, c: c!, d: d!, e: e! };
  // A and E click Join while slots remain, but only arrive (or never do) after the campaign filled up.
  await joinViaWebsite(members.a, campaign.id);
  await joinViaWebsite(members.e, campaign.id);
  for (const m of [members.b, members.c, members.d]) await verifiedLive(guild.id, campaign.id, m);
  await waitFor(
    async () => (await readCampaign(app.server.ctx.store, campaign.id))?.completionNotificationSent === true,
  );
  const before = Object.fromEntries(
    await Promise.all(Object.entries(members).map(async ([k, m]) => [k, await balanceOf(app, m)] as const)),
  );
  app.clock.advance(HOUR);

  if (mode === 'offline') app.sim.state.setGatewayOnline(false);
  app.sim.state.removeMember(guild.id, discordId(members.b), { reason: 'leave' });
  app.sim.state.removeMember(guild.id, discordId(members.c), { reason: 'kick' });
  app.sim.state.addMember(guild.id, discordId(members.a));

  if (mode === 'live') {
    await waitFor(async () => (await findJoin(app, campaign.id, members.a.user!.id))?.verified === true);
    await waitFor(async () => (await findJoin(app, campaign.id, members.c.user!.id))?.hasLeft === true);
  } else {
    await new Promise((r) => setTimeout(r, 200)); // the events had their chance and were lost
    expect((await findJoin(app, campaign.id, members.a.user!.id))?.verified).toBe(false);
    expect((await findJoin(app, campaign.id, members.b.user!.id))?.hasLeft).toBe(false);
    const result = await reconcile(app.server.ctx);
    expect(result).toMatchObject({ verified: 1, left: 2, failed: 0 });
    const bot = app.server.background.bot!;
    const resumed = new Promise((r) => bot.client!.once(Events.ShardResume, r));
    app.sim.state.setGatewayOnline(true);
    await resumed;
  }

  const outcome = Object.fromEntries(
    await Promise.all(
      Object.entries(members).map(async ([k, m]) => {
        const join = (await findJoin(app, campaign.id, m.user!.id))!;
        const { verified, coinsAwarded, hasLeft, leftReason, penalized } = join;
        return [
          k,
          {
            verified,
            coinsAwarded,
            hasLeft,
            leftReason,
            penalized,
            gained: (await balanceOf(app, m)) - before[k]!,
          },
        ];
      }),
    ),
  );
  const row = (await readCampaign(app.server.ctx.store, campaign.id))!;
  const dms = app.sim.state.listDms({ userId: discordId(owner) }).length;
  return {
    outcome,
    membersRemaining: row.membersRemaining,
    completionNotificationSent: row.completionNotificationSent,
    dms,
  };
}

describe('reconcile()', () => {
  it('after an outage gives the same result as live events', async () => {
    const live = await runScenario('live');
    expect(live).toEqual({
      outcome: {
        a: {
          verified: true,
          coinsAwarded: true,
          hasLeft: false,
          leftReason: null,
          penalized: false,
          gained: 50,
        },
        b: {
          verified: true,
          coinsAwarded: true,
          hasLeft: true,
          leftReason: 'leave',
          penalized: true,
          gained: -200,
        },
        c: {
          verified: true,
          coinsAwarded: true,
          hasLeft: true,
          leftReason: 'kick',
          penalized: false,
          gained: 0,
        },
        d: {
          verified: true,
          coinsAwarded: true,
          hasLeft: false,
          leftReason: null,
          penalized: false,
          gained: 0,
        },
        e: {
          verified: false,
          coinsAwarded: false,
          hasLeft: false,
          leftReason: null,
          penalized: false,
          gained: 0,
        },
      },
      membersRemaining: 0,
      completionNotificationSent: true,
      dms: 1,
    });
    expect(await runScenario('offline')).toEqual(live);
  }, 30_000);

  it('sends a completion DM the bot missed, once', async () => {
    const owner = await signIn('missed_owner');
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 1 });
    const member = await signIn('missed_member');
    await joinViaWebsite(member, campaign.id);
    app.sim.state.setGatewayOnline(false);
    app.sim.state.addMember(guild.id, discordId(member));
    await Promise.all([reconcile(app.server.ctx), reconcile(app.server.ctx)]);
    await reconcile(app.server.ctx);
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      verified: true,
      coinsAwarded: true,
    });
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      membersRemaining: 0,
      completionNotificationSent: true,
    });
    expect(app.sim.state.listDms({ userId: discordId(owner) })).toHaveLength(1);
    const resumed = new Promise((r) => app.server.background.bot!.client!.once(Events.ShardResume, r));
    app.sim.state.setGatewayOnline(true);
    await resumed;
  });

  it('leaves pending joins older than 7 days and members past their stay alone', async () => {
    const owner = await signIn('old_owner');
    const { guild, campaign } = await createBotCampaign(app, owner);
    const stale = await signIn('old_stale');
    const settled = await signIn('old_settled');
    await joinViaWebsite(stale, campaign.id);
    await verifiedLive(guild.id, campaign.id, settled);
    app.clock.advance(7 * DAY + HOUR);
    app.sim.state.setGatewayOnline(false);
    app.sim.state.addMember(guild.id, discordId(stale));
    app.sim.state.removeMember(guild.id, discordId(settled), { reason: 'leave' });
    const before = await balanceOf(app, settled);
    await reconcile(app.server.ctx);
    expect(await findJoin(app, campaign.id, stale.user!.id)).toMatchObject({
      verified: false,
      coinsAwarded: false,
    });
    expect(await findJoin(app, campaign.id, settled.user!.id)).toMatchObject({
      hasLeft: false,
      penalized: false,
    });
    expect(await balanceOf(app, settled)).toBe(before);
    const resumed = new Promise((r) => app.server.background.bot!.client!.once(Events.ShardResume, r));
    app.sim.state.setGatewayOnline(true);
    await resumed;
  });

  it('pauses the campaign of a guild the bot is not in (per its own guild list); joins stay open, nobody is charged', async () => {
    const owner = await signIn('gone_owner');
    const member = await signIn('gone_member');
    // A guild id the simulator has never heard of: Discord answers 10004 Unknown Guild.
    const campaign = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      guildId: '499999999999999999',
    });
    await joinViaWebsite(member, campaign.id).catch(() => undefined);
    const result = await recordVerifiedJoin(app.server.ctx, {
      guildId: '499999999999999999',
      discordUserId: discordId(member),
      at: app.clock.now(),
    });
    expect(result.rewarded?.cents).toBe(50);
    const before = await balanceOf(app, member);
    // The bot's own run (started when the previous test brought the gateway back) would otherwise race this
    // one for the pause, and this run would find nothing left to pause.
    await app.server.background.reconcileIdle();
    const outcome = await reconcile(app.server.ctx);
    expect(outcome.paused).toBeGreaterThanOrEqual(1);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.botRemovedAt).not.toBeNull();
    // One 10004 proves nothing (Discord sends it for guilds the bot is in, too: #8445): nothing is closed.
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      hasLeft: false,
      penalized: false,
    });
    expect(await balanceOf(app, member)).toBe(before);
  });

  it('does not pause a campaign created while it reads the bot guild list (the bot joined its guild after that page)', async () => {
    const owner = await signIn('listed_owner');
    // The lowest guild id there is, so it sorts onto the first page of GET /users/@me/guilds; the bot
    // is not in it yet. 200 more guilds with the bot make the list two pages.
    const guild = app.sim.state.createGuild({
      id: '100000000000000001',
      name: 'Joined mid-list',
      ownerId: discordId(owner),
      botMember: false,
    });
    app.sim.state.createGuilds({ count: 200, ownerId: discordId(owner), namePrefix: 'Listed' });
    await app.server.background.reconcileIdle();
    // One page a second: @discordjs/rest holds the second page back, as Discord's headers tell it to.
    app.sim.state.rateLimits.reset();
    app.sim.state.rateLimits.configure({ buckets: { 'current-user-guilds': { limit: 1, windowMs: 1000 } } });
    let campaignId = '';
    try {
      const run = reconcile(app.server.ctx);
      // The first page has been answered (the run's first Discord request) without this guild...
      await waitFor(() => app.sim.state.rateLimits.stats().requests > 0, 5000, 'first page');
      // ...then the bot is added to it (GUILD_CREATE) and its owner creates a campaign at once.
      app.sim.state.setBotInGuild(guild.id, true);
      campaignId = (await createBotCampaign(app, owner, { guild })).campaign.id;
      const result = await run;
      expect(result.paused).toBe(0);
    } finally {
      app.sim.state.rateLimits.configure({ buckets: DEFAULT_RATE_LIMITS.buckets });
    }
    await app.server.background.bot!.idle();
    expect((await readCampaign(app.server.ctx.store, campaignId))?.botRemovedAt).toBeNull();
    await joinViaWebsite(await signIn('listed_member'), campaignId);
  }, 30_000);
});

describe('reconcile() completion notices', () => {
  it('tells owners of finished no-bot campaigns too, but never of canceled ones', async () => {
    const owner = await signIn('nobot_owner');
    // Discord refuses a bot's DM to a user it shares no server with (50007): this owner shares one.
    app.sim.state.createGuild({ name: 'Shared With Bot', ownerId: owner.user!.discordId });
    const finished = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      kind: 'nobot',
      name: 'Quiet Library',
      membersRemaining: 0,
      initialMemberSlots: 3,
    });
    await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      name: 'Called Off',
      membersRemaining: 0,
      initialMemberSlots: 7,
      canceledAt: app.clock.now(),
    });
    await reconcile(app.server.ctx);
    const dms = app.sim.state.listDms({ userId: discordId(owner) });
    expect(dms.map((d) => d.content)).toEqual([
      expect.stringContaining('**Quiet Library** is complete: 3 new members'),
    ]);
    expect((await readCampaign(app.server.ctx.store, finished.id))?.completionNotificationSent).toBe(true);
  });

  it('records a no-bot owner who shares no server with the bot as unreachable (50007), once, and says so on the site', async () => {
    const owner = await signIn('nobot_stranger');
    const finished = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      kind: 'nobot',
      name: 'Far Away',
      membersRemaining: 0,
      initialMemberSlots: 2,
    });
    await reconcile(app.server.ctx);
    await reconcile(app.server.ctx);
    expect(app.sim.state.listDms({ userId: discordId(owner) })).toHaveLength(0);
    expect(await readCampaign(app.server.ctx.store, finished.id)).toMatchObject({
      completionNotificationSent: false,
      completionDmAttempts: 1,
    });
    expect((await readCampaign(app.server.ctx.store, finished.id))?.ownerUnreachableAt).not.toBeNull();
    const mine = await owner.get<{ id: string; ownerUnreachable: boolean }[]>('/api/servers/mine');
    expect(mine.body.find((s) => s.id === finished.id)?.ownerUnreachable).toBe(true);
  });
});
