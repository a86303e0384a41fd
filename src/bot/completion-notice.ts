import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { servers, users } from '../db/schema.ts';
import { PRODUCT_NAME } from '../shared/brand.ts';
import { DISCORD_ERROR, DiscordApiError } from '../discord/discord-api.ts';
import { MINUTE } from '../clock.ts';
import { inShard, type ShardScope } from './shards.ts';

/** Attempts at the completion DM, and the wait before each retry: a few, then the site shows it instead. */
export const COMPLETION_DM_RETRY_DELAYS_MS = [1 * MINUTE, 10 * MINUTE, 60 * MINUTE] as const;
export const COMPLETION_DM_MAX_ATTEMPTS = COMPLETION_DM_RETRY_DELAYS_MS.length + 1;

/**
 * How long a claim on a campaign's completion DM holds (completion_dm_retry_at) while one bot process
 * sends it. Longer than a send can take (@discordjs/rest: 15 s per request, 3 retries, rate-limit
 * waits); if the process dies mid-send, another process may try once it has passed.
 */
export const COMPLETION_DM_LEASE_MS = 5 * MINUTE;

export function completionMessage(campaignName: string, membersDelivered: number): string {
  const members = `${membersDelivered} new member${membersDelivered === 1 ? '' : 's'}`;
  return `🎉 Your ${PRODUCT_NAME} campaign for **${campaignName}** is complete: ${members} joined your server. Thanks for growing with us!`;
}

/**
 * Claims the campaign's completion DM for the caller: one conditional UPDATE that succeeds only for a
 * finished, not canceled campaign whose owner has not been told nor found unreachable, and that no one
 * holds a claim on or is waiting to retry (completion_dm_retry_at unset or past). It sets the lease, so
 * an event and a reconcile run — or two bot processes (decision 028) — finishing the same campaign at
 * the same moment cannot both send it: the database decides, not a per-process guard.
 */
export function claimCompletionDm(ctx: AppContext, campaignId: string, now: number): boolean {
  const claimed = ctx.db
    .update(servers)
    .set({ completionDmRetryAt: now + COMPLETION_DM_LEASE_MS })
    .where(
      and(
        eq(servers.id, campaignId),
        eq(servers.membersRemaining, 0),
        isNull(servers.canceledAt),
        eq(servers.completionNotificationSent, false),
        isNull(servers.ownerUnreachableAt),
        or(isNull(servers.completionDmRetryAt), lte(servers.completionDmRetryAt, now)),
      ),
    )
    .returning({ id: servers.id })
    .get();
  return claimed !== undefined;
}

/**
 * Sends the owner's "campaign complete" DM once. The send is claimed first (claimCompletionDm); the
 * flag is set only after Discord accepted the message. A failure is retried a few times with growing
 * waits (by reconciliation); 50007 — DMs closed, or the owner shares no server with the bot (always so
 * for a no-bot campaign's owner) — and a last failed attempt record "owner could not be reached"
 * instead, which My Campaigns and the Dashboard show. Nothing is retried forever.
 */
export async function notifyCompletedCampaign(ctx: AppContext, campaignId: string): Promise<boolean> {
  if (!claimCompletionDm(ctx, campaignId, ctx.clock.now())) return false;
  const campaign = ctx.db
    .select({ name: servers.name, slots: servers.initialMemberSlots, ownerDiscordId: users.discordId })
    .from(servers)
    .innerJoin(users, eq(users.id, servers.ownerId))
    .where(eq(servers.id, campaignId))
    .get();
  if (!campaign) return false;
  try {
    await ctx.discord.sendDirectMessage(campaign.ownerDiscordId, {
      content: completionMessage(campaign.name, campaign.slots),
    });
  } catch (err) {
    recordFailedAttempt(ctx, campaignId, err);
    return false;
  }
  ctx.db
    .update(servers)
    .set({ completionNotificationSent: true, completionDmRetryAt: null })
    .where(eq(servers.id, campaignId))
    .run();
  ctx.logger.info('completion DM sent', { campaignId });
  return true;
}

function recordFailedAttempt(ctx: AppContext, campaignId: string, err: unknown): void {
  const now = ctx.clock.now();
  const row = ctx.db
    .update(servers)
    .set({ completionDmAttempts: sql`${servers.completionDmAttempts} + 1` })
    .where(eq(servers.id, campaignId))
    .returning({ attempts: servers.completionDmAttempts })
    .get();
  const attempts = row?.attempts ?? COMPLETION_DM_MAX_ATTEMPTS;
  const unreachable = err instanceof DiscordApiError && err.code === DISCORD_ERROR.CANNOT_DM_USER;
  const error = err instanceof Error ? err.message : String(err);
  if (unreachable || attempts >= COMPLETION_DM_MAX_ATTEMPTS) {
    ctx.db
      .update(servers)
      .set({ ownerUnreachableAt: now, completionDmRetryAt: null })
      .where(eq(servers.id, campaignId))
      .run();
    ctx.logger.warn('completion DM: owner could not be reached; the site shows the completion instead', {
      campaignId,
      attempts,
      error,
    });
    return;
  }
  const wait = COMPLETION_DM_RETRY_DELAYS_MS[attempts - 1] ?? COMPLETION_DM_RETRY_DELAYS_MS.at(-1)!;
  ctx.db
    .update(servers)
    .set({ completionDmRetryAt: now + wait })
    .where(eq(servers.id, campaignId))
    .run();
  ctx.logger.warn('completion DM failed; will retry', { campaignId, attempts, retryInMs: wait, error });
}

/** Every finished, not canceled campaign whose owner has not been told yet and is due an attempt (bot and no-bot alike). */
export async function notifyPendingCompletions(ctx: AppContext, shard?: ShardScope): Promise<number> {
  const due = ctx.db
    .select({ id: servers.id, guildId: servers.serverId })
    .from(servers)
    .where(
      and(
        eq(servers.membersRemaining, 0),
        gt(servers.initialMemberSlots, 0),
        isNull(servers.canceledAt),
        eq(servers.completionNotificationSent, false),
        isNull(servers.ownerUnreachableAt),
        or(isNull(servers.completionDmRetryAt), lte(servers.completionDmRetryAt, ctx.clock.now())),
      ),
    )
    .orderBy(asc(servers.createdAt))
    .all();
  let sent = 0;
  for (const { id, guildId } of due)
    if (inShard(guildId, shard) && (await notifyCompletedCampaign(ctx, id))) sent += 1;
  return sent;
}
