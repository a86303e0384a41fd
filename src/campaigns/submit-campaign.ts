import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import type { DataStore } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { assertCanSpendIn } from '../payments/spend-guard.ts';
import {
  CAMPAIGN_MESSAGES,
  PROMOTE_COST_COINS,
  insufficientForNoBot,
  insufficientForSubmit,
  parseCampaignCoins,
  parseMemberCount,
  type SubmitNoBotInput,
  type SubmitServerInput,
} from '../shared/campaign-schemas.ts';
import { coinsToCents, formatCents } from '../shared/money.ts';
import { requireBotInGuild, resolvePermanentInvite } from './discord-checks.ts';
import { requireGuildManager } from '../auth/user-guilds.ts';
import { requireSpendTrust } from './funnel-guard.ts';
import { ALREADY_FEATURED_ELSEWHERE } from './featured-guard.ts';
import { campaignsRepo, type NewCampaign } from './campaigns-repo.ts';

import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import { accountAgeAbovePlatformMessage, type TargetingInput } from '../shared/targeting.ts';

/**
 * The stored targeting of a submission: a minimum account age must be above the platform's own minimum
 * (MIN_DISCORD_ACCOUNT_AGE_DAYS), else it would narrow nothing and mislead the owner.
 */
export function targetingColumns(
  ctx: AppContext,
  input: TargetingInput | undefined,
): { minAccountAgeDays: number | null; targetLanguage: string | null } {
  const days = input?.minAccountAgeDays ?? null;
  const platformDays = Math.ceil(ctx.config.minAccountAgeMs / 86_400_000);
  if (days !== null && days <= platformDays)
    throw new AppError('bad_request', accountAgeAbovePlatformMessage(platformDays));
  return { minAccountAgeDays: days, targetLanguage: input?.language ?? null };
}

/**
 * The invite both kinds of campaign are listed with: a permanent invite whose guild the member owns or
 * manages (their own Discord guild list says so), and the spend-trust rule (decision 043).
 */
async function requireListableInvite(ctx: AppContext, userId: string, inviteLink: string) {
  const invite = await resolvePermanentInvite(ctx, inviteLink);
  const entry = await requireGuildManager(
    ctx,
    userId,
    { id: invite.guildId, name: invite.guildName },
    'list',
  );
  await requireSpendTrust(ctx, userId, entry, invite.guildName);
  return invite;
}

/**
 * POST /api/servers. A regular campaign debits its coins (1 coin per member slot) in the same
 * transaction that inserts it. With isFeaturedIntent the row is created unfunded (0 slots) and the
 * client promotes it next; promote is where the 100 coins are taken.
 */
export async function submitCampaign(
  ctx: AppContext,
  userId: string,
  input: SubmitServerInput,
): Promise<Campaign> {
  let coins = 0;
  if (!input.isFeaturedIntent) {
    const parsed = parseCampaignCoins(input.coinReward);
    if (!parsed.ok) throw new AppError('bad_request', parsed.message);
    coins = parsed.coins;
  }
  const targeting = targetingColumns(ctx, input.targeting);
  const invite = await requireListableInvite(ctx, userId, input.inviteLink);
  await requireBotInGuild(ctx, invite.guildId);

  // Discord was asked above; what follows only reads and writes the database (decision 034).
  return openCampaign(ctx.store, {
    campaign: {
      ownerId: userId,
      name: input.name,
      inviteLink: invite.link,
      inviteCode: invite.code,
      // A featured intent stays 'regular' (no featured slots) until promote makes it 'featured'.
      kind: 'regular',
      guildId: invite.guildId,
      inviteGuildId: invite.guildId,
      guildIcon: invite.guildIcon,
      coinReward: CAMPAIGN_KIND_RULES[input.isFeaturedIntent ? 'featured' : 'regular'].rewardCents,
      membersRemaining: coins,
      initialMemberSlots: coins,
      createdAt: ctx.clock.now(),
      ...targeting,
    },
    cost: coins * CAMPAIGN_KIND_RULES.regular.costPerSlotCents,
    description: `Campaign: ${input.name} (${coins} ${coins === 1 ? 'member' : 'members'})`,
    insufficient: (balance) => insufficientForSubmit(coins, balance),
    featuredIntent: input.isFeaturedIntent === true,
  });
}

