import { and, eq, min } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers, users } from '../db/schema.ts';
import { AUDIT_LOG_ACTION, DISCORD_ERROR, DiscordApiError } from '../discord/discord-api.ts';
import { AUDIT_CLOCK_SKEW_MS, type LeaveReason } from './rules.ts';
import { recordGuildDeleted, recordLeave } from './record-leave.ts';

const DISCORD_EPOCH = 1420070400000;

/** When Discord created the entity with this snowflake id (ms). */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + BigInt(DISCORD_EPOCH));
}

/** Earliest verification among the member's paid, still-present joins of this guild; null when none. */
export function findOpenPaidJoinSince(ctx: AppContext, guildId: string, discordUserId: string): number | null {
  const row = ctx.db
    .select({ since: min(serverJoins.verifiedAt) })
    .from(serverJoins)
    .innerJoin(servers, eq(servers.id, serverJoins.serverId))
    .innerJoin(users, eq(users.id, serverJoins.userId))
    .where(
      and(
        eq(users.discordId, discordUserId),
        eq(servers.serverId, guildId),
        eq(serverJoins.coinsAwarded, true),
        eq(serverJoins.hasLeft, false),
      ),
    )
    .get();
  return row?.since ?? null;
}

/**
 * GUILD_MEMBER_REMOVE is the same for a leave, a kick and a ban; the guild's audit log tells them
 * apart. Only entries about this user made after the join was verified count (an old kick followed by
 * a rejoin must not excuse a later leave). When the audit log cannot be read, it counts as a leave.
 */
export async function findRemovalReason(
  ctx: AppContext,
  guildId: string,
  discordUserId: string,
  since: number,
): Promise<LeaveReason> {
  const checks = [
    [AUDIT_LOG_ACTION.MEMBER_BAN_ADD, 'ban'],
    [AUDIT_LOG_ACTION.MEMBER_KICK, 'kick'],
  ] as const;
  for (const [action, reason] of checks) {
    try {
      const entries = await ctx.discord.getAuditLog(guildId, action, 20);
      const found = entries.some(
        (e) => e.target_id === discordUserId && snowflakeTime(e.id) >= since - AUDIT_CLOCK_SKEW_MS,
      );
      if (found) return reason;
    } catch (err) {
      if (err instanceof DiscordApiError && err.code === DISCORD_ERROR.UNKNOWN_GUILD) return 'guild_deleted';
      ctx.logger.warn('audit log unreadable; treating the removal as a leave', {
        guildId,
        error: err instanceof Error ? err.message : String(err),
      });
      return 'leave';
    }
  }
  return 'leave';
}

/** A member is no longer in the guild (event or reconcile): find out why and record it. */
export async function handleMemberRemoved(
  ctx: AppContext,
  event: { guildId: string; discordUserId: string; at: number },
): Promise<LeaveReason | null> {
  const since = findOpenPaidJoinSince(ctx, event.guildId, event.discordUserId);
  if (since === null) return null; // not someone we paid (or already recorded): no audit log calls
  const reason = await findRemovalReason(ctx, event.guildId, event.discordUserId, since);
  if (reason === 'guild_deleted') recordGuildDeleted(ctx, event.guildId, event.at);
  else recordLeave(ctx, { ...event, reason });
  return reason;
}
