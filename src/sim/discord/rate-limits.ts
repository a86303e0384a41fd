// Discord's REST rate limits, as documented in discord-api-docs `developers/topics/rate-limits.mdx`:
// per-route buckets keyed by the route *and* its major parameter (guild, channel, webhook id), a global
// per-bot limit, X-RateLimit-* headers on every response, 429 bodies `{message, retry_after, global}`
// with a Retry-After header, and a count of invalid requests (401/403/429, except 429s of scope
// `shared`) over 10 minutes — 10,000 of them get an IP banned by Cloudflare for about an hour.
//
// Discord does not publish its per-route numbers (they are discovered from the headers and change),
// so the limits below are plausible values, configurable, and the product must never assume them.
import { createHash } from 'node:crypto';
import type { RESTRateLimit } from 'discord-api-types/v10';
import type { NextFunction, Request, Response } from 'express';

/** A 429 body; Discord's OpenAPI document requires `code` (0: general) beside discord-api-types' fields. */
export function rateLimitedBody(retryAfter: number, global: boolean): RESTRateLimit & { code: number } {
  return { message: 'You are being rate limited.', retry_after: retryAfter, global, code: 0 };
}

export interface BucketLimit {
  limit: number;
  windowMs: number;
}

export interface RateLimitConfig {
  enabled: boolean;
  /** Requests per second per bot token (Discord: 50). */
  globalPerSecond: number;
  /** The global limit's window (Discord: one second; tests may stretch it). */
  globalWindowMs: number;
  /** Per-route limits by bucket name (see ROUTES); anything unlisted uses `default`. */
  buckets: Record<string, BucketLimit>;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  enabled: true,
  globalPerSecond: 50,
  globalWindowMs: 1000,
  buckets: {
    default: { limit: 50, windowMs: 1000 },
    'guild-member': { limit: 10, windowMs: 1000 },
    'guild-members-list': { limit: 10, windowMs: 10_000 },
    'guild-audit-log': { limit: 5, windowMs: 5000 },
    guild: { limit: 5, windowMs: 1000 },
    invite: { limit: 40, windowMs: 1000 },
    'dm-open': { limit: 5, windowMs: 5000 },
    'channel-messages': { limit: 5, windowMs: 5000 },
    'current-user-guilds': { limit: 5, windowMs: 5000 },
  },
};

/** Ten minutes: the window of Discord's invalid-request ban. */
export const INVALID_REQUEST_WINDOW_MS = 10 * 60 * 1000;
/** Invalid requests in the window that get an IP banned (Cloudflare, about an hour). */
export const INVALID_REQUEST_BAN_THRESHOLD = 10_000;

interface RouteRule {
  method: string;
  pattern: RegExp;
  bucket: string;
  /** Index of the capture group holding the major parameter, if any. */
  major?: number;
}

// Paths relative to /api[/vN]. Order matters: the first match wins.
const ROUTES: RouteRule[] = [
  { method: 'GET', pattern: /^\/guilds\/(\d+)\/members\/(\d+)$/, bucket: 'guild-member', major: 1 },
  { method: 'GET', pattern: /^\/guilds\/(\d+)\/members$/, bucket: 'guild-members-list', major: 1 },
  { method: 'GET', pattern: /^\/guilds\/(\d+)\/audit-logs$/, bucket: 'guild-audit-log', major: 1 },
  { method: 'GET', pattern: /^\/guilds\/(\d+)$/, bucket: 'guild', major: 1 },
  { method: 'GET', pattern: /^\/invites\/[^/]+$/, bucket: 'invite' },
  { method: 'POST', pattern: /^\/users\/@me\/channels$/, bucket: 'dm-open' },
  { method: 'POST', pattern: /^\/channels\/(\d+)\/messages$/, bucket: 'channel-messages', major: 1 },
  { method: 'GET', pattern: /^\/users\/@me\/guilds$/, bucket: 'current-user-guilds' },
];

interface BucketState {
  resetAt: number;
  remaining: number;
}

export interface RateLimitStats {
  requests: number;
  rateLimited: number;
  globalRateLimited: number;
  /** 401/403/429 responses (429s of scope `shared` excepted) in the last ten minutes. */
  invalidRequests: number;
}

function bucketHash(name: string): string {
  return createHash('sha1').update(`coinsync-sim:${name}`).digest('hex').slice(0, 16);
}

/** Strips the /api or /api/vN prefix so rules see Discord's route paths. */
export function routePath(path: string): string {
  return path.replace(/^\/api(\/v\d+)?/, '').replace(/\/+$/, '') || '/';
}

export class RateLimiter {
  config: RateLimitConfig;
  private buckets = new Map<string, BucketState>();
  private global = new Map<string, BucketState>();
  private invalid: number[] = [];
  private counters = { requests: 0, rateLimited: 0, globalRateLimited: 0 };

