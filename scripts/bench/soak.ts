import { performance } from 'node:perf_hooks';
import { load, percentile, round } from './load.ts';
import { BENCH_METRICS_TOKEN, cpuSeconds, rssBytes, schedSeconds } from './processes.ts';
import { SoakDay, type DayResult, type DayWindowCounts } from './soak-day.ts';

// `npm run bench -- --soak`: a mixed load of the real endpoints by many signed-in users for a few
// minutes, to see memory and latency over time rather than after a short burst. Every 10 s window
// records requests, p50/p99, non-2xx and errors, and the product's RSS (VmRSS). A soak passes when
// RSS stays ≤ 300 MB throughout with no upward trend and no request failed unexpectedly.
// With `--soak-day` (issue 33 item 3) the soak is a day: page loads in the mix, live-event streams held
// open, joins and leaves through the Discord simulator, purchases through the Stripe fake (soak-day.ts);
// each window then also has the event-loop delay p99 and every route's p99 as the product measured it
// (from its /metrics histograms: the bucket bound under which 99 % of the window's requests ended).

export interface SoakWindow {
  /** Seconds since the soak started, at the end of the window. */
  at: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  rssMb: number | null;
  /** Where the memory is, from the product's own /metrics (prom-client's process and V8 figures). */
  memory: MemorySplit | null;
  /** The product's event-loop delay over the window (monitorEventLoopDelay, reset at each read), ms. */
  eventLoopP99Ms?: number | null;
  eventLoopMaxMs?: number | null;
  /**
   * The product's CPU by thread over the window, in % of one core: the event loop's thread, the page-render
   * worker's (its own report in /metrics), and the rest (V8's GC helpers, libuv's pool: gzip, crypto).
   */
  cpu?: { loop: number; renderer: number; otherThreads: number } | null;
  /**
   * The event loop's thread by the scheduler (schedstat), in ms per second of the window: on a core, and
   * runnable but waiting for a core. The wait is the machine's share of the loop delay, not the loop's work.
   */
  loopSched?: { runMsPerS: number; waitMsPerS: number } | null;
  /**
   * The bench's own process (load generator, the day's 1,000 stream readers and loops) in % of one core: on
   * this 2-core machine it shares the cores with the product, which production's clients do not.
   */
  benchCpu?: number;
  /** Page loads in the window by how they were served: rendered now, from the page cache, or the static shell. */
  pages?: Record<string, number>;
  /**
   * The main isolate's garbage collection in the window (prom-client's GC histogram): scavenges, major GCs
   * (mark-compact and incremental marking steps), their pause time, and the pauses of at least 20 and 50 ms.
   */
  gc?: WindowGc | null;
  /** Per route template: requests in the window and the histogram bound its p99 fell under (ms). */
  routes?: Record<string, { requests: number; p99Ms: number | null }>;
  /** The day's other traffic in the window (streams open, events, joins, leaves, purchases). */
  day?: DayWindowCounts;
}

/** The product's memory split: V8 heap (used/total, young generation), external (Buffers, native addons' accounted memory). */
export interface MemorySplit {
  heapUsedMb: number;
  heapTotalMb: number;
  newSpaceMb: number;
  externalMb: number;
  /** Of external: the rendered pages the page cache holds (gzip; PAGE_CACHE_MB bounds it), null before session 17's builds. */
  pageCacheMb: number | null;
  /** The page-render worker's own isolate (decision 047): heap used/total and external, as of its last render. */
  rendererHeapUsedMb: number;
  rendererHeapTotalMb: number;
  rendererExternalMb: number;
  /** RSS minus both isolates' heaps and external: code, native allocations (SQLite page cache, OpenSSL, zlib), malloc arenas. */
  otherMb: number;
}

function metricValue(text: string, name: string, labels = ''): number | null {
  const re = new RegExp(`^${name}${labels ? `\\{${labels}\\}` : ''} (\\S+)$`, 'm');
  const match = re.exec(text);
  return match?.[1] ? Number(match[1]) : null;
}

/** Reads the memory split from GET /metrics (served to direct loopback connections). */
export async function readMemorySplit(baseUrl: string): Promise<MemorySplit | null> {
  try {
    const text = await (
      await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })
    ).text();
    return memorySplitOf(text);
  } catch {
    return null;
  }
}

