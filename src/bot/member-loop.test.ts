import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../clock.ts';
import { readCampaign } from '../test/factories.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import { JOB } from '../background.ts';
import { reconcile } from './reconcile.ts';
import { formatCents } from '../shared/money.ts';
import {
  balanceOf,
  createBotCampaign,
  findJoin,
  joinViaWebsite,
  startBotTestApp,
  transactionsOf,
  waitFor,
} from './bot-test-kit.ts';
import { commandsRegistered, createLobby, run } from './commands/test-kit.ts';

// The member loop (issue 26 item 1) in both modes: with the privileged Server Members intent (gateway
// member events) and without it (Discord refused it: close 4014 at start, so the bot falls back).
// Without it a join is verified when the member comes back (POST /api/joins/check, slash commands) or
// by the member sweep, and leaves are found by the sweep; kicks and bans still come from the audit
// log. The outcomes must be the same: paid once, pre-existing members earn nothing, a voluntary leave
// inside the stay is charged, a kick or a ban is not.

describe.each([
  { mode: 'on', intent: true },
  { mode: 'off (refused by Discord)', intent: false },
])('members intent $mode', ({ mode, intent }) => {
  let app: TestApp;
  let owner: TestClient;
  let count = 0;
  const newMember = () => app.signIn(`loop_${intent ? 'on' : 'off'}_${++count}`);
  const discordId = (c: TestClient) => c.user!.discordId;

  beforeAll(async () => {
    app = await startBotTestApp({ discordMembersIntent: intent });
    owner = await app.signIn(`loop_owner_${intent ? 'on' : 'off'}`);
  });
  afterAll(() => app.close());
  afterEach(() => app.checkLedger());

  /** Without the intent: the member sweep (reconciliation's job) runs now. */
  async function sweep(): Promise<void> {
    const background = app.server.background;
    background.periodic!.trigger(JOB.reconcile);
    await background.reconcileIdle();
  }

  /** The member opens the invite and joins the guild, then comes back to the site. */
  async function arrive(member: TestClient, guildId: string, joinedAt?: string) {
    app.sim.state.addMember(guildId, discordId(member), joinedAt ? { joinedAt } : {});
    if (intent) return null;
    const res = await member.post<{ checked: number; verified: { amount: string }[] }>('/api/joins/check');
    expect(res.status).toBe(200);
    return res.body;
  }

  const verified = (campaignId: string, member: TestClient) => async () =>
    (await findJoin(app, campaignId, member.user!.id))?.verified === true;

  async function paidMember(guildId: string, campaignId: string): Promise<TestClient> {
    const member = await newMember();
    await joinViaWebsite(member, campaignId);
    await arrive(member, guildId);
    await waitFor(verified(campaignId, member), 5000, 'verification');
    return member;
  }

  async function removed(guildId: string, member: TestClient, reason: 'leave' | 'kick' | 'ban') {
    app.sim.state.removeMember(guildId, discordId(member), { reason });
    if (!intent) await sweep();
  }

  it('readiness says which mode runs', async () => {
    const res = await app.anonymous().get('/api/ready');
    expect(JSON.stringify(res.body)).toContain(`members intent: ${mode}`);
    expect(app.server.background.bot!.membersIntent()).toBe(intent ? 'on' : 'refused');
  });

  it('verifies a join when the member arrives: 0.50 paid once, one slot taken', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { name: `Loop Paid ${mode}` });
    const member = await newMember();
    await joinViaWebsite(member, campaign.id);
    const check = await arrive(member, guild.id);
    if (!intent) expect(check).toMatchObject({ checked: 1, verified: [{ amount: '0.50' }] });
    await waitFor(verified(campaign.id, member), 5000, 'verification');
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({ coinsAwarded: true });
    expect(await transactionsOf(app, member, 'join_reward')).toMatchObject([{ amount: 50 }]);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(9);
    // Coming back again, or a sweep, pays nothing more.
    if (!intent) {
      expect((await member.post('/api/joins/check')).body).toMatchObject({ checked: 0, verified: [] });
      await sweep();
    }
    expect(await transactionsOf(app, member, 'join_reward')).toHaveLength(1);
  });

  it('pays nothing to a member whose joined_at precedes the website join', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await newMember();
    await joinViaWebsite(member, campaign.id);
    const before = await balanceOf(app, member);
    await arrive(member, guild.id, new Date(app.clock.now() - HOUR).toISOString());
    await waitFor(verified(campaign.id, member), 5000, 'join closed');
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({ coinsAwarded: false });
    expect(await balanceOf(app, member)).toBe(before);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(10);
  });

  it('charges a voluntary leave inside the stay: 2.00, slot back', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await paidMember(guild.id, campaign.id);
    const before = await balanceOf(app, member);
    app.clock.advance(HOUR);
    await removed(guild.id, member, 'leave');
    await waitFor(async () => (await findJoin(app, campaign.id, member.user!.id))?.hasLeft === true);
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      leftReason: 'leave',
      penalized: true,
    });
    expect(await balanceOf(app, member)).toBe(before - 200);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(10);
  });

  it.each(['kick', 'ban'] as const)('charges nothing for a %s', async (reason) => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await paidMember(guild.id, campaign.id);
    const before = await balanceOf(app, member);
    app.clock.advance(HOUR);
    await removed(guild.id, member, reason);
    await waitFor(async () => (await findJoin(app, campaign.id, member.user!.id))?.hasLeft === true);
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      leftReason: reason,
      penalized: false,
    });
    expect(await balanceOf(app, member)).toBe(before);
  });

  it('a removal whose reason cannot be read (audit log 403, no audit event) is unknown: nobody charged', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await paidMember(guild.id, campaign.id);
    const before = await balanceOf(app, member);
    app.clock.advance(HOUR);
    guild.botCanViewAuditLog = false; // the owner unticked View Audit Log for the bot's role
    await removed(guild.id, member, 'kick');
    await waitFor(async () => (await findJoin(app, campaign.id, member.user!.id))?.hasLeft === true);
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      leftReason: 'unknown',
      penalized: false,
    });
    expect(await balanceOf(app, member)).toBe(before);
  });

  it('12 paid members of one guild (past single look-ups), one leaves: only that one is charged', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 12 });
    const members: TestClient[] = [];
    for (let i = 0; i < 12; i++) members.push(await paidMember(guild.id, campaign.id));
    const leaver = members[4]!;
    const before = await balanceOf(app, leaver);
    app.clock.advance(HOUR);
    app.sim.state.removeMember(guild.id, discordId(leaver), { reason: 'leave' });
    if (!intent) {
      // One guild-list call per member (their own token), one bot look-up to confirm the absent one;
      // the member list (403 without the intent) is never asked for.
      await app.server.background.reconcileIdle();
      const result = await reconcile(app.server.ctx, { withoutMembersIntent: true });
      expect(result).toMatchObject({ left: 1, failed: 0 });
      expect(result.lookups).toMatchObject({ single: 1, pages: 0, gateway: 0, memberListFallbacks: 0 });
      // These 12, and the members of earlier tests still inside their stay: one list each.
      expect(result.lookups.memberLists).toBeGreaterThanOrEqual(12);
    }
    await waitFor(async () => (await findJoin(app, campaign.id, leaver.user!.id))?.hasLeft === true);
    expect(await findJoin(app, campaign.id, leaver.user!.id)).toMatchObject({ penalized: true });
    expect(await balanceOf(app, leaver)).toBe(before - 200);
    for (const m of members.filter((x) => x !== leaver))
      expect(await findJoin(app, campaign.id, m.user!.id)).toMatchObject({ hasLeft: false });
  });

  it.runIf(!intent)('the sweep verifies a join whose member never came back', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner);
    const member = await newMember();
    await joinViaWebsite(member, campaign.id);
    app.sim.state.addMember(guild.id, discordId(member));
    await sweep();
    expect(await findJoin(app, campaign.id, member.user!.id)).toMatchObject({
      verified: true,
      coinsAwarded: true,
    });
  });

  it.runIf(!intent)(
    'a slash command looks the member up first: /coins already shows the reward',
    async () => {
      await commandsRegistered(app);
      const { guild, campaign } = await createBotCampaign(app, owner);
      const member = await newMember();
      await joinViaWebsite(member, campaign.id);
      const before = await balanceOf(app, member);
      app.sim.state.addMember(guild.id, discordId(member));
      const lobby = createLobby(app, owner, [member]);
      const { reply } = await run(app, member, 'coins', { guildId: lobby.id });
      expect(await balanceOf(app, member)).toBe(before + 50);
      expect(JSON.stringify(reply.embeds)).toContain(`**${formatCents(before + 50)}** coins`);
    },
  );
});
