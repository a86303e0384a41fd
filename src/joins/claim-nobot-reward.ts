import type { AppContext } from '../context.ts';
import type { Campaign, CampaignJoin } from '../db/schema.ts';
import type { DataStore, DbHandle } from '../db/engine.ts';
import type { SameAddressRule } from './same-address.ts';
import { joinsRepo } from './joins-repo.ts';
import { isInGuildWithGrace, noBotGuildId } from './guild-membership.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { publishWithBalance } from '../events/publish.ts';
import { formatCents } from '../shared/money.ts';
import { checkSameAddress } from './same-address.ts';
import {
  JOIN_MESSAGES,
  NOBOT_CLAIM_DELAY_MS,
  notInGuildYetMessage,
  sameAddressCappedMessage,
  type ClaimNoBotResponse,
} from '../shared/join-schemas.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { requireInAudience } from './join-campaign.ts';
import { usersRepo } from '../users/users-repo.ts';
import { enqueueCampaignEvent } from '../notifications/outbox.ts';
import { notifyRepo } from '../notifications/notify-repo.ts';
import { scheduleCampaignProgress } from '../reminders/schedule-reminders.ts';

/** The campaign and the member's join, or the refusal as an AppError (read-only). */
async function checkClaimable(
  h: DbHandle,
  userId: string,
  campaignId: string,
  now: number,
): Promise<{ campaign: Campaign; join: CampaignJoin }> {
  const repo = joinsRepo(h);
  const campaign = await repo.findCampaign(campaignId);
  if (!campaign || campaign.canceledAt !== null) throw new AppError('not_found', JOIN_MESSAGES.notFound);
  if (CAMPAIGN_KIND_RULES[campaign.kind].needsBot) throw new AppError('bad_request', JOIN_MESSAGES.botServer);
  const join = await repo.findJoin(userId, campaignId);
  if (!join) throw new AppError('bad_request', JOIN_MESSAGES.notJoined);
  if (join.coinsAwarded) throw new AppError('conflict', JOIN_MESSAGES.alreadyClaimed);
  if (now - join.joinedAt < NOBOT_CLAIM_DELAY_MS) throw new AppError('too_early', JOIN_MESSAGES.tooEarly);
  return { campaign: campaign, join };
}

/**
 * Pays the no-bot join reward (docs/spec/product-spec.md §4, §9): at least 10 s after the website join, once per join, only
 * once the guild shows in the member's own Discord guild list, and only while the campaign has a slot.
 * Marking the join, taking the slot and the credit happen in one transaction with conditional writes,
 * so concurrent claims pay once and never overdraw the slots.
 */
export async function claimNoBotReward(
  ctx: AppContext,
  userId: string,
  campaignId: string,
): Promise<ClaimNoBotResponse> {
  // The cheap refusals first, then Discord: the member must now be in the guild (their own guild list).
  const { campaign: before } = await checkClaimable(ctx.store.read, userId, campaignId, ctx.clock.now());
  // Targeting is checked at the website join too; again here, as the claim is what pays.
  const member = await usersRepo(ctx.store.read).findById(userId);
  if (!member) throw new AppError('unauthorized', 'Not signed in');
  requireInAudience(before, member, ctx.clock.now());
  const guildId = await noBotGuildId(ctx, before);
  if (!guildId || !(await isInGuildWithGrace(ctx, userId, guildId))) {
    // Nothing is written: the join stays pending and can be claimed again once Discord shows the member.
    throw new AppError('conflict', notInGuildYetMessage(before.name));
  }
  const paid = await payNoBotJoin(ctx.store, ctx.config.sameAddress, userId, campaignId, ctx.clock.now());
  // Committed: every open tab of the member learns the reward and the new balance.
  await publishWithBalance(ctx, userId, (balance) => ({
    type: 'nobot_reward',
    campaignId,
    serverName: paid.name,
    amount: formatCents(paid.cents),
    balance,
  }));
  return { earned: formatCents(paid.cents) };
}

/**
 * The database half of a no-bot claim, one transaction with conditional writes: take a slot
 * (`members_remaining > 0`; on PostgreSQL this holds the campaign row, so concurrent claims of the
 * campaign queue here), check the same-address cap (which then sees the joins they paid), mark the
 * join paid (`coins_awarded = false`), and credit the reward under the join's key. Any refusal rolls
 * back the slot too: concurrent claims pay once and never take more slots than there are.
 */
export async function payNoBotJoin(
  store: DataStore,
  rule: SameAddressRule,
  userId: string,
  campaignId: string,
  now: number,
): Promise<{ name: string; cents: number }> {
  return store.transaction(async (tx) => {
    const repo = joinsRepo(tx);
    const { campaign: campaign, join } = await checkClaimable(tx, userId, campaignId, now);
    if (!(await repo.takeSlot(campaignId))) {
      // A duplicate claim that waited (PostgreSQL: on the campaign row) behind the one that took the last
      // slot for this same join: it was paid, and that is what the member hears.
      if ((await repo.findJoin(userId, campaignId))?.coinsAwarded)
        throw new AppError('conflict', JOIN_MESSAGES.alreadyClaimed);
      throw new AppError('conflict', JOIN_MESSAGES.noSlots);
    }
    // Same-address rule (decision 022): past the campaign's cap, nothing is written and the member is told.
    const address = await checkSameAddress(tx, rule, {
      memberId: userId,
      ownerId: campaign.ownerId,
      campaignId,
      now,
    });
    if (address.capped) throw new AppError('forbidden', sameAddressCappedMessage(rule.maxPaidJoins));
    const marked = await repo.markNoBotClaimed(join.id, {
      now,
      rewardCents: campaign.coinReward,
      sameAddress: address.shared,
    });
    if (!marked) throw new AppError('conflict', JOIN_MESSAGES.alreadyClaimed);
    await ledger.credit(tx, {
      userId,
      cents: campaign.coinReward,
      type: 'nobot_reward',
      description: `Joined ${campaign.name}`,
      idempotencyKey: `nobot:${join.id}`,
      now,
    });
    await enqueueCampaignEvent(tx, {
      campaignId,
      type: 'join.verified',
      key: `join.verified:${join.id}`,
      at: now,
      memberUserId: userId,
      amount: formatCents(campaign.coinReward),
    });
    // The slot taken above was the last one (read after it, in this transaction).
    if ((await notifyRepo(tx).campaignSlots(campaignId))?.slotsRemaining === 0)
      await enqueueCampaignEvent(tx, {
        campaignId,
        type: 'campaign.completed',
        key: `campaign.completed:${campaignId}:${join.id}`,
        at: now,
      });
    await scheduleCampaignProgress(tx, campaignId, now);
    return { name: campaign.name, cents: campaign.coinReward };
  });
}
