// Discord's REST rate limits, as documented in discord-api-docs `developers/topics/rate-limits.mdx`:
// per-route buckets keyed by the route *and* its major parameter (guild, channel, webhook id), a global
// per-bot limit, X-RateLimit-* headers on every response, 429 bodies `{message, retry_after, global}`
// with a Retry-After header, and a count of invalid requests (401/403/429, except 429s of scope
// `shared`) over 10 minutes — 10,000 of them get an IP banned by Cloudflare for about an hour.
//
// Cloudflare in front of Discord bans an address that sent too many invalid requests (or that an
// operator of this simulator bans through the control API): every request then gets Cloudflare's
// HTML 429 page with a Retry-After and no JSON, no X-RateLimit-* headers, for about an hour.
// Unauthenticated calls (no Authorization header, e.g. GET /invites/{code}) are limited per address
// but answered without X-RateLimit-* headers, as Discord does (discord-api-docs #1487).
//
// Discord does not publish its per-route numbers (they are discovered from the headers and change),
// so the limits below are plausible values, configurable, and the product must never assume them.
import { createHash } from 'node:crypto';
import type { RESTRateLimit } from 'discord-api-types/v10';
import type { NextFunction, Request, Response } from 'express';

export const cloudflareHtml = (status: number, title: string): string =>
  `<!DOCTYPE html>\n<html><head><title>${status} ${title} | discord.com | Cloudflare</title></head>` +
  `<body><h1>Error ${status}</h1><p>${title}</p><p>Cloudflare Ray ID: 0000000000000000</p></body></html>`;

/** How long Cloudflare bans an address that crossed the invalid-request threshold (about an hour). */
export const CLOUDFLARE_BAN_MS = 60 * 60 * 1000;

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
  /** Requests answered with Cloudflare's ban page. */
  cloudflareBanned: number;
  /** Until when (epoch ms) the address is banned; 0 when it is not. */
  bannedUntil: number;
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
  private counters = { requests: 0, rateLimited: 0, globalRateLimited: 0, cloudflareBanned: 0 };
  /** Cloudflare's ban of the (one) client address, until this epoch ms. */
  private bannedUntil = 0;

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
    this.counters = { requests: 0, rateLimited: 0, globalRateLimited: 0, cloudflareBanned: 0 };
    this.bannedUntil = 0;
  }

  stats(): RateLimitStats {
    this.pruneInvalid();
    const bannedUntil = this.bannedUntil > this.now() ? this.bannedUntil : 0;
    return { ...this.counters, invalidRequests: this.invalid.length, bannedUntil };
  }

  /** Cloudflare bans the address for `ms` (0 lifts the ban). */
  ban(ms: number): void {
    this.bannedUntil = ms > 0 ? this.now() + ms : 0;
  }

  /** Counts a response toward the invalid-request ban when Discord would; past the threshold, bans. */
  recordResponse(status: number, scope: string | undefined): void {
    if (status === 401 || status === 403 || (status === 429 && scope !== 'shared')) {
      this.invalid.push(this.now());
      if (this.invalid.length >= INVALID_REQUEST_BAN_THRESHOLD) {
        this.pruneInvalid();
        if (this.invalid.length >= INVALID_REQUEST_BAN_THRESHOLD && this.bannedUntil <= this.now())
          this.ban(CLOUDFLARE_BAN_MS);
      }
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
      const now = this.now();
      if (this.bannedUntil > now) {
        // Cloudflare answers before Discord sees the request: HTML, Retry-After, nothing else.
        this.counters.cloudflareBanned += 1;
        res.setHeader('Retry-After', String(Math.ceil((this.bannedUntil - now) / 1000)));
        res.status(429).type('text/html').send(cloudflareHtml(429, 'You are being rate limited'));
        return;
      }
      res.on('finish', () =>
        this.recordResponse(res.statusCode, res.getHeader('x-ratelimit-scope') as string | undefined),
      );
      if (!this.config.enabled) return next();
      this.counters.requests += 1;
      const path = routePath(req.path);
      const authorization = req.get('authorization');
      const identity = authorization ?? `ip:${req.ip ?? ''}`;

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
        if (authorization) {
          res.setHeader('X-RateLimit-Global', 'true');
          res.setHeader('X-RateLimit-Scope', 'global');
        }
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
      // Unauthenticated calls are limited all the same, but Discord sends them no X-RateLimit-* headers.
      if (authorization) {
        res.setHeader('X-RateLimit-Limit', String(limit.limit));
        res.setHeader('X-RateLimit-Remaining', String(taken.state.remaining));
        res.setHeader('X-RateLimit-Reset', (taken.state.resetAt / 1000).toFixed(3));
        res.setHeader('X-RateLimit-Reset-After', resetAfter.toFixed(3));
        res.setHeader('X-RateLimit-Bucket', bucketHash(routeKey));
      }
      if (!taken.ok) {
        this.counters.rateLimited += 1;
        res.setHeader('Retry-After', String(Math.ceil(resetAfter)));
        if (authorization) res.setHeader('X-RateLimit-Scope', 'user');
        res.status(429).json(rateLimitedBody(resetAfter, false));
        return;
      }
      next();
    };
  }
}
