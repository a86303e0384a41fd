// "Unreliable Discord" for tests and benches: at a set rate, with a seed (so a failing run can be
// replayed), the simulator answers like Discord on a bad day — an unexpected 429, a 5xx, Cloudflare's
// HTML error page instead of JSON — delays audit-log entries past the GUILD_MEMBER_REMOVE event, and
// drops member / moderation gateway events (which reconciliation has to make up for).
import type { NextFunction, Request, Response } from 'express';

export type Fault = 'rate-limit' | 'server-error' | 'html' | 'drop-event';

export interface UnreliableConfig {
  /** Probability (0..1) that a REST request or a droppable gateway event is hit by a fault. */
  rate: number;
  seed: number;
  /** Which faults may be injected (default: all). */
  faults: Fault[];
  /** Audit-log entries become visible (REST and gateway) this long after the removal; 0 = at once. */
  auditDelayMs: number;
  /** retry_after of injected 429s, in seconds. */
  retryAfterSeconds: number;
}

export const RELIABLE: UnreliableConfig = {
  rate: 0,
  seed: 1,
  faults: ['rate-limit', 'server-error', 'html', 'drop-event'],
  auditDelayMs: 0,
  retryAfterSeconds: 0.05,
};

/** mulberry32: small, fast, good enough to make fault sequences reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CLOUDFLARE_HTML = (status: number, title: string) =>
  `<!DOCTYPE html>\n<html><head><title>${status} ${title} | discord.com | Cloudflare</title></head>` +
  `<body><h1>Error ${status}</h1><p>${title}</p><p>Cloudflare Ray ID: 0000000000000000</p></body></html>`;

export class Unreliable {
  config: UnreliableConfig = { ...RELIABLE };
  private random: () => number = mulberry32(RELIABLE.seed);
  readonly injected = { rateLimit: 0, serverError: 0, html: 0, droppedEvents: 0 };

  configure(config: Partial<UnreliableConfig>): void {
    this.config = { ...this.config, ...config };
    if (config.seed !== undefined || config.rate !== undefined) this.random = mulberry32(this.config.seed);
  }

  reset(): void {
    this.config = { ...RELIABLE };
    this.random = mulberry32(RELIABLE.seed);
    for (const key of Object.keys(this.injected) as (keyof typeof this.injected)[]) this.injected[key] = 0;
  }

  private roll(allowed: Fault[]): Fault | null {
    if (this.config.rate <= 0) return null;
    const candidates = this.config.faults.filter((f) => allowed.includes(f));
    if (candidates.length === 0) return null;
    if (this.random() >= this.config.rate) return null;
    return candidates[Math.floor(this.random() * candidates.length)] ?? null;
  }

  /** Whether to drop a member or moderation gateway event. */
  dropEvent(): boolean {
    const dropped = this.roll(['drop-event']) !== null;
    if (dropped) this.injected.droppedEvents += 1;
    return dropped;
  }

  /** REST middleware, after the rate limiter (an injected fault still consumed its bucket). */
  middleware() {
    return (_req: Request, res: Response, next: NextFunction): void => {
      const fault = this.roll(['rate-limit', 'server-error', 'html']);
      if (fault === null) return next();
      const retryAfter = this.config.retryAfterSeconds;
      if (fault === 'rate-limit') {
        this.injected.rateLimit += 1;
        // A limit the headers did not announce: Discord's shared per-resource limits look like this.
        res.setHeader('Retry-After', retryAfter.toFixed(3));
        res.setHeader('X-RateLimit-Scope', 'user');
        res
          .status(429)
          .json({ message: 'You are being rate limited.', retry_after: retryAfter, global: false });
      } else if (fault === 'server-error') {
        this.injected.serverError += 1;
        res.status(this.random() < 0.5 ? 500 : 503).json({ message: '500: Internal Server Error', code: 0 });
      } else {
        this.injected.html += 1;
        // Cloudflare in front of Discord answers HTML, not JSON: a 502 page, or a 429 ban page.
        // (Cloudflare's 429 carries Retry-After; a client that parsed the body as JSON would throw.)
        if (this.random() < 0.5) {
          res.status(502).type('text/html').send(CLOUDFLARE_HTML(502, 'Bad gateway'));
        } else {
          res.setHeader('Retry-After', retryAfter.toFixed(3));
          res.status(429).type('text/html').send(CLOUDFLARE_HTML(429, 'You are being rate limited'));
        }
      }
    };
  }
}
