import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import type { DataStore } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { assertCanSpendIn } from '../payments/spend-guard.ts';
import { CAMPAIGN_MESSAGES } from '../shared/campaign-schemas.ts';
import { CAMPAIGN_KIND_RULES, PROMOTION } from '../shared/campaign-kinds.ts';
import { coinsToCents } from '../shared/money.ts';
import { requireBotInGuild } from './discord-checks.ts';
import { FEATURED_INTENT_EXPIRED, isExpiredIntent } from './featured-intent.ts';
import { requireGuildManager } from '../auth/user-guilds.ts';
import { requireSpendTrust } from './funnel-guard.ts';
import { ALREADY_FEATURED, ALREADY_FEATURED_ELSEWHERE } from './featured-guard.ts';
import { campaignsRepo } from './campaigns-repo.ts';

export const CAMPAIGN_CANCELED = 'This campaign was canceled and cannot be promoted.';
export const NOBOT_NOT_PROMOTABLE =
  'No-bot servers cannot be featured. Invite our bot and submit the server as a regular campaign.';

async function findOwnCampaign(ctx: AppContext, userId: string, campaignId: string): Promise<Campaign> {
  const campaign = await campaignsRepo(ctx.store.read).findOwn(userId, campaignId);
  // Another user's campaign behaves like a missing one.
  if (!campaign) throw new AppError('not_found', 'Server not found');
  return campaign;
}

/**
 * POST /api/servers/:id/promote: 100 coins buy 100 featured member slots at the featured reward.
 * A regular campaign keeps its remaining slots (at the regular reward) and gains 100 featured ones,
 * taken first. A campaign whose featured slots ran out can be promoted again; an active featured one cannot.
 */
export async function promoteCampaign(
  ctx: AppContext,
  userId: string,
  campaignId: string,
): Promise<Campaign> {
  const found = await findOwnCampaign(ctx, userId, campaignId);
  if (!CAMPAIGN_KIND_RULES[found.kind].promotable || !found.guildId)
    throw new AppError('bad_request', NOBOT_NOT_PROMOTABLE);
  // Having listed it once is not enough: the owner may have lost Manage Server since.
  const entry = await requireGuildManager(ctx, userId, { id: found.guildId, name: found.name }, 'feature');
  await requireSpendTrust(ctx, userId, entry, found.name); // decision 043
  // Featured members are verified by the bot, so it must still be there (a Discord call: outside the transaction).
  await requireBotInGuild(ctx, found.guildId);

  return applyPromotion(ctx.store, userId, campaignId, ctx.clock.now());
}

/**
 * The database half of a promotion, one transaction: re-reads the campaign, checks the rules, applies
 * the promotion conditionally on the state it read (two promotions of one campaign: one applies) under
 * the guild's featuring lock (two campaigns of one guild: one becomes featured), and debits the cost
 * conditionally (no overdraft), all committed or rolled back together.
 */
export async function applyPromotion(
  store: DataStore,
  userId: string,
  campaignId: string,
  now: number,
): Promise<Campaign> {
  return store.transaction(async (tx) => {
    const repo = campaignsRepo(tx);
    // Re-read inside the transaction: everything below is decided on current data.
    const campaign = await repo.findOwn(userId, campaignId);
    if (!campaign?.guildId) throw new AppError('not_found', 'Server not found');
    if (isExpiredIntent(campaign, now)) throw new AppError('conflict', FEATURED_INTENT_EXPIRED);
    if (campaign.canceledAt !== null) throw new AppError('conflict', CAMPAIGN_CANCELED);
    if (campaign.isFeatured && campaign.featuredRemaining > 0)
      throw new AppError('conflict', ALREADY_FEATURED);
    // One featured campaign per guild spans rows: held until commit so two promotions of one guild's
    // campaigns cannot both pass the check below.
    await repo.lockGuildForFeaturing(campaign.guildId);
    if (await repo.isGuildFeaturedElsewhere(campaign.guildId, campaign.id))
      throw new AppError('conflict', ALREADY_FEATURED_ELSEWHERE);
    await assertCanSpendIn(tx, userId, { lockSpender: true });
    const cost = coinsToCents(PROMOTION.costCoins);
    if ((await ledger.getBalance(tx, userId)) < cost)
      throw new AppError('insufficient_coins', CAMPAIGN_MESSAGES.promoteCost);

    // 100 featured slots on top: the regular slots left keep the regular reward and stay, and members
    // verified earlier keep the terms frozen on their join rows. Conditional on the state checked
    // above, so a concurrent promotion cannot apply twice.
    const updated = await repo.promote(
      campaign,
      PROMOTION.slots,
      CAMPAIGN_KIND_RULES.featured.rewardCents,
      now,
    );
    if (!updated) throw new AppError('conflict', ALREADY_FEATURED);
    try {
      await ledger.debit(tx, {
        userId,
        cents: cost,
        type: 'promote',
        description: `Featured: ${campaign.name} (${PROMOTION.slots} members)`,
        now,
      });
    } catch (err) {
      // Spent elsewhere meanwhile: the promotion above rolls back with this transaction.
      if (err instanceof AppError && err.code === 'insufficient_coins')
        throw new AppError('insufficient_coins', CAMPAIGN_MESSAGES.promoteCost);
      throw err;
    }
    return updated;
  });
}
