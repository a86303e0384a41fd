import { Router, type Request, type RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { redisWithin } from '../ops/redis.ts';
import type { AppContext } from '../context.ts';
import { recordUserAddress } from '../joins/same-address.ts';
import type { Guard } from './fast-path.ts';
import { errorMessage } from '../ops/error-text.ts';

// Per-user (and per-address) limits on the routes that write: every write costs a transaction and some
// also call Discord, so a script cannot make thousands of rows or hammer the bot. One minute windows;
// the numbers sit far above what a person clicking through the site can reach. Counters live in Redis
// when REDIS_URL is set (they then survive a restart), otherwise in memory.

export type WriteAction = 'submit' | 'promote' | 'join' | 'claim' | 'social' | 'payment';

export const WRITE_LIMIT_WINDOW_MS = 60_000;

/** Requests per user per minute, per kind of write. */
export const WRITE_LIMITS: Record<WriteAction, number> = {
  submit: 10,
  promote: 10,
  join: 30,
  claim: 30,
  social: 30,
  // Each one can reach Stripe (100 requests/s per account, 25/s per endpoint in live mode): one
  // member must not starve everyone's checkout (issue 27 item 3).
  payment: 20,
};

/** All the writes above from one address per minute (several people can share an address). */
export const WRITE_LIMIT_PER_ADDRESS = 300;

export const TOO_MANY_WRITES = 'Too many requests. Please wait a minute and try again.';

/** The write routes, per kind (paths under /api). */
export const WRITE_ROUTES: Record<WriteAction, string[]> = {
  submit: ['/servers', '/servers/no-bot', '/campaigns/:id/invite', '/campaigns/:id/notifications/test'],
  promote: ['/servers/:id/promote'],
  join: ['/servers/:id/join'],
  claim: ['/hourly/claim', '/servers/:id/claim-nobot'],
  social: ['/social/:taskId/start', '/social/:taskId/complete'],
  payment: ['/create-payment-intent', '/payments/:paymentIntentId/sync'],
};

export interface WriteLimitOptions {
  /** Overrides per action (tests use small numbers); `false` turns the limits off (the bench). */
  perUser?: Partial<Record<WriteAction, number>>;
  perAddress?: number;
}

/** A rate-limit store: Redis (shared prefix with the sessions) when configured, else in memory. */
export function createLimitStore(ctx: AppContext, name: string): Store | undefined {
  const { redis, redisPrefix } = ctx.sessions;
  if (!redis) return undefined;
  const { redisTimeoutMs } = ctx.config;
  return new RedisStore({
    // Bounded: a hung Redis must not hang the request (decision 010).
    sendCommand: (...args: string[]) => redisWithin(redis.sendCommand(args), redisTimeoutMs),
    prefix: `${redisPrefix}rl:${name}:`,
  });
}

/** The client's address as express sees it: the socket peer unless TRUST_PROXY names the proxy. */
export function addressKey(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

function limiter(
  ctx: AppContext,
  name: string,
  limit: number,
  key: (req: Request) => string,
  skip?: (req: Request) => boolean,
): RequestHandler {
  return rateLimit({
    windowMs: WRITE_LIMIT_WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: key,
    skip,
    store: createLimitStore(ctx, name),
    // Redis unavailable: let the request through uncounted (express-rate-limit logs it) rather than
    // fail it; signed-in requests have already answered 503 at the session store by then.
    passOnStoreError: true,
    message: { message: TOO_MANY_WRITES },
    // Without TRUST_PROXY an X-Forwarded-For header is ignored on purpose; no warning for it.
    validate: { xForwardedForHeader: false },
  });
}

/**
 * Mounted under /api after the session (so the user is known) and before the feature routes.
 * Unsigned requests are only counted per address; the route answers them 401 anyway.
 */
export function writeLimits(ctx: AppContext, options: WriteLimitOptions | false = {}): Router {
  const router = Router();
  if (options === false) return router;
  const perAddress = limiter(ctx, 'address', options.perAddress ?? WRITE_LIMIT_PER_ADDRESS, addressKey);
  const allPaths = Object.values(WRITE_ROUTES).flat();
  router.post(allPaths, perAddress);
  for (const action of Object.keys(WRITE_ROUTES) as WriteAction[]) {
    const perUser = limiter(
      ctx,
      action,
      options.perUser?.[action] ?? WRITE_LIMITS[action],
      (req) => `user:${req.user?.id ?? ''}`,
      (req) => !req.user,
    );
    router.post(WRITE_ROUTES[action], perUser);
  }
  return router;
}

/**
 * A user's writes from one address record it again at most this often. Recording only moves the
 * address's last_seen_at (the rule looks back SAME_ADDRESS_WINDOW_DAYS, 7 days by default), so a burst
 * of writes — three reward claims in a row — costs one write transaction instead of one each
 * (decision 033). The first write from a new address is always recorded at once.
 */
export const ADDRESS_RECORD_EVERY_MS = 5 * 60_000;

/**
 * Records (as a keyed hash, decision 022) the address a signed-in user writes from, for the
 * same-address rule, at most every ADDRESS_RECORD_EVERY_MS per user and address; undefined when the
 * rule is off. Returns undefined when the address was recorded recently (nothing to wait for),
 * otherwise the recording (one store transaction), which never rejects: a failure is logged and
 * uncounted, so the member's next write retries it. Counted from the start, so a concurrent burst
 * records once.
 */
export function addressRecorder(
  ctx: AppContext,
): ((userId: string, address: string) => Promise<void> | undefined) | undefined {
  if (ctx.config.sameAddress.windowMs <= 0) return undefined;
  const recordedAt = new Map<string, number>();
  return (userId, address) => {
    const key = `${userId} ${address}`;
    const now = ctx.clock.now();
    const last = recordedAt.get(key);
    if (last !== undefined && now - last < ADDRESS_RECORD_EVERY_MS && now >= last) return undefined;
    if (recordedAt.size > 100_000) recordedAt.clear();
    recordedAt.set(key, now);
    return recordUserAddress(ctx, userId, address).then(
      () => undefined,
      (err: unknown) => {
        if (recordedAt.get(key) === now) recordedAt.delete(key);
        ctx.logger.error('address recording failed', {
          userId,
          error: errorMessage(err),
        });
      },
    );
  };
}

/**
 * Remembers the address each signed-in write comes from (`addressRecorder`), as a guard of the API
 * (src/app.ts), after the limits, so a refused burst records nothing; undefined when the rule is off.
 * A write whose address was recorded recently passes straight on (no await); otherwise the recording
 * finishes before the route runs, so the route's same-address check sees it.
 */
export function recordAddressGuard(ctx: AppContext): Guard | undefined {
  const record = addressRecorder(ctx);
  if (!record) return undefined;
  const writePaths = Object.values(WRITE_ROUTES).flat();
  const router = Router();
  router.post(writePaths, (req, _res, next) => {
    const userId = req.user?.id;
    if (!userId) return next();
    const recording = record(userId, addressKey(req));
    if (!recording) return next();
    return recording.then(() => next());
  });
  // The fast routes have literal paths: a fast route is a write route when its path is listed as is.
  const literal = new Set(writePaths);
  return {
    name: 'address recording',
    middleware: router,
    postsOnly: true,
    fast: (call, next) => {
      if (!literal.has(call.path)) return next();
      call.commit();
      const recording = record(call.userId, addressKey(call.view));
      if (recording) void recording.then(() => next());
      else next();
    },
  };
}
