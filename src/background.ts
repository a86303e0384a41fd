import type { AppContext } from './context.ts';
import type { Role, ShardPlan } from './config.ts';
import { MINUTE } from './clock.ts';
import { startBot, type Bot, type BotOptions } from './bot/bot.ts';
import { reconcile, type ReconcileResult } from './bot/reconcile.ts';
import { createSerialJob, type SerialJob } from './bot/serial-job.ts';
import { reconcileJobName, type ShardScope } from './bot/shards.ts';
import { recheckInvites } from './campaigns/recheck-invites.ts';
import { recordReconciliation } from './metrics.ts';
import { pruneExpiredIntentsJob } from './campaigns/featured-intent.ts';
import { sampleRetention } from './campaigns/retention-sampler.ts';
import { REMINDERS_EVERY_MS, sendDueReminders } from './reminders/send-reminders.ts';
import { JobMonitor } from './ops/job-monitor.ts';
import { createInProcessRunOnce, createPgRunOnce, type PeriodicJob, type RunOnce } from './ops/run-once.ts';
import type { DataStore, PgStore } from './db/engine.ts';
import { startSafeInterval, type SafeInterval } from './ops/safe-interval.ts';
import { INVITE_STATS_EVERY_MS, refreshInviteStats } from './joins/invite-stats.ts';
import { pruneUserAddresses } from './joins/same-address.ts';
import { reconcileStripe } from './payments/reconcile-stripe.ts';
import { deliverDueNotifications, pruneDeliveries } from './notifications/deliver.ts';

export const RECONCILE_EVERY_MS = 5 * MINUTE;
/** Dead invites take a campaign off Discover until the owner fixes it. */
export const INVITE_RECHECK_EVERY_MS = 30 * MINUTE;
/** Job names, as they appear in logs, metrics and the readiness report. */
export const JOB = {
  reconcile: 'reconcile',
  inviteRecheck: 'invite recheck',
  prune: 'featured intent and address prune',
  inviteStats: 'invite stats',
  stripeReconcile: 'stripe reconcile',
  retentionSample: 'retention sample',
  notify: 'notification delivery',
  reminders: 'reminders',
} as const;

/** Campaign quality's sampled membership checks at D+7 and D+30 (src/campaigns/retention-sampler.ts). */
export const RETENTION_SAMPLE_EVERY_MS = 30 * MINUTE;

/** The owner-notification outbox is sent this often (decision 052): events reach owners within seconds. */
export const NOTIFY_EVERY_MS = 5_000;

/** Stripe's payment intents, refunds and disputes of the look-back window are settled this often (issue 29). */
export const STRIPE_RECONCILE_EVERY_MS = 10 * MINUTE;

/** Unpromoted featured intents older than FEATURED_INTENT_TTL_MS are deleted this often. */
export const INTENT_PRUNE_EVERY_MS = 5 * MINUTE;
/** Invite stats run first this long after start (Discover cards want member counts soon). */
export const INVITE_STATS_FIRST_AFTER_MS = 5_000;

/** What a periodic job does; several jobs may do the same work on different scopes (reconcile per shard). */
export type JobWork =
  | 'reconcile'
  | 'invite recheck'
  | 'prune'
  | 'invite stats'
  | 'stripe reconcile'
  | 'retention sample'
  | 'notification delivery'
  | 'reminders';

export interface JobSpec extends PeriodicJob {
  work: JobWork;
  /** Name of its timer in logs (startSafeInterval). */
  timer: string;
  /** First timer run this long after start; otherwise one period after start. */
  firstAfterMs?: number;
  /** Per-shard jobs: the shard whose guilds it looks after. */
  shard?: ShardScope;
  /** Counted in the JobMonitor (readiness, metrics); invite stats are best effort and are not. */
  monitored: boolean;
}

