import { Events } from 'discord.js';
import { readCampaign } from '../test/factories.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../clock.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import {
  balanceOf,
  createBotCampaign,
  findJoin,
  joinViaWebsite,
  startBotTestApp,
  transactionsOf,
  verifyMember,
  waitFor,
} from './bot-test-kit.ts';
import { reconcile } from './reconcile.ts';
import { seedOpenJoins } from '../test/open-joins.ts';

// Issue 12 item 5 / issue 13 item 5: a member already in the guild before the website join earns
// nothing (at join time and in reconciliation); a reconciliation run that would charge an unusual
// share or number of members charges nothing, raises an ALERT, and the next normal run behaves.
// Issue 11 item 2: reconciliation asks the gateway (op 8, 100 user ids per send) where that is cheaper.

let app: TestApp;
let owner: TestClient;
let count = 0;
const newMember = (prefix = 'guard') => app.signIn(`${prefix}_${++count}`);
const discordId = (c: TestClient) => c.user!.discordId;

async function verifiedMember(guildId: string, campaignId: string): Promise<TestClient> {
  return verifyMember(app, await newMember(), guildId, campaignId);
}

async function gatewayBack(): Promise<void> {
  const resumed = new Promise((r) => app.server.background.bot!.client!.once(Events.ShardResume, r));
  app.sim.state.setGatewayOnline(true);
  await resumed;
}

const alerts = () => app.logLines.filter((l) => l.includes('ALERT reconcile safety valve'));

describe('joined_at and the safety valve', () => {
  beforeAll(async () => {
    app = await startBotTestApp();
    owner = await app.signIn('guard_owner');
  });
  afterAll(() => app.close());
  afterEach(() => app.checkLedger());

  it('refuses a website join from someone already in the guild', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await newMember();
    app.sim.state.addMember(guild.id, discordId(member));
    const res = await member.post(`/api/servers/${campaign.id}/join`);
    expect(res.status).toBe(409);
    expect(await findJoin(app, campaign.id, member.user!.id)).toBeUndefined();
  });

  it('pays nothing when GUILD_MEMBER_ADD shows a joined_at older than the website join', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await newMember();
    await joinViaWebsite(member, campaign.id);
    const before = await balanceOf(app, member);
    // Discord's answer at join time missed them; the membership itself is an hour older than the click.
    app.sim.state.addMember(guild.id, discordId(member), {
      joinedAt: new Date(app.clock.now() - HOUR).toISOString(),
    });
    await waitFor(
      async () => (await findJoin(app, campaign.id, member.user!.id))?.verified === true,
      5000,
      'join closed',
    );
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      verified: true,
      coinsAwarded: false,
    });
    expect(await balanceOf(app, member)).toBe(before);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(10);
    // A later arrival is still paid: the check is about this member, not the campaign.
    await verifiedMember(guild.id, campaign.id);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(9);
  });

  it('pays nothing in reconciliation either when joined_at precedes the website join', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const earlier = await newMember();
    const newcomer = await newMember();
    await joinViaWebsite(earlier, campaign.id);
    await joinViaWebsite(newcomer, campaign.id);
    const before = await balanceOf(app, earlier);
    app.sim.state.setGatewayOnline(false);
    try {
      app.sim.state.addMember(guild.id, discordId(earlier), {
        joinedAt: new Date(app.clock.now() - HOUR).toISOString(),
      });
      app.sim.state.addMember(guild.id, discordId(newcomer));
      const result = await reconcile(app.server.ctx);
      expect(result.verified).toBe(1);
    } finally {
      await gatewayBack();
    }
    expect(await findJoin(app, campaign.id, earlier.user!.id)).toMatchObject({
      verified: true,
      coinsAwarded: false,
    });
    expect(await balanceOf(app, earlier)).toBe(before);
    expect(await findJoin(app, campaign.id, newcomer.user!.id)).toMatchObject({
      verified: true,
      coinsAwarded: true,
    });
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(9);
  });

  it('charges nothing when an unusual share of a guild is absent at once, alerts, and the next normal run charges the real leaver', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 10 });
    const members: TestClient[] = [];
    for (let i = 0; i < 10; i++) members.push(await verifiedMember(guild.id, campaign.id));
    const before: number[] = [];
    for (const m of members) before.push(await balanceOf(app, m));
    const alertsBefore = alerts().length;
    app.clock.advance(HOUR);

    app.sim.state.setGatewayOnline(false);
    try {
      // Half the guild "gone" at once (a truncated member list, a Discord incident): 5 of 10.
      for (const m of members.slice(0, 5))
        app.sim.state.removeMember(guild.id, discordId(m), { reason: 'leave' });
      const held = await reconcile(app.server.ctx);
      expect(held).toMatchObject({ left: 0, heldBack: 1, failed: 0 });
      expect(alerts().length).toBe(alertsBefore + 1);
      for (const [i, m] of members.entries()) {
        expect(await findJoin(app, campaign.id, m.user!.id)).toMatchObject({
          hasLeft: false,
          penalized: false,
        });
        expect(await balanceOf(app, m)).toBe(before[i]);
      }
      expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(0);

      // Four of them were there all along (they show up again); one really left.
      for (const m of members.slice(0, 4)) app.sim.state.addMember(guild.id, discordId(m));
      const normal = await reconcile(app.server.ctx);
      expect(normal).toMatchObject({ left: 1, heldBack: 0, failed: 0 });
    } finally {
      await gatewayBack();
    }
    expect(alerts().length).toBe(alertsBefore + 1);
    const leaver = members[4]!;
    expect(await findJoin(app, campaign.id, leaver.user!.id)).toMatchObject({
      hasLeft: true,
      leftReason: 'leave',
      penalized: true,
    });
    expect(await transactionsOf(app, leaver, 'leave_penalty')).toHaveLength(1);
    for (const m of members.slice(0, 4))
      expect((await findJoin(app, campaign.id, m.user!.id))?.hasLeft).toBe(false);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(1);
  }, 30_000);

  it('looks members up over the gateway (op 8) where that is cheaper than REST, with the same outcome', async () => {
    // 30 open joins in a guild of 12,000: the member list would be about 12 pages, single lookups 30
    // requests; one op-8 send (worth GATEWAY_SEND_COST = 10 REST requests) answers for all of them.
    const [seeded] = await seedOpenJoins(app, {
      prefix: 'opeight',
      guilds: 1,
      joinsPerGuild: 30,
      otherMembers: 12_000,
    });
    const { guild, campaign, userIds, discordIds } = seeded!;
    await waitFor(
      () => app.server.background.bot!.members.memberCount(guild.id) !== null,
      5000,
      'guild cached',
    );
    const first = await reconcile(app.server.ctx, { gateway: app.server.background.bot!.members });
    // The small guilds of earlier tests were read over REST; this one cost one send.
    expect(first.lookups).toMatchObject({ gateway: 1, gatewayFallbacks: 0 });
    // (A background run started by an earlier test's reconnect may verify some of them first: same outcome.)
    const paidJoins = await Promise.all(userIds.map((id) => findJoin(app, campaign.id, id)));
    expect(paidJoins.every((j) => j?.coinsAwarded)).toBe(true);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(0);

    // The connection stays up but member events are lost: the next run finds the leaver.
    app.clock.advance(HOUR);
    app.sim.state.unreliable.configure({ rate: 1, faults: ['drop-event'], seed: 3 });
    let second;
    try {
      app.sim.state.removeMember(guild.id, discordIds[7]!, { reason: 'leave' });
      second = await reconcile(app.server.ctx, { gateway: app.server.background.bot!.members });
    } finally {
      app.sim.state.unreliable.reset();
    }
    expect(second.lookups).toMatchObject({ gateway: 1, gatewayFallbacks: 0 });
    expect(second).toMatchObject({ failed: 0 });
    const joins = (await Promise.all(userIds.map((id) => findJoin(app, campaign.id, id)))).map((j) => j!);
    expect(joins.filter((j) => j.hasLeft)).toMatchObject([{ leftReason: 'leave', penalized: true }]);
    expect(joins.every((j) => j.coinsAwarded)).toBe(true);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(1);
  }, 30_000);
});