/** The memory split in a /metrics text, or null when its figures are missing. */
function memorySplitOf(text: string): MemorySplit | null {
  const mb = (v: number | null) => (v === null ? NaN : round(v / 1024 / 1024, 1));
  const rss = metricValue(text, 'coinsync_process_resident_memory_bytes');
  const heapUsed = metricValue(text, 'coinsync_nodejs_heap_size_used_bytes');
  const heapTotal = metricValue(text, 'coinsync_nodejs_heap_size_total_bytes');
  const external = metricValue(text, 'coinsync_nodejs_external_memory_bytes');
  const pageCache = metricValue(text, 'coinsync_page_cache_bytes');
  const newSpace = metricValue(text, 'coinsync_nodejs_heap_space_size_total_bytes', 'space="new"');
  const rendererUsed = metricValue(text, 'coinsync_page_renderer_heap_size_used_bytes') ?? 0;
  const rendererTotal = metricValue(text, 'coinsync_page_renderer_heap_size_total_bytes') ?? 0;
  const rendererExternal = metricValue(text, 'coinsync_page_renderer_external_memory_bytes') ?? 0;
  if (rss === null || heapTotal === null || external === null) return null;
  return {
    heapUsedMb: mb(heapUsed),
    heapTotalMb: mb(heapTotal),
    newSpaceMb: mb(newSpace),
    externalMb: mb(external),
    pageCacheMb: pageCache === null ? null : mb(pageCache),
    rendererHeapUsedMb: mb(rendererUsed),
    rendererHeapTotalMb: mb(rendererTotal),
    rendererExternalMb: mb(rendererExternal),
    otherMb: mb(rss - heapTotal - external - rendererTotal - rendererExternal),
  };
}

export interface WindowGc {
  minor: number;
  minorMs: number;
  major: number;
  majorMs: number;
  pausesOver20Ms: number;
  pausesOver50Ms: number;
}

/** Cumulative GC figures of one /metrics read: per kind, count, seconds and pauses above 20/50 ms. */
export type GcCounts = Record<string, { count: number; seconds: number; over20: number; over50: number }>;

export function gcCountsOf(text: string): GcCounts {
  const out: GcCounts = {};
  const entry = (kind: string) => (out[kind] ??= { count: 0, seconds: 0, over20: 0, over50: 0 });
  const le = new Map<string, Map<number, number>>();
  for (const m of text.matchAll(
    /^coinsync_nodejs_gc_duration_seconds_(bucket|sum|count)\{(?:le="([^"]+)",)?kind="(\w+)"\} (\S+)$/gm,
  )) {
    const [, field, bound, kind, value] = m;
    if (field === 'sum') entry(kind!).seconds = Number(value);
    else if (field === 'count') entry(kind!).count = Number(value);
    else if (bound !== '+Inf') {
      const perKind = le.get(kind!) ?? new Map<number, number>();
      perKind.set(Number(bound), Number(value));
      le.set(kind!, perKind);
    }
  }
  for (const [kind, bounds] of le) {
    const e = entry(kind);
    // Buckets are cumulative: pauses above 20 ms = all - those ≤ 20 ms (NaN when the bucket is missing).
    e.over20 = bounds.has(0.02) ? e.count - bounds.get(0.02)! : NaN;
    e.over50 = bounds.has(0.05) ? e.count - bounds.get(0.05)! : NaN;
  }
  return out;
}

export function gcBetween(before: GcCounts, after: GcCounts): WindowGc {
  const sum = (kinds: string[], f: 'count' | 'seconds' | 'over20' | 'over50') =>
    kinds.reduce((s, k) => s + (after[k]?.[f] ?? 0) - (before[k]?.[f] ?? 0), 0);
  const major = ['major', 'incremental'];
  const all = Object.keys(after);
  return {
    minor: sum(['minor'], 'count'),
    minorMs: round(sum(['minor'], 'seconds') * 1000, 1),
    major: sum(major, 'count'),
    majorMs: round(sum(major, 'seconds') * 1000, 1),
    pausesOver20Ms: sum(all, 'over20'),
    pausesOver50Ms: sum(all, 'over50'),
  };
}

