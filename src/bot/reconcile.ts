import { and, eq, gte, isNotNull, isNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers, users } from '../db/schema.ts';
import { DISCORD_ERROR, DiscordApiError } from '../discord/discord-api.ts';
import { MIN_STAY_MS, PENDING_JOIN_MAX_AGE_MS, frozenMinStayMs } from './rules.ts';
import { verifyJoin } from './verify-join.ts';
import { handleMemberRemoved } from './member-removed.ts';
import { recordGuildDeleted } from './record-leave.ts';
import { notifyPendingCompletions } from './completion-notice.ts';

// Gateway events get lost (outages, restarts, Discord's limited replay). Reconciliation asks Discord
// over REST about every join whose outcome is still open and applies the same services the events
// use, so the result is the one the missed events would have produced.

export interface ReconcileResult {
  verified: number;
  left: number;
  notified: number;
  /** Lookups that failed (left for the next run). */
  failed: number;
}

type Presence = { kind: 'present'; joinedAt: number } | { kind: 'absent' } | { kind: 'guild_deleted' } | { kind: 'skip' };

/** Looks a member up; guild-wide failures are remembered for the rest of the run. */
async function lookUpMember(
  ctx: AppContext,
  guildId: string,
  discordUserId: string,
  guildProblems: Map<string, Presence>,
  result: ReconcileResult,
): Promise<Presence> {
  const known = guildProblems.get(guildId);
  if (known) return known;
  try {
    const member = await ctx.discord.getGuildMember(guildId, discordUserId);
    if (!member) return { kind: 'absent' };
    const joinedAt = Date.parse(member.joined_at);
    return { kind: 'present', joinedAt: Number.isNaN(joinedAt) ? 0 : joinedAt };
  } catch (err) {
    let presence: Presence = { kind: 'skip' };
    if (err instanceof DiscordApiError && err.code === DISCORD_ERROR.UNKNOWN_GUILD) presence = { kind: 'guild_deleted' };
    else result.failed += 1;
    // Unknown guild, no access (bot removed) or Discord unreachable: the same for every member.
    guildProblems.set(guildId, presence);
    ctx.logger.warn('reconcile: member lookup failed', {
      guildId,
      error: err instanceof Error ? err.message : String(err),
    });
    return presence;
  }
}

export async function reconcile(ctx: AppContext): Promise<ReconcileResult> {
  const result: ReconcileResult = { verified: 0, left: 0, notified: 0, failed: 0 };
  const guildProblems = new Map<string, Presence>();
  const startedAt = ctx.clock.now();

  // 1. Paid members still inside their minimum stay: record those who are gone. Leaves first, as
  //    they may give slots back that the arrivals below can take.
  const open = ctx.db
    .select({
      guildId: servers.serverId,
      discordUserId: users.discordId,
      verifiedAt: serverJoins.verifiedAt,
      minStayMs: serverJoins.minStayMs,
      isFeatured: servers.isFeatured,
    })
    .from(serverJoins)
    .innerJoin(servers, eq(servers.id, serverJoins.serverId))
    .innerJoin(users, eq(users.id, serverJoins.userId))
    .where(
      and(
        eq(serverJoins.coinsAwarded, true),
        eq(serverJoins.hasLeft, false),
        isNotNull(servers.serverId),
        gte(serverJoins.verifiedAt, startedAt - MIN_STAY_MS.featured),
      ),
    )
    .all();
  const checked = new Set<string>();
  for (const join of open) {
    if (!join.guildId || join.verifiedAt === null) continue;
    if (join.verifiedAt + frozenMinStayMs(join, join.isFeatured) <= startedAt) continue;
    const key = `${join.guildId}:${join.discordUserId}`;
    if (checked.has(key)) continue;
    checked.add(key);
    const presence = await lookUpMember(ctx, join.guildId, join.discordUserId, guildProblems, result);
    const at = ctx.clock.now();
    if (presence.kind === 'absent') {
      if (await handleMemberRemoved(ctx, { guildId: join.guildId, discordUserId: join.discordUserId, at })) {
        result.left += 1;
      }
    } else if (presence.kind === 'guild_deleted') {
      result.left += recordGuildDeleted(ctx, join.guildId, at);
    }
  }

  // 2. Pending website joins of bot campaigns: verify those who are in the guild now, in the order
  //    they joined Discord (that is who live events would have given the last slots to).
  const pending = ctx.db
    .selectDistinct({ guildId: servers.serverId, discordUserId: users.discordId })
    .from(serverJoins)
    .innerJoin(servers, eq(servers.id, serverJoins.serverId))
    .innerJoin(users, eq(users.id, serverJoins.userId))
    .where(
      and(
        eq(serverJoins.verified, false),
        eq(serverJoins.hasLeft, false),
        isNotNull(servers.serverId),
        isNull(servers.canceledAt),
        gte(serverJoins.joinedAt, startedAt - PENDING_JOIN_MAX_AGE_MS),
      ),
    )
    .all();
  const arrived: { guildId: string; discordUserId: string; joinedAt: number }[] = [];
  for (const { guildId, discordUserId } of pending) {
    if (!guildId) continue;
    const presence = await lookUpMember(ctx, guildId, discordUserId, guildProblems, result);
    if (presence.kind === 'present') arrived.push({ guildId, discordUserId, joinedAt: presence.joinedAt });
  }
  arrived.sort((a, b) => a.joinedAt - b.joinedAt);
  for (const { guildId, discordUserId } of arrived) {
    const outcome = await verifyJoin(ctx, { guildId, discordUserId, at: ctx.clock.now() });
    if (outcome.rewarded) result.verified += 1;
  }

  // 3. Finished campaigns whose owner has not been told (including DMs that failed before).
  result.notified = await notifyPendingCompletions(ctx);
  return result;
}
