import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCampaign, insertCampaign } from '../test/factories.ts';
import { SECOND } from '../clock.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import { openEventStream } from '../test/sse.ts';
import { formatCents } from '../shared/money.ts';
import { MODERATION_AFTER_REMOVAL_MS } from './rules.ts';
import {
  assertSlotInvariant,
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

// Decision 042: leaves, kicks and bans settle by the order of events in Discord. Issue 29 item 1
// reproduced a ban 21.6 s after a charged leave refunding the penalty and keeping the returned slot.
describe('order of events: a kick or ban explains only a removal it preceded', () => {
  let orderApp: TestApp;
  let orderOwner: TestClient;
  let n = 0;
  const member = () => orderApp.signIn(`order_member_${++n}`);
  const verified = async (guildId: string, campaignId: string, m?: TestClient) =>
    verifyMember(orderApp, m ?? (await member()), guildId, campaignId);
  const join = (campaignId: string, m: TestClient) => findJoin(orderApp, campaignId, m.user!.id);
  /** Waits until Discord's clock is past the removal by more than the margin (MODERATION_AFTER_REMOVAL_MS). */
  const pastMargin = (removedAt: number) =>
    waitFor(() => Date.now() > removedAt + MODERATION_AFTER_REMOVAL_MS + 200, 10_000, 'margin');

  beforeAll(async () => {
    // The second look after 3 s, so a ban 2.3 s after a leave arrives while the leave is still unsettled.
    orderApp = await startBotTestApp({ bot: { auditLogDelayMs: 50, auditLogRecheckMs: 3000 } });
    orderOwner = await orderApp.signIn('order_owner');
  });
  afterAll(() => orderApp.close());
  afterEach(() => orderApp.checkLedger()); // ledger and slot invariants (bot-test-kit)

  it('ban after a charged leave: no refund, and the slot another member took stays taken (4 paid for 3 slots before)', async () => {
    const { guild, campaign } = await createBotCampaign(orderApp, orderOwner, { slots: 3 });
    const leaver = await verified(guild.id, campaign.id);
    await verified(guild.id, campaign.id);
    await verified(guild.id, campaign.id);
    const before = await balanceOf(orderApp, leaver);
    const removedAt = Date.now();
    orderApp.sim.state.removeMember(guild.id, discordId(leaver), { reason: 'leave' });
    await waitFor(async () => (await join(campaign.id, leaver))?.penalized === true, 10_000, 'leave charged');
    expect((await readCampaign(orderApp.server.ctx.store, campaign.id))?.membersRemaining).toBe(1);
    // The slot the leave gave back is taken by a fourth member.
    await verified(guild.id, campaign.id);
    expect((await readCampaign(orderApp.server.ctx.store, campaign.id))?.membersRemaining).toBe(0);

    // Later, the owner bans the member who had left (GUILD_BAN_ADD + audit entry 22, no removal).
    await pastMargin(removedAt);
    orderApp.sim.state.removeMember(guild.id, discordId(leaver), { reason: 'ban' });
    await waitFor(
      () => orderApp.sim.state.listAudit(guild.id, { targetId: discordId(leaver) }).length > 0,
      5000,
      'ban entry',
    );
    await orderApp.server.background.bot!.idle();
    expect(await join(campaign.id, leaver)).toMatchObject({ leftReason: 'leave', penalized: true });
    expect(await transactionsOf(orderApp, leaver, 'penalty_refund')).toEqual([]);
    expect(await balanceOf(orderApp, leaver)).toBe(before - 200);
    expect((await readCampaign(orderApp.server.ctx.store, campaign.id))?.membersRemaining).toBe(0);
    await assertSlotInvariant(orderApp);
  });

  it('ban after a leave but before its second look: still a charged leave', async () => {
    const { guild, campaign } = await createBotCampaign(orderApp, orderOwner, { slots: 3 });
    const leaver = await verified(guild.id, campaign.id);
    const before = await balanceOf(orderApp, leaver);
    const removedAt = Date.now();
    orderApp.sim.state.removeMember(guild.id, discordId(leaver), { reason: 'leave' });
    await pastMargin(removedAt);
    expect((await join(campaign.id, leaver))?.hasLeft).toBe(false); // second look still to come
    orderApp.sim.state.removeMember(guild.id, discordId(leaver), { reason: 'ban' });
    await waitFor(async () => (await join(campaign.id, leaver))?.hasLeft === true, 10_000, 'settled');
    await orderApp.server.background.bot!.idle();
    expect(await join(campaign.id, leaver)).toMatchObject({ leftReason: 'leave', penalized: true });
    expect(await balanceOf(orderApp, leaver)).toBe(before - 200);
    expect((await readCampaign(orderApp.server.ctx.store, campaign.id))?.membersRemaining).toBe(3);
  });

  it('leave, rejoin through another campaign, kicked: the kick refunds nothing of the earlier leave', async () => {
    const { guild, campaign: first } = await createBotCampaign(orderApp, orderOwner, { slots: 3 });
    const second = await insertCampaign(orderApp.server.ctx.store, {
      ownerId: orderOwner.user!.id,
      guildId: guild.id,
      name: first.name,
      inviteCode: first.inviteCode,
      inviteLink: first.inviteLink,
      membersRemaining: 3,
    });
    const m = await verified(guild.id, first.id);
    const start = await balanceOf(orderApp, m);
    orderApp.sim.state.removeMember(guild.id, discordId(m), { reason: 'leave' });
    await waitFor(async () => (await join(first.id, m))?.penalized === true, 10_000, 'leave charged');
    await verified(guild.id, second.id, m);
    const removedAt = Date.now();
    orderApp.sim.state.removeMember(guild.id, discordId(m), { reason: 'kick' });
    await waitFor(async () => (await join(second.id, m))?.hasLeft === true, 10_000, 'kick settled');
    await pastMargin(removedAt);
    await orderApp.server.background.bot!.idle();
    expect(await join(second.id, m)).toMatchObject({ leftReason: 'kick', penalized: false });
    expect(await join(first.id, m)).toMatchObject({ leftReason: 'leave', penalized: true });
    expect(await transactionsOf(orderApp, m, 'penalty_refund')).toEqual([]);
    expect(await balanceOf(orderApp, m)).toBe(start - 200 + ((await join(second.id, m))?.rewardCents ?? 0));
    expect((await readCampaign(orderApp.server.ctx.store, first.id))?.membersRemaining).toBe(3);
  });

  it('kicked (entry written late, charged as a leave), rejoined, then the entry arrives: refunded once, slot retaken once', async () => {
    const { guild, campaign: first } = await createBotCampaign(orderApp, orderOwner, { slots: 3 });
    const second = await insertCampaign(orderApp.server.ctx.store, {
      ownerId: orderOwner.user!.id,
      guildId: guild.id,
      name: first.name,
      inviteCode: first.inviteCode,
      inviteLink: first.inviteLink,
      membersRemaining: 3,
    });
    const m = await verified(guild.id, first.id);
    const start = await balanceOf(orderApp, m);
    // The entry shows 6 s late: after both looks (50 ms, 3 s).
    orderApp.sim.state.unreliable.configure({ auditDelayMs: 6000 });
    try {
      orderApp.sim.state.removeMember(guild.id, discordId(m), { reason: 'kick' });
      await waitFor(async () => (await join(first.id, m))?.penalized === true, 10_000, 'charged as a leave');
      expect((await readCampaign(orderApp.server.ctx.store, first.id))?.membersRemaining).toBe(3);
      await verified(guild.id, second.id, m);
      await waitFor(async () => (await join(first.id, m))?.leftReason === 'kick', 10_000, 'refund');
    } finally {
      orderApp.sim.state.unreliable.configure({ auditDelayMs: 0 });
    }
    await orderApp.server.background.bot!.idle();
    expect(await join(first.id, m)).toMatchObject({ leftReason: 'kick', penalized: false });
    expect(await join(second.id, m)).toMatchObject({ hasLeft: false, coinsAwarded: true });
    expect(await transactionsOf(orderApp, m, 'penalty_refund')).toHaveLength(1);
    expect(await balanceOf(orderApp, m)).toBe(start + ((await join(second.id, m))?.rewardCents ?? 0));
    expect((await readCampaign(orderApp.server.ctx.store, first.id))?.membersRemaining).toBe(2);
    expect((await readCampaign(orderApp.server.ctx.store, second.id))?.membersRemaining).toBe(2);
  });

  it('a late kick entry whose returned slot another member took: the penalty stands (it paid for that member)', async () => {
    const { guild, campaign } = await createBotCampaign(orderApp, orderOwner, { slots: 1 });
    const kicked = await verified(guild.id, campaign.id);
    const before = await balanceOf(orderApp, kicked);
    orderApp.sim.state.unreliable.configure({ auditDelayMs: 6000 });
    try {
      orderApp.sim.state.removeMember(guild.id, discordId(kicked), { reason: 'kick' });
      await waitFor(async () => (await join(campaign.id, kicked))?.penalized === true, 10_000, 'charged');
      await verified(guild.id, campaign.id); // takes the returned slot
      await waitFor(
        () => orderApp.sim.state.listAudit(guild.id, { targetId: discordId(kicked) }).length > 0,
        10_000,
        'entry visible',
      );
      await new Promise((r) => setTimeout(r, 300)); // the gateway event follows the entry
    } finally {
      orderApp.sim.state.unreliable.configure({ auditDelayMs: 0 });
    }
    await orderApp.server.background.bot!.idle();
    expect(await join(campaign.id, kicked)).toMatchObject({ leftReason: 'leave', penalized: true });
    expect(await balanceOf(orderApp, kicked)).toBe(before - 200);
    expect((await readCampaign(orderApp.server.ctx.store, campaign.id))?.membersRemaining).toBe(0);
  });
});