/** POST /api/servers/no-bot: 1 coin per member, no bot required; the invite's guild is kept to check members' own guild lists. */
export async function submitNoBotCampaign(
  ctx: AppContext,
  userId: string,
  input: SubmitNoBotInput,
): Promise<Campaign> {
  const members = parseMemberCount(input.memberCount);
  if (members === null) throw new AppError('bad_request', CAMPAIGN_MESSAGES.memberCount);
  const targeting = targetingColumns(ctx, input.targeting);
  const invite = await requireListableInvite(ctx, userId, input.inviteLink);

  return openCampaign(ctx.store, {
    campaign: {
      ownerId: userId,
      name: input.name,
      inviteLink: invite.link,
      inviteCode: invite.code,
      kind: 'nobot',
      guildId: null,
      inviteGuildId: invite.guildId,
      guildIcon: null,
      coinReward: CAMPAIGN_KIND_RULES.nobot.rewardCents,
      membersRemaining: members,
      initialMemberSlots: members,
      createdAt: ctx.clock.now(),
      ...targeting,
    },
    cost: members * CAMPAIGN_KIND_RULES.nobot.costPerSlotCents,
    description: `No-bot campaign: ${input.name} (${members} ${members === 1 ? 'member' : 'members'})`,
    insufficient: (balance) => insufficientForNoBot(members, balance),
    featuredIntent: false,
  });
}

export interface OpenCampaign {
  campaign: NewCampaign;
  /** What the slots cost (hundredths); 0 for a featured intent. */
  cost: number;
  description: string;
  /** The refusal's text, given the balance ("12.50"). */
  insufficient: (balance: string) => string;
  /** An unfunded row the client promotes next: refused now if promote would be. */
  featuredIntent: boolean;
}

/**
 * The database half of a submission, one transaction: the spend guard, the campaign row, and the
 * conditional debit of its slots (decision 028: the debit's `coins >= cost` is the rule, so of two
 * concurrent submissions with coins for one, the second's debit refuses and its row rolls back; the
 * balance read first only chooses the message).
 */
export async function openCampaign(store: DataStore, input: OpenCampaign): Promise<Campaign> {
  const { campaign, cost } = input;
  const userId = campaign.ownerId;
  return store.transaction(async (tx) => {
    const repo = campaignsRepo(tx);
    await assertCanSpendIn(tx, userId, { lockSpender: true });
    const balance = await ledger.getBalance(tx, userId);
    if (input.featuredIntent) {
      // Refused up front so a failed promotion does not leave an unfunded row behind.
      if (balance < coinsToCents(PROMOTE_COST_COINS))
        throw new AppError('insufficient_coins', CAMPAIGN_MESSAGES.promoteCost);
      if (campaign.guildId !== null && (await repo.isGuildFeaturedElsewhere(campaign.guildId)))
        throw new AppError('conflict', ALREADY_FEATURED_ELSEWHERE);
    } else if (balance < cost) {
      throw new AppError('insufficient_coins', input.insufficient(formatCents(balance)));
    }
    const opened = await repo.insert(campaign);
    if (cost > 0) {
      try {
        await ledger.debit(tx, {
          userId,
          cents: cost,
          type: 'campaign',
          description: input.description,
          now: campaign.createdAt,
        });
      } catch (err) {
        // Spent elsewhere since the read above: the row inserted above rolls back with this transaction.
        if (err instanceof AppError && err.code === 'insufficient_coins')
          throw new AppError('insufficient_coins', input.insufficient(formatCents(balance)));
        throw err;
      }
    }
    return opened;
  });
}
