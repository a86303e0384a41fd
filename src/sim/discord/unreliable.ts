// "Unreliable Discord" for tests and benches: at a set rate, with a seed (so a failing run can be
// replayed), the simulator answers like Discord on a bad day — an unexpected 429, a 5xx, Cloudflare's
// HTML error page instead of JSON —, writes some audit-log entries late (after the GUILD_MEMBER_REMOVE
// the bot already received), and drops member / moderation gateway events (which reconciliation has
// to make up for).
//
// Each channel (REST answers, gateway events, audit entries) draws from its own seeded stream, so the
// faults of one channel do not depend on how much traffic the others saw: the n-th REST request of a
// run with seed S is hit (or not) by the same fault every time.
import type { NextFunction, Request, Response } from 'express';
import { cloudflareHtml, rateLimitedBody, routePath } from './rate-limits.ts';

export { cloudflareHtml } from './rate-limits.ts';

export type Fault = 'rate-limit' | 'server-error' | 'html' | 'late-audit' | 'drop-event';

export const ALL_FAULTS: readonly Fault[] = [
  'rate-limit',
  'server-error',
  'html',
  'late-audit',
  'drop-event',
];
const REST_FAULTS: readonly Fault[] = ['rate-limit', 'server-error', 'html'];

export interface UnreliableConfig {
  /**
   * Probability (0..1) that a REST request, an audit-log entry or a droppable gateway event is hit by
   * a fault. A hit REST request gets one of the enabled REST faults, chosen evenly.
   */
  rate: number;
  seed: number;
  /** Which faults may be injected (default: all). */
  faults: Fault[];
  /** Every audit-log entry becomes visible (REST and gateway) this long after the removal; 0 = at once. */
  auditDelayMs: number;
  /** How late a `late-audit` entry is (on top of auditDelayMs). */
  lateAuditMs: number;
  /** retry_after of injected 429s, in seconds. */
  retryAfterSeconds: number;
}

export const RELIABLE: UnreliableConfig = {
  rate: 0,
  seed: 1,
  faults: [...ALL_FAULTS],
  auditDelayMs: 0,
  lateAuditMs: 3000,
  retryAfterSeconds: 0.05,
};

/** mulberry32: small, fast, good enough to make fault sequences reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the REST middleware injected, in order (tests compare runs of one seed). */
export type RestFaultKind = 'rate-limit' | 'server-error-500' | 'server-error-503' | 'html-502' | 'html-429';
export const REST_FAULT_KINDS: readonly RestFaultKind[] = [
  'rate-limit',
  'server-error-500',
  'server-error-503',
  'html-502',
  'html-429',
];

/**
 * A fault for the next matching request(s), whatever the rate (a test's "Discord answers this call
 * with a 429 and Retry-After: 120"). Matching requests are those of `method` whose Discord route path
 * (without /api/vN) contains `path`; both optional.
 */
export interface ScriptedFault {
  fault: RestFaultKind;
  /** Retry-After of a 429, in seconds (default: the configured retryAfterSeconds). */
  retryAfterSeconds?: number;
  method?: string;
  path?: string;
  /** How many matching requests get it (default 1). */
  times?: number;
}

export interface InjectedCounts {
  rateLimit: number;
  serverError: number;
  html: number;
  lateAudit: number;
  droppedEvents: number;
  /** Requests, audit entries and droppable events that went through the dice (hit or not). */
  restRolls: number;
  auditRolls: number;
  eventRolls: number;
}

const zeroCounts = (): InjectedCounts => ({
  rateLimit: 0,
  serverError: 0,
  html: 0,
  lateAudit: 0,
  droppedEvents: 0,
  restRolls: 0,
  auditRolls: 0,
  eventRolls: 0,
});

export class Unreliable {
  config: UnreliableConfig = { ...RELIABLE, faults: [...RELIABLE.faults] };
  readonly injected: InjectedCounts = zeroCounts();
  private streams = Unreliable.streams(RELIABLE.seed);
  private scripted: (ScriptedFault & { times: number })[] = [];

  /** Queues a fault for the next matching request(s), independent of rate and seed. */
  inject(fault: ScriptedFault): void {
    this.scripted.push({ ...fault, times: fault.times ?? 1 });
  }

  private takeScripted(method: string, path: string): ScriptedFault | null {
    const index = this.scripted.findIndex(
      (f) =>
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (f.path === undefined || path.includes(f.path)),
    );
    const found = this.scripted[index];
    if (!found) return null;
    found.times -= 1;
    if (found.times <= 0) this.scripted.splice(index, 1);
    if (found.fault === 'rate-limit') this.injected.rateLimit += 1;
    else if (found.fault.startsWith('html')) this.injected.html += 1;
    else this.injected.serverError += 1;
    return found;
  }