interface ServerWindow {
  /** performance.now() of the read. */
  at: number;
  /** CPU seconds so far: the whole process, its main thread, the render worker's thread. */
  cpu: { total: number | null; loop: number | null; renderer: number | null };
  /** The main thread's schedstat: seconds on a core and seconds runnable but waiting. */
  sched: { run: number; wait: number } | null;
  /** Page loads so far by how they were served (rendered, cache, shell). */
  pages: Record<string, number>;
  memory: MemorySplit | null;
  eventLoopP99Ms: number | null;
  eventLoopMaxMs: number | null;
  /** Cumulative histogram counts per `METHOD route`: bucket bound (s) → count. */
  buckets: Map<string, Map<number, number>>;
  gc: GcCounts;
}

/** One read of /metrics: memory, the event-loop delay since the last read, the duration histograms. */
async function readServerWindow(baseUrl: string, pid: number | undefined): Promise<ServerWindow | null> {
  try {
    const text = await (
      await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })
    ).text();
    const at = performance.now();
    const cpu = {
      total: cpuSeconds(pid),
      loop: cpuSeconds(pid, pid),
      renderer: metricValue(text, 'coinsync_page_renderer_cpu_seconds_total'),
    };
    const ms = (v: number | null) => (v === null ? null : round(v * 1000, 1));
    const buckets = new Map<string, Map<number, number>>();
    const re =
      /^coinsync_http_request_duration_seconds_bucket\{le="([^"]+)",method="([^"]+)",route="([^"]+)",status_class="[^"]+"\} (\S+)$/gm;
    for (const m of text.matchAll(re)) {
      const key = `${m[2]} ${m[3]}`;
      const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
      const perRoute = buckets.get(key) ?? new Map<number, number>();
      perRoute.set(le, (perRoute.get(le) ?? 0) + Number(m[4]));
      buckets.set(key, perRoute);
    }
    const pages: Record<string, number> = {};
    for (const m of text.matchAll(/^coinsync_page_html_total\{outcome="([^"]+)"\} (\S+)$/gm))
      pages[m[1]!] = Number(m[2]);
    return {
      at,
      cpu,
      sched: schedSeconds(pid),
      pages,
      memory: memorySplitOf(text),
      eventLoopP99Ms: ms(metricValue(text, 'coinsync_nodejs_eventloop_lag_p99_seconds')),
      eventLoopMaxMs: ms(metricValue(text, 'coinsync_nodejs_eventloop_lag_max_seconds')),
      buckets,
      gc: gcCountsOf(text),
    };
  } catch {
    return null;
  }
}

/** The product's CPU by thread between two reads, in % of one core. */
function cpuShares(before: ServerWindow, after: ServerWindow): SoakWindow['cpu'] {
  const seconds = (after.at - before.at) / 1000;
  const delta = (k: keyof ServerWindow['cpu']) => {
    const a = after.cpu[k];
    const b = before.cpu[k];
    return a === null || b === null ? null : a - b;
  };
  const total = delta('total');
  const loop = delta('loop');
  // No render yet: the counter is absent, and the worker has spent nothing.
  const renderer = delta('renderer') ?? 0;
  if (total === null || loop === null || seconds <= 0) return null;
  const pct = (v: number) => round((v / seconds) * 100, 0);
  return {
    loop: pct(loop),
    renderer: pct(renderer),
    otherThreads: pct(Math.max(0, total - loop - renderer)),
  };
}

/** The loop thread's time on a core and waiting for one between two reads, ms per second. */
function loopSchedOf(before: ServerWindow, after: ServerWindow): SoakWindow['loopSched'] {
  const seconds = (after.at - before.at) / 1000;
  if (!before.sched || !after.sched || seconds <= 0) return null;
  return {
    runMsPerS: round(((after.sched.run - before.sched.run) / seconds) * 1000, 0),
    waitMsPerS: round(((after.sched.wait - before.sched.wait) / seconds) * 1000, 0),
  };
}

/** Per route: the window's requests and the smallest bucket bound holding 99 % of them. */
function routeP99s(
  before: Map<string, Map<number, number>>,
  after: Map<string, Map<number, number>>,
): Record<string, { requests: number; p99Ms: number | null }> {
  const out: Record<string, { requests: number; p99Ms: number | null }> = {};
  for (const [route, counts] of after) {
    const prior = before.get(route);
    const bounds = [...counts.keys()].sort((a, b) => a - b);
    const delta = bounds.map((le) => (counts.get(le) ?? 0) - (prior?.get(le) ?? 0));
    const total = delta.at(-1) ?? 0;
    if (total <= 0) continue;
    const i = delta.findIndex((c) => c >= total * 0.99);
    const le = bounds[i]!;
    out[route] = { requests: total, p99Ms: Number.isFinite(le) ? round(le * 1000, 0) : null };
  }
  return out;
}

