import autocannon from 'autocannon';

// Thin wrappers over autocannon that return the numbers the report needs.

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Completed requests per second over the whole run (not autocannon's per-second average). */
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
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
}

function summarize(result: autocannon.Result): LoadResult {
  const requests = result.requests.total;
  // result.duration is rounded to whole seconds; short fixed-amount runs need the real wall time.
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    requests,
    seconds: round(seconds, 3),
    rps: seconds > 0 ? requests / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const headers = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const cookies = options.cookies;
  let next = 0;
  const request: autocannon.Request = { method: options.method ?? 'GET', body: options.body, headers };
  if (cookies && cookies.length > 0) {
    // autocannon calls this for every request it sends; each one takes the next session in turn.
    request.setupRequest = (req) => {
      const cookie = cookies[next % cookies.length]!;
      next += 1;
      return { ...req, headers: { ...req.headers, cookie } };
    };
  }
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration ?? 10,
    amount: options.amount,
    timeout: 20,
    requests: [request],
  });
  return summarize(result);
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
