import type { AppContext } from '../context.ts';
import type { Server } from '../db/schema.ts';
import { servers } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { debit, getBalance } from '../ledger/ledger.ts';
import { assertCanSpend } from '../payments/spend-guard.ts';
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
import { ALREADY_FEATURED_ELSEWHERE, isGuildFeaturedElsewhere } from './featured-guard.ts';

import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';

/**
 * POST /api/servers. A regular campaign debits its coins (1 coin per member slot) in the same
 * transaction that inserts it. With isFeaturedIntent the row is created unfunded (0 slots) and the
 * client promotes it next; promote is where the 100 coins are taken.
 */
export async function submitServer(
  ctx: AppContext,
  userId: string,
  input: SubmitServerInput,
): Promise<Server> {
  let coins = 0;
  if (!input.isFeaturedIntent) {
    const parsed = parseCampaignCoins(input.coinReward);
    if (!parsed.ok) throw new AppError('bad_request', parsed.message);
    coins = parsed.coins;
  }
  const invite = await resolvePermanentInvite(ctx, input.inviteLink);
  // Only the guild's owner or managers may list it (their own Discord guild list says so).
  await requireGuildManager(ctx, userId, { id: invite.guildId, name: invite.guildName }, 'list');
  await requireBotInGuild(ctx, invite.guildId);

  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    assertCanSpend(tx, userId);
    const balance = getBalance(ctx.sqlite, userId);
    if (input.isFeaturedIntent) {
      // Refused up front so a failed promotion does not leave an unfunded row behind.
      if (balance < coinsToCents(PROMOTE_COST_COINS))
        throw new AppError('insufficient_coins', CAMPAIGN_MESSAGES.promoteCost);
      if (isGuildFeaturedElsewhere(tx, invite.guildId))
        throw new AppError('conflict', ALREADY_FEATURED_ELSEWHERE);
    } else if (balance < coins * CAMPAIGN_KIND_RULES.regular.costPerSlotCents) {
      throw new AppError('insufficient_coins', insufficientForSubmit(coins, formatCents(balance)));
    }
    const server = tx
      .insert(servers)
      .values({
        ownerId: userId,
        name: input.name,
        inviteLink: invite.link,
        inviteCode: invite.code,
        // A featured intent stays 'regular' (no featured slots) until promote makes it 'featured'.
        kind: 'regular',
        serverId: invite.guildId,
        inviteGuildId: invite.guildId,
        serverIcon: invite.guildIcon,
        coinReward: CAMPAIGN_KIND_RULES[input.isFeaturedIntent ? 'featured' : 'regular'].rewardCents,
        membersRemaining: coins,
        initialMemberSlots: coins,
        createdAt: now,
      })
      .returning()
      .get();
    if (coins > 0) {
      // Conditional debit: a concurrent spend that got there first makes this throw and roll back.
      debit(ctx.sqlite, {
        userId,
        cents: coins * CAMPAIGN_KIND_RULES.regular.costPerSlotCents,
        type: 'campaign',
        description: `Campaign: ${input.name} (${coins} ${coins === 1 ? 'member' : 'members'})`,
        now,
      });
    }
    return server;
  });
}

/** POST /api/servers/no-bot: 1 coin per member, no bot required; the invite's guild is kept to check members' own guild lists. */
export async function submitNoBotServer(
  ctx: AppContext,
  userId: string,
  input: SubmitNoBotInput,
): Promise<Server> {
  const members = parseMemberCount(input.memberCount);
  if (members === null) throw new AppError('bad_request', CAMPAIGN_MESSAGES.memberCount);
  const invite = await resolvePermanentInvite(ctx, input.inviteLink);
  await requireGuildManager(ctx, userId, { id: invite.guildId, name: invite.guildName }, 'list');

  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    assertCanSpend(tx, userId);
    const balance = getBalance(ctx.sqlite, userId);
    if (balance < members * CAMPAIGN_KIND_RULES.nobot.costPerSlotCents) {
      throw new AppError('insufficient_coins', insufficientForNoBot(members, formatCents(balance)));
    }
    const server = tx
      .insert(servers)
      .values({
        ownerId: userId,
        name: input.name,
        inviteLink: invite.link,
        inviteCode: invite.code,
        kind: 'nobot',
        serverId: null,
        inviteGuildId: invite.guildId,
        serverIcon: null,
        coinReward: CAMPAIGN_KIND_RULES.nobot.rewardCents,
        membersRemaining: members,
        initialMemberSlots: members,
        createdAt: now,
      })
      .returning()
      .get();
    debit(ctx.sqlite, {
      userId,
      cents: members * CAMPAIGN_KIND_RULES.nobot.costPerSlotCents,
      type: 'campaign',
      description: `No-bot campaign: ${input.name} (${members} ${members === 1 ? 'member' : 'members'})`,
      now,
    });
    return server;
  });
}
