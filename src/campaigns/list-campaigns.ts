import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import type { ApiCampaign, ApiCampaignHealth } from '../shared/api-types.ts';
import type { ApiMyServer } from '../shared/campaign-schemas.ts';
import { toApiServer } from './campaign-view.ts';
import { botInviteUrl } from './discord-checks.ts';
import { isUnpromotedIntent } from './featured-intent.ts';
import { campaignsRepo } from './campaigns-repo.ts';

function campaignHealth(r: Campaign): ApiCampaignHealth {
  return {
    botRemoved: r.botRemovedAt !== null,
    ownerUnreachable: r.ownerUnreachableAt !== null,
    inviteExpired: !r.inviteValid,
  };
}

/** GET /api/campaigns: the user's active campaigns (slots left, not canceled), newest first. */
export async function listActiveCampaigns(ctx: AppContext, userId: string): Promise<ApiCampaign[]> {
  const repo = campaignsRepo(ctx.store.read);
  const rows = await repo.listActiveByOwner(userId);
  const joins = await repo.countJoins(rows.map((r) => r.id));
  return rows.map((r) => ({
    ...toApiServer(r, ctx.config.discord.cdnUrl),
    joinCount: joins.get(r.id) ?? 0,
    ...campaignHealth(r),
    botInviteUrl: r.botRemovedAt !== null && r.guildId !== null ? botInviteUrl(ctx, r.guildId) : null,
  }));
}

/** GET /api/servers/mine: every server the user submitted, newest first, with what the Dashboard needs. */
export async function listMyCampaigns(ctx: AppContext, userId: string): Promise<ApiMyServer[]> {
  const repo = campaignsRepo(ctx.store.read);
  // A featured intent that was never promoted is not a campaign (see featured-intent.ts).
  const rows = (await repo.listByOwner(userId)).filter((r) => !isUnpromotedIntent(r));
  const guildIds = [...new Set(rows.map((r) => r.guildId).filter((g): g is string => g !== null))];
  // Active featured campaigns of those guilds, whoever owns them.
  const featured = await repo.listActiveFeaturedInGuilds(guildIds);
  return rows.map((r) => ({
    ...toApiServer(r, ctx.config.discord.cdnUrl),
    ...campaignHealth(r),
    active: r.membersRemaining > 0 && r.canceledAt === null,
    canceled: r.canceledAt !== null,
    featuredElsewhere: r.guildId !== null && featured.some((f) => f.guildId === r.guildId && f.id !== r.id),
  }));
}
