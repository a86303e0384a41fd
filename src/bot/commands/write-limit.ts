import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import {
  TOO_MANY_WRITES,
  WRITE_LIMITS,
  WRITE_LIMIT_WINDOW_MS,
  type WriteAction,
} from '../../http/write-limits.ts';

// The website's per-user write limits (src/http/write-limits.ts) are HTTP middleware; the bot's writes
// (claims and joins) count against the same numbers here, per user and kind, in one-minute windows,
// with the same refusal. In memory: only one process runs the bot (src/background.ts).

interface Window {
  start: number;
  count: number;
}

export class BotWriteLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limits: Record<WriteAction, number> | null) {}

  /** Counts one write of `action` by `userId`; throws the website's 429 message over the limit. */
  take(userId: string, action: WriteAction, now = Date.now()): void {
    if (!this.limits) return;
    const key = `${action}:${userId}`;
    let window = this.windows.get(key);
    if (!window || now - window.start >= WRITE_LIMIT_WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.prune(now);
    }
    window.count += 1;
    if (window.count > this.limits[action]) throw new AppError('rate_limited', TOO_MANY_WRITES);
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows)
      if (now - window.start >= WRITE_LIMIT_WINDOW_MS) this.windows.delete(key);
  }
}

const limiters = new WeakMap<AppContext, BotWriteLimiter>();

/** The limiter of this app: the configured per-user numbers, or none when write limits are off. */
export function botWriteLimiter(ctx: AppContext): BotWriteLimiter {
  let limiter = limiters.get(ctx);
  if (!limiter) {
    const options = ctx.config.writeLimits ? ctx.options.writeLimits : false;
    limiter = new BotWriteLimiter(options === false ? null : { ...WRITE_LIMITS, ...options?.perUser });
    limiters.set(ctx, limiter);
  }
  return limiter;
}