  private static streams(seed: number) {
    return {
      rest: mulberry32(seed),
      audit: mulberry32((seed ^ 0x9e3779b9) >>> 0),
      gateway: mulberry32((seed ^ 0x85ebca6b) >>> 0),
    };
  }

  /** Changes settings; the fault sequence restarts from the seed whenever rate, seed or faults change. */
  configure(config: Partial<UnreliableConfig>): void {
    if (config.rate !== undefined && !(config.rate >= 0 && config.rate <= 1)) {
      throw new RangeError('unreliable: rate must be between 0 and 1');
    }
    this.config = { ...this.config, ...config, faults: [...(config.faults ?? this.config.faults)] };
    if (config.seed !== undefined || config.rate !== undefined || config.faults !== undefined) {
      this.streams = Unreliable.streams(this.config.seed);
    }
  }

  reset(): void {
    this.config = { ...RELIABLE, faults: [...RELIABLE.faults] };
    this.streams = Unreliable.streams(RELIABLE.seed);
    this.scripted = [];
    Object.assign(this.injected, zeroCounts());
  }

  private hit(stream: () => number, fault: Fault): boolean {
    if (this.config.rate <= 0 || !this.config.faults.includes(fault)) return false;
    return stream() < this.config.rate;
  }

  /** Whether to drop a member or moderation gateway event. */
  dropEvent(): boolean {
    if (this.config.rate <= 0 || !this.config.faults.includes('drop-event')) return false;
    this.injected.eventRolls += 1;
    const dropped = this.hit(this.streams.gateway, 'drop-event');
    if (dropped) this.injected.droppedEvents += 1;
    return dropped;
  }

  /** How long after its action a new audit-log entry becomes visible (ms). */
  auditDelay(): number {
    let delay = this.config.auditDelayMs;
    if (this.config.rate > 0 && this.config.faults.includes('late-audit')) {
      this.injected.auditRolls += 1;
      if (this.hit(this.streams.audit, 'late-audit')) {
        this.injected.lateAudit += 1;
        delay += this.config.lateAuditMs;
      }
    }
    return delay;
  }

  /** The REST fault for the next request, or null. */
  nextRestFault(): RestFaultKind | null {
    const enabled = REST_FAULTS.filter((f) => this.config.faults.includes(f));
    if (this.config.rate <= 0 || enabled.length === 0) return null;
    this.injected.restRolls += 1;
    const random = this.streams.rest;
    if (random() >= this.config.rate) return null;
    const fault = enabled[Math.floor(random() * enabled.length)] ?? 'server-error';
    const coin = random() < 0.5;
    if (fault === 'rate-limit') {
      this.injected.rateLimit += 1;
      return 'rate-limit';
    }
    if (fault === 'server-error') {
      this.injected.serverError += 1;
      return coin ? 'server-error-500' : 'server-error-503';
    }
    this.injected.html += 1;
    return coin ? 'html-502' : 'html-429';
  }

  /** REST middleware, after the rate limiter (an injected fault still consumed its bucket). */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const scripted = this.scripted.length > 0 ? this.takeScripted(req.method, routePath(req.path)) : null;
      const fault = scripted?.fault ?? this.nextRestFault();
      if (fault === null) return next();
      const retryAfter = scripted?.retryAfterSeconds ?? this.config.retryAfterSeconds;
      switch (fault) {
        case 'rate-limit':
          // A limit the headers did not announce (Discord's per-resource limits look like this).
          res.setHeader('Retry-After', retryAfter.toFixed(3));
          res.setHeader('X-RateLimit-Scope', 'user');
          res.status(429).json(rateLimitedBody(retryAfter, false));
          return;
        case 'server-error-500':
          res.status(500).json({ message: '500: Internal Server Error', code: 0 });
          return;
        case 'server-error-503':
          res.status(503).json({ message: '503: Service Unavailable', code: 0 });
          return;
        case 'html-502':
          // Cloudflare in front of Discord answers HTML, not JSON: a 502 page…
          res.status(502).type('text/html').send(cloudflareHtml(502, 'Bad gateway'));
          return;
        case 'html-429':
          // …or its 429 page (with Retry-After; a client that parsed the body as JSON would throw).
          res.setHeader('Retry-After', retryAfter.toFixed(3));
          res.status(429).type('text/html').send(cloudflareHtml(429, 'You are being rate limited'));
          return;
      }
    };
  }
}
