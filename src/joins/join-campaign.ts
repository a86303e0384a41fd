import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import type { DbHandle } from '../db/engine.ts';
import { usersRepo } from '../users/users-repo.ts';
import { joinsRepo } from './joins-repo.ts';
import { AppError } from '../shared/errors.ts';
import { DiscordApiError, DISCORD_ERROR, snowflakeCreatedAt } from '../discord/discord-api.ts';
import { formatCents } from '../shared/money.ts';
import { noBotGuildId } from './guild-membership.ts';
import { refreshMemberGuilds, requireGuildRoom, requireJoinPace } from './join-pace.ts';
import {
  JOIN_MESSAGES,
  accountTooNewMessage,
  sameAddressCappedMessage,
  type JoinServerResponse,
} from '../shared/join-schemas.ts';
import { checkSameAddress } from './same-address.ts';
import { assertNever } from '../shared/campaign-kinds.ts';
import { languageOfLocale, memberMatches, TARGETING_MESSAGES } from '../shared/targeting.ts';
import { errorMessage } from '../ops/error-text.ts';

/**
 * Targeting (issue 31 item 2): a member outside the campaign's audience (account too young for it,
 * another language) cannot join it; Discover and /farm do not show it to them. The bot verifies only
 * joins recorded here and the no-bot claim checks again, so this is the one gate of every join path.
 */
export function requireInAudience(
  campaign: Pick<Campaign, 'minAccountAgeDays' | 'targetLanguage'>,
  user: { discordId: string; locale: string | null },
  now: number,
): void {
  const member = {
    accountCreatedAt: snowflakeCreatedAt(user.discordId),
    language: languageOfLocale(user.locale),
  };
  if (!memberMatches(campaign, member, now)) throw new AppError('forbidden', TARGETING_MESSAGES.notForYou);
}

/** A campaign a member may still join, or the refusal as an AppError. */
async function requireJoinable(h: DbHandle, campaignId: string, userId: string): Promise<Campaign> {
  const repo = joinsRepo(h);
  const campaign = await repo.findCampaign(campaignId);
  if (!campaign || campaign.canceledAt !== null || !campaign.inviteValid || campaign.botRemovedAt !== null)
    throw new AppError('not_found', JOIN_MESSAGES.notFound);
  if (campaign.ownerId === userId) throw new AppError('bad_request', JOIN_MESSAGES.ownServer);
  if (campaign.membersRemaining <= 0) throw new AppError('conflict', JOIN_MESSAGES.noSlots);
  const joined = await repo.findJoin(userId, campaignId);
  // A join that never completed (invite not accepted, or expired) may be tried again.
  if (joined && (joined.verified || joined.coinsAwarded || joined.hasLeft))
    throw new AppError('conflict', JOIN_MESSAGES.alreadyJoined);
  return campaign;
}

/** Fresh throwaway accounts are the cheapest coin source: joins need an account of a minimum age. */
function requireOldEnoughAccount(ctx: AppContext, discordId: string): void {
  const minAge = ctx.config.minAccountAgeMs;
  if (minAge <= 0) return;
  const createdAt = snowflakeCreatedAt(discordId);
  if (Number.isFinite(createdAt) && ctx.clock.now() - createdAt >= minAge) return;
  const eligibleOn = new Date((Number.isFinite(createdAt) ? createdAt : ctx.clock.now()) + minAge)
    .toISOString()
    .slice(0, 10);
  throw new AppError('forbidden', accountTooNewMessage(Math.round(minAge / 86_400_000), eligibleOn));
}

/** Told at once: a join that could not be paid under the same-address rule is refused (decision 022). */
async function requireSameAddressRoom(
  ctx: AppContext,
  h: DbHandle,
  campaign: Campaign,
  userId: string,
): Promise<void> {
  const rule = ctx.config.sameAddress;
  const check = await checkSameAddress(h, rule, {
    memberId: userId,
    ownerId: campaign.ownerId,
    campaignId: campaign.id,
    now: ctx.clock.now(),
  });
  if (check.capped) throw new AppError('forbidden', sameAddressCappedMessage(rule.maxPaidJoins));
}

/** Whether Discord says the user is already in the guild; a Discord outage is a 502. */
async function isAlreadyMember(ctx: AppContext, guildId: string, discordUserId: string): Promise<boolean> {
  try {
    return (await ctx.discord.getGuildMember(guildId, discordUserId)) !== null;
  } catch (err) {
    if (
      err instanceof DiscordApiError &&
      (err.code === DISCORD_ERROR.MISSING_ACCESS || err.code === DISCORD_ERROR.UNKNOWN_GUILD)
    ) {
      // The bot lost access to the guild: nothing to check against. The join is recorded as pending
      // and only the bot's own verification can award coins, so nothing is given away here.
      ctx.logger.warn('join: cannot read guild members', { guildId, code: err.code });
      return false;
    }
    // Discord asked for a longer wait than a person's deadline: a 503 with its Retry-After, nothing written.
    if (err instanceof AppError) throw err;
    ctx.logger.warn('join: Discord unreachable', {
      guildId,
      error: errorMessage(err),
    });
    throw new AppError('upstream', JOIN_MESSAGES.discordDown);
  }
}

