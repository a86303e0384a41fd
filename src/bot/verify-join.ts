import type { AppContext } from '../context.ts';
import type { TxHandle } from '../db/engine.ts';
import * as ledger from '../ledger/index.ts';
import { JOINED_AT_CLOCK_SKEW_MS, joinTerms, type JoinTerms, PENDING_JOIN_MAX_AGE_MS } from './rules.ts';
import { notifyCompletedCampaign } from './completion-notice.ts';
import { checkSameAddress, type SameAddressRule } from '../joins/same-address.ts';
import { publishCampaignCompleted, publishWithBalance } from '../events/publish.ts';
import { formatCents } from '../shared/money.ts';
import { botRepo, type BotRepository } from './bot-repo.ts';
import { enqueueCampaignEvent } from '../notifications/outbox.ts';
import { scheduleCampaignProgress, scheduleStayOver } from '../reminders/schedule-reminders.ts';

export interface MemberEvent {
  /** Discord guild id. */
  guildId: string;
  discordUserId: string;
  /** When we learned about it (ctx.clock.now()). */
  at: number;
  /** Discord's joined_at of this membership (ms), when known. */
  discordJoinedAt?: number;
}

export interface VerifyJoinResult {
  /** The join that earned coins, if any. */
  rewarded: {
    joinId: string;
    userId: string;
    campaignId: string;
    cents: number;
    terms: JoinTerms;
    name: string;
  } | null;
  /** Pending joins closed without coins (no slot left, or another campaign of the guild paid). */
  closedWithoutReward: number;
  /** Campaign whose last slot this join took. */
  completedCampaignId: string | null;
}

/** Thrown inside the slot's savepoint when the same-address cap refuses the pay: the slot goes back. */
class SameAddressCapped extends Error {}

/**
 * Confirms a website join when the member shows up in the guild (GUILD_MEMBER_ADD or a REST check).
 * One Discord join pays one campaign: the member's oldest pending join of that guild whose campaign
 * still has a slot. One transaction of conditional writes: each pending join is claimed first
 * (`verified = false`), so a replayed event, a reconcile run or another bot process verifying the same
 * join at once finds it taken and writes nothing; the slot is taken with `members_remaining > 0`, so
 * concurrent joins never overdraw slots; the reward is credited under the join's key.
 */
export async function recordVerifiedJoin(ctx: AppContext, event: MemberEvent): Promise<VerifyJoinResult> {
  return ctx.store.transaction(async (tx) => {
    const repo = botRepo(tx);
    const result: VerifyJoinResult = { rewarded: null, closedWithoutReward: 0, completedCampaignId: null };
    const userId = await repo.findUserIdByDiscordId(event.discordUserId);
    if (!userId) return result;

    const pending = await repo.listPendingJoins(userId, event.guildId, event.at - PENDING_JOIN_MAX_AGE_MS);
    for (const join of pending) {
      if (!(await repo.claimPendingJoin(join.joinId, event.at))) continue; // verified meanwhile, elsewhere
      const address = { memberId: userId, ownerId: join.ownerId, campaignId: join.campaignId, now: event.at };
      const { slot, shared } =
        result.rewarded === null
          ? await takeSlotWithinCap(tx, ctx.config.sameAddress, address)
          : { slot: null, shared: (await checkSameAddress(tx, ctx.config.sameAddress, address)).shared };
      const terms = slot?.terms ?? null;
      // Frozen here: a later promotion or rule change never alters this member's reward, stay or penalty.
      await repo.settleVerifiedJoin(join.joinId, {
        terms,
        sameAddress: shared,
        discordJoinedAt: validJoinedAt(event.discordJoinedAt),
      });
      if (!slot || !terms) {
        result.closedWithoutReward += 1;
        continue;
      }
      await ledger.credit(tx, {
        userId,
        cents: terms.rewardCents,
        type: 'join_reward',
        description: `Joined ${join.name}`,
        idempotencyKey: `join:${join.joinId}`,
        now: event.at,
      });
      await scheduleStayOver(tx, {
        userId,
        joinId: join.joinId,
        verifiedAt: event.at,
        minStayMs: terms.minStayMs,
      });
      await scheduleCampaignProgress(tx, join.campaignId, event.at);
      result.rewarded = {
        joinId: join.joinId,
        userId,
        campaignId: join.campaignId,
        cents: terms.rewardCents,
        terms,
        name: join.name,
      };
      if (slot.membersRemaining === 0) result.completedCampaignId = join.campaignId;
      // The owner's notifications commit with the join they report (decision 052).
      await enqueueCampaignEvent(tx, {
        campaignId: join.campaignId,
        type: 'join.verified',
        key: `join.verified:${join.joinId}`,
        at: event.at,
        memberUserId: userId,
        amount: formatCents(terms.rewardCents),
      });
      if (slot.membersRemaining === 0)
        await enqueueCampaignEvent(tx, {
          campaignId: join.campaignId,
          type: 'campaign.completed',
          key: `campaign.completed:${join.campaignId}:${join.joinId}`,
          at: event.at,
        });
    }
    return result;
  });
}