/**
 * The periodic jobs a process runs, by role (decision 028). ROLE=web runs none. ROLE=all and ROLE=bot
 * run the global jobs — whose runs RunOnce lets through once per period across bot processes — and
 * reconciliation: one job over every guild with Discord's recommended shards ('auto'), or one job per
 * shard of this process (`reconcile:shard-<id>`) with a fixed SHARD_COUNT, since only this process
 * receives those guilds' events and each shard's run is its own.
 */
export function jobsForRole(
  role: Role,
  shards: ShardPlan,
  /** Reconciliation's period: RECONCILE_EVERY_MS, or MEMBER_SWEEP_SECONDS with DISCORD_MEMBERS_INTENT=off. */
  reconcileEveryMs = RECONCILE_EVERY_MS,
  /** The Stripe reconciliation's period: STRIPE_RECONCILE_SECONDS (default 10 min). */
  stripeReconcileEveryMs = STRIPE_RECONCILE_EVERY_MS,
): JobSpec[] {
  if (role === 'web') return [];
  return [
    ...reconcileJobSpecs(shards, reconcileEveryMs),
    jobSpec('invite recheck', INVITE_RECHECK_EVERY_MS),
    jobSpec('prune', INTENT_PRUNE_EVERY_MS, { name: JOB.prune, timer: 'featured intent prune timer' }),
    jobSpec('invite stats', INVITE_STATS_EVERY_MS, {
      firstAfterMs: INVITE_STATS_FIRST_AFTER_MS,
      monitored: false,
    }),
    // Soon after start: a restore or an outage may have left purchases uncredited.
    jobSpec('stripe reconcile', stripeReconcileEveryMs, {
      firstAfterMs: Math.min(MINUTE, stripeReconcileEveryMs),
    }),
    jobSpec('retention sample', RETENTION_SAMPLE_EVERY_MS),
    jobSpec('notification delivery', NOTIFY_EVERY_MS),
    jobSpec('reminders', REMINDERS_EVERY_MS),
  ];
}

/** A monitored job named after its work (JOB), with its timer `<name> timer`, unless `other` says otherwise. */
function jobSpec(work: JobWork, periodMs: number, other: Partial<JobSpec> = {}): JobSpec {
  return { name: work, work, periodMs, timer: `${work} timer`, monitored: true, ...other };
}

/** One reconciliation job over every guild ('auto'), or one per shard of this process. */
function reconcileJobSpecs(shards: ShardPlan, everyMs: number): JobSpec[] {
  if (shards === 'auto') return [jobSpec('reconcile', everyMs)];
  return shards.ids.map((id) =>
    jobSpec('reconcile', everyMs, {
      name: reconcileJobName(id),
      timer: `${reconcileJobName(id)} timer`,
      shard: { id, count: shards.count },
    }),
  );
}

