import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { ManualClock, HOUR, DAY } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { DiscordApi } from '../discord/discord-api.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { insertUser, ledgerAmounts } from '../test/factories.ts';
import { assertLedgerInvariant, getBalance } from '../ledger/index.ts';
import type { DataStore } from '../db/engine.ts';
import { userAddresses, type User } from '../db/schema.ts';
import { userAddresses as pgUserAddresses } from '../db/schema.pg.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { campaignsRepo, type NewCampaign } from '../campaigns/campaigns-repo.ts';
import { joinsRepo } from '../joins/joins-repo.ts';
import { DEFAULT_SIM_BOT_TOKEN, startDiscordSimulator, type DiscordSimulator } from '../sim/discord/index.ts';
import { botRepo } from './bot-repo.ts';
import { closeJoinsOfEarlierMembers, recordVerifiedJoin, type MemberEvent } from './verify-join.ts';
import { recordLeave, refundLateKick } from './record-leave.ts';
import {
  claimCompletionDm,
  COMPLETION_DM_LEASE_MS,
  notifyCompletedCampaign,
  notifyPendingCompletions,
} from './completion-notice.ts';
import { DEFAULT_SAFETY_VALVE, reconcile } from './reconcile.ts';

// The bot's repository and the services above it (decision 028 step 3), held to the same cases on both
// engines, with the races of each exactly-once rule: one join verified by several handlers at once
// (event, reconcile run, another bot process), the last slot wanted by more members than it has, one
// leave recorded twice, one late kick refunded twice, one completion DM claimed by several senders.
// Discord is the simulator (src/sim/discord), reached through the real REST client.

const pgEnabled = await pgTestsEnabled();
const REGULAR = CAMPAIGN_KIND_RULES.regular;
const FEATURED = CAMPAIGN_KIND_RULES.featured;

let sim: DiscordSimulator & { url: string };
const clock = new ManualClock();
beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0, now: () => clock.now() });
  sim.state.rateLimits.configure({ enabled: false });
});
afterAll(() => sim?.close());

/** What the bot's services need of the app: the store, a clock, Discord (the simulator), a logger. */
function botContext(store: DataStore): AppContext {
  return {
    store,
    clock,
    logger: createLogger('silent'),
    discord: new DiscordApi({ baseUrl: sim.url, botToken: DEFAULT_SIM_BOT_TOKEN, retries: 0 }),
    config: {
      sameAddress: { windowMs: 0, maxPaidJoins: 3, hashKey: Buffer.from('k') },
      reconcileSafetyValve: DEFAULT_SAFETY_VALVE,
    },
    events: { publish: () => Promise.resolve() },
  } as unknown as AppContext;
}

async function seenAt(store: DataStore, userId: string, addressHash: string, at: number): Promise<void> {
  const values = { userId, addressHash, lastSeenAt: at };
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.insert(userAddresses).values(values).run();
    else await tx.db.insert(pgUserAddresses).values(values);
  });
}

let n = 0;
function campaignIn(guildId: string, ownerId: string, slots: number): NewCampaign {
  n += 1;
  return {
    ownerId,
    name: `Bot campaign ${n}`,
    inviteLink: `https://discord.gg/bot${n}`,
    inviteCode: `bot${n}`,
    kind: 'regular',
    guildId: guildId,
    inviteGuildId: guildId,
    guildIcon: null,
    coinReward: REGULAR.rewardCents,
    membersRemaining: slots,
    initialMemberSlots: slots,
    createdAt: clock.now() + n,
  };
}
/** A guild id no simulator guild has (the bot is not there). */
const nowhereGuild = () => `55${String(Date.now()).slice(-9)}${String((n += 1)).padStart(7, '0')}`;

