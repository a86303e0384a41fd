import type { Logger } from '../logger.ts';
import { redisWithin, type RedisClient } from '../ops/redis.ts';
import type { LiveEvent } from '../shared/live-events.ts';
import { errorMessage } from '../ops/error-text.ts';

// Delivers live events to the processes holding a user's open streams, and keeps a short per-user
// replay buffer for reconnects (Last-Event-ID). In-process by default; with REDIS_URL through Redis
// pub/sub (one channel; the buffer is a capped list per user), so several processes can serve streams.
// Events are advisory: the balance lives in SQLite, so a lost event never loses coins.

export interface StoredEvent {
  /** Increasing per bus (per Redis database with REDIS_URL); the SSE `id:` field. */
  id: number;
  userId: string;
  event: LiveEvent;
}

/**
 * A revocation told to every process's streams (decision 039): sessions of the user signed in at or
 * before `validAfter` (sign-out everywhere, account deletion), or the one session `sid` (sign-out).
 */
export interface Revocation {
  userId: string;
  validAfter?: number;
  sid?: string;
}

export interface LiveEventBus {
  readonly kind: 'memory' | 'redis';
  /** Fire and forget: failures are logged, never thrown into the caller's flow. */
  publish(userId: string, event: LiveEvent): Promise<void>;
  subscribe(userId: string, listener: (stored: StoredEvent) => void): () => void;
  /**
   * Tells the user's open streams in every process that sessions ended. Sent on the events' own
   * channel, so an event published after it reaches no stream it ended.
   */
  revoke(revocation: Revocation): Promise<void>;
  /** Calls `listener` with each revocation of the user's sessions. */
  onRevoke(userId: string, listener: (revocation: Revocation) => void): () => void;
  /** Buffered events of the user with an id above `lastId`, oldest first. */
  since(userId: string, lastId: number): Promise<StoredEvent[]>;
  close(): Promise<void>;
}

/** Bounded replay: the last 50 events of a user, for 15 minutes. */
export const REPLAY_MAX_EVENTS = 50;
export const REPLAY_TTL_MS = 15 * 60 * 1000;
/** Users whose buffers the in-process bus keeps at most (oldest dropped first). */
const MEMORY_MAX_USERS = 10_000;

class Listeners<T extends { userId: string } = StoredEvent> {
  private readonly byUser = new Map<string, Set<(stored: T) => void>>();

  add(userId: string, listener: (stored: T) => void): () => void {
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byUser.get(userId) === set) this.byUser.delete(userId);
    };
  }

  deliver(stored: T, logger: Logger): void {
    for (const listener of this.byUser.get(stored.userId) ?? []) {
      try {
        listener(stored);
      } catch (err) {
        logger.warn('live event listener failed', {
          error: errorMessage(err),
        });
      }
    }
  }
}

// Replay age is wall-clock time (like the Redis key's expiry), not the business clock.
export function createMemoryEventBus(logger: Logger, now: () => number = Date.now): LiveEventBus {
  const listeners = new Listeners();
  const revocations = new Listeners<Revocation>();
  const buffers = new Map<string, { at: number; stored: StoredEvent }[]>();
  // Starts at the wall clock so ids keep increasing across restarts (a browser's Last-Event-ID from
  // the previous process is then simply older than everything new).
  let nextId = Date.now();
  return {
    kind: 'memory',
    publish(userId, event) {
      nextId += 1;
      const stored: StoredEvent = { id: nextId, userId, event };
      const at = now();
      const buffer = (buffers.get(userId) ?? []).filter((e) => at - e.at < REPLAY_TTL_MS);
      buffer.push({ at, stored });
      if (buffer.length > REPLAY_MAX_EVENTS) buffer.splice(0, buffer.length - REPLAY_MAX_EVENTS);
      buffers.delete(userId); // re-inserted last: the Map's order is then least recently used first
      buffers.set(userId, buffer);
      if (buffers.size > MEMORY_MAX_USERS) {
        const oldest = buffers.keys().next();
        if (!oldest.done) buffers.delete(oldest.value);
      }
      listeners.deliver(stored, logger);
      return Promise.resolve();
    },
    subscribe: (userId, listener) => listeners.add(userId, listener),
    revoke(revocation) {
      revocations.deliver(revocation, logger);
      return Promise.resolve();
    },
    onRevoke: (userId, listener) => revocations.add(userId, listener),
    since(userId, lastId) {
      const at = now();
      return Promise.resolve(
        (buffers.get(userId) ?? [])
          .filter((e) => e.stored.id > lastId && at - e.at < REPLAY_TTL_MS)
          .map((e) => e.stored),
      );
    },
    close: () => Promise.resolve(),
  };
}

