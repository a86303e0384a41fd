import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { servers, type Server } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { debit, getBalance } from '../ledger/ledger.ts';
import { assertCanSpend } from '../payments/spend-guard.ts';
import { CAMPAIGN_MESSAGES } from '../shared/campaign-schemas.ts';
import { CAMPAIGN_KIND_RULES, PROMOTION } from '../shared/campaign-kinds.ts';
import { coinsToCents } from '../shared/money.ts';
import { requireBotInGuild } from './discord-checks.ts';
import { FEATURED_INTENT_EXPIRED, isExpiredIntent } from './featured-intent.ts';
import { requireGuildManager } from '../auth/user-guilds.ts';
import { ALREADY_FEATURED, ALREADY_FEATURED_ELSEWHERE, isGuildFeaturedElsewhere } from './featured-guard.ts';

export const CAMPAIGN_CANCELED = 'This campaign was canceled and cannot be promoted.';
export const NOBOT_NOT_PROMOTABLE =
  'No-bot servers cannot be featured. Invite our bot and submit the server as a regular campaign.';

function findOwnServer(ctx: AppContext, userId: string, serverId: string): Server {
  const server = ctx.db
    .select()
    .from(servers)
    .where(and(eq(servers.id, serverId), eq(servers.ownerId, userId)))
    .get();
  // Another user's server behaves like a missing one.
  if (!server) throw new AppError('not_found', 'Server not found');
  return server;
}

/**
 * POST /api/servers/:id/promote: 100 coins buy 100 featured member slots at the featured reward.
 * A regular campaign keeps its remaining slots (at the regular reward) and gains 100 featured ones,
 * taken first. A campaign whose featured slots ran out can be promoted again; an active featured one cannot.
 */
export async function promoteServer(ctx: AppContext, userId: string, serverId: string): Promise<Server> {
  const found = findOwnServer(ctx, userId, serverId);
  if (!CAMPAIGN_KIND_RULES[found.kind].promotable || !found.serverId)
    throw new AppError('bad_request', NOBOT_NOT_PROMOTABLE);
  // Having listed it once is not enough: the owner may have lost Manage Server since.
  await requireGuildManager(ctx, userId, { id: found.serverId, name: found.name }, 'feature');
  // Featured members are verified by the bot, so it must still be there (a Discord call: outside the transaction).
  await requireBotInGuild(ctx, found.serverId);

  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    // Re-read inside the transaction: everything below is decided on current data.
    const server = tx
      .select()
      .from(servers)
      .where(and(eq(servers.id, serverId), eq(servers.ownerId, userId)))
      .get();
    if (!server?.serverId) throw new AppError('not_found', 'Server not found');
    if (isExpiredIntent(server, now)) throw new AppError('conflict', FEATURED_INTENT_EXPIRED);
    if (server.canceledAt !== null) throw new AppError('conflict', CAMPAIGN_CANCELED);
    if (server.isFeatured && server.featuredRemaining > 0) throw new AppError('conflict', ALREADY_FEATURED);
    if (isGuildFeaturedElsewhere(tx, server.serverId, server.id))
      throw new AppError('conflict', ALREADY_FEATURED_ELSEWHERE);
    assertCanSpend(tx, userId);
    const cost = coinsToCents(PROMOTION.costCoins);
    if (getBalance(ctx.sqlite, userId) < cost)
      throw new AppError('insufficient_coins', CAMPAIGN_MESSAGES.promoteCost);

    const updated = tx
      .update(servers)
      .set({
        kind: 'featured',
        isFeatured: true,
        featuredAt: now,
        coinReward: CAMPAIGN_KIND_RULES.featured.rewardCents,
        // 100 featured slots on top: the regular slots left keep the regular reward and stay, and members
        // verified earlier keep the terms frozen on their join rows.
        membersRemaining: sql`${servers.membersRemaining} + ${PROMOTION.slots}`,
        featuredRemaining: sql`${servers.featuredRemaining} + ${PROMOTION.slots}`,
        initialMemberSlots: sql`${servers.initialMemberSlots} + ${PROMOTION.slots}`,
        completionNotificationSent: false,
      })
      // Conditional on the state checked above, so a concurrent promotion cannot apply twice.
      .where(
        and(
          eq(servers.id, server.id),
          eq(servers.membersRemaining, server.membersRemaining),
          eq(servers.featuredRemaining, server.featuredRemaining),
          eq(servers.isFeatured, server.isFeatured),
        ),
      )
      .returning()
      .get();
    if (!updated) throw new AppError('conflict', ALREADY_FEATURED);
    debit(ctx.sqlite, {
      userId,
      cents: cost,
      type: 'promote',
      description: `Featured: ${server.name} (${PROMOTION.slots} members)`,
      now,
    });
    return updated;
  });
}
