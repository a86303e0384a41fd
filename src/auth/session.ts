import session from 'express-session';
import { RedisStore } from 'connect-redis';
import type { RequestHandler, Response } from 'express';
import type { Config } from '../config.ts';
import { SqliteSessionStore } from './sqlite-session-store.ts';
import { PgSessionStore } from './pg-session-store.ts';
import type { PgStore, SqliteStore } from '../db/engine.ts';
import type { Logger } from '../logger.ts';
import { connectRedis, createRedisClient, guardSessionStore } from '../ops/redis.ts';
import type { JobMonitor } from '../ops/job-monitor.ts';
import { startSafeInterval } from '../ops/safe-interval.ts';
import type { SessionAccess } from '../http/fast-path.ts';
import { mayCreateSession } from './session-creation.ts';

/** Cookie name outside production; production uses `__Host-coinsync.sid` (config.session.cookieName). */
export const SESSION_COOKIE = 'coinsync.sid';

import type { RedisClient } from '../ops/redis.ts';
export type { RedisClient };

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

/**
 * Session lifetimes (decision 012). A session that only carries the OAuth2 state of a sign-in that
 * has not finished lives 10 minutes. A signed-in session ends after 7 days without a request (idle)
 * and 30 days after sign-in whatever happens (absolute); signing in again starts a new one.
 */
export const SESSION_LIFETIMES = {
  preLoginMs: 10 * MINUTE,
  idleMs: 7 * DAY,
  absoluteMs: 30 * DAY,
} as const;

/** Where sessions live: Redis (REDIS_URL), else the database's sessions table (SQLite or PostgreSQL). */
export type SessionStoreKind = 'redis' | 'sqlite' | 'pg';

export interface SessionSetup {
  middleware: RequestHandler;
  store: session.Store;
  kind: SessionStoreKind;
  /** Answers when the session store's Redis answers PING (readiness); absent with database sessions. */
  pingRedis?: () => Promise<unknown>;
  /** The connected Redis client when REDIS_URL is set (shared with the write limits). */
  redis: RedisClient | null;
  /** Key prefix of session entries in Redis. */
  redisPrefix: string;
  /** Removes the session cookie from the browser (sign-out, account deletion), with the attributes it was set with. */
  clearCookie: (res: Response) => void;
  /** Store, cookie name and secrets exactly as express-session uses them (the fast path reads them). */
  access: SessionAccess;
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
const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * Redis (connect-redis) when REDIS_URL is set, otherwise the database's own sessions table: on SQLite
 * (the writer connection, prepared statements) or on PostgreSQL (the pool; ROLE=all without Redis —
 * split roles require REDIS_URL, src/config.ts).
 */
export async function createSessionSetup(
  config: Pick<Config, 'redisUrl' | 'sessionSecret' | 'production'> & { session: Config['session'] },
  database: SqliteStore | PgStore,
  options: SessionSetupOptions = {},
): Promise<SessionSetup> {
  const logger = options.logger ?? silentLogger;
  const redisPrefix = options.redisPrefix ?? 'coinsync:sess:';
  const { store, close, kind, pingRedis, redis } = config.redisUrl
    ? await openRedisStore(config.redisUrl, redisPrefix, logger, options)
    : openDatabaseStore(database, logger, options);
  throttleTouches(store);
  const secrets = [config.sessionSecret];
  const cookie = { httpOnly: true, sameSite: 'lax', secure: config.production, path: '/' } as const;
  const middleware = session({
    name: config.session.cookieName,
    secret: secrets,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    // No `proxy` option: express-session then follows the app's "trust proxy" (TRUST_PROXY).
    cookie: { ...cookie, maxAge: SESSION_LIFETIMES.idleMs },
  });
  return {
    middleware,
    store,
    kind,
    pingRedis,
    redis,
    redisPrefix,
    clearCookie: (res) => void res.clearCookie(config.session.cookieName, cookie),
    access: { store, name: config.session.cookieName, secrets },
    close,
  };
}

/** Where sessions are kept, and how that closes. */
type OpenedStore = Pick<SessionSetup, 'store' | 'close' | 'kind' | 'pingRedis' | 'redis'>;

async function openRedisStore(
  redisUrl: string,
  redisPrefix: string,
  logger: Logger,
  options: SessionSetupOptions,
): Promise<OpenedStore> {
  const timeoutMs = options.redisTimeoutMs ?? 1500;
  const client = createRedisClient(redisUrl, timeoutMs);
  await connectRedis(client, redisUrl, logger, options.onWaiting);
  return {
    store: guardSessionStore(
      new CreateOnSignInRedisStore({ client, prefix: redisPrefix }),
      timeoutMs,
      logger,
    ),
    kind: 'redis',
    pingRedis: () => client.ping(),
    redis: client,
    close: async () => {
      // close() waits for pending replies, which never come from a hung Redis.
      if (client.isReady) await Promise.race([client.close(), new Promise((r) => setTimeout(r, timeoutMs))]);
      if (client.isOpen) client.destroy();
    },
  };
}

/** The database's own sessions table, pruned every SESSION_PRUNE_EVERY_MS. */
function openDatabaseStore(
  database: SqliteStore | PgStore,
  logger: Logger,
  options: SessionSetupOptions,
): OpenedStore {
  const store =
    database.kind === 'pg' ? new PgSessionStore(database.pool) : new SqliteSessionStore(database.writer);
  const prune = startSafeInterval('session prune', SESSION_PRUNE_EVERY_MS, () => store.prune(), {
    logger,
    jobs: options.jobs,
  });
  const close = () => {
    prune.stop();
    return Promise.resolve();
  };
  return { store, kind: database.kind, pingRedis: undefined, redis: null, close };
}

/**
 * connect-redis whose `set` creates a signed-in session only for the request signing in
 * (src/auth/session-creation.ts): any other save is `SET … XX`, which never brings back a key that
 * sign-out everywhere deleted. Its `touch` is EXPIRE, which never creates a key either.
 */
class CreateOnSignInRedisStore extends RedisStore {
  override async set(
    sid: string,
    sess: session.SessionData,
    cb?: (err?: unknown, data?: unknown) => unknown,
  ) {
    if (mayCreateSession(sess)) {
      await super.set(sid, sess, cb);
      return;
    }
    const key = this.prefix + sid;
    const expires = sess.cookie?.expires;
    const ttl = expires ? Math.ceil((new Date(expires).getTime() - Date.now()) / 1000) : 86400;
    try {
      if (ttl > 0) {
        await this.client.set(key, this.serializer.stringify(sess), {
          expiration: { type: 'EX', value: ttl },
          condition: 'XX',
        });
      } else {
        await this.client.del([key]);
      }
      cb?.(null, null);
    } catch (err) {
      cb?.(err, null);
    }
  }
}

const TOUCH_EVERY_MS = 60 * 60 * 1000;

/**
 * express-session touches the store on every request to extend the expiry. Moving the expiry at most
 * once an hour per session is plenty for a 7-day idle timeout, and it spares the hot read routes a
 * write each.
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
