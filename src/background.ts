import type { AppContext } from './context.ts';
import { MINUTE } from './clock.ts';
import { startBot, type Bot } from './bot/bot.ts';
import { reconcile } from './bot/reconcile.ts';
import { createSerialJob } from './bot/serial-job.ts';
import { recheckInvites } from './campaigns/recheck-invites.ts';
import { recordReconciliation } from './metrics.ts';
import { pruneExpiredIntentsJob } from './campaigns/featured-intent.ts';

export const RECONCILE_EVERY_MS = 5 * MINUTE;
/** Dead invites take a campaign off Discover until the owner fixes it. */
export const INVITE_RECHECK_EVERY_MS = 30 * MINUTE;

/** Unpromoted featured intents older than FEATURED_INTENT_TTL_MS are deleted this often. */
export const INTENT_PRUNE_EVERY_MS = 5 * MINUTE;

export interface Background {
  stop(): Promise<void>;
  /** The Discord bot, when config.botEnabled. */
  bot?: Bot;
}

/**
 * Starts what runs beside the HTTP server: the Discord bot and its periodic reconciliation. Only
 * one process may run them (BOT_ENABLED=false on any other), since a DM is guarded in-process.
 * Never blocks or fails start-up: the bot logs in in the background and retries on failure.
 */
export function startBackground(ctx: AppContext): Promise<Background> {
  if (!ctx.config.botEnabled) {
    ctx.logger.info('bot disabled (BOT_ENABLED=false)');
    return Promise.resolve({ stop: () => Promise.resolve() });
  }
  const reconciler = createSerialJob('reconcile', ctx.logger, async () => {
    try {
      const result = await reconcile(ctx);
      recordReconciliation('success', { ...result });
      return result;
    } catch (err) {
      recordReconciliation('failure');
      throw err;
    }
  });
  const bot = startBot(ctx, { onConnected: () => reconciler.trigger() });
  const timer = setInterval(() => reconciler.trigger(), RECONCILE_EVERY_MS);
  timer.unref();
  const inviteChecker = createSerialJob('invite recheck', ctx.logger, async () => {
    await recheckInvites(ctx);
  });
  const inviteTimer = setInterval(() => inviteChecker.trigger(), INVITE_RECHECK_EVERY_MS);
  inviteTimer.unref();
  const intentPruner = createSerialJob('featured intent prune', ctx.logger, () => {
    pruneExpiredIntentsJob(ctx);
    return Promise.resolve();
  });
  const intentTimer = setInterval(() => intentPruner.trigger(), INTENT_PRUNE_EVERY_MS);
  intentTimer.unref();
  return Promise.resolve({
    bot,
    async stop() {
      clearInterval(timer);
      clearInterval(inviteTimer);
      clearInterval(intentTimer);
      await bot.stop();
      await reconciler.idle();
      await inviteChecker.idle();
      await intentPruner.idle();
    },
  });
}
