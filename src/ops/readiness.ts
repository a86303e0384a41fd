import { statfs } from 'node:fs/promises';
import { Status, type Client } from 'discord.js';
import { recordReadiness } from '../metrics.ts';
import type { Logger } from '../logger.ts';
import { startSafeInterval, type SafeInterval } from './safe-interval.ts';
import { FAILURES_BEFORE_UNREADY, type JobMonitor } from './job-monitor.ts';
import type { DataStore } from '../db/engine.ts';
import { opsHeartbeat } from '../db/schema.ts';
import { errorMessage } from './error-text.ts';

// What /api/ready checks (decision 010). Each check answers { ok, detail }; the report is ready only
// when every check is ok, and names each failing check with its reason.

export interface CheckResult {
  ok: boolean;
  detail: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

/** A check that has not answered by then counts as failed (a hung dependency must not hang /api/ready). */
export const CHECK_TIMEOUT_MS = 1500;
/** The gateway may be down this long (Discord asks clients to reconnect now and then) before readiness fails. */
export const GATEWAY_GRACE_MS = 60_000;
/**
 * SQLite: the database's file system must keep this much free, or readiness fails before writes do
 * (issue 29: the heartbeat rewrote one row into existing WAL pages and stayed green on a full disk).
 */
export const MIN_FREE_DISK_BYTES = 64 * 1024 * 1024;
/** The readiness checks (and their coinsync_ready gauges) run this often on their own. */
export const READINESS_REFRESH_MS = 15_000;

export interface ReadinessSources {
  /** The data layer: the database check writes its heartbeat row through it (either engine). */
  store: DataStore;
  now: () => number;
  /** Process start, for the start-up grace of gateway and reconciliation. */
  startedAt: number;
  /** Pings the session store's Redis; absent when sessions live in the database. */
  pingRedis?: () => Promise<unknown>;
  /** Why the bot is deliberately off (BOT_ENABLED=false, or no background in tests); undefined when it runs. */
  botOff?: string;
  /** The discord.js client of the running bot (null while logging in again). */
  botClient?: () => Client | null;
  /** How the bot runs with Discord's Server Members intent: "on", "off (refused by Discord)", "off (configured)". */
  membersIntent?: () => string | null;
  jobs: JobMonitor;
  /** SQLite: the database file's directory, whose free space is checked (PostgreSQL: its own server's). */
  databaseDir?: string;
  /** Free bytes below which the database check fails (MIN_FREE_DISK_BYTES). */
  minFreeBytes?: number;
  /**
   * Names of the reconciliation jobs in `jobs` (one, or one per shard of this process), and how recent
   * each one's last success must be.
   */
  reconcile?: { jobs: () => string[]; maxAgeMs: number };
  /** Whether Discord accepts the bot token (a 401 fails readiness until a bot call succeeds again). */
  discordBotToken?: () => CheckResult;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const ago = (ms: number) =>
  ms < 120_000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60_000)} min ago`;

/** "shard 0 of 1 ready", "shards 2, 3 of 4 ready", or which are not ready and in what state. */
function shardReport(client: Client): string {
  const count = client.options.shardCount ?? client.ws.shards.size;
  const shards = [...client.ws.shards.values()].sort((a, b) => a.id - b.id);
  const notReady = shards.filter((s) => s.status !== Status.Ready);
  const ready = shards.filter((s) => s.status === Status.Ready).map((s) => s.id);
  const parts: string[] = [];
  if (ready.length > 0)
    parts.push(`shard${ready.length > 1 ? 's' : ''} ${ready.join(', ')} of ${count} ready`);
  for (const s of notReady) parts.push(`shard ${s.id} of ${count} ${Status[s.status] ?? s.status}`);
  return parts.join(', ');
}

export function createReadiness(sources: ReadinessSources) {
  let gatewayDownSince: number | null = sources.startedAt;
  /** A bot that has never connected since start is not ready (the grace covers reconnects only). */
  let everConnected = false;

  const gateway = (): CheckResult => {
    if (sources.botOff !== undefined) return { ok: true, detail: `off (${sources.botOff})` };
    const result = gatewayState();
    const intent = sources.membersIntent?.();
    return intent ? { ...result, detail: `${result.detail}; members intent: ${intent}` } : result;
  };

  const gatewayState = (): CheckResult => {
    const client = sources.botClient?.() ?? null;
    const connected =
      client !== null && client.isReady() && client.ws.shards.every((s) => s.status === Status.Ready);
    const now = sources.now();
    if (connected) {
      gatewayDownSince = null;
      everConnected = true;
      return { ok: true, detail: `connected (${shardReport(client)})` };
    }
    gatewayDownSince ??= now;
    const down = now - gatewayDownSince;
    const which = client && client.ws.shards.size > 0 ? `; ${shardReport(client)}` : '';
    if (!everConnected)
      return {
        ok: false,
        detail: `connecting: not connected yet since start (${Math.round(down / 1000)} s${which})`,
      };
    if (down <= GATEWAY_GRACE_MS)
      return { ok: true, detail: `connecting (not connected for ${Math.round(down / 1000)} s${which})` };
    return { ok: false, detail: `not connected for ${Math.round(down / 1000)} s${which}` };
  };

  return async function check(): Promise<ReadinessReport> {
    // The two I/O checks run side by side, each within its own time limit.
    const [databaseResult, redisResult] = await Promise.all([checkDatabase(sources), checkRedis(sources)]);
    const checks: Record<string, CheckResult> = {
      database: databaseResult,
      redis: redisResult,
      gateway: gateway(),
      reconciliation: checkReconciliation(sources),
      jobs: checkJobs(sources),
      ...(sources.discordBotToken ? { discordBotToken: sources.discordBotToken() } : {}),
    };
    for (const [name, result] of Object.entries(checks)) recordReadiness(name, result.ok);
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  };
}

// A write proves more than a read: a full disk, a read-only file or a PostgreSQL standby fail it.
// It goes through the store like every write (SQLite: its writer mutex; PostgreSQL: the pool), so a
// database that hangs, or a writer held too long, fails the check after CHECK_TIMEOUT_MS.
function writeHeartbeat(sources: ReadinessSources, at: number) {
  return sources.store.transaction(async (tx) => {
    await tx.q
      .insert(opsHeartbeat)
      .values({ id: 1, checkedAt: at })
      .onConflictDoUpdate({ target: opsHeartbeat.id, set: { checkedAt: at } })
      .run();
  });
}

async function checkFreeSpace(sources: ReadinessSources): Promise<CheckResult | null> {
  if (!sources.databaseDir) return null;
  const min = sources.minFreeBytes ?? MIN_FREE_DISK_BYTES;
  const fs = await statfs(sources.databaseDir);
  const free = fs.bavail * fs.bsize;
  const mb = (n: number) => `${Math.floor(n / (1024 * 1024))} MB`;
  if (free < min) return { ok: false, detail: `disk nearly full: ${mb(free)} free (limit ${mb(min)})` };
  return { ok: true, detail: `write succeeded; ${mb(free)} free` };
}

async function checkDatabase(sources: ReadinessSources): Promise<CheckResult> {
  try {
    await withTimeout(writeHeartbeat(sources, sources.now()), CHECK_TIMEOUT_MS - 250, 'database');
    return (await checkFreeSpace(sources)) ?? { ok: true, detail: 'write succeeded' };
  } catch (err) {
    return { ok: false, detail: `write failed: ${errorMessage(err)}` };
  }
}

async function checkRedis(sources: ReadinessSources): Promise<CheckResult> {
  if (!sources.pingRedis) return { ok: true, detail: 'not configured (sessions in the database)' };
  try {
    await withTimeout(sources.pingRedis(), CHECK_TIMEOUT_MS - 250, 'Redis');
    return { ok: true, detail: 'answered PING' };
  } catch (err) {
    return { ok: false, detail: errorMessage(err) };
  }
}

function checkReconciliation(sources: ReadinessSources): CheckResult {
  const reconcile = sources.reconcile;
  if (sources.botOff !== undefined || !reconcile) return { ok: true, detail: 'off (no bot in this process)' };
  const names = reconcile.jobs();
  if (names.length <= 1) return checkReconcileJob(sources, names[0] ?? 'reconcile', reconcile.maxAgeMs);
  // One job per shard of this process: each must be healthy; the report names each.
  const results = names.map((name) => ({ name, ...checkReconcileJob(sources, name, reconcile.maxAgeMs) }));
  return {
    ok: results.every((r) => r.ok),
    detail: results.map((r) => `${r.name}: ${r.detail}`).join('; '),
  };
}

function checkReconcileJob(sources: ReadinessSources, job: string, maxAgeMs: number): CheckResult {
  const state = sources.jobs.get(job);
  const now = sources.now();
  if (state && state.consecutiveFailures >= FAILURES_BEFORE_UNREADY) {
    return {
      ok: false,
      detail: `failed ${state.consecutiveFailures} times in a row; last error: ${state.lastError}`,
    };
  }
  if (state?.lastSuccessAt != null) {
    const age = now - state.lastSuccessAt;
    if (age <= maxAgeMs) return { ok: true, detail: `last success ${ago(age)}` };
    return { ok: false, detail: `last success ${ago(age)} (limit ${Math.round(maxAgeMs / 60_000)} min)` };
  }
  if (now - sources.startedAt <= maxAgeMs) return { ok: true, detail: 'no run finished yet since start-up' };
  return { ok: false, detail: `no successful run since start-up ${ago(now - sources.startedAt)}` };
}

function checkJobs(sources: ReadinessSources): CheckResult {
  const failing = sources.jobs.list().filter((j) => j.consecutiveFailures >= FAILURES_BEFORE_UNREADY);
  if (failing.length === 0) return { ok: true, detail: `${sources.jobs.list().length} jobs healthy` };
  return {
    ok: false,
    detail: failing
      .map((j) => `${j.name} failed ${j.consecutiveFailures} times in a row (${j.lastError})`)
      .join('; '),
  };
}

export type ReadinessCheck = ReturnType<typeof createReadiness>;

/**
 * Runs the readiness checks every READINESS_REFRESH_MS by themselves, so the coinsync_ready gauges (and
 * the documented alert `coinsync_ready == 0`) do not depend on something polling /api/ready; logs when
 * readiness turns red (ERROR, naming the failing checks) and green again.
 */
export function startReadinessRefresh(
  check: ReadinessCheck,
  options: { logger: Logger; everyMs?: number },
): SafeInterval {
  let wasReady: boolean | null = null;
  return startSafeInterval(
    'readiness refresh',
    options.everyMs ?? READINESS_REFRESH_MS,
    async () => {
      const report = await check();
      if (report.ready === wasReady) return;
      const failing = Object.fromEntries(
        Object.entries(report.checks)
          .filter(([, c]) => !c.ok)
          .map(([name, c]) => [name, c.detail]),
      );
      if (!report.ready) options.logger.error('readiness: not ready', { failing });
      else if (wasReady === false) options.logger.info('readiness: ready again');
      wasReady = report.ready;
    },
    { logger: options.logger },
  );
}
