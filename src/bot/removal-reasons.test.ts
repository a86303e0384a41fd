import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCampaign, insertCampaign } from '../test/factories.ts';
import { SECOND } from '../clock.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import { openEventStream } from '../test/sse.ts';
import { formatCents } from '../shared/money.ts';
import {
  balanceOf,
  createBotCampaign,
  findJoin,
  startBotTestApp,
  transactionsOf,
  verifyMember,
  waitFor,
} from './bot-test-kit.ts';

// Why a member left decides the penalty (issue 11 item 4, issue 12 item 4). Through the real discord.js
// bot and the simulator's gateway and audit log:
//  - a kick's audit entry excuses only a removal newer than the membership it ended (kick window);
//  - a removal whose reason cannot be established (audit log 50013) is `unknown`: no charge, no slot back;
//  - GUILD_BAN_ADD tells a ban even without the audit log; a prune (action 21, no target) is a kick;
//  - an audit entry written late is still found by the second look;
//  - nobody pays for leaving a canceled campaign.

let app: TestApp;
let owner: TestClient;
let memberCount = 0;
const newMember = () => app.signIn(`reason_member_${++memberCount}`);
const discordId = (c: TestClient) => c.user!.discordId;

async function verifiedMember(guildId: string, campaignId: string, member?: TestClient): Promise<TestClient> {
  return verifyMember(app, member ?? (await newMember()), guildId, campaignId);
}

