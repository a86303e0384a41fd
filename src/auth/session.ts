import session from 'express-session';
import { RedisStore } from 'connect-redis';
import type { Database } from 'better-sqlite3';
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';
import { SqliteSessionStore } from './sqlite-session-store.ts';
import type { Logger } from '../logger.ts';
import { connectRedis, createRedisClient, guardSessionStore } from '../ops/redis.ts';
import type { JobMonitor } from '../ops/job-monitor.ts';
import { startSafeInterval } from '../ops/safe-interval.ts';

export const SESSION_COOKIE = 'coinsync.sid';
const THIRTY_DAYS = 30 * 24 * 60 * 60 * 1000;

export interface SessionSetup {
  middleware: RequestHandler;
  store: session.Store;
  kind: 'redis' | 'sqlite';
  /** Answers when the session store's Redis answers PING (readiness); absent with SQLite sessions. */
  pingRedis?: () => Promise<unknown>;
  close(): Promise<void>;
}

export interface SessionSetupOptions {
  redisPrefix?: string;
  logger?: Logger;
  /** Connect timeout and time limit of every session store operation on Redis. */
  redisTimeoutMs?: number;
  /** Told why start-up is still waiting for Redis (shown by the start-up responder). */
  onWaiting?: (reason: string) => void;
  jobs?: JobMonitor;
}

const SESSION_PRUNE_EVERY_MS = 15 * 60 * 1000;
const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Redis (connect-redis) when REDIS_URL is set, otherwise the persistent SQLite store. */
export async function createSessionSetup(
  config: Pick<Config, 'redisUrl' | 'sessionSecret' | 'production'>,
  sqlite: Database,
  options: SessionSetupOptions = {},
): Promise<SessionSetup> {
  const logger = options.logger ?? silentLogger;
  let store: session.Store;
  let close: () => Promise<void>;
  let kind: SessionSetup['kind'];
  let pingRedis: SessionSetup['pingRedis'];
  if (config.redisUrl) {
    const timeoutMs = options.redisTimeoutMs ?? 1500;
    const client = createRedisClient(config.redisUrl, timeoutMs);
    await connectRedis(client, config.redisUrl, logger, options.onWaiting);
    store = guardSessionStore(new RedisStore({ client, prefix: options.redisPrefix ?? 'coinsync:sess:' }), timeoutMs, logger);
    kind = 'redis';
    pingRedis = () => client.ping();
    close = async () => {
      // close() waits for pending replies, which never come from a hung Redis.
      if (client.isReady) await Promise.race([client.close(), new Promise((r) => setTimeout(r, timeoutMs))]);
      if (client.isOpen) client.destroy();
    };
  } else {
    const sqliteStore = new SqliteSessionStore(sqlite, Date.now, 0);
    const prune = startSafeInterval('session prune', SESSION_PRUNE_EVERY_MS, () => sqliteStore.prune(), {
      logger,
      jobs: options.jobs,
    });
    store = sqliteStore;
    kind = 'sqlite';
    close = () => {
      prune.stop();
      sqliteStore.close();
      return Promise.resolve();
    };
  }
  throttleTouches(store);
  const middleware = session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    proxy: config.production,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.production,
      maxAge: THIRTY_DAYS,
    },
  });
  return { middleware, store, kind, pingRedis, close };
}

const TOUCH_EVERY_MS = 60 * 60 * 1000;

/**
 * express-session touches the store on every request to extend the expiry. With 30-day sessions, moving
 * the expiry at most once an hour per session is plenty, and it spares the hot read routes a write each.
 */
function throttleTouches(store: session.Store): void {
  const touch = store.touch?.bind(store);
  if (!touch) return;
  const lastTouch = new Map<string, number>();
  // A save also moves the expiry, so the first requests after sign-in need no touch either.
  const set = store.set.bind(store);
  store.set = (sid, sess, cb) => {
    lastTouch.set(sid, Date.now());
    set(sid, sess, cb);
  };
  store.touch = (sid, sess, cb) => {
    const now = Date.now();
    const last = lastTouch.get(sid);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) {
      cb?.();
      return;
    }
    if (lastTouch.size > 100_000) lastTouch.clear();
    lastTouch.set(sid, now);
    touch(sid, sess, cb);
  };
}
