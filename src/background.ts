import type { AppContext } from './context.ts';
import { MINUTE } from './clock.ts';
import { startBot, type Bot, type BotOptions } from './bot/bot.ts';
import { reconcile } from './bot/reconcile.ts';
import { createSerialJob } from './bot/serial-job.ts';
import { recheckInvites } from './campaigns/recheck-invites.ts';
import { recordReconciliation } from './metrics.ts';
import { pruneExpiredIntentsJob } from './campaigns/featured-intent.ts';
import { JobMonitor } from './ops/job-monitor.ts';
import { startSafeInterval } from './ops/safe-interval.ts';
import { INVITE_STATS_EVERY_MS, refreshInviteStats } from './joins/invite-stats.ts';
import { pruneUserAddresses } from './joins/same-address.ts';

export const RECONCILE_EVERY_MS = 5 * MINUTE;
/** Dead invites take a campaign off Discover until the owner fixes it. */
export const INVITE_RECHECK_EVERY_MS = 30 * MINUTE;
/** Job names, as they appear in logs, metrics and the readiness report. */
export const JOB = { reconcile: 'reconcile', inviteRecheck: 'invite recheck' } as const;

/** Unpromoted featured intents older than FEATURED_INTENT_TTL_MS are deleted this often. */
export const INTENT_PRUNE_EVERY_MS = 5 * MINUTE;

export interface Background {
  stop(): Promise<void>;
  /** Resolves when no reconciliation run is in progress or queued (tests wait on it before their own run). */
  reconcileIdle(): Promise<void>;
  /** The Discord bot, when config.botEnabled. */
  bot?: Bot;
}

/**
 * Starts what runs beside the HTTP server: the Discord bot and its periodic reconciliation. Only
 * one process may run them (BOT_ENABLED=false on any other), since a DM is guarded in-process.
 * Never blocks or fails start-up: the bot logs in in the background and retries on failure. Every
 * timer goes through startSafeInterval and every job through createSerialJob: none can throw into
 * the event loop, and repeated failures show in the JobMonitor (readiness).
 */
export function startBackground(
  ctx: AppContext,
  options: { jobs?: JobMonitor; bot?: Pick<BotOptions, 'auditLogDelayMs' | 'auditLogRecheckMs'> } = {},
): Promise<Background> {
  if (!ctx.config.botEnabled) {
    ctx.logger.info('bot disabled (BOT_ENABLED=false)');
    return Promise.resolve({ stop: () => Promise.resolve(), reconcileIdle: () => Promise.resolve() });
  }
  const jobs = options.jobs ?? new JobMonitor(() => ctx.clock.now());
  const { logger } = ctx;
  const reconciler = createSerialJob(
    JOB.reconcile,
    logger,
    async () => {
      try {
        const result = await reconcile(ctx, { gateway: bot.members });
        const { lookups, phaseMs: _phaseMs, ...counts } = result;
        const lookupCounts = Object.fromEntries(Object.entries(lookups).map(([k, n]) => [`lookup_${k}`, n]));
        recordReconciliation('success', { ...counts, ...lookupCounts });
        return result;
      } catch (err) {
        recordReconciliation('failure');
        throw err;
      }
    },
    { jobs },
  );
  const bot = startBot(ctx, { ...options.bot, onConnected: () => reconciler.trigger() });
  const reconcileTimer = startSafeInterval(
    'reconcile timer',
    RECONCILE_EVERY_MS,
    () => reconciler.trigger(),
    { logger },
  );
  const inviteChecker = createSerialJob(
    JOB.inviteRecheck,
    logger,
    async () => {
      await recheckInvites(ctx);
    },
    { jobs },
  );
  const inviteTimer = startSafeInterval(
    'invite recheck timer',
    INVITE_RECHECK_EVERY_MS,
    () => inviteChecker.trigger(),
    {
      logger,
    },
  );
  const intentPruner = createSerialJob(
    'featured intent and address prune',
    logger,
    () => {
      pruneExpiredIntentsJob(ctx);
      // Retention of the same-address rule's hashes: the window, then gone (decision 022).
      pruneUserAddresses(ctx);
      return Promise.resolve();
    },
    { jobs },
  );
  const intentTimer = startSafeInterval(
    'featured intent prune timer',
    INTENT_PRUNE_EVERY_MS,
    () => intentPruner.trigger(),
    {
      logger,
    },
  );
  // Member and online counts for Discover cards: first shortly after start, then every minute.
  const inviteStats = createSerialJob('invite stats', logger, () => refreshInviteStats(ctx));
  const statsStart = setTimeout(() => inviteStats.trigger(), 5_000);
  statsStart.unref();
  const statsTimer = startSafeInterval(
    'invite stats timer',
    INVITE_STATS_EVERY_MS,
    () => inviteStats.trigger(),
    { logger },
  );
  return Promise.resolve({
    bot,
    reconcileIdle: () => reconciler.idle(),
    async stop() {
      reconcileTimer.stop();
      inviteTimer.stop();
      intentTimer.stop();
      clearTimeout(statsStart);
      statsTimer.stop();
      await bot.stop();
      await reconciler.idle();
      await inviteChecker.idle();
      await intentPruner.idle();
      await inviteStats.idle();
    },
  });
}
