import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { inShard, type ShardScope } from './shards.ts';
import type { AppContext } from '../context.ts';
import { servers } from '../db/schema.ts';
import { parseInviteCode } from '../shared/campaign-schemas.ts';
import { recordGuildDeleted } from './record-leave.ts';

// Whether our bot is in a campaign's guild. Discord no longer lets REST tell "bot removed" from "guild
// deleted" (both answer 10004, discord-api-docs #5840), and one 10004 is not even proof of either
// (#8445). What Discord really sends: GUILD_DELETE without `unavailable` (bot removed or guild
// deleted), GUILD_DELETE with `unavailable: true` (an outage: nothing to do), GUILD_CREATE (bot back),
// and the bot's own guild list (GET /users/@me/guilds). While the bot is away the campaign is paused:
// off Discover, joins refused, pending joins kept open (they are verified when it returns).

/** Pauses the guild's open campaigns; returns how many changed. */
export function pauseGuildCampaigns(ctx: AppContext, guildId: string, at: number): number {
  const changed = ctx.db
    .update(servers)
    .set({ botRemovedAt: at })
    .where(and(eq(servers.serverId, guildId), isNull(servers.botRemovedAt), isNull(servers.canceledAt)))
    .run().changes;
  if (changed > 0)
    ctx.logger.warn('bot removed from a guild; its campaigns are paused', { guildId, campaigns: changed });
  return changed;
}

/** The bot is back: the guild's paused campaigns resume. */
export function resumeGuildCampaigns(ctx: AppContext, guildId: string): number {
  const changed = ctx.db
    .update(servers)
    .set({ botRemovedAt: null })
    .where(and(eq(servers.serverId, guildId), isNotNull(servers.botRemovedAt)))
    .run().changes;
  if (changed > 0)
    ctx.logger.info('bot back in a guild; its campaigns resume', { guildId, campaigns: changed });
  return changed;
}

/**
 * GUILD_DELETE without `unavailable`: pause, then ask the guild's invites. When every invite of the
 * guild answers 10006 Unknown Invite as well, the guild is taken as deleted: paid joins are closed
 * without a penalty (fail safe for members). A Discord error leaves the campaign merely paused.
 */
export async function handleBotRemoved(
  ctx: AppContext,
  guildId: string,
  at: number,
): Promise<'paused' | 'guild_deleted'> {
  pauseGuildCampaigns(ctx, guildId, at);
  const codes = new Set(
    ctx.db
      .select({ code: servers.inviteCode, link: servers.inviteLink })
      .from(servers)
      .where(eq(servers.serverId, guildId))
      .all()
      .map((r) => r.code ?? parseInviteCode(r.link))
      .filter((c): c is string => Boolean(c)),
  );
  if (codes.size === 0) return 'paused';
  for (const code of codes) {
    try {
      const invite = await ctx.discord.getInvite(code);
      if (invite !== null) return 'paused';
    } catch (err) {
      ctx.logger.warn('bot removed: invite check failed; campaign stays paused', {
        guildId,
        error: err instanceof Error ? err.message : String(err),
      });
      return 'paused';
    }
  }
  recordGuildDeleted(ctx, guildId, at);
  return 'guild_deleted';
}

/** Brings every open campaign in line with the bot's own guild list (reconciliation). */
export function syncBotPresence(
  ctx: AppContext,
  botGuildIds: Set<string>,
  at: number,
  /** Only the campaigns of guilds on this shard (a per-shard reconcile run). */
  shard?: ShardScope,
): { paused: number; resumed: number } {
  const rows = ctx.db
    .selectDistinct({ guildId: servers.serverId, removedAt: servers.botRemovedAt })
    .from(servers)
    .where(and(isNotNull(servers.serverId), isNull(servers.canceledAt)))
    .all();
  const result = { paused: 0, resumed: 0 };
  const toPause = new Set<string>();
  const toResume = new Set<string>();
  for (const { guildId, removedAt } of rows) {
    if (!guildId || !inShard(guildId, shard)) continue;
    if (botGuildIds.has(guildId) && removedAt !== null) toResume.add(guildId);
    if (!botGuildIds.has(guildId) && removedAt === null) toPause.add(guildId);
  }
  for (const g of toPause) result.paused += pauseGuildCampaigns(ctx, g, at);
  for (const g of toResume) result.resumed += resumeGuildCampaigns(ctx, g);
  return result;
}

/** Guilds whose campaigns are paused (reconciliation leaves them alone: the bot cannot see them). */
export function pausedGuildIds(ctx: AppContext, guildIds: string[]): Set<string> {
  if (guildIds.length === 0) return new Set();
  return new Set(
    ctx.db
      .selectDistinct({ guildId: servers.serverId })
      .from(servers)
      .where(and(inArray(servers.serverId, guildIds), isNotNull(servers.botRemovedAt)))
      .all()
      .map((r) => r.guildId)
      .filter((g): g is string => g !== null),
  );
}