describe('the safety valve across guilds', () => {
  beforeAll(async () => {
    app = await startBotTestApp({ env: { RECONCILE_MAX_CHARGES: '3' } });
    owner = await app.signIn('valve_owner');
  });
  afterAll(() => app.close());
  afterEach(() => app.checkLedger());

  it('charges nothing when more members than RECONCILE_MAX_CHARGES are absent in one run, over several guilds', async () => {
    const guilds = [
      await createBotCampaign(app, owner, { slots: 3 }),
      await createBotCampaign(app, owner, { slots: 3 }),
    ];
    const members: TestClient[][] = [];
    for (const { guild, campaign } of guilds) {
      const list: TestClient[] = [];
      for (let i = 0; i < 3; i++) list.push(await verifiedMember(guild.id, campaign.id));
      members.push(list);
    }
    app.clock.advance(HOUR);
    app.sim.state.setGatewayOnline(false);
    try {
      // Two absent in each guild: below the per-guild share rule (fewer than 5), four in the run.
      guilds.forEach(({ guild }, g) => {
        for (const m of members[g]!.slice(0, 2))
          app.sim.state.removeMember(guild.id, discordId(m), { reason: 'leave' });
      });
      const held = await reconcile(app.server.ctx);
      expect(held).toMatchObject({ left: 0, heldBack: 2 });
      expect(alerts().some((l) => l.includes('in this run'))).toBe(true);
      for (const list of members)
        for (const m of list) expect(await transactionsOf(app, m, 'leave_penalty')).toHaveLength(0);

      // One of each pair comes back: two absent, within the limit, charged.
      guilds.forEach(({ guild }, g) => app.sim.state.addMember(guild.id, discordId(members[g]![0]!)));
      const normal = await reconcile(app.server.ctx);
      expect(normal).toMatchObject({ left: 2, heldBack: 0 });
    } finally {
      await gatewayBack();
    }
    for (const list of members) {
      expect(await transactionsOf(app, list[0]!, 'leave_penalty')).toHaveLength(0);
      expect(await transactionsOf(app, list[1]!, 'leave_penalty')).toHaveLength(1);
      expect(await transactionsOf(app, list[2]!, 'leave_penalty')).toHaveLength(0);
    }
  }, 30_000);
});