  constructor(
    config: Partial<RateLimitConfig> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.config = {
      ...DEFAULT_RATE_LIMITS,
      ...config,
      buckets: { ...DEFAULT_RATE_LIMITS.buckets, ...config.buckets },
    };
  }

  configure(config: Partial<RateLimitConfig>): void {
    this.config = { ...this.config, ...config, buckets: { ...this.config.buckets, ...config.buckets } };
  }

  reset(): void {
    this.buckets.clear();
    this.global.clear();
    this.invalid = [];
    this.counters = { requests: 0, rateLimited: 0, globalRateLimited: 0 };
  }

  stats(): RateLimitStats {
    this.pruneInvalid();
    return { ...this.counters, invalidRequests: this.invalid.length };
  }

  /** Counts a response toward the invalid-request ban when Discord would. */
  recordResponse(status: number, scope: string | undefined): void {
    if (status === 401 || status === 403 || (status === 429 && scope !== 'shared')) {
      this.invalid.push(this.now());
      if (this.invalid.length > 20_000) this.pruneInvalid();
    }
  }

  private pruneInvalid(): void {
    const cutoff = this.now() - INVALID_REQUEST_WINDOW_MS;
    let drop = 0;
    while (drop < this.invalid.length && (this.invalid[drop] ?? 0) < cutoff) drop += 1;
    if (drop > 0) this.invalid.splice(0, drop);
  }

  private take(
    map: Map<string, BucketState>,
    key: string,
    limit: BucketLimit,
    now: number,
  ): { ok: boolean; state: BucketState } {
    let state = map.get(key);
    if (!state || state.resetAt <= now) {
      state = { resetAt: now + limit.windowMs, remaining: limit.limit };
      map.set(key, state);
    }
    if (state.remaining <= 0) return { ok: false, state };
    state.remaining -= 1;
    return { ok: true, state };
  }

  /**
   * Express middleware for the REST router. `identity` names who the limits are for: the bot token,
   * a user's bearer token, or the caller's address for unauthenticated routes.
   */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      res.on('finish', () =>
        this.recordResponse(res.statusCode, res.getHeader('x-ratelimit-scope') as string | undefined),
      );
      if (!this.config.enabled) return next();
      this.counters.requests += 1;
      const path = routePath(req.path);
      const identity = req.get('authorization') ?? `ip:${req.ip ?? ''}`;
      const now = this.now();

      // Global limit first (per token; Discord counts unauthenticated requests per IP).
      const global = this.take(
        this.global,
        identity,
        {
          limit: this.config.globalPerSecond,
          windowMs: this.config.globalWindowMs,
        },
        now,
      );
      if (!global.ok) {
        this.counters.rateLimited += 1;
        this.counters.globalRateLimited += 1;
        const retryAfter = Math.max(0.001, (global.state.resetAt - now) / 1000);
        res.setHeader('Retry-After', String(Math.ceil(retryAfter)));
        res.setHeader('X-RateLimit-Global', 'true');
        res.setHeader('X-RateLimit-Scope', 'global');
        res.status(429).json(rateLimitedBody(retryAfter, true));
        return;
      }

      const rule = ROUTES.find((r) => r.method === req.method && r.pattern.test(path));
      const bucketName = rule?.bucket ?? 'default';
      const limit =
        this.config.buckets[bucketName] ??
        this.config.buckets.default ??
        DEFAULT_RATE_LIMITS.buckets.default!;
      const major = rule?.major !== undefined ? (rule.pattern.exec(path)?.[rule.major] ?? '') : '';
      // Unlisted routes each get their own bucket (Discord buckets per route, not per "default").
      const routeKey = rule ? bucketName : `${req.method} ${path.replace(/\d{15,}/g, ':id')}`;
      const key = `${identity}|${routeKey}|${major}`;
      const taken = this.take(this.buckets, key, limit, now);
      const resetAfter = Math.max(0, (taken.state.resetAt - now) / 1000);
      res.setHeader('X-RateLimit-Limit', String(limit.limit));
      res.setHeader('X-RateLimit-Remaining', String(taken.state.remaining));
      res.setHeader('X-RateLimit-Reset', (taken.state.resetAt / 1000).toFixed(3));
      res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
      res.setHeader('X-RateLimit-Bucket', bucketHash(routeKey));
      if (!taken.ok) {
        this.counters.rateLimited += 1;
        res.setHeader('Retry-After', String(Math.ceil(resetAfter)));
        res.setHeader('X-RateLimit-Scope', 'user');
        res.status(429).json(rateLimitedBody(resetAfter, false));
        return;
      }
      next();
    };
  }
}