export interface SoakResult {
  users: number;
  seconds: number;
  connections: number;
  /** Requested overall rate (requests per second), or null for as fast as possible. */
  rate: number | null;
  mix: { path: string; method: 'GET' | 'POST'; share: number }[];
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Expected 4xx: hourly claims refused while on cooldown (425/409). */
  expected4xx: number;
  /** 5xx, other 4xx, socket errors and timeouts. */
  unexpected: number;
  /** The unexpected ones by HTTP status, plus `socket errors and timeouts (20 s)`. */
  unexpectedBy: Record<string, number>;
  windows: SoakWindow[];
  /** The day's streams, joins and purchases (`--soak-day`). */
  day?: DayResult;
  eventLoop?: {
    p99MaxMs: number | null;
    p99MedianMs: number | null;
    /** Median window of the loop thread's time on a core and waiting for one (schedstat), ms per second. */
    runMedianMsPerS?: number | null;
    waitMedianMsPerS?: number | null;
  };
  /** The windows' GC added up (`--soak-day`). */
  gc?: WindowGc;
  rss: {
    firstMb: number | null;
    maxMb: number | null;
    lastMb: number | null;
    slopeMbPerMinute: number | null;
  };
}

/** The mix: what a member's dashboard and Discover ask for, plus claims (mostly on cooldown). */
const MIX: { path: string; method: 'GET' | 'POST'; weight: number; body?: string }[] = [
  { path: '/api/servers', method: 'GET', weight: 30 },
  { path: '/api/servers/featured', method: 'GET', weight: 10 },
  { path: '/api/auth/user', method: 'GET', weight: 15 },
  { path: '/api/hourly', method: 'GET', weight: 10 },
  { path: '/api/transactions', method: 'GET', weight: 10 },
  { path: '/api/transactions/summary', method: 'GET', weight: 5 },
  { path: '/api/servers/mine', method: 'GET', weight: 5 },
  { path: '/api/social', method: 'GET', weight: 5 },
  { path: '/api/servers?q=guild%201', method: 'GET', weight: 5 },
  { path: '/api/hourly/claim', method: 'POST', weight: 5, body: JSON.stringify({ type: 'regular' }) },
];

/** `--soak-day`: members also open pages (signed-in HTML), as a visit from a Discord link does. */
const PAGE_MIX: typeof MIX = [
  { path: '/', method: 'GET', weight: 3 },
  { path: '/dashboard', method: 'GET', weight: 2 },
  { path: '/daily', method: 'GET', weight: 2 },
  { path: '/socials', method: 'GET', weight: 1 },
  { path: '/joins', method: 'GET', weight: 1 },
  { path: '/campaigns', method: 'GET', weight: 1 },
];

/** Least-squares slope of RSS over time, in MB per minute. */
function slope(points: { x: number; y: number }[]): number | null {
  if (points.length < 3) return null;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? null : (num / den) * 60;
}

