import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import { joinsRepo } from './joins-repo.ts';
import { refreshMemberGuilds } from './join-pace.ts';
import { DiscordBusyError } from '../discord/discord-api.ts';

// No-bot campaigns have no bot to watch the guild, so membership is read from the member's own
// Discord guild list (GET /users/@me/guilds with their OAuth token), like the ownership check.

/** Default wait before a second look, as Discord's guild list may lag a fresh join by a moment. */
export const DEFAULT_MEMBERSHIP_GRACE_MS = 2_000;

/**
 * The guild a no-bot campaign's invite leads to. Campaigns listed before the guild id was stored get
 * it resolved from their invite once and saved; null when the invite no longer resolves.
 */
export async function noBotGuildId(ctx: AppContext, campaign: Campaign): Promise<string | null> {
  if (campaign.inviteGuildId) return campaign.inviteGuildId;
  if (!campaign.inviteCode) return null;
  const invite = await ctx.discord.getInvite(campaign.inviteCode).catch((err: unknown) => {
    // Discord busy: the person is told so (503), rather than the join going on unchecked.
    if (err instanceof DiscordBusyError) throw err;
    return null;
  });
  const guildId = invite?.guild?.id ?? null;
  // Discord answered first; the write is a transaction of its own.
  if (guildId) await ctx.store.transaction((tx) => joinsRepo(tx).setInviteGuildId(campaign.id, guildId));
  return guildId;
}

export async function isInGuild(ctx: AppContext, userId: string, guildId: string): Promise<boolean> {
  // Read and stored: Discover then leaves the guild's campaigns out for this member.
  return (await refreshMemberGuilds(ctx, userId)).includes(guildId);
}

/** isInGuild, with one more look after the grace period when the first says no. */
export async function isInGuildWithGrace(ctx: AppContext, userId: string, guildId: string): Promise<boolean> {
  if (await isInGuild(ctx, userId, guildId)) return true;
  const grace = ctx.options.membershipGraceMs ?? DEFAULT_MEMBERSHIP_GRACE_MS;
  if (grace <= 0) return false;
  await new Promise((resolve) => setTimeout(resolve, grace));
  return isInGuild(ctx, userId, guildId);
}