export interface PeriodicJobs {
  readonly specs: JobSpec[];
  /** A timer's run of the job: through RunOnce.tick (once per period across processes). */
  tick(name: string): void;
  /** A run asked for outside the timer: through RunOnce.exclusive (never skipped for the period). */
  trigger(name: string): void;
  /** Resolves when the job (or every job) has no run in progress or queued. */
  idle(name?: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Serial jobs for `specs`, each run let through by `runOnce`, and (unless `timers: false`) their
 * timers. Every timer goes through startSafeInterval and every job through createSerialJob: none can
 * throw into the event loop, and repeated failures show in the JobMonitor (readiness). A run that
 * RunOnce did not let through ('done': another process ran this period; 'busy': one runs it now)
 * counts as a success here; the process that ran it recorded the outcome (job_runs on PostgreSQL).
 */
export function startPeriodicJobs(
  ctx: Pick<AppContext, 'logger' | 'clock'>,
  specs: JobSpec[],
  options: {
    jobs: JobMonitor;
    runOnce: RunOnce;
    work: (spec: JobSpec) => Promise<unknown>;
    timers?: boolean;
  },
): PeriodicJobs {
  const { logger } = ctx;
  const { jobs, runOnce } = options;
  const serial = new Map<string, { job: SerialJob; force: () => void }>();
  const timers: SafeInterval[] = [];
  const firstRuns: NodeJS.Timeout[] = [];
  for (const spec of specs) {
    let forced = false;
    const job = createSerialJob(
      spec.name,
      logger,
      async () => {
        const exclusive = forced;
        forced = false;
        const body = () => options.work(spec);
        const outcome = exclusive
          ? await runOnce.exclusive(spec.name, body)
          : await runOnce.tick(spec, ctx.clock.now(), body);
        if (outcome !== 'ran')
          logger.debug(`${spec.name}: not run here (${outcome})`, { job: spec.name, runOnce: runOnce.kind });
        return outcome;
      },
      spec.monitored ? { jobs } : {},
    );
    const force = () => {
      forced = true;
      job.trigger();
    };
    // An operator's run (JobMonitor.run) is never skipped for the period.
    if (spec.monitored)
      jobs.register(spec.name, async () => {
        force();
        await job.idle();
      });
    serial.set(spec.name, { job, force });
    if (options.timers === false) continue;
    timers.push(startSafeInterval(spec.timer, spec.periodMs, () => job.trigger(), { logger }));
    if (spec.firstAfterMs !== undefined) {
      const first = setTimeout(() => job.trigger(), spec.firstAfterMs);
      first.unref();
      firstRuns.push(first);
    }
  }
  const get = (name: string) => {
    const entry = serial.get(name);
    if (!entry) throw new Error(`no periodic job named ${name}`);
    return entry;
  };
  return {
    specs,
    tick: (name) => get(name).job.trigger(),
    trigger: (name) => get(name).force(),
    async idle(name) {
      if (name !== undefined) return get(name).job.idle();
      for (const { job } of serial.values()) await job.idle();
    },
    async stop() {
      for (const timer of timers) timer.stop();
      for (const first of firstRuns) clearTimeout(first);
      for (const { job } of serial.values()) await job.idle();
    },
  };
}

/**
 * How this process lets periodic runs through: on PostgreSQL once per job and period across every bot
 * process sharing the database (advisory lock + job_runs, decision 030); on SQLite, one process, the
 * in-process guard against a run overlapping itself.
 */
export function runOnceFor(store: DataStore): RunOnce {
  return store.kind === 'pg' ? createPgRunOnce((store as PgStore).pool) : createInProcessRunOnce();
}

export interface Background {
  stop(): Promise<void>;
  /** Resolves when no reconciliation run is in progress or queued (tests wait on it before their own run). */
  reconcileIdle(): Promise<void>;
  /** The Discord bot, when config.botEnabled. */
  bot?: Bot;
  /** Names of this process's reconciliation jobs (one, or one per shard), for readiness. */
  reconcileJobs: string[];
  /** The periodic jobs, when this process runs them. */
  periodic?: PeriodicJobs;
}

export const NO_BACKGROUND: Background = {
  stop: () => Promise.resolve(),
  reconcileIdle: () => Promise.resolve(),
  reconcileJobs: [],
};

/**
 * Starts what runs beside the HTTP server, by role: with ROLE=all or ROLE=bot the Discord bot (its
 * shards: config.shards) and the periodic jobs of jobsForRole; with ROLE=web nothing. Never blocks or
 * fails start-up: the bot logs in in the background and retries on failure.
 */
export function startBackground(
  ctx: AppContext,
  options: {
    jobs?: JobMonitor;
    bot?: Pick<BotOptions, 'auditLogDelayMs' | 'auditLogRecheckMs'>;
    /** How runs are let through; by default runOnceFor(ctx.store) (PostgreSQL: once across processes). */
    runOnce?: RunOnce;
  } = {},
): Promise<Background> {
  if (ctx.config.role === 'web') {
    ctx.logger.info('ROLE=web: no bot and no periodic jobs in this process');
    return Promise.resolve(NO_BACKGROUND);
  }
  if (!ctx.config.botEnabled) {
    ctx.logger.info('bot disabled (BOT_ENABLED=false)');
    return Promise.resolve(NO_BACKGROUND);
  }
  const jobs = options.jobs ?? new JobMonitor(() => ctx.clock.now());
  // Without the Server Members intent reconciliation is also how joins and leaves are found (the member
  // sweep): it runs every MEMBER_SWEEP_SECONDS. After a 4014 fall-back it keeps the 5-minute period.
  const specs = jobsForRole(
    ctx.config.role,
    ctx.config.shards,
    ctx.config.membersIntent === 'off' ? ctx.config.memberSweepMs : RECONCILE_EVERY_MS,
    ctx.config.stripeReconcileMs,
  );
  const reconcileJobs = specs.filter((s) => s.work === 'reconcile');
  // Async: `bot` is assigned below, so a run that started before it rejects instead of throwing.
  const work = async (spec: JobSpec): Promise<unknown> => await runJob(ctx, spec, bot);
  const periodic = startPeriodicJobs(ctx, specs, {
    jobs,
    runOnce: options.runOnce ?? runOnceFor(ctx.store),
    work,
  });
  // A (re)connected session may have missed events: reconcile its shard's guilds (every shard's when
  // the whole client became ready, or when one job covers all guilds).
  const onConnected = (shardId?: number): void => {
    const mine = reconcileJobs.filter((s) => shardId === undefined || !s.shard || s.shard.id === shardId);
    for (const spec of mine) periodic.trigger(spec.name);
  };
  const bot = startBot(ctx, { ...options.bot, onConnected });
  return Promise.resolve({
    bot,
    periodic,
    reconcileJobs: reconcileJobs.map((s) => s.name),
    async reconcileIdle() {
      for (const spec of reconcileJobs) await periodic.idle(spec.name);
    },
    async stop() {
      await bot.stop();
      await periodic.stop();
    },
  });
}

/** One run of a periodic job's work. */
async function runJob(ctx: AppContext, spec: JobSpec, bot: Bot): Promise<unknown> {
  switch (spec.work) {
    case 'reconcile':
      return reconcileRecorded(ctx, spec, bot);
    case 'invite recheck':
      await recheckInvites(ctx);
      return undefined;
    case 'prune':
      await pruneExpiredIntentsJob(ctx);
      // Retention of the same-address rule's hashes: the window, then gone (decision 022).
      await pruneUserAddresses(ctx);
      // Owners' delivery logs keep 30 days (decision 052).
      await pruneDeliveries(ctx);
      return undefined;
    case 'invite stats':
      // Member and online counts for Discover cards.
      return refreshInviteStats(ctx);
    case 'stripe reconcile':
      // What webhooks and /sync missed (a restore, a clock jump, a closed tab): src/payments/reconcile-stripe.ts.
      return reconcileStripe(ctx);
    case 'retention sample':
      return sampleRetention(ctx);
    case 'notification delivery':
      // Owners' webhooks from the outbox: src/notifications/deliver.ts.
      return deliverDueNotifications(ctx);
    case 'reminders':
      // Opt-in reminder DMs that are due (decision 055).
      return sendDueReminders(ctx);
  }
}

/** A reconciliation run, its counts recorded as metrics (a failure too). */
async function reconcileRecorded(ctx: AppContext, spec: JobSpec, bot: Bot): Promise<ReconcileResult> {
  try {
    const result = await reconcile(ctx, {
      gateway: bot.members,
      shard: spec.shard,
      withoutMembersIntent: bot.membersIntent() !== 'on',
    });
    const { lookups, phaseMs: _phaseMs, held: _held, ...counts } = result;
    const lookupCounts = Object.fromEntries(Object.entries(lookups).map(([k, n]) => [`lookup_${k}`, n]));
    recordReconciliation('success', { ...counts, ...lookupCounts });
    return result;
  } catch (err) {
    recordReconciliation('failure');
    throw err;
  }
}
