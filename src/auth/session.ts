import session from 'express-session';
import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import type { Database } from 'better-sqlite3';
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';
import { SqliteSessionStore } from './sqlite-session-store.ts';

export const SESSION_COOKIE = 'coinsync.sid';
const THIRTY_DAYS = 30 * 24 * 60 * 60 * 1000;

export interface SessionSetup {
  middleware: RequestHandler;
  store: session.Store;
  kind: 'redis' | 'sqlite';
  close(): Promise<void>;
}

/** Redis (connect-redis) when REDIS_URL is set, otherwise the persistent SQLite store. */
export async function createSessionSetup(
  config: Pick<Config, 'redisUrl' | 'sessionSecret' | 'production'>,
  sqlite: Database,
  options: { redisPrefix?: string } = {},
): Promise<SessionSetup> {
  let store: session.Store;
  let close: () => Promise<void>;
  let kind: SessionSetup['kind'];
  if (config.redisUrl) {
    const client = createClient({ url: config.redisUrl });
    client.on('error', (err: unknown) => console.error('redis error', err));
    await client.connect();
    store = new RedisStore({ client, prefix: options.redisPrefix ?? 'coinsync:sess:' });
    kind = 'redis';
    close = async () => {
      await client.close();
    };
  } else {
    const sqliteStore = new SqliteSessionStore(sqlite);
    store = sqliteStore;
    kind = 'sqlite';
    close = () => {
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
  return { middleware, store, kind, close };
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
