import { performance } from 'node:perf_hooks';
import { load, percentile, round } from './load.ts';
import { BENCH_METRICS_TOKEN, rssBytes } from './processes.ts';

// `npm run bench -- --soak`: a mixed load of the real endpoints by many signed-in users for a few
// minutes, to see memory and latency over time rather than after a short burst. Every 10 s window
// records requests, p50/p99, non-2xx and errors, and the product's RSS (VmRSS). A soak passes when
// RSS stays ≤ 300 MB throughout with no upward trend and no request failed unexpectedly.

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
}

/** The product's memory split: V8 heap (used/total, young generation), external (Buffers, native addons' accounted memory). */
export interface MemorySplit {
  heapUsedMb: number;
  heapTotalMb: number;
  newSpaceMb: number;
  externalMb: number;
  /** RSS minus V8's heap and external: code, native allocations (SQLite page cache, OpenSSL, zlib), malloc arenas. */
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
    const mb = (v: number | null) => (v === null ? NaN : round(v / 1024 / 1024, 1));
    const rss = metricValue(text, 'coinsync_process_resident_memory_bytes');
    const heapUsed = metricValue(text, 'coinsync_nodejs_heap_size_used_bytes');
    const heapTotal = metricValue(text, 'coinsync_nodejs_heap_size_total_bytes');
    const external = metricValue(text, 'coinsync_nodejs_external_memory_bytes');
    const newSpace = metricValue(text, 'coinsync_nodejs_heap_space_size_total_bytes', 'space="new"');
    if (rss === null || heapTotal === null || external === null) return null;
    return {
      heapUsedMb: mb(heapUsed),
      heapTotalMb: mb(heapTotal),
      newSpaceMb: mb(newSpace),
      externalMb: mb(external),
      otherMb: mb(rss - heapTotal - external),
    };
  } catch {
    return null;
  }
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
}): Promise<SoakResult> {
  const schedule: (typeof MIX)[number][] = MIX.flatMap((m) => Array.from({ length: m.weight }, () => m));
  // Every endpoint must answer 2xx once before the soak (a 404 in the mix would be a bench bug).
  for (const m of MIX.filter((m) => m.method === 'GET')) {
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
  const closeWindow = () => {
    const now = performance.now();
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
    });
    const w = windows.at(-1)!;
    const m = w.memory;
    options.log(
      `soak ${w.at}s: ${w.rps} req/s, p50 ${w.p50} ms, p99 ${w.p99} ms, non-2xx ${w.non2xx}, RSS ${w.rssMb} MB` +
        (m
          ? ` (heap ${m.heapUsedMb}/${m.heapTotalMb} MB, new space ${m.newSpaceMb}, external ${m.externalMb}, other ${m.otherMb})`
          : ''),
    );
    windowLatencies = [];
    windowNon2xx = 0;
    windowStart = now;
  };
  // The memory split is read asynchronously just before each window closes.
  let memory: MemorySplit | null = null;
  const memoryTimer = setInterval(() => {
    void readMemorySplit(options.baseUrl).then((m) => (memory = m));
  }, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const timer = setInterval(closeWindow, 10_000);
  try {
    const result = await load({
      url: options.baseUrl,
      connections: options.connections,
      duration: options.seconds,
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
    unexpected += result.errors;
    if (result.errors > 0) unexpectedBy['socket errors and timeouts (20 s)'] = result.errors;
    const rssPoints = windows.filter((w) => w.rssMb !== null).map((w) => ({ x: w.at, y: w.rssMb! }));
    return {
      users: options.cookies.length,
      seconds: result.seconds,
      connections: options.connections,
      rate: options.rate,
      mix: MIX.map((m) => ({ path: m.path, method: m.method, share: m.weight / schedule.length })),
      requests: result.requests,
      rps: round(result.rps),
      p50: result.p50,
      p99: result.p99,
      expected4xx,
      unexpected,
      unexpectedBy,
      windows,
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
