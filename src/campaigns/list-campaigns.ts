import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers, type Server } from '../db/schema.ts';
import type { ApiCampaign, ApiCampaignHealth } from '../shared/api-types.ts';
import type { ApiMyServer } from '../shared/campaign-schemas.ts';
import { toApiServer } from '../servers/server-view.ts';
import { botInviteUrl } from './discord-checks.ts';
import { isUnpromotedIntent } from './featured-intent.ts';

/**
 * Joins that count for the owner: members verified through the website, or for no-bot servers
 * (which nothing can verify) the joins whose reward was claimed.
 */
export function countJoins(ctx: AppContext, ids: string[]): Map<string, number> {
  if (ids.length === 0) return new Map();
  const rows = ctx.db
    .select({
      serverId: serverJoins.serverId,
      count: sql<number>`SUM(CASE WHEN ${servers.serverId} IS NULL THEN ${serverJoins.coinsAwarded} ELSE ${serverJoins.verified} END)`,
    })
    .from(serverJoins)
    .innerJoin(servers, eq(servers.id, serverJoins.serverId))
    .where(inArray(serverJoins.serverId, ids))
    .groupBy(serverJoins.serverId)
    .all();
  return new Map(rows.map((r) => [r.serverId, Number(r.count ?? 0)]));
}

function campaignHealth(r: Server): ApiCampaignHealth {
  return {
    botRemoved: r.botRemovedAt !== null,
    ownerUnreachable: r.ownerUnreachableAt !== null,
    inviteExpired: !r.inviteValid,
  };
}

/** GET /api/campaigns: the user's active campaigns (slots left, not canceled), newest first. */
export function listActiveCampaigns(ctx: AppContext, userId: string): ApiCampaign[] {
  const rows = ctx.db
    .select()
    .from(servers)
    .where(and(eq(servers.ownerId, userId), gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
    .orderBy(desc(servers.createdAt), desc(sql`rowid`))
    .all();
  const joins = countJoins(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    ...toApiServer(r, ctx.config.discord.cdnUrl),
    joinCount: joins.get(r.id) ?? 0,
    ...campaignHealth(r),
    botInviteUrl: r.botRemovedAt !== null && r.serverId !== null ? botInviteUrl(ctx, r.serverId) : null,
  }));
}

/** GET /api/servers/mine: every server the user submitted, newest first, with what the Dashboard needs. */
export function listMyServers(ctx: AppContext, userId: string): ApiMyServer[] {
  const rows = ctx.db
    .select()
    .from(servers)
    .where(eq(servers.ownerId, userId))
    .orderBy(desc(servers.createdAt), desc(sql`rowid`))
    .all()
    // A featured intent that was never promoted is not a campaign (see featured-intent.ts).
    .filter((r) => !isUnpromotedIntent(r));
  const guildIds = [...new Set(rows.map((r) => r.serverId).filter((g): g is string => g !== null))];
  // Active featured campaigns of those guilds, whoever owns them.
  const featured =
    guildIds.length === 0
      ? []
      : ctx.db
          .select({ id: servers.id, guildId: servers.serverId })
          .from(servers)
          .where(
            and(
              inArray(servers.serverId, guildIds),
              eq(servers.isFeatured, true),
              gt(servers.featuredRemaining, 0),
              isNull(servers.canceledAt),
            ),
          )
          .all();
  return rows.map((r) => ({
    ...toApiServer(r, ctx.config.discord.cdnUrl),
    ...campaignHealth(r),
    active: r.membersRemaining > 0 && r.canceledAt === null,
    canceled: r.canceledAt !== null,
    featuredElsewhere: r.serverId !== null && featured.some((f) => f.guildId === r.serverId && f.id !== r.id),
  }));
}
