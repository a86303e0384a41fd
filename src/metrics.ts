import client from 'prom-client';

// Every counter an operator scrapes lives in this one registry, exposed at GET /metrics in Prometheus
// text format. Other modules call the small record* helpers below rather than touching prom-client,
// so label names stay consistent and cardinality stays bounded (route templates, never raw paths).
// The registry is prom-client's default, process-wide one (every metric below registers there without
// saying so): several test servers in one process share it, so tests compare deltas, never absolute values.

export const registry = client.register;
// GC pauses by length (prom-client's default buckets jump from 10 to 100 ms): an event-loop delay goal of
// 50 ms needs to see the pauses between (decision 027, session 14; the soak day counts them per window).
export const GC_DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 2, 5];
client.collectDefaultMetrics({
  register: registry,
  prefix: 'coinsync_',
  gcDurationBuckets: GC_DURATION_BUCKETS,
});

const httpRequests = new client.Counter({
  name: 'coinsync_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
});

const httpDuration = new client.Histogram({
  name: 'coinsync_http_request_duration_seconds',
  help: 'Time from request arrival to the last byte of the response, by method, route template and status class.',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

const ledgerWrites = new client.Counter({
  name: 'coinsync_ledger_writes_total',
  help: 'Ledger writes by transaction type, direction (credit/debit) and outcome (ok, duplicate, refused).',
  labelNames: ['type', 'direction', 'outcome'] as const,
});

const storeGroups = new client.Counter({
  name: 'coinsync_store_groups_total',
  help: 'SQLite group commits (decision 046, Session 16): shared transactions by outcome (committed, failed).',
  labelNames: ['outcome'] as const,
});

const storeGroupBodies = new client.Counter({
  name: 'coinsync_store_group_bodies_total',
  help: 'Transaction bodies run in SQLite group commits (divided by coinsync_store_groups_total: the mean group).',
});

const botEvents = new client.Counter({
  name: 'coinsync_bot_events_total',
  help: 'Discord gateway events handled by the bot, by event and outcome (ok, failed).',
  labelNames: ['event', 'outcome'] as const,
});

const reconciliationRuns = new client.Counter({
  name: 'coinsync_reconciliation_runs_total',
  help: 'Reconciliation runs by outcome (success, failure).',
  labelNames: ['outcome'] as const,
});

const reconciliationItems = new client.Counter({
  name: 'coinsync_reconciliation_items_total',
  help: 'Joins settled by reconciliation, by result (verified, left, notified, failed lookups, ...).',
  labelNames: ['result'] as const,
});

const reconciliationLastSuccess = new client.Gauge({
  name: 'coinsync_reconciliation_last_success_timestamp_seconds',
  help: 'Unix time of the last successful reconciliation run (0 = none yet in this process).',
});

const discordRateLimits = new client.Counter({
  name: 'coinsync_discord_rate_limited_total',
  help: 'HTTP 429 answers (or rate-limit waits) met when calling Discord, by source (rest = our client, bot = discord.js).',
  labelNames: ['source', 'route'] as const,
});

const jobRuns = new client.Counter({
  name: 'coinsync_background_job_runs_total',
  help: 'Background job and timer runs by job and outcome (success, failure).',
  labelNames: ['job', 'outcome'] as const,
});

const heldJoinsGauge = new client.Gauge({
  name: 'coinsync_reconcile_held_joins',
  help: 'Absent members whose removal the reconciliation safety valve holds back (npm run ops -- held list).',
});

const heldResolutions = new client.Counter({
  name: 'coinsync_reconcile_held_resolutions_total',
  help: 'Held removals resolved, by how (settled by a run, present again, charged or released by an operator).',
  labelNames: ['resolution'] as const,
});

const notificationDeliveries = new client.Counter({
  name: 'coinsync_notification_deliveries_total',
  help: 'Owner notification delivery attempts (decision 052), by target and outcome (delivered, retry, failed, dropped)',
  labelNames: ['target', 'outcome'] as const,
});

const readyGauge = new client.Gauge({
  name: 'coinsync_ready',
  help: 'Result of the last readiness check (1 ready, 0 not ready), by check.',
  labelNames: ['check'] as const,
});

export type LedgerDirection = 'credit' | 'debit';
export type LedgerOutcome = 'ok' | 'duplicate' | 'refused';

export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
}

export function recordLedgerWrite(type: string, direction: LedgerDirection, outcome: LedgerOutcome): void {
  ledgerWrites.inc({ type, direction, outcome });
}

/** One SQLite group commit of `bodies` transaction bodies, committed or failed whole. */
export function recordStoreGroup(bodies: number, outcome: 'committed' | 'failed'): void {
  storeGroups.inc({ outcome });
  storeGroupBodies.inc(bodies);
}

/** A gateway event the bot handled: `event` is e.g. member_add, member_remove, guild_delete. */
export function recordBotEvent(event: string, outcome: 'ok' | 'failed'): void {
  botEvents.inc({ event, outcome });
}

/**
 * One reconciliation run. `counts` are the run's result numbers (e.g. { verified: 3, left: 1 });
 * `at` is the wall-clock time in ms of a successful run.
 */
export function recordReconciliation(
  outcome: 'success' | 'failure',
  counts: Record<string, number> = {},
  at = Date.now(),
): void {
  reconciliationRuns.inc({ outcome });
  for (const [result, n] of Object.entries(counts))
    if (typeof n === 'number' && n > 0) reconciliationItems.inc({ result }, n);
  if (outcome === 'success') reconciliationLastSuccess.set(Math.floor(at / 1000));
}

/** A Discord API path as a label: ids and invite codes become :id / :code, the query is dropped. */
export function discordRouteTemplate(path: string): string {
  return (path.split('?')[0] ?? '')
    .replace(/\/invites\/[^/]+/, '/invites/:code')
    .replace(/\/\d{5,}(?=\/|$)/g, '/:id');
}

const discordBotTokenRejected = new client.Counter({
  name: 'coinsync_discord_bot_token_rejected_total',
  help: 'Discord answered 401 to a call made with the bot token (the token was reset or revoked).',
});

const discordBusy = new client.Counter({
  name: 'coinsync_discord_busy_total',
  help: 'Discord calls a person waited on that were given up (reason: rate-limit, ban, deadline); the person got a 503 with Retry-After.',
  labelNames: ['reason'] as const,
});

const pageHtml = new client.Counter({
  name: 'coinsync_page_html_total',
  help: 'Signed-in and legal pages served, by how: rendered, from the render cache, or the static shell (the browser renders).',
  labelNames: ['outcome'] as const,
});

const rendererHeapUsed = new client.Gauge({
  name: 'coinsync_page_renderer_heap_size_used_bytes',
  help: "The page-render worker's V8 heap in use after its last render (decision 047: its own isolate, apart from coinsync_nodejs_heap_*).",
});

const rendererHeapTotal = new client.Gauge({
  name: 'coinsync_page_renderer_heap_size_total_bytes',
  help: "The page-render worker's V8 heap reserved after its last render: what its isolate holds of the process's RSS.",
});

const rendererExternal = new client.Gauge({
  name: 'coinsync_page_renderer_external_memory_bytes',
  help: "Memory outside the page-render worker's V8 heap that its isolate accounts for (strings' and buffers' backing stores).",
});

const rendererCpu = new client.Counter({
  name: 'coinsync_page_renderer_cpu_seconds_total',
  help: "CPU time (user + system) of the page-render worker's thread, as of its last render (Linux): the share of coinsync_process_cpu_seconds_total that rendering costs.",
});

/** What the page cache holds now (src/auth/spa-pages.ts registers it); read at each scrape. */
let pageCacheSize: (() => number) | null = null;
new client.Gauge({
  name: 'coinsync_page_cache_bytes',
  help: 'Bytes of rendered pages (gzip) the page cache holds, outside the V8 heap: a part of coinsync_nodejs_external_memory_bytes, bounded by PAGE_CACHE_MB.',
  collect() {
    this.set(pageCacheSize?.() ?? 0);
  },
});

/** The page cache whose size /metrics reports (the latest registered: one per process in production). */
export function watchPageCacheBytes(size: () => number): void {
  pageCacheSize = size;
}

/** CPU seconds the render worker's thread spent since its previous report. */
export function recordRendererCpu(seconds: number): void {
  if (seconds > 0) rendererCpu.inc(seconds);
}

/** The render worker's heap as it reported it with its last render (src/auth/page-renderer.ts). */
export function recordRendererHeap(heap: {
  usedBytes: number;
  totalBytes: number;
  externalBytes: number;
}): void {
  rendererHeapUsed.set(heap.usedBytes);
  rendererHeapTotal.set(heap.totalBytes);
  rendererExternal.set(heap.externalBytes);
}

/** One page's HTML (src/auth/spa-pages.ts): `rendered` now, from the `cache`, or the static `shell`. */
export function recordPageHtml(outcome: 'rendered' | 'cache' | 'shell'): void {
  pageHtml.inc({ outcome });
}

export function recordDiscordBotTokenRejected(): void {
  discordBotTokenRejected.inc();
}

export function recordDiscordBusy(reason: 'rate-limit' | 'ban' | 'deadline'): void {
  discordBusy.inc({ reason });
}

/** A 429 from Discord. `route` should be a template (e.g. /guilds/:id/members/:id), not a raw path. */
export function recordDiscordRateLimit(source: 'rest' | 'bot', route = 'unknown'): void {
  discordRateLimits.inc({ source, route });
}

export function recordJobRun(job: string, outcome: 'success' | 'failure'): void {
  jobRuns.inc({ job, outcome });
}

/** Held removals of the safety valve still open (set after each reconciliation run and operator action). */
export function recordHeldJoins(count: number): void {
  heldJoinsGauge.set(count);
}

export function recordHeldResolution(resolution: string): void {
  heldResolutions.inc({ resolution });
}

export function recordNotificationDelivery(
  target: 'discord' | 'endpoint',
  outcome: 'delivered' | 'retry' | 'failed' | 'dropped',
): void {
  notificationDeliveries.inc({ target, outcome });
}

export function recordReadiness(check: string, ok: boolean): void {
  readyGauge.set({ check }, ok ? 1 : 0);
}

/** Current value of one series (tests and the readiness report). */
export async function readMetric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((v) =>
      Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want),
    )
    .reduce((sum, v) => sum + v.value, 0);
}