/**
 * Redis: INCR gives every event an id unique across processes; the user's buffer is a list capped at
 * REPLAY_MAX_EVENTS that expires REPLAY_TTL_MS after its last event; PUBLISH reaches every process,
 * whose subscriber connection (a duplicate of the session client) hands it to local streams.
 */
export async function createRedisEventBus(options: {
  redis: RedisClient;
  prefix: string;
  timeoutMs: number;
  logger: Logger;
}): Promise<LiveEventBus> {
  const { redis, prefix, timeoutMs, logger } = options;
  const channel = `${prefix}events`;
  const seqKey = `${prefix}events:seq`;
  const bufferKey = (userId: string) => `${prefix}events:user:${userId}`;
  const listeners = new Listeners();
  const revocations = new Listeners<Revocation>();
  const subscriber = await subscribeToChannel(redis, channel, logger, listeners, revocations);
  return {
    kind: 'redis',
    async publish(userId, event) {
      try {
        const id = await redisWithin(redis.incr(seqKey), timeoutMs);
        const json = JSON.stringify({ id, userId, event } satisfies StoredEvent);
        const key = bufferKey(userId);
        await redisWithin(
          redis
            .multi()
            .rPush(key, json)
            .lTrim(key, -REPLAY_MAX_EVENTS, -1)
            .pExpire(key, REPLAY_TTL_MS)
            .publish(channel, json)
            .exec(),
          timeoutMs,
        );
      } catch (err) {
        logger.warn('live event not published (Redis)', {
          type: event.type,
          error: errorMessage(err),
        });
      }
    },
    subscribe: (userId, listener) => listeners.add(userId, listener),
    async revoke(revocation) {
      // This process's streams end at once, whatever Redis does; the others through the channel.
      revocations.deliver(revocation, logger);
      try {
        await redisWithin(redis.publish(channel, JSON.stringify({ revoke: revocation })), timeoutMs);
      } catch (err) {
        // The other processes' streams still end at their next heartbeat (the session policy's check).
        logger.warn('live events: revocation not published (Redis)', {
          error: errorMessage(err),
        });
      }
    },
    onRevoke: (userId, listener) => revocations.add(userId, listener),
    async since(userId, lastId) {
      try {
        const items = await redisWithin(redis.lRange(bufferKey(userId), 0, -1), timeoutMs);
        return items
          .map((item) => JSON.parse(item) as StoredEvent)
          .filter((stored) => stored.id > lastId)
          .sort((a, b) => a.id - b.id);
      } catch (err) {
        logger.warn('live events: replay unavailable (Redis)', {
          error: errorMessage(err),
        });
        return [];
      }
    },
    async close() {
      if (subscriber.isOpen) {
        await Promise.race([subscriber.close(), new Promise((r) => setTimeout(r, timeoutMs))]);
        if (subscriber.isOpen) subscriber.destroy();
      }
    },
  };
}

/** The process's subscriber connection (a duplicate of `redis`): the channel's events and revocations go to local streams. */
async function subscribeToChannel(
  redis: RedisClient,
  channel: string,
  logger: Logger,
  listeners: Listeners,
  revocations: Listeners<Revocation>,
): Promise<RedisClient> {
  const subscriber = redis.duplicate();
  subscriber.on('error', (err: unknown) => {
    logger.warn('live events: Redis subscriber error', {
      error: errorMessage(err),
    });
  });
  await subscriber.connect();
  await subscriber.subscribe(channel, (message) => {
    try {
      const parsed = JSON.parse(message) as StoredEvent | { revoke: Revocation };
      if ('revoke' in parsed) revocations.deliver(parsed.revoke, logger);
      else listeners.deliver(parsed, logger);
    } catch (err) {
      logger.warn('live events: bad message', { error: errorMessage(err) });
    }
  });
  return subscriber;
}
