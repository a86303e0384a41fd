import { inShard, type ShardScope } from './shards.ts';
import type { AppContext } from '../context.ts';
import { parseInviteCode } from '../shared/campaign-schemas.ts';
import { recordGuildDeleted } from './record-leave.ts';
import { botRepo } from './bot-repo.ts';
import { enqueueForCampaigns } from '../notifications/outbox.ts';
import { errorMessage } from '../ops/error-text.ts';

// Whether our bot is in a campaign's guild. Discord no longer lets REST tell "bot removed" from "guild
// deleted" (both answer 10004, discord-api-docs #5840), and one 10004 is not even proof of either
// (#8445). What Discord really sends: GUILD_DELETE without `unavailable` (bot removed or guild
// deleted), GUILD_DELETE with `unavailable: true` (an outage: nothing to do), GUILD_CREATE (bot back),
// and the bot's own guild list (GET /users/@me/guilds). While the bot is away the campaign is paused:
// off Discover, joins refused, pending joins kept open (they are verified when it returns).

/** Pauses the guild's open campaigns; returns how many changed. */
export async function pauseGuildCampaigns(ctx: AppContext, guildId: string, at: number): Promise<number> {
  const changed = await ctx.store.transaction(async (tx) => {
    const ids = await botRepo(tx).pauseGuildCampaigns(guildId, at);
    await enqueueForCampaigns(tx, ids, 'campaign.paused', at);
    return ids.length;
  });
  if (changed > 0)
    ctx.logger.warn('bot removed from a guild; its campaigns are paused', { guildId, campaigns: changed });
  return changed;
}

/** The bot is back: the guild's paused campaigns resume. */
export async function resumeGuildCampaigns(ctx: AppContext, guildId: string): Promise<number> {
  const changed = await ctx.store.transaction(async (tx) => {
    const ids = await botRepo(tx).resumeGuildCampaigns(guildId);
    await enqueueForCampaigns(tx, ids, 'campaign.resumed', ctx.clock.now());
    return ids.length;
  });
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
  await pauseGuildCampaigns(ctx, guildId, at);
  const codes = new Set(
    (await botRepo(ctx.store.read).listGuildInvites(guildId))
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
        error: errorMessage(err),
      });
      return 'paused';
    }
  }
  await recordGuildDeleted(ctx, guildId, at);
  return 'guild_deleted';
}

/**
 * Brings every open campaign in line with the bot's own guild list (reconciliation).
 *
 * The campaigns are read before the list is asked for, never after. A campaign is only created once the
 * bot is in its guild (requireBotInGuild), and a list page is Discord's answer at the moment it was
 * served: read the other way round, a campaign created while the list was on its way (the bot added to
 * its guild after that guild's page was answered, the owner quick to create it) would be in the rows but
 * its guild not in the list, and would be paused although the bot is there — its GUILD_CREATE came
 * before the pause, so nothing would resume it before the next run. Read first, such a campaign is not
 * in this run's rows at all; every campaign that is was created before the list was asked for, so its
 * guild was joined before any page was served.
 */
export async function syncBotPresence(
  ctx: AppContext,
  at: number,
  /** Only the campaigns of guilds on this shard (a per-shard reconcile run). */
  shard?: ShardScope,
): Promise<{ paused: number; resumed: number }> {
  const rows = await botRepo(ctx.store.read).listOpenCampaignGuilds();
  const botGuildIds = await ctx.discord.listBotGuildIds();
  const result = { paused: 0, resumed: 0 };
  const toPause = new Set<string>();
  const toResume = new Set<string>();
  for (const { guildId, removedAt } of rows) {
    if (!guildId || !inShard(guildId, shard)) continue;
    if (botGuildIds.has(guildId) && removedAt !== null) toResume.add(guildId);
    if (!botGuildIds.has(guildId) && removedAt === null) toPause.add(guildId);
  }
  // Read outside a transaction; each write re-states its condition (not paused yet / paused), so one
  // that a GUILD_DELETE or GUILD_CREATE handler made meanwhile is neither repeated nor counted twice.
  for (const g of toPause) result.paused += await pauseGuildCampaigns(ctx, g, at);
  for (const g of toResume) result.resumed += await resumeGuildCampaigns(ctx, g);
  return result;
}

/** Guilds whose campaigns are paused (reconciliation leaves them alone: the bot cannot see them). */
export async function pausedGuildIds(ctx: AppContext, guildIds: string[]): Promise<Set<string>> {
  return new Set(await botRepo(ctx.store.read).listPausedGuilds(guildIds));
}
