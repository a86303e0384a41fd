import session from 'express-session';
import { createRequire } from 'node:module';
import type * as Redis from 'redis';
import { AppError } from '../shared/errors.ts';
import type { Logger } from '../logger.ts';
import { errorMessage } from './error-text.ts';

// Redis faults (decision 010): Redis down at start-up → we wait, saying so every 30 s, while the port
// answers 503 "starting"; Redis dead later → commands fail at once (no offline queue) → 503; Redis hung
// (accepts the connection, never answers) → every session operation gives up after the timeout → 503.

export const SESSIONS_UNAVAILABLE =
  'Sessions are unavailable right now (the session store is not answering). Please try again in a minute.';
const WAIT_LOG_EVERY_MS = 30_000;
const ERROR_LOG_EVERY_MS = 10_000;

/** The URL without its password, for logs and readiness reasons. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'redis://(unparseable URL)';
  }
}

/**
 * The 'redis' package (its client and the four modules it bundles: ~5 MB of heap once loaded), loaded when
 * the first client is made: a process with SQLite sessions and no REDIS_URL never loads it (decision 049,
 * session 16).
 */
let redisPackage: typeof Redis | null = null;
function redis(): typeof Redis {
  return (redisPackage ??= createRequire(import.meta.url)('redis') as typeof Redis);
}

export function createRedisClient(url: string, timeoutMs: number) {
  return redis().createClient({
    url,
    // While disconnected, commands fail at once instead of waiting in a queue for a reconnect.
    disableOfflineQueue: true,
    // Bounds memory while Redis hangs (commands sent, never answered): beyond this, fail at once.
    commandsQueueMaxLength: 10_000,
    socket: {
      connectTimeout: timeoutMs,
      reconnectStrategy: (retries: number) => Math.min(200 * 2 ** retries, 5000),
    },
  });
}
export type RedisClient = ReturnType<typeof createRedisClient>;

/**
 * Connects, retrying for as long as it takes; logs why it is waiting at once and every 30 s, and
 * reports each failure to `onWaiting` (the start-up responder shows it). Afterwards logs connection
 * losses and recoveries (at most one error line per 10 s).
 */
export async function connectRedis(
  client: RedisClient,
  url: string,
  logger: Logger,
  onWaiting: (reason: string) => void = () => undefined,
): Promise<void> {
  const where = redactRedisUrl(url);
  let connected = false;
  let lastLog = 0;
  let suppressed = 0;
  client.on('error', (err: unknown) => {
    const reason = err instanceof Error ? err.message || err.constructor.name : String(err);
    const now = Date.now();
    if (!connected) {
      onWaiting(`waiting for Redis at ${where}: ${reason}`);
      if (now - lastLog >= WAIT_LOG_EVERY_MS) {
        lastLog = now;
        logger.warn(
          `waiting for Redis at ${where} (sessions): ${reason}; retrying — the app answers 503 until Redis is reachable`,
        );
      }
      return;
    }
    if (now - lastLog < ERROR_LOG_EVERY_MS) {
      suppressed += 1;
      return;
    }
    lastLog = now;
    logger.error(
      `Redis error (${where}): ${reason}`,
      suppressed > 0 ? { suppressedSinceLastLine: suppressed } : undefined,
    );
    suppressed = 0;
  });
  client.on('reconnecting', () => {
    if (connected)
      logger.warn(`Redis connection lost (${where}); reconnecting — session requests answer 503 meanwhile`);
  });
  client.on('ready', () => {
    if (connected) logger.info(`Redis connection back (${where})`);
  });
  onWaiting(`connecting to Redis at ${where}`);
  await client.connect();
  connected = true;
  logger.info(`Redis connected (${where})`);
}

type Callback = (err?: unknown, value?: unknown) => void;

/**
 * Runs `giveUp` once `ms` have passed, but only after the I/O that has arrived meanwhile: when the event
 * loop was held up (a busy or loaded machine) past the limit, the timer and Redis's answer are both due
 * at once, and Node runs timers before reading sockets; the answer that is already here must win.
 */
function afterTimeout(ms: number, giveUp: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(giveUp), ms);
}

/**
 * Gives every get/set/destroy/touch of an express-session store a time limit, and turns any store
 * failure into AppError('unavailable') — a 503 with a message, never a hang or a 500. A late answer
 * after the limit is ignored.
 */
export function guardSessionStore(store: session.Store, timeoutMs: number, logger: Logger): session.Store {
  let lastLog = 0;
  const unavailable = (method: string, cause: unknown): AppError => {
    const now = Date.now();
    if (now - lastLog >= ERROR_LOG_EVERY_MS) {
      lastLog = now;
      logger.warn(`session store ${method} failed; answering 503`, {
        error: errorMessage(cause),
      });
    }
    return new AppError('unavailable', SESSIONS_UNAVAILABLE);
  };
  const target = store as unknown as Record<string, unknown>;
  for (const method of ['get', 'set', 'destroy', 'touch'] as const) {
    const original = target[method];
    if (typeof original !== 'function') continue;
    const call = (original as (...args: unknown[]) => unknown).bind(store);
    target[method] = (...args: unknown[]) => {
      let cb = typeof args[args.length - 1] === 'function' ? (args.pop() as Callback) : undefined;
      // Called without a callback (promise style): answer with a promise, like connect-redis does.
      let answer: Promise<unknown> | undefined;
      if (!cb) {
        answer = new Promise((resolve, reject) => {
          cb = (err, value) => (err instanceof Error ? reject(err) : resolve(value));
        });
      }
      let done = false;
      const finish: Callback = (err, value) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (err) cb?.(unavailable(method, err));
        else cb?.(null, value);
      };
      const timer = afterTimeout(timeoutMs, () => finish(new Error(`no answer within ${timeoutMs} ms`)));
      try {
        const result = call(...args, finish);
        // connect-redis also returns a promise; its rejection is already reported through the callback.
        if (result instanceof Promise) result.catch(() => undefined);
      } catch (err) {
        finish(err);
      }
      return answer;
    };
  }
  return store;
}

/**
 * A Redis call that gives up after `timeoutMs`. A timeout or a connection failure becomes
 * AppError('unavailable') → 503 with SESSIONS_UNAVAILABLE; an error reply from a reachable Redis
 * (e.g. NOSCRIPT, which rate-limit-redis answers by reloading its script) is passed on unchanged.
 */
export function redisWithin<T>(call: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = afterTimeout(timeoutMs, () => reject(new Error(`Redis: no answer within ${timeoutMs} ms`)));
  });
  return Promise.race([call, timeout])
    .catch((err: unknown) => {
      call.catch(() => undefined); // a late rejection must not go unhandled
      // An error reply needs the package loaded: only its clients give one.
      throw err instanceof AppError || (redisPackage !== null && err instanceof redisPackage.ErrorReply)
        ? err
        : new AppError('unavailable', SESSIONS_UNAVAILABLE);
    })
    .finally(() => clearTimeout(timer));
}
