import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import type { GcDuring } from './gc.ts';

// Thin wrappers over autocannon that return the numbers the report needs.
//
// Timing is ours, not autocannon's: autocannon ends a fixed-amount run on its one-second sampling
// tick and rounds `duration`, so 2,000 requests that take 1.1 s were reported as ~2.0 s (issue 18).
// Here the run's wall time is measured from just before the first request to the last response
// (performance.now() in the 'response' events), and percentiles come from every response's own
// latency (autocannon's histogram keeps whole milliseconds).

export interface LoadResult {
  requests: number;
  /** Wall time from the start of the run to its last response. */
  seconds: number;
  /** Completed requests per second of wall time. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /**
   * CPU time the server process used per answered request during the run (user + system, from
   * /proc), when the bench knows the server's pid. Less distorted by a busy machine than req/s.
   */
  cpuMsPerRequest?: number | null;
  /** Responses by HTTP status (set by load(), not by combine()). */
  statuses?: Record<number, number>;
  /** Garbage collection in the server during the run (gc.ts), when measured. */
  gc?: GcDuring | null;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds to run (ignored when amount is set). */
  duration?: number;
  amount?: number;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** One cookie header per request, taken in turn (each connection takes the next one). */
  cookies?: string[];
  /** Per-request override: the n-th request (0-based) gets this cookie, path, method, body and headers. */
  requestFor?: (n: number) => {
    cookie?: string;
    path?: string;
    body?: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
  };
  /** Requests per second over all connections (autocannon's overallRate); unset = as fast as possible. */
  overallRate?: number;
  /** Called for every response (soak windows). */
  onResponse?: (statusCode: number, latencyMs: number) => void;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const headers = { ...(options.headers ?? {}) };
  if (options.body !== undefined || options.method === 'POST' || options.requestFor)
    headers['content-type'] = 'application/json';
  const cookies = options.cookies;
  let next = 0;
  const request: autocannon.Request = { method: options.method ?? 'GET', body: options.body, headers };
  if (options.requestFor) {
    const requestFor = options.requestFor;
    request.setupRequest = (req) => {
      const over = requestFor(next++);
      return {
        ...req,
        ...(over.path ? { path: over.path } : {}),
        ...(over.method ? { method: over.method } : {}),
        ...(over.body !== undefined ? { body: over.body } : {}),
        headers: { ...req.headers, ...over.headers, ...(over.cookie ? { cookie: over.cookie } : {}) },
      };
    };
  } else if (cookies && cookies.length > 0) {
    // autocannon calls this for every request it sends; each one takes the next session in turn.
    request.setupRequest = (req) => {
      const cookie = cookies[next % cookies.length]!;
      next += 1;
      return { ...req, headers: { ...req.headers, cookie } };
    };
  }
  const latencies: number[] = [];
  let non2xx = 0;
  const statuses: Record<number, number> = {};
  let lastResponse = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        // autocannon refuses more connections than requests.
        connections:
          options.amount !== undefined ? Math.min(options.connections, options.amount) : options.connections,
        duration: options.duration ?? 10,
        amount: options.amount,
        timeout: 20,
        ...(options.overallRate ? { overallRate: options.overallRate } : {}),
        requests: [request],
      },
      (err, res) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res)),
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      lastResponse = performance.now();
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      // A 304 answers a revalidation (If-None-Match): the page the browser has is current.
      if (statusCode < 200 || (statusCode >= 300 && statusCode !== 304)) non2xx += 1;
      options.onResponse?.(statusCode, responseTime);
    });
  });
  const seconds = lastResponse > 0 ? (lastResponse - started) / 1000 : 0;
  const summary = summarize(latencies, seconds, non2xx, result.errors + result.timeouts);
  summary.statuses = statuses;
  return summary;
}

const LATENCIES = Symbol('latencies');

function summarize(latencies: number[], seconds: number, non2xx: number, errors: number): LoadResult {
  latencies.sort((a, b) => a - b);
  const summary: LoadResult = {
    requests: latencies.length,
    seconds: round(seconds, 3),
    rps: seconds > 0 ? latencies.length / seconds : 0,
    p50: round(percentile(latencies, 50), 2),
    p99: round(percentile(latencies, 99), 2),
    max: round(latencies.at(-1) ?? Number.NaN, 2),
    non2xx,
    errors,
  };
  // Kept for combine(), invisible to JSON.stringify.
  Object.defineProperty(summary, LATENCIES, { value: latencies, enumerable: false });
  return summary;
}

/** Several runs as one: requests and wall time add up, percentiles over all their responses. */
export function combine(runs: LoadResult[]): LoadResult {
  const latencies = runs.flatMap((r) => (r as LoadResult & { [LATENCIES]?: number[] })[LATENCIES] ?? []);
  const combined = summarize(
    latencies,
    runs.reduce((n, r) => n + r.seconds, 0),
    runs.reduce((n, r) => n + r.non2xx, 0),
    runs.reduce((n, r) => n + r.errors, 0),
  );
  if (runs.every((r) => typeof r.cpuMsPerRequest === 'number')) {
    const cpuMs = runs.reduce((n, r) => n + r.cpuMsPerRequest! * r.requests, 0);
    combined.cpuMsPerRequest = round(cpuMs / combined.requests, 3);
  }
  return combined;
}

/** Runs `work` and sets the CPU the process `pid` used per answered request meanwhile. */
export async function withCpu(
  pid: number | undefined,
  cpuSeconds: (pid: number | undefined) => number | null,
  work: () => Promise<LoadResult>,
): Promise<LoadResult> {
  const before = cpuSeconds(pid);
  const result = await work();
  const after = cpuSeconds(pid);
  result.cpuMsPerRequest =
    before === null || after === null || result.requests === 0
      ? null
      : round(((after - before) * 1000) / result.requests, 3);
  return result;
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}