export interface SlotTaken {
  terms: JoinTerms;
  membersRemaining: number;
}

/**
 * Takes one slot of a campaign that is not canceled: a featured slot while the featured pool lasts
 * (the campaign turns regular when that pool runs out with regular slots left), else one beyond the
 * featured pool. null when none is left.
 */
async function takeSlot(repo: BotRepository, campaignId: string): Promise<SlotTaken | null> {
  const featured = await repo.takeFeaturedSlot(campaignId);
  if (featured) {
    if (featured.featuredRemaining === 0 && featured.membersRemaining > 0)
      await repo.endFeaturing(campaignId);
    return { terms: joinTerms(true), membersRemaining: featured.membersRemaining };
  }
  const regular = await repo.takeRegularSlot(campaignId);
  return regular ? { terms: joinTerms(false), membersRemaining: regular.membersRemaining } : null;
}

/**
 * Takes a slot of the campaign, then applies the same-address rule (decision 022): past the campaign's
 * cap such a join is verified without pay or slot (the savepoint gives the slot back). The slot comes
 * first because on PostgreSQL its UPDATE holds the campaign row, so concurrent payers of one campaign
 * count each other's same-address joins.
 */
async function takeSlotWithinCap(
  tx: TxHandle,
  rule: SameAddressRule,
  input: { memberId: string; ownerId: string; campaignId: string; now: number },
): Promise<{ slot: SlotTaken | null; shared: boolean }> {
  try {
    return await tx.transaction(async (sp) => {
      const slot = await takeSlot(botRepo(sp), input.campaignId);
      const address = await checkSameAddress(sp, rule, input);
      if (slot && address.capped) throw new SameAddressCapped();
      return { slot, shared: address.shared };
    });
  } catch (err) {
    if (err instanceof SameAddressCapped) return { slot: null, shared: true };
    throw err;
  }
}

function validJoinedAt(at: number | undefined): number | undefined {
  return at === undefined || Number.isNaN(at) ? undefined : at;
}

/**
 * A member whose Discord joined_at precedes their website join was already in the guild: those
 * pending joins are closed without coins (issue 12 item 5), at join time and in reconciliation.
 */
export async function closeJoinsOfEarlierMembers(ctx: AppContext, event: MemberEvent): Promise<number> {
  const joinedAt = validJoinedAt(event.discordJoinedAt);
  if (joinedAt === undefined) return 0;
  const closed = await ctx.store.transaction((tx) =>
    botRepo(tx).closeJoinsOfEarlierMember(
      event.discordUserId,
      event.guildId,
      joinedAt,
      JOINED_AT_CLOCK_SKEW_MS,
      event.at,
    ),
  );
  if (closed > 0) {
    ctx.logger.info('join not paid: the member was in the guild before joining through the website', {
      guildId: event.guildId,
      discordUserId: event.discordUserId,
      joins: closed,
    });
  }
  return closed;
}

/** recordVerifiedJoin, then the owner's completion DM when this join took the last slot. */
export async function verifyJoin(ctx: AppContext, event: MemberEvent): Promise<VerifyJoinResult> {
  const earlier = await closeJoinsOfEarlierMembers(ctx, event);
  // A paid join records Discord's joined_at: audit entries older than this membership are not about
  // it (the "kick window", issue 12 item 4).
  const result = await recordVerifiedJoin(ctx, event);
  result.closedWithoutReward += earlier;
  if (result.rewarded) {
    ctx.logger.info('join verified', {
      guildId: event.guildId,
      discordUserId: event.discordUserId,
      ...result.rewarded,
    });
  }
  if (result.rewarded) {
    const { userId, name, cents } = result.rewarded;
    await publishWithBalance(ctx, userId, (balance) => ({
      type: 'join_verified',
      serverName: name,
      amount: formatCents(cents),
      balance,
    }));
  }
  if (result.completedCampaignId) {
    await publishCampaignCompleted(ctx, result.completedCampaignId);
    await notifyCompletedCampaign(ctx, result.completedCampaignId);
  }
  return result;
}