describe.each(ENGINES)('bot repository and services on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    let ctx: AppContext;
    beforeAll(async () => {
      t = await createTestStore(kind);
      ctx = botContext(t.store);
    });
    afterAll(() => t?.dispose());

    const open = (c: NewCampaign) => t.store.transaction((tx) => campaignsRepo(tx).insert(c));
    const campaign = async (id: string) => (await joinsRepo(t.store.read).findCampaign(id))!;
    const joinOf = async (user: User, campaignId: string) =>
      (await joinsRepo(t.store.read).findJoin(user.id, campaignId))!;
    const joinOnWebsite = (user: User, campaignId: string, at = clock.now()) =>
      t.store.transaction((tx) => joinsRepo(tx).insertPendingJoin(user.id, campaignId, at));
    const arrival = (user: User, guildId: string, extra: Partial<MemberEvent> = {}): MemberEvent => ({
      guildId,
      discordUserId: user.discordId,
      at: clock.now(),
      ...extra,
    });
    /** A member paid by a regular campaign of its own guild (one slot left afterwards unless told). */
    async function paidMember(slots = 2) {
      const owner = await insertUser(t.store);
      const member = await insertUser(t.store);
      const guildId = nowhereGuild();
      const c = await open(campaignIn(guildId, owner.id, slots));
      await joinOnWebsite(member, c.id);
      const verified = await recordVerifiedJoin(ctx, arrival(member, guildId));
      expect(verified.rewarded?.cents).toBe(REGULAR.rewardCents);
      return { owner, member, guildId, campaignId: c.id };
    }

    // First: later cases add campaigns in guilds the simulator does not have, which a run would pause.
    it('reconcile writes what the missed events would have: a leave charged, an arrival paid, an absent bot pausing', async () => {
      const simOwner = sim.state.createUser({ username: `rc_owner_${kind}` });
      const [simGone, simArrived] = [
        sim.state.createUser({ username: `rc_gone_${kind}` }),
        sim.state.createUser({ username: `rc_arrived_${kind}` }),
      ];
      const guild = sim.state.createGuild({ name: `Reconciled ${kind}`, ownerId: simOwner.id });
      const away = sim.state.createGuild({
        name: `Bot away ${kind}`,
        ownerId: simOwner.id,
        botMember: false,
      });
      const owner = await insertUser(t.store, { discordId: simOwner.id });
      const gone = await insertUser(t.store, { discordId: simGone.id });
      const arrived = await insertUser(t.store, { discordId: simArrived.id });
      const c = await open(campaignIn(guild.id, owner.id, 5));
      const paused = await open(campaignIn(away.id, owner.id, 5));
      // `gone` was paid and left while the bot was offline; `arrived` joined Discord while it was.
      await joinOnWebsite(gone, c.id);
      sim.state.addMember(guild.id, simGone.id, { joinedAt: new Date(clock.now()).toISOString() });
      await recordVerifiedJoin(ctx, arrival(gone, guild.id));
      sim.state.removeMember(guild.id, simGone.id, { reason: 'leave' });
      await joinOnWebsite(arrived, c.id);
      clock.advance(HOUR);
      sim.state.addMember(guild.id, simArrived.id, { joinedAt: new Date(clock.now()).toISOString() });
      clock.advance(HOUR);

      const first = await reconcile(ctx, {});
      expect(first).toMatchObject({ verified: 1, left: 1, paused: 1, failed: 0, heldBack: 0 });
      expect(await joinOf(gone, c.id)).toMatchObject({ hasLeft: true, leftReason: 'leave', penalized: true });
      expect(await joinOf(arrived, c.id)).toMatchObject({ verified: true, coinsAwarded: true });
      expect(await getBalance(t.store, gone.id)).toBe(REGULAR.rewardCents - REGULAR.penaltyCents);
      expect(await getBalance(t.store, arrived.id)).toBe(REGULAR.rewardCents);
      // One slot taken by each, the leaver's given back.
      expect((await campaign(c.id)).membersRemaining).toBe(4);
      expect((await campaign(paused.id)).botRemovedAt).toBe(clock.now());
      expect(await botRepo(t.store.read).listPausedGuilds([away.id, guild.id])).toEqual([away.id]);

      // Again: nothing is left to do.
      const second = await reconcile(ctx, {});
      expect(second).toMatchObject({ verified: 0, left: 0, paused: 0, resumed: 0 });
      // The bot is back in the guild: the next run resumes its campaign.
      sim.state.addMember(away.id, sim.state.botId);
      expect(await reconcile(ctx, {})).toMatchObject({ resumed: 1 });
      expect((await campaign(paused.id)).botRemovedAt).toBeNull();
      await assertLedgerInvariant(t.store);
    });
    it('verifies a join once: one slot, one credit, the terms of the slot frozen on the join', async () => {
      const owner = await insertUser(t.store);
      const [first, second] = [await insertUser(t.store), await insertUser(t.store)];
      const guildId = nowhereGuild();
      const regular = await open(campaignIn(guildId, owner.id, 1));
      // Promoted: one featured slot at the featured reward on top of the regular one.
      const promoted = await t.store.transaction((tx) =>
        campaignsRepo(tx).promote(regular, 1, FEATURED.rewardCents, clock.now()),
      );
      expect(promoted).toMatchObject({ membersRemaining: 2, featuredRemaining: 1, kind: 'featured' });
      await joinOnWebsite(first, regular.id);
      await joinOnWebsite(second, regular.id);

      const paid = await recordVerifiedJoin(
        ctx,
        arrival(first, guildId, { discordJoinedAt: clock.now() - 5 }),
      );
      expect(paid.rewarded).toMatchObject({ cents: FEATURED.rewardCents, campaignId: regular.id });
      expect(paid.completedCampaignId).toBeNull();
      expect(await joinOf(first, regular.id)).toMatchObject({
        verified: true,
        coinsAwarded: true,
        rewardCents: FEATURED.rewardCents,
        minStayMs: FEATURED.minStayMs,
        penaltyCents: FEATURED.penaltyCents,
        discordJoinedAt: clock.now() - 5,
      });
      // The featured pool ran out with a regular slot left: the campaign is regular again.
      expect(await campaign(regular.id)).toMatchObject({
        membersRemaining: 1,
        featuredRemaining: 0,
        kind: 'regular',
        coinReward: REGULAR.rewardCents,
      });
      // Replayed (a reconnect, a reconcile run): nothing more.
      expect((await recordVerifiedJoin(ctx, arrival(first, guildId))).rewarded).toBeNull();
      expect(await ledgerAmounts(t.store.read, first.id, 'join_reward')).toEqual([FEATURED.rewardCents]);

      const last = await recordVerifiedJoin(ctx, arrival(second, guildId));
      expect(last.rewarded?.terms).toEqual({
        rewardCents: REGULAR.rewardCents,
        minStayMs: REGULAR.minStayMs,
        penaltyCents: REGULAR.penaltyCents,
      });
      expect(last.completedCampaignId).toBe(regular.id);
      expect(await getBalance(t.store, second.id)).toBe(REGULAR.rewardCents);
      expect((await campaign(regular.id)).membersRemaining).toBe(0);
      await assertLedgerInvariant(t.store);
    });

    it('one Discord join pays one campaign of the guild; the others close without pay', async () => {
      const owner = await insertUser(t.store);
      const member = await insertUser(t.store);
      const guildId = nowhereGuild();
      const a = await open(campaignIn(guildId, owner.id, 3));
      const b = await open(campaignIn(guildId, owner.id, 3));
      await joinOnWebsite(member, a.id, clock.now() - 2);
      await joinOnWebsite(member, b.id, clock.now() - 1);
      const result = await recordVerifiedJoin(ctx, arrival(member, guildId));
      expect(result).toMatchObject({ rewarded: { campaignId: a.id }, closedWithoutReward: 1 });
      expect(await joinOf(member, b.id)).toMatchObject({
        verified: true,
        coinsAwarded: false,
        rewardCents: 0,
      });
      expect((await campaign(b.id)).membersRemaining).toBe(3);
    });

    it('concurrent verifications of one join (event, reconcile, another process): one slot, one credit', async () => {
      const owner = await insertUser(t.store);
      const guildId = nowhereGuild();
      const c = await open(campaignIn(guildId, owner.id, 50));
      // Several rounds: in the first, the pool's connections are still opening and may not overlap.
      for (let round = 1; round <= 5; round++) {
        const member = await insertUser(t.store);
        await joinOnWebsite(member, c.id);
        const event = arrival(member, guildId);
        const results = await Promise.all(Array.from({ length: 6 }, () => recordVerifiedJoin(ctx, event)));
        expect(
          results.filter((r) => r.rewarded !== null),
          `round ${round}`,
        ).toHaveLength(1);
        expect((await campaign(c.id)).membersRemaining, `round ${round}`).toBe(50 - round);
        expect(await ledgerAmounts(t.store.read, member.id, 'join_reward')).toEqual([REGULAR.rewardCents]);
      }
      await assertLedgerInvariant(t.store);
    });

    it('the last slots wanted by more members at once: only as many pay as there were slots', async () => {
      const owner = await insertUser(t.store);
      const guildId = nowhereGuild();
      const c = await open(campaignIn(guildId, owner.id, 2));
      const members = await Promise.all(Array.from({ length: 6 }, () => insertUser(t.store)));
      for (const m of members) await joinOnWebsite(m, c.id);
      const results = await Promise.all(members.map((m) => recordVerifiedJoin(ctx, arrival(m, guildId))));
      expect(results.filter((r) => r.rewarded !== null)).toHaveLength(2);
      expect(results.filter((r) => r.completedCampaignId === c.id)).toHaveLength(1);
      expect((await campaign(c.id)).membersRemaining).toBe(0);
      const balances = await Promise.all(members.map((m) => getBalance(t.store, m.id)));
      expect(balances.filter((b) => b === REGULAR.rewardCents)).toHaveLength(2);
      expect(balances.filter((b) => b === 0)).toHaveLength(4);
      // Everyone is verified (they did join Discord); only the paid ones count as paid.
      const joins = await Promise.all(members.map((m) => joinOf(m, c.id)));
      expect(joins.every((j) => j.verified)).toBe(true);
      expect(joins.filter((j) => j.coinsAwarded)).toHaveLength(2);
      await assertLedgerInvariant(t.store);
    });

    it('the same-address cap filled by members arriving at once: only up to the cap are paid', async () => {
      // Cap 1: members who share the owner's address are paid once per campaign (decision 022).
      const capped = {
        ...ctx,
        config: {
          ...ctx.config,
          sameAddress: { windowMs: 7 * DAY, maxPaidJoins: 1, hashKey: Buffer.from('k') },
        },
      } as AppContext;
      for (let round = 1; round <= 3; round++) {
        const owner = await insertUser(t.store);
        const hash = `shared-${kind}-${round}`;
        await seenAt(t.store, owner.id, hash, clock.now());
        const guildId = nowhereGuild();
        const c = await open(campaignIn(guildId, owner.id, 10));
        const alts = await Promise.all(Array.from({ length: 5 }, () => insertUser(t.store)));
        for (const alt of alts) {
          await seenAt(t.store, alt.id, hash, clock.now());
          await joinOnWebsite(alt, c.id);
        }
        const results = await Promise.all(
          alts.map((alt) => recordVerifiedJoin(capped, arrival(alt, guildId))),
        );
        expect(
          results.filter((r) => r.rewarded !== null),
          `round ${round}`,
        ).toHaveLength(1);
        expect((await campaign(c.id)).membersRemaining, `round ${round}`).toBe(9);
        const joins = await Promise.all(alts.map((alt) => joinOf(alt, c.id)));
        expect(joins.every((j) => j.verified && j.sameAddress)).toBe(true);
        expect(joins.filter((j) => j.coinsAwarded)).toHaveLength(1);
      }
      await assertLedgerInvariant(t.store);
    });

    it('closes the pending joins of a member who was in the guild before joining on the website', async () => {
      const owner = await insertUser(t.store);
      const member = await insertUser(t.store);
      const guildId = nowhereGuild();
      const c = await open(campaignIn(guildId, owner.id, 3));
      await joinOnWebsite(member, c.id);
      const before = { discordJoinedAt: clock.now() - DAY };
      expect(await closeJoinsOfEarlierMembers(ctx, arrival(member, guildId, before))).toBe(1);
      expect(await joinOf(member, c.id)).toMatchObject({ verified: true, coinsAwarded: false });
      expect((await recordVerifiedJoin(ctx, arrival(member, guildId))).rewarded).toBeNull();
      expect(await getBalance(t.store, member.id)).toBe(0);
      expect((await campaign(c.id)).membersRemaining).toBe(3);
    });

    it('a voluntary leave inside the stay is charged once and gives the slot back; a kick neither', async () => {
      const { member, guildId, campaignId } = await paidMember();
      const leave = {
        guildId,
        discordUserId: member.discordId,
        at: clock.now() + HOUR,
        reason: 'leave' as const,
      };
      const outcomes = await Promise.all([
        recordLeave(ctx, leave),
        recordLeave(ctx, leave),
        recordLeave(ctx, leave),
      ]);
      expect(outcomes.reduce((s, o) => s + o.recorded, 0)).toBe(1);
      expect(outcomes.reduce((s, o) => s + o.penalized, 0)).toBe(1);
      expect(await ledgerAmounts(t.store.read, member.id, 'leave_penalty')).toEqual([-REGULAR.penaltyCents]);
      expect(await getBalance(t.store, member.id)).toBe(REGULAR.rewardCents - REGULAR.penaltyCents);
      expect((await campaign(campaignId)).membersRemaining).toBe(2);
      expect(await joinOf(member, campaignId)).toMatchObject({
        hasLeft: true,
        leftReason: 'leave',
        penalized: true,
      });

      const kicked = await paidMember();
      const kick = {
        ...leave,
        guildId: kicked.guildId,
        discordUserId: kicked.member.discordId,
        reason: 'kick' as const,
      };
      expect(await recordLeave(ctx, kick)).toEqual({ recorded: 1, penalized: 0 });
      expect(await getBalance(t.store, kicked.member.id)).toBe(REGULAR.rewardCents);
      expect((await campaign(kicked.campaignId)).membersRemaining).toBe(1);

      const stayed = await paidMember();
      const late = {
        ...leave,
        guildId: stayed.guildId,
        discordUserId: stayed.member.discordId,
        at: clock.now() + REGULAR.minStayMs + 1,
      };
      expect(await recordLeave(ctx, late)).toEqual({ recorded: 1, penalized: 0 });
      expect((await campaign(stayed.campaignId)).membersRemaining).toBe(1);
      await assertLedgerInvariant(t.store);
    });

    it('a late kick entry refunds the penalty once and takes the given-back slot again', async () => {
      const { member, guildId, campaignId } = await paidMember();
      await recordLeave(ctx, { guildId, discordUserId: member.discordId, at: clock.now(), reason: 'leave' });
      expect((await campaign(campaignId)).membersRemaining).toBe(2);
      const entry = {
        guildId,
        discordUserId: member.discordId,
        reason: 'kick' as const,
        entryAt: clock.now(),
      };
      const refunded = await Promise.all([
        refundLateKick(ctx, entry),
        refundLateKick(ctx, entry),
        refundLateKick(ctx, entry),
      ]);
      expect(refunded.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await ledgerAmounts(t.store.read, member.id, 'penalty_refund')).toEqual([REGULAR.penaltyCents]);
      expect(await getBalance(t.store, member.id)).toBe(REGULAR.rewardCents);
      expect((await campaign(campaignId)).membersRemaining).toBe(1);
      expect(await joinOf(member, campaignId)).toMatchObject({ leftReason: 'kick', penalized: false });
      await assertLedgerInvariant(t.store);
    });

    it('claims a completion DM for one sender at a time; the lease passes, a sent DM is never claimed again', async () => {
      const simOwner = sim.state.createUser({ username: `dm_owner_${kind}` });
      const guild = sim.state.createGuild({ name: `DM guild ${kind}`, ownerId: simOwner.id });
      const owner = await insertUser(t.store, { discordId: simOwner.id });
      const finished = await open({ ...campaignIn(guild.id, owner.id, 0), initialMemberSlots: 3 });
      const now = clock.now();
      const claims = await Promise.all(
        Array.from({ length: 5 }, () => claimCompletionDm(ctx, finished.id, now)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await claimCompletionDm(ctx, finished.id, now + COMPLETION_DM_LEASE_MS - 1)).toBe(false);
      clock.advance(COMPLETION_DM_LEASE_MS);
      // The claimer died; once its lease passed, concurrent senders (event, reconcile, processes) send one DM.
      const sent = await Promise.all([
        notifyCompletedCampaign(ctx, finished.id),
        notifyCompletedCampaign(ctx, finished.id),
        notifyPendingCompletions(ctx),
      ]);
      expect(sent.map(Number).reduce((a, b) => a + b, 0)).toBe(1);
      expect(
        sim.state.listDms({ userId: simOwner.id }).filter((d) => d.content.includes(finished.name)),
      ).toHaveLength(1);
      expect(await campaign(finished.id)).toMatchObject({
        completionNotificationSent: true,
        completionDmRetryAt: null,
      });
      clock.advance(COMPLETION_DM_LEASE_MS);
      expect(await claimCompletionDm(ctx, finished.id, clock.now())).toBe(false);
    });
  });
});