describe('removal reasons (audit log read at once)', () => {
  beforeAll(async () => {
    app = await startBotTestApp();
    owner = await app.signIn('reason_owner');
  });
  afterAll(() => app.close());
  afterEach(() => app.checkLedger());

  it('an old kick does not excuse a new voluntary leave: kicked, rejoined through another campaign of the guild, left within minutes → charged', async () => {
    const { guild, campaign: first } = await createBotCampaign(app, owner, { name: 'Kick Window Guild' });
    const second = await insertCampaign(app.server.ctx.store, {
      ownerId: owner.user!.id,
      guildId: guild.id,
      name: 'Kick Window Guild',
      inviteCode: first.inviteCode,
      inviteLink: first.inviteLink,
    });
    const member = await verifiedMember(guild.id, first.id);
    app.sim.state.removeMember(guild.id, discordId(member), { reason: 'kick' });
    await waitFor(
      async () => (await findJoin(app, first.id, member.user!.id))?.hasLeft === true,
      5000,
      'kick recorded',
    );
    expect(await findJoin(app, first.id, member.user!.id)).toMatchObject({
      leftReason: 'kick',
      penalized: false,
    });

    // A minute later: joins the guild again through the second campaign, is paid, and leaves on their own.
    app.clock.advance(60 * SECOND);
    await verifiedMember(guild.id, second.id, member);
    expect(await findJoin(app, second.id, member.user!.id)).toMatchObject({ coinsAwarded: true });
    const before = await balanceOf(app, member);
    app.clock.advance(2 * 60 * SECOND);
    app.sim.state.removeMember(guild.id, discordId(member), { reason: 'leave' });
    await waitFor(
      async () => (await findJoin(app, second.id, member.user!.id))?.hasLeft === true,
      5000,
      'leave recorded',
    );

    expect(await findJoin(app, second.id, member.user!.id)).toMatchObject({
      leftReason: 'leave',
      penalized: true,
    });
    expect(await balanceOf(app, member)).toBe(before - 200);
    expect(await transactionsOf(app, member, 'leave_penalty')).toHaveLength(1);
    // The slot of the second campaign went back; the first campaign's (kick) did not.
    expect((await readCampaign(app.server.ctx.store, second.id))?.membersRemaining).toBe(10);
    expect((await readCampaign(app.server.ctx.store, first.id))?.membersRemaining).toBe(9);
  });

  it('charges nothing for leaving a canceled campaign, and gives no slot back', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await verifiedMember(guild.id, campaign.id);
    const before = await balanceOf(app, member);
    const canceled = await owner.delete(`/api/campaigns/${campaign.id}`);
    expect(canceled.status).toBe(200);
    app.sim.state.removeMember(guild.id, discordId(member), { reason: 'leave' });
    await waitFor(
      async () => (await findJoin(app, campaign.id, member.user!.id))?.hasLeft === true,
      5000,
      'leave recorded',
    );
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      leftReason: 'leave',
      penalized: false,
    });
    expect(await balanceOf(app, member)).toBe(before);
    expect(await transactionsOf(app, member, 'leave_penalty')).toHaveLength(0);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(0);
  });

  it('a kick whose reason cannot be read (audit log 403 50013, no audit gateway event) is unknown: not charged, no slot back', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const kicked = await verifiedMember(guild.id, campaign.id);
    const leaver = await verifiedMember(guild.id, campaign.id);
    const [kickedBefore, leaverBefore] = [await balanceOf(app, kicked), await balanceOf(app, leaver)];
    const invalidBefore = app.sim.state.rateLimits.stats().invalidRequests;
    guild.botCanViewAuditLog = false; // the owner unticked View Audit Log for the bot's role

    app.sim.state.removeMember(guild.id, discordId(kicked), { reason: 'kick' });
    await waitFor(
      async () => (await findJoin(app, campaign.id, kicked.user!.id))?.hasLeft === true,
      5000,
      'removal recorded',
    );
    expect(await findJoin(app, campaign.id, kicked.user!.id)).toMatchObject({
      leftReason: 'unknown',
      penalized: false,
    });
    expect(await balanceOf(app, kicked)).toBe(kickedBefore);
    // Fail safe for the member, never in the owner's favour: the slot is not given back either.
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(8);
    expect(app.sim.state.rateLimits.stats().invalidRequests).toBe(invalidBefore + 1);

    // A voluntary leave in that guild cannot be told from a kick either; the 403 is not asked again.
    app.sim.state.removeMember(guild.id, discordId(leaver), { reason: 'leave' });
    await waitFor(
      async () => (await findJoin(app, campaign.id, leaver.user!.id))?.hasLeft === true,
      5000,
      'leave recorded',
    );
    expect(await findJoin(app, campaign.id, leaver.user!.id)).toMatchObject({
      leftReason: 'unknown',
      penalized: false,
    });
    expect(await balanceOf(app, leaver)).toBe(leaverBefore);
    expect(app.sim.state.rateLimits.stats().invalidRequests).toBe(invalidBefore + 1);
  });

  it('a ban is known from GUILD_BAN_ADD even when the audit log cannot be read', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const banned = await verifiedMember(guild.id, campaign.id);
    const before = await balanceOf(app, banned);
    guild.botCanViewAuditLog = false;
    app.sim.state.removeMember(guild.id, discordId(banned), { reason: 'ban' });
    await waitFor(
      async () => (await findJoin(app, campaign.id, banned.user!.id))?.hasLeft === true,
      5000,
      'ban recorded',
    );
    expect(await findJoin(app, campaign.id, banned.user!.id)).toMatchObject({
      leftReason: 'ban',
      penalized: false,
    });
    expect(await balanceOf(app, banned)).toBe(before);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(9);
  });

  it('counts members removed by a prune (audit action 21, no target) as kicked', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const pruned = [await verifiedMember(guild.id, campaign.id), await verifiedMember(guild.id, campaign.id)];
    const before = [await balanceOf(app, pruned[0]!), await balanceOf(app, pruned[1]!)];
    app.sim.state.pruneMembers(guild.id, pruned.map(discordId));
    for (const m of pruned)
      await waitFor(
        async () => (await findJoin(app, campaign.id, m.user!.id))?.hasLeft === true,
        5000,
        'prune recorded',
      );
    for (const [i, m] of pruned.entries()) {
      expect(await findJoin(app, campaign.id, m.user!.id)).toMatchObject({
        leftReason: 'kick',
        penalized: false,
      });
      expect(await balanceOf(app, m)).toBe(before[i]);
    }
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(8);
  });
});

