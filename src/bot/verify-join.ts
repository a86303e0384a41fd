import { and, asc, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers, users } from '../db/schema.ts';
import { credit } from '../ledger/ledger.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { JOINED_AT_CLOCK_SKEW_MS, type JoinTerms, PENDING_JOIN_MAX_AGE_MS, joinTerms } from './rules.ts';
import type { DbOrTx } from '../db/client.ts';
import { notifyCompletedCampaign } from './completion-notice.ts';
import { sameAddressCheck } from '../joins/same-address.ts';
import { publishCampaignCompleted, publishWithBalance } from '../events/publish.ts';
import { formatCents } from '../shared/money.ts';

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

/**
 * Confirms a website join when the member shows up in the guild (GUILD_MEMBER_ADD or a REST check).
 * One Discord join pays one campaign: the member's oldest pending join of that guild whose campaign
 * still has a slot. All reads and writes happen in one transaction, and the slot is taken with a
 * conditional UPDATE, so replayed events and concurrent joins never double-pay or overdraw slots.
 */
export function recordVerifiedJoin(ctx: AppContext, event: MemberEvent): VerifyJoinResult {
  return ctx.db.transaction((tx) => {
    const result: VerifyJoinResult = { rewarded: null, closedWithoutReward: 0, completedCampaignId: null };
    const user = tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.discordId, event.discordUserId))
      .get();
    if (!user) return result;

    const pending = tx
      .select({
        joinId: serverJoins.id,
        campaignId: servers.id,
        name: servers.name,
        ownerId: servers.ownerId,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(
        and(
          eq(serverJoins.userId, user.id),
          eq(servers.serverId, event.guildId),
          eq(serverJoins.verified, false),
          eq(serverJoins.hasLeft, false),
          isNull(servers.canceledAt),
          gte(serverJoins.joinedAt, event.at - PENDING_JOIN_MAX_AGE_MS),
        ),
      )
      .orderBy(asc(serverJoins.joinedAt), asc(serverJoins.id))
      .all();

    for (const join of pending) {
      // Same-address rule (decision 022): past the campaign's cap such a join is verified without pay or slot.
      const address = sameAddressCheck(tx, ctx.config.sameAddress, {
        memberId: user.id,
        ownerId: join.ownerId,
        campaignId: join.campaignId,
        now: event.at,
      });
      const slot = result.rewarded === null && !address.capped ? takeSlot(tx, join.campaignId) : null;
      const terms = slot?.terms ?? null;
      const marked = tx
        .update(serverJoins)
        .set({
          verified: true,
          verifiedAt: event.at,
          coinsAwarded: slot !== null,
          // Frozen here: a later promotion or rule change never alters this member's reward, stay or penalty.
          rewardCents: terms?.rewardCents ?? 0,
          minStayMs: terms?.minStayMs ?? 0,
          penaltyCents: terms?.penaltyCents ?? 0,
          sameAddress: address.shared,
        })
        .where(and(eq(serverJoins.id, join.joinId), eq(serverJoins.verified, false)))
        .returning({ id: serverJoins.id })
        .get();
      // Cannot happen inside this transaction; throwing rolls the slot back if it ever did.
      if (!marked) throw new Error(`join ${join.joinId} was verified concurrently`);
      if (!slot || !terms) {
        result.closedWithoutReward += 1;
        continue;
      }
      credit(ctx.sqlite, {
        userId: user.id,
        cents: terms.rewardCents,
        type: 'join_reward',
        description: `Joined ${join.name}`,
        idempotencyKey: `join:${join.joinId}`,
        now: event.at,
      });
      result.rewarded = {
        joinId: join.joinId,
        userId: user.id,
        campaignId: join.campaignId,
        cents: terms.rewardCents,
        terms,
        name: join.name,
      };
      if (slot.membersRemaining === 0) result.completedCampaignId = join.campaignId;
    }
    return result;
  });
}

/**
 * Takes one slot of a campaign with conditional UPDATEs: a featured slot while the featured pool lasts,
 * else a regular one (slots beyond the featured pool). When the featured pool runs out while regular
 * slots remain, the campaign goes back to a regular listing at the regular reward.
 */
export function takeSlot(
  tx: DbOrTx,
  campaignId: string,
): { terms: JoinTerms; membersRemaining: number } | null {
  const featured = tx
    .update(servers)
    .set({
      membersRemaining: sql`${servers.membersRemaining} - 1`,
      featuredRemaining: sql`${servers.featuredRemaining} - 1`,
    })
    .where(
      and(
        eq(servers.id, campaignId),
        gt(servers.featuredRemaining, 0),
        gt(servers.membersRemaining, 0),
        isNull(servers.canceledAt),
      ),
    )
    .returning({ membersRemaining: servers.membersRemaining, featuredRemaining: servers.featuredRemaining })
    .get();
  if (featured) {
    if (featured.featuredRemaining === 0 && featured.membersRemaining > 0) {
      tx.update(servers)
        .set({ kind: 'regular', isFeatured: false, coinReward: CAMPAIGN_KIND_RULES.regular.rewardCents })
        .where(eq(servers.id, campaignId))
        .run();
    }
    return { terms: joinTerms(true), membersRemaining: featured.membersRemaining };
  }
  const regular = tx
    .update(servers)
    .set({ membersRemaining: sql`${servers.membersRemaining} - 1` })
    .where(
      and(
        eq(servers.id, campaignId),
        gt(servers.membersRemaining, servers.featuredRemaining),
        isNull(servers.canceledAt),
      ),
    )
    .returning({ membersRemaining: servers.membersRemaining })
    .get();
  return regular ? { terms: joinTerms(false), membersRemaining: regular.membersRemaining } : null;
}

/**
 * A member whose Discord joined_at precedes their website join was already in the guild: those
 * pending joins are closed without coins (issue 12 item 5), at join time and in reconciliation.
 */
export function closeJoinsOfEarlierMembers(ctx: AppContext, event: MemberEvent): number {
  if (event.discordJoinedAt === undefined || Number.isNaN(event.discordJoinedAt)) return 0;
  const user = ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.discordId, event.discordUserId))
    .get();
  if (!user) return 0;
  const campaignIds = ctx.db
    .select({ id: servers.id })
    .from(servers)
    .where(eq(servers.serverId, event.guildId))
    .all()
    .map((r) => r.id);
  if (campaignIds.length === 0) return 0;
  const closed = ctx.db
    .update(serverJoins)
    .set({
      verified: true,
      verifiedAt: event.at,
      coinsAwarded: false,
      discordJoinedAt: event.discordJoinedAt,
    })
    .where(
      and(
        eq(serverJoins.userId, user.id),
        inArray(serverJoins.serverId, campaignIds),
        eq(serverJoins.verified, false),
        eq(serverJoins.hasLeft, false),
        gt(serverJoins.joinedAt, event.discordJoinedAt + JOINED_AT_CLOCK_SKEW_MS),
      ),
    )
    .run().changes;
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
  const earlier = closeJoinsOfEarlierMembers(ctx, event);
  const result = recordVerifiedJoin(ctx, event);
  result.closedWithoutReward += earlier;
  if (result.rewarded && event.discordJoinedAt !== undefined && !Number.isNaN(event.discordJoinedAt)) {
    // Audit entries older than this membership are not about it (the "kick window", issue 12 item 4).
    ctx.db
      .update(serverJoins)
      .set({ discordJoinedAt: event.discordJoinedAt })
      .where(eq(serverJoins.id, result.rewarded.joinId))
      .run();
  }
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