/**
 * The member's guild ids from Discord (stored for Discover), or null when they could not be read and
 * are not `required`: a bot campaign still has our bot's own look-up, and a no-bot campaign whose guild
 * is unknown has nothing to check; only the cap check is skipped. A no-bot join into a known guild
 * cannot be checked any other way, so there the failure stands.
 */
async function memberGuildList(ctx: AppContext, userId: string, required: boolean): Promise<string[] | null> {
  try {
    return await refreshMemberGuilds(ctx, userId);
  } catch (err) {
    if (required) throw err;
    ctx.logger.warn('join: member guild list unavailable', {
      userId,
      error: errorMessage(err),
    });
    return null;
  }
}

/**
 * Records a pending website join (docs/spec/product-spec.md §4): the bot verifies bot servers later; no-bot servers are
 * claimed with claimNoBotReward after the delay. The unique (user, campaign) index makes concurrent
 * double requests produce one row.
 */
export async function joinCampaign(
  ctx: AppContext,
  userId: string,
  campaignId: string,
): Promise<JoinServerResponse> {
  const user = await usersRepo(ctx.store.read).findById(userId);
  if (!user) throw new AppError('unauthorized', 'Not signed in');

  requireOldEnoughAccount(ctx, user.discordId);
  const campaign = await requireJoinable(ctx.store.read, campaignId, userId);
  requireInAudience(campaign, user, ctx.clock.now());
  await requireSameAddressRoom(ctx, ctx.store.read, campaign, userId);
  // Over the pace: refused before anything is asked of Discord (decided again in the transaction).
  await requireJoinPace(ctx, ctx.store.read, userId, campaignId);
  // The member's own guild list (their token): already in the guild? Room under Discord's server cap?
  // A no-bot campaign's guild (from its invite), checked only against the member's list.
  const noBotGuild = campaign.kind === 'nobot' ? await noBotGuildId(ctx, campaign) : null;
  const guildIds = await memberGuildList(ctx, userId, noBotGuild !== null);
  // Only new members earn coins: who tells us whether they are in the guild already depends on the kind.
  switch (campaign.kind) {
    case 'regular':
    case 'featured': {
      const guildId = campaign.guildId ?? campaign.inviteGuildId;
      if (guildId !== null && guildIds?.includes(guildId))
        throw new AppError('conflict', JOIN_MESSAGES.alreadyMember);
      // Our bot is in the guild: Discord REST answers with the bot's token.
      if (campaign.guildId !== null && (await isAlreadyMember(ctx, campaign.guildId, user.discordId))) {
        throw new AppError('conflict', JOIN_MESSAGES.alreadyMember);
      }
      break;
    }
    case 'nobot': {
      // No bot in the guild: the member's own guild list says whether they are in it already.
      if (noBotGuild && guildIds?.includes(noBotGuild))
        throw new AppError('conflict', JOIN_MESSAGES.alreadyMember);
      break;
    }
    default:
      assertNever(campaign.kind);
  }
  if (guildIds) await requireGuildRoom(ctx, userId, guildIds.length);

  return ctx.store.transaction(async (tx) => {
    // The Discord call awaited above; the campaign may have changed meanwhile.
    // One member's joins one at a time: concurrent joins cannot pass the pace together.
    await joinsRepo(tx).lockMember(userId);
    const current = await requireJoinable(tx, campaignId, userId);
    await requireSameAddressRoom(ctx, tx, current, userId);
    await requireJoinPace(ctx, tx, userId, campaignId);
    const repo = joinsRepo(tx);
    // One row per (user, campaign) by the unique index: concurrent double requests make one.
    const now = ctx.clock.now();
    if (!(await repo.insertPendingJoin(userId, campaignId, now))) {
      // Retry of a pending or expired join: its clock starts again (the 7-day wait, the no-bot 10 s).
      if (!(await repo.restartPendingJoin(userId, campaignId, now)))
        throw new AppError('conflict', JOIN_MESSAGES.alreadyJoined);
    }
    return {
      potentialReward: formatCents(current.coinReward),
      inviteLink: current.inviteLink,
      serverId: current.id,
    };
  });
}
