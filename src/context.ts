import type { Database } from 'better-sqlite3';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { DataStore } from './db/engine.ts';
import type { Clock } from './clock.ts';
import type { Logger } from './logger.ts';
import type { DiscordApi } from './discord/discord-api.ts';
import type { Stripe } from './payments/stripe-client.ts';
import type { SessionRegistry } from './auth/sign-out-everywhere.ts';
import type { WriteLimitOptions } from './http/write-limits.ts';
import type { LiveEventBus } from './events/event-bus.ts';

/** Everything a route or service needs from the outside world, built once in main.ts (or a test). */
export interface AppContext {
  config: Config;
  /** Synchronous SQLite handles of the code not yet converted (decision 028); removed in its step 4. */
  db: Db;
  sqlite: Database;
  /** The async data layer (src/db/engine.ts): converted features read and write through it only. */
  store: DataStore;
  clock: Clock;
  logger: Logger;
  discord: DiscordApi;
  /** Stripe SDK pointed at config.stripe.apiUrl; null when payments are not configured. */
  stripe: Stripe | null;
  /** Where sessions are kept (for sign out everywhere) and the shared Redis client, if any. */
  sessions: SessionRegistry;
  /** Live events to signed-in browsers (GET /api/events): in-process, or Redis pub/sub with REDIS_URL. */
  events: LiveEventBus;
  options: {
    /** Sign-in attempts per IP per minute. */
    signInRateLimit?: number;
    /** Per-user write limits (src/http/write-limits.ts); false turns them off. */
    writeLimits?: WriteLimitOptions | false;
    /** How long a no-bot claim waits for Discord's guild list to show a fresh join before refusing (ms). */
    membershipGraceMs?: number;
    /** Heartbeat of the live event stream (tests use a short one). */
    liveHeartbeatMs?: number;
    /** Streams one heartbeat slice serves (HEARTBEAT_SLICE; tests use a small one to see a beat in slices). */
    liveHeartbeatSlice?: number;
  };
}