export async function runSoak(options: {
  baseUrl: string;
  pid: number | undefined;
  cookies: string[];
  seconds: number;
  connections: number;
  rate: number | null;
  log: (msg: string) => void;
  /** `--soak-day`: streams, joins, leaves and purchases beside the mix, and pages in it. */
  day?: SoakDay;
}): Promise<SoakResult> {
  const mix = options.day ? [...MIX, ...PAGE_MIX] : MIX;
  const schedule: (typeof MIX)[number][] = mix.flatMap((m) => Array.from({ length: m.weight }, () => m));
  // Every endpoint must answer 2xx once before the soak (a 404 in the mix would be a bench bug).
  for (const m of mix.filter((m) => m.method === 'GET')) {
    const res = await fetch(`${options.baseUrl}${m.path}`, { headers: { cookie: options.cookies[0]! } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`soak: ${m.path} answered ${res.status}`);
  }

  const windows: SoakWindow[] = [];
  let windowLatencies: number[] = [];
  let windowNon2xx = 0;
  let expected4xx = 0;
  let unexpected = 0;
  const unexpectedBy: Record<string, number> = {};
  const started = performance.now();
  let windowStart = started;
  let benchCpuAt = process.cpuUsage();
  const closeWindow = () => {
    const now = performance.now();
    const benchCpu = process.cpuUsage(benchCpuAt);
    benchCpuAt = process.cpuUsage();
    const lat = windowLatencies.sort((a, b) => a - b);
    const rss = rssBytes(options.pid);
    windows.push({
      at: round((now - started) / 1000, 1),
      requests: lat.length,
      rps: round(lat.length / ((now - windowStart) / 1000)),
      p50: round(percentile(lat, 50), 2),
      p99: round(percentile(lat, 99), 2),
      non2xx: windowNon2xx,
      rssMb: rss === null ? null : round(rss / 1024 / 1024, 1),
      memory,
      ...(options.day
        ? {
            eventLoopP99Ms: server?.eventLoopP99Ms ?? null,
            eventLoopMaxMs: server?.eventLoopMaxMs ?? null,
            routes: server && priorServer ? routeP99s(priorServer.buckets, server.buckets) : {},
            cpu: server && priorServer ? cpuShares(priorServer, server) : null,
            loopSched: server && priorServer ? loopSchedOf(priorServer, server) : null,
            benchCpu: round(((benchCpu.user + benchCpu.system) / 1000 / (now - windowStart)) * 100, 0),
            pages:
              server && priorServer
                ? Object.fromEntries(
                    Object.entries(server.pages).map(([k, v]) => [k, v - (priorServer?.pages[k] ?? 0)]),
                  )
                : {},
            gc: server && priorServer ? gcBetween(priorServer.gc, server.gc) : null,
            day: options.day.takeWindow(),
          }
        : {}),
    });
    if (server) priorServer = server;
    const w = windows.at(-1)!;
    const m = w.memory;
    options.log(
      `soak ${w.at}s: ${w.rps} req/s, p50 ${w.p50} ms, p99 ${w.p99} ms, non-2xx ${w.non2xx}, RSS ${w.rssMb} MB` +
        (m
          ? ` (heap ${m.heapUsedMb}/${m.heapTotalMb} MB, new space ${m.newSpaceMb}, external ${m.externalMb} (page cache ${m.pageCacheMb ?? '?'}), renderer ${m.rendererHeapUsedMb}/${m.rendererHeapTotalMb} + ${m.rendererExternalMb}, other ${m.otherMb})`
          : '') +
        (w.day
          ? `; loop delay p99 ${w.eventLoopP99Ms} ms (max ${w.eventLoopMaxMs}); CPU % loop ${w.cpu?.loop}, renderer ${w.cpu?.renderer}, other threads ${w.cpu?.otherThreads}; loop thread on a core ${w.loopSched?.runMsPerS ?? '?'} ms/s, waiting for one ${w.loopSched?.waitMsPerS ?? '?'} ms/s; bench process CPU ${w.benchCpu} %; GC ${w.gc ? `${w.gc.minor} minor (${w.gc.minorMs} ms), ${w.gc.major} major (${w.gc.majorMs} ms), pauses ≥ 20 ms ${w.gc.pausesOver20Ms}, ≥ 50 ms ${w.gc.pausesOver50Ms}` : '?'}; pages ${JSON.stringify(w.pages ?? {})}; streams ${w.day.streamsOpen}, events ${w.day.streamEvents}, joins ${w.day.joins}, leaves ${w.day.leaves}, purchases ${w.day.purchases}; slowest routes ` +
            Object.entries(w.routes ?? {})
              .sort((a, b) => (b[1].p99Ms ?? Infinity) - (a[1].p99Ms ?? Infinity))
              .slice(0, 3)
              .map(([r, v]) => `${r} p99 ≤ ${v.p99Ms ?? '>10000'} ms (${v.requests})`)
              .join(', ')
          : ''),
    );
    windowLatencies = [];
    windowNon2xx = 0;
    windowStart = now;
  };
  // The memory split (and with a day, the loop delay and route histograms) is read asynchronously
  // just before each window closes.
  let memory: MemorySplit | null = null;
  let server: ServerWindow | null = null;
  let priorServer: ServerWindow | null = null;
  const memoryTimer = setInterval(() => {
    if (options.day)
      void readServerWindow(options.baseUrl, options.pid).then((w) => {
        server = w;
        memory = w?.memory ?? null;
      });
    else void readMemorySplit(options.baseUrl).then((m) => (memory = m));
  }, 10_000);
  if (options.day) {
    priorServer = await readServerWindow(options.baseUrl, options.pid);
    await options.day.start();
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const timer = setInterval(closeWindow, 10_000);
  try {
    const result = await load({
      url: options.baseUrl,
      connections: options.connections,
      duration: options.seconds,
      // What a browser sends with every request: pages and API answers are compressed as members get them
      // (without it, until session 18, every page load was answered inflated through the full stack).
      headers: { 'accept-encoding': 'gzip, deflate, br' },
      ...(options.rate ? { overallRate: options.rate } : {}),
      requestFor: (n) => {
        const m = schedule[(n * 7919) % schedule.length]!;
        return {
          cookie: options.cookies[n % options.cookies.length],
          path: m.path,
          method: m.method,
          ...(m.body ? { body: m.body } : {}),
        };
      },
      onResponse: (status, latency) => {
        windowLatencies.push(latency);
        if (status < 200 || status >= 300) {
          windowNon2xx += 1;
          // A claim on cooldown answers 425 (too early); nothing else in the mix may fail.
          if (status === 425 || status === 409) expected4xx += 1;
          else {
            unexpected += 1;
            unexpectedBy[String(status)] = (unexpectedBy[String(status)] ?? 0) + 1;
          }
        }
      },
    });
    clearInterval(timer);
    clearInterval(memoryTimer);
    if (performance.now() - windowStart > 2_000) closeWindow();
    const day = options.day ? await options.day.stop() : undefined;
    if (day) {
      options.log(`day: ${SoakDay.describe(day)}`);
      unexpected += day.unexpected;
      if (day.unexpected > 0) unexpectedBy['day (streams, joins, purchases)'] = day.unexpected;
    }
    unexpected += result.errors;
    if (result.errors > 0) unexpectedBy['socket errors and timeouts (20 s)'] = result.errors;
    const rssPoints = windows.filter((w) => w.rssMb !== null).map((w) => ({ x: w.at, y: w.rssMb! }));
    return {
      users: options.cookies.length,
      seconds: result.seconds,
      connections: options.connections,
      rate: options.rate,
      mix: mix.map((m) => ({ path: m.path, method: m.method, share: m.weight / schedule.length })),
      requests: result.requests,
      rps: round(result.rps),
      p50: result.p50,
      p99: result.p99,
      expected4xx,
      unexpected,
      unexpectedBy,
      windows,
      ...(day
        ? {
            day,
            gc: windows.reduce<WindowGc>(
              (t, w) => ({
                minor: t.minor + (w.gc?.minor ?? 0),
                minorMs: round(t.minorMs + (w.gc?.minorMs ?? 0), 1),
                major: t.major + (w.gc?.major ?? 0),
                majorMs: round(t.majorMs + (w.gc?.majorMs ?? 0), 1),
                pausesOver20Ms: t.pausesOver20Ms + (w.gc?.pausesOver20Ms ?? 0),
                pausesOver50Ms: t.pausesOver50Ms + (w.gc?.pausesOver50Ms ?? 0),
              }),
              { minor: 0, minorMs: 0, major: 0, majorMs: 0, pausesOver20Ms: 0, pausesOver50Ms: 0 },
            ),
            eventLoop: (() => {
              const p99s = windows
                .map((w) => w.eventLoopP99Ms)
                .filter((v): v is number => typeof v === 'number')
                .sort((a, b) => a - b);
              const median = (values: (number | undefined)[]) => {
                const sorted = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
                return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : null;
              };
              return {
                p99MaxMs: p99s.at(-1) ?? null,
                p99MedianMs: p99s.length ? p99s[Math.floor(p99s.length / 2)]! : null,
                runMedianMsPerS: median(windows.map((w) => w.loopSched?.runMsPerS)),
                waitMedianMsPerS: median(windows.map((w) => w.loopSched?.waitMsPerS)),
              };
            })(),
          }
        : {}),
      rss: {
        firstMb: rssPoints[0]?.y ?? null,
        maxMb: rssPoints.length ? Math.max(...rssPoints.map((p) => p.y)) : null,
        lastMb: rssPoints.at(-1)?.y ?? null,
        slopeMbPerMinute: (() => {
          // The trend over the second half: the first windows include warm-up growth (JIT, caches).
          const s = slope(rssPoints.slice(Math.floor(rssPoints.length / 2)));
          return s === null ? null : round(s, 2);
        })(),
      },
    };
  } finally {
    clearInterval(timer);
    clearInterval(memoryTimer);
  }
}