describe('removal reasons with audit entries written late', () => {
  beforeAll(async () => {
    // Production looks after 1.5 s and again after 15 s; here 50 ms and 1.5 s, entries 0.5 s late.
    app = await startBotTestApp({ bot: { auditLogDelayMs: 50, auditLogRecheckMs: 1500 } });
    owner = await app.signIn('late_owner');
  });
  afterAll(() => app.close());
  afterEach(() => app.checkLedger());

  it('a kick whose audit entry appears after the first look is still a kick (second look), not a charged leave', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const kicked = await verifiedMember(guild.id, campaign.id);
    const leaver = await verifiedMember(guild.id, campaign.id);
    const [kickedBefore, leaverBefore] = [await balanceOf(app, kicked), await balanceOf(app, leaver)];
    app.sim.state.unreliable.configure({ auditDelayMs: 500 });
    try {
      app.sim.state.removeMember(guild.id, discordId(kicked), { reason: 'kick' });
      app.sim.state.removeMember(guild.id, discordId(leaver), { reason: 'leave' });
      for (const m of [kicked, leaver])
        await waitFor(
          async () => (await findJoin(app, campaign.id, m.user!.id))?.hasLeft === true,
          10_000,
          'removals settled',
        );
    } finally {
      app.sim.state.unreliable.configure({ auditDelayMs: 0 });
    }
    expect(await findJoin(app, campaign.id, kicked.user!.id)).toMatchObject({
      leftReason: 'kick',
      penalized: false,
    });
    expect(await balanceOf(app, kicked)).toBe(kickedBefore);
    // The voluntary leaver of the same batch is charged once the second look has nothing on them.
    expect(await findJoin(app, campaign.id, leaver.user!.id)).toMatchObject({
      leftReason: 'leave',
      penalized: true,
    });
    expect(await balanceOf(app, leaver)).toBe(leaverBefore - 200);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(9);
  });

  it("refunds the penalty when a kick's audit entry arrives after the last look, and takes the returned slot again", async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 3 });
    const kicked = await verifiedMember(guild.id, campaign.id);
    const before = await balanceOf(app, kicked);
    const stream = await openEventStream(kicked);
    // Later than both looks (50 ms and 1.55 s): the removal is charged as a leave first.
    app.sim.state.unreliable.configure({ auditDelayMs: 2500 });
    try {
      app.sim.state.removeMember(guild.id, discordId(kicked), { reason: 'kick' });
      await waitFor(
        async () => (await findJoin(app, campaign.id, kicked.user!.id))?.penalized === true,
        10_000,
        'charged as a leave',
      );
      expect(await balanceOf(app, kicked)).toBe(before - 200);
      expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(3);
      // GUILD_AUDIT_LOG_ENTRY_CREATE arrives: it was a kick after all.
      await waitFor(
        async () => (await findJoin(app, campaign.id, kicked.user!.id))?.leftReason === 'kick',
        10_000,
        'refund',
      );
    } finally {
      app.sim.state.unreliable.configure({ auditDelayMs: 0 });
    }
    await app.server.background.bot!.idle();
    expect(await findJoin(app, campaign.id, kicked.user!.id)).toMatchObject({
      hasLeft: true,
      leftReason: 'kick',
      penalized: false,
    });
    expect(await balanceOf(app, kicked)).toBe(before);
    expect(await transactionsOf(app, kicked, 'penalty_refund')).toMatchObject([{ amount: 200 }]);
    // The member's open tabs hear of the charge, then of the refund, with the balance each time.
    expect((await stream.nextOfType('penalty_charged')).data).toMatchObject({ amount: '2.00' });
    expect((await stream.nextOfType('penalty_refunded')).data).toEqual({
      type: 'penalty_refunded',
      serverName: campaign.name,
      amount: '2.00',
      balance: formatCents(before),
    });
    stream.close();
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(2);
    // Replays of the entry refund nothing more.
    app.sim.state.removeMember(guild.id, discordId(await verifiedMember(guild.id, campaign.id)), {
      reason: 'kick',
    });
    await app.server.background.bot!.idle();
    expect(await transactionsOf(app, kicked, 'penalty_refund')).toHaveLength(1);
  });
});
