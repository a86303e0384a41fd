import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers, users, type Server } from '../db/schema.ts';
import type { DbOrTx } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';
import { DiscordApiError, DISCORD_ERROR, snowflakeCreatedAt } from '../discord/discord-api.ts';
import { formatCents } from '../shared/money.ts';
import { isInGuild, noBotGuildId } from './guild-membership.ts';
import {
  JOIN_MESSAGES,
  accountTooNewMessage,
  sameAddressCappedMessage,
  type JoinServerResponse,
} from '../shared/join-schemas.ts';
import { sameAddressCheck } from './same-address.ts';
import { assertNever } from '../shared/campaign-kinds.ts';

/** A campaign a member may still join, or the refusal as an AppError. */
function requireJoinable(db: DbOrTx, campaignId: string, userId: string): Server {
  const server = db.select().from(servers).where(eq(servers.id, campaignId)).get();
  if (!server || server.canceledAt !== null || !server.inviteValid || server.botRemovedAt !== null)
    throw new AppError('not_found', JOIN_MESSAGES.notFound);
  if (server.ownerId === userId) throw new AppError('bad_request', JOIN_MESSAGES.ownServer);
  if (server.membersRemaining <= 0) throw new AppError('conflict', JOIN_MESSAGES.noSlots);
  const joined = db
    .select({
      verified: serverJoins.verified,
      coinsAwarded: serverJoins.coinsAwarded,
      hasLeft: serverJoins.hasLeft,
    })
    .from(serverJoins)
    .where(and(eq(serverJoins.userId, userId), eq(serverJoins.serverId, campaignId)))
    .get();
  // A join that never completed (invite not accepted, or expired) may be tried again.
  if (joined && (joined.verified || joined.coinsAwarded || joined.hasLeft))
    throw new AppError('conflict', JOIN_MESSAGES.alreadyJoined);
  return server;
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
function requireSameAddressRoom(ctx: AppContext, db: DbOrTx, server: Server, userId: string): void {
  const rule = ctx.config.sameAddress;
  const check = sameAddressCheck(db, rule, {
    memberId: userId,
    ownerId: server.ownerId,
    campaignId: server.id,
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
    ctx.logger.warn('join: Discord unreachable', {
      guildId,
      error: err instanceof Error ? err.message : String(err),
    });
    throw new AppError('upstream', JOIN_MESSAGES.discordDown);
  }
}

/**
 * Records a pending website join (spec §4): the bot verifies bot servers later; no-bot servers are
 * claimed with claimNoBotReward after the delay. The unique (user, server) index makes concurrent
 * double requests produce one row.
 */
export async function joinServer(
  ctx: AppContext,
  userId: string,
  campaignId: string,
): Promise<JoinServerResponse> {
  const user = ctx.db.select({ discordId: users.discordId }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw new AppError('unauthorized', 'Not signed in');

  requireOldEnoughAccount(ctx, user.discordId);
  const server = requireJoinable(ctx.db, campaignId, userId);
  requireSameAddressRoom(ctx, ctx.db, server, userId);
  // Only new members earn coins: who tells us whether they are in the guild already depends on the kind.
  switch (server.kind) {
    case 'regular':
    case 'featured':
      // Our bot is in the guild: Discord REST answers with the bot's token.
      if (server.serverId !== null && (await isAlreadyMember(ctx, server.serverId, user.discordId))) {
        throw new AppError('conflict', JOIN_MESSAGES.alreadyMember);
      }
      break;
    case 'nobot': {
      // No bot in the guild: the member's own guild list says whether they are in it already.
      const guildId = await noBotGuildId(ctx, server);
      if (guildId && (await isInGuild(ctx, userId, guildId)))
        throw new AppError('conflict', JOIN_MESSAGES.alreadyMember);
      break;
    }
    default:
      assertNever(server.kind);
  }

  return ctx.db.transaction((tx) => {
    // The Discord call awaited above; the campaign may have changed meanwhile.
    const current = requireJoinable(tx, campaignId, userId);
    requireSameAddressRoom(ctx, tx, current, userId);
    const inserted = tx
      .insert(serverJoins)
      .values({
        userId,
        serverId: campaignId,
        joinedAt: ctx.clock.now(),
        verified: false,
        coinsAwarded: false,
      })
      .onConflictDoNothing({ target: [serverJoins.userId, serverJoins.serverId] })
      .returning({ id: serverJoins.id })
      .get();
    if (!inserted) {
      // Retry of a pending or expired join: its clock starts again (the 7-day wait, the no-bot 10 s).
      const retried = tx
        .update(serverJoins)
        .set({ joinedAt: ctx.clock.now() })
        .where(
          and(
            eq(serverJoins.userId, userId),
            eq(serverJoins.serverId, campaignId),
            eq(serverJoins.verified, false),
            eq(serverJoins.coinsAwarded, false),
            eq(serverJoins.hasLeft, false),
          ),
        )
        .returning({ id: serverJoins.id })
        .get();
      if (!retried) throw new AppError('conflict', JOIN_MESSAGES.alreadyJoined);
    }
    return {
      potentialReward: formatCents(current.coinReward),
      inviteLink: current.inviteLink,
      serverId: current.id,
    };
  });
}
