import type { AppContext } from '../context.ts';
import { PRODUCT_NAME } from '../shared/brand.ts';
import { DISCORD_ERROR, DiscordApiError, DmOpensPausedError } from '../discord/discord-api.ts';
import { MINUTE } from '../clock.ts';
import { inShard, type ShardScope } from './shards.ts';
import { botRepo } from './bot-repo.ts';
import { botT, DEFAULT_LOCALE, type Locale } from '../i18n/index.ts';
import { storedLocaleOf } from '../i18n/user-locale.ts';
import { errorMessage } from '../ops/error-text.ts';

/** Attempts at the completion DM, and the wait before each retry: a few, then the site shows it instead. */
export const COMPLETION_DM_RETRY_DELAYS_MS = [1 * MINUTE, 10 * MINUTE, 60 * MINUTE] as const;
export const COMPLETION_DM_MAX_ATTEMPTS = COMPLETION_DM_RETRY_DELAYS_MS.length + 1;

/**
 * How long a claim on a campaign's completion DM holds (completion_dm_retry_at) while one bot process
 * sends it. Longer than a send can take (@discordjs/rest: 15 s per request, 3 retries, rate-limit
 * waits); if the process dies mid-send, another process may try once it has passed.
 */
export const COMPLETION_DM_LEASE_MS = 5 * MINUTE;

/** The owner's "campaign complete" DM, in the owner's language (the locale stored on their account). */
export function completionMessage(
  campaignName: string,
  membersDelivered: number,
  locale: Locale = DEFAULT_LOCALE,
): string {
  return botT(locale)('dm.completed', { product: PRODUCT_NAME, name: campaignName, count: membersDelivered });
}

/**
 * Claims the campaign's completion DM for the caller: one conditional UPDATE that succeeds only for a
 * finished, not canceled campaign whose owner has not been told nor found unreachable, and that no one
 * holds a claim on or is waiting to retry (completion_dm_retry_at unset or past). It sets the lease, so
 * an event and a reconcile run — or two bot processes (decision 028) — finishing the same campaign at
 * the same moment cannot both send it: the database decides, not a per-process guard.
 */
export function claimCompletionDm(ctx: AppContext, campaignId: string, now: number): Promise<boolean> {
  return ctx.store.transaction((tx) =>
    botRepo(tx).claimCompletionDm(campaignId, now, now + COMPLETION_DM_LEASE_MS),
  );
}

/**
 * Sends the owner's "campaign complete" DM once. The send is claimed first (claimCompletionDm); the
 * flag is set only after Discord accepted the message. A failure is retried a few times with growing
 * waits (by reconciliation); 50007 — DMs closed, or the owner shares no server with the bot (always so
 * for a no-bot campaign's owner) — and a last failed attempt record "owner could not be reached"
 * instead, which My Campaigns and the Dashboard show. Nothing is retried forever. The send happens
 * between two transactions, never inside one.
 */
export async function notifyCompletedCampaign(ctx: AppContext, campaignId: string): Promise<boolean> {
  if (!(await claimCompletionDm(ctx, campaignId, ctx.clock.now()))) return false;
  const campaign = await botRepo(ctx.store.read).findCompletionNotice(campaignId);
  if (!campaign) return false;
  try {
    const ownerId = await botRepo(ctx.store.read).findUserIdByDiscordId(campaign.ownerDiscordId);
    const locale = (ownerId ? await storedLocaleOf(ctx.store, ownerId) : null) ?? DEFAULT_LOCALE;
    await ctx.discord.sendDirectMessage(campaign.ownerDiscordId, {
      content: completionMessage(campaign.name, campaign.slots, locale),
    });
  } catch (err) {
    await recordFailedAttempt(ctx, campaignId, err);
    return false;
  }
  await ctx.store.transaction((tx) => botRepo(tx).markCompletionDmSent(campaignId));
  ctx.logger.info('completion DM sent', { campaignId });
  return true;
}

async function recordFailedAttempt(ctx: AppContext, campaignId: string, err: unknown): Promise<void> {
  const now = ctx.clock.now();
  if (err instanceof DmOpensPausedError) {
    // New DM channels are paused after Discord's 40003: Discord saw nothing, so it is not an attempt.
    await ctx.store.transaction((tx) =>
      botRepo(tx).setCompletionDmRetryAt(campaignId, Math.max(err.until, now)),
    );
    ctx.logger.info('completion DM waits: Discord paused new DMs', { campaignId, until: err.until });
    return;
  }
  const unreachable = err instanceof DiscordApiError && err.code === DISCORD_ERROR.CANNOT_DM_USER;
  const error = errorMessage(err);
  const { attempts, wait } = await ctx.store.transaction(async (tx) => {
    const repo = botRepo(tx);
    const counted = (await repo.countCompletionDmAttempt(campaignId)) ?? COMPLETION_DM_MAX_ATTEMPTS;
    if (unreachable || counted >= COMPLETION_DM_MAX_ATTEMPTS) {
      await repo.markOwnerUnreachable(campaignId, now);
      return { attempts: counted, wait: null };
    }
    const retryIn = COMPLETION_DM_RETRY_DELAYS_MS[counted - 1] ?? COMPLETION_DM_RETRY_DELAYS_MS.at(-1)!;
    await repo.setCompletionDmRetryAt(campaignId, now + retryIn);
    return { attempts: counted, wait: retryIn };
  });
  if (wait === null) {
    ctx.logger.warn('completion DM: owner could not be reached; the site shows the completion instead', {
      campaignId,
      attempts,
      error,
    });
    return;
  }
  ctx.logger.warn('completion DM failed; will retry', { campaignId, attempts, retryInMs: wait, error });
}

/** Every finished, not canceled campaign whose owner has not been told yet and is due an attempt (bot and no-bot alike). */
export async function notifyPendingCompletions(ctx: AppContext, shard?: ShardScope): Promise<number> {
  const due = await botRepo(ctx.store.read).listDueCompletions(ctx.clock.now());
  let sent = 0;
  for (const { id, guildId } of due)
    if (inShard(guildId, shard) && (await notifyCompletedCampaign(ctx, id))) sent += 1;
  return sent;
}
