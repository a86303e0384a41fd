import type { AppContext } from '../context.ts';
import { MINUTE } from '../clock.ts';
import { discoverFor, type InviteStats } from './discover-campaigns.ts';
import { errorMessage } from '../ops/error-text.ts';

// Discover cards show what Discord says about each guild's invite: approximate member and online
// counts, the guild's description and banner (GET /invites/{code}?with_counts=true). They are kept
// in the Discover list (of ctx.store, on either engine), refreshed in the background (never on a member's request) and re-fetched
// once older than INVITE_STATS_TTL_MS. Counts are "approximate" in Discord too, so minutes-old
// figures are fine, and the refresh stays far from Discord's rate limits.

/** How long fetched invite statistics count as fresh. */
export const INVITE_STATS_TTL_MS = 15 * MINUTE;
/** How often the background job looks for stale or missing statistics. */
export const INVITE_STATS_EVERY_MS = MINUTE;
/** At most this many invites per run (1,000 campaigns are all fresh within ~5 minutes of start). */
export const INVITE_STATS_PER_RUN = 200;

export interface InviteStatsRun {
  fetched: number;
  failed: number;
  pending: number;
}

function bannerUrl(cdnUrl: string, guildId: string, hash: string | null | undefined): string | null {
  return hash ? `${cdnUrl}/banners/${guildId}/${hash}.png?size=480` : null;
}

/**
 * Fetches invite statistics for listed campaigns that have none or stale ones, oldest first, two at
 * a time. A failure keeps what was known (an outage must not blank the cards).
 */
export async function refreshInviteStats(
  ctx: AppContext,
  options: { perRun?: number; concurrency?: number } = {},
): Promise<InviteStatsRun> {
  const discover = discoverFor(ctx.store, { cdnUrl: ctx.config.discord.cdnUrl, logger: ctx.logger });
  await discover.current();
  const cache = discover.list;
  const now = ctx.clock.now();
  const fetchedAt = new Map<string, number>();
  const due = cache
    .inviteCodes()
    .filter((code) => {
      const at = cache.statsFetchedAt(code);
      if (at !== undefined) fetchedAt.set(code, at);
      return at === undefined || now - at >= INVITE_STATS_TTL_MS;
    })
    .sort((a, b) => (fetchedAt.get(a) ?? 0) - (fetchedAt.get(b) ?? 0));
  const batch = due.slice(0, options.perRun ?? INVITE_STATS_PER_RUN);
  const result: InviteStatsRun = { fetched: 0, failed: 0, pending: due.length - batch.length };
  let next = 0;
  const worker = async () => {
    while (next < batch.length) {
      const code = batch[next++]!;
      try {
        const invite = await ctx.discord.getInvite(code);
        cache.markStatsFetched(code, ctx.clock.now());
        // An unknown invite is the invite recheck's business (it takes the campaign off Discover).
        if (!invite?.guild) continue;
        const stats: InviteStats = {
          memberCount: invite.approximate_member_count ?? null,
          onlineCount: invite.approximate_presence_count ?? null,
          description: invite.guild.description?.trim() || null,
          bannerUrl: bannerUrl(ctx.config.discord.cdnUrl, invite.guild.id, invite.guild.banner),
        };
        cache.setStats(code, stats);
        result.fetched += 1;
      } catch (err) {
        result.failed += 1;
        ctx.logger.warn('invite stats fetch failed', {
          code,
          error: errorMessage(err),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, batch.length) }, worker));
  return result;
}
