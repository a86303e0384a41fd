import { sql } from 'drizzle-orm';
import { deleteOAuthTokens } from './oauth-tokens.ts';
import type { AppContext } from '../context.ts';
import { redisWithin } from '../ops/redis.ts';
import { SESSION_LIFETIMES } from './session.ts';
import { usersRepo } from '../users/users-repo.ts';

/**
 * Where sessions live, for the code that must find all of one user's sessions. Redis has no query by
 * user, so each sign-in also adds its session id to a per-user set (`<prefix>user:<userId>`).
 */
export interface SessionRegistry {
  kind: import('./session.ts').SessionStoreKind;
  redis: import('./session.ts').RedisClient | null;
  redisPrefix: string;
  /** Removes the session cookie from the browser, with the attributes it was set with (session.ts). */
  clearCookie: (res: import('express').Response) => void;
}

function userSetKey(registry: SessionRegistry, userId: string): string {
  return `${registry.redisPrefix}user:${userId}`;
}

/** Remembers a fresh signed-in session under its user (Redis only; database rows are found by query). */
export async function registerSession(ctx: AppContext, userId: string, sid: string): Promise<void> {
  const { redis } = ctx.sessions;
  if (!redis) return;
  const key = userSetKey(ctx.sessions, userId);
  await redisWithin(
    redis.multi().sAdd(key, sid).pExpire(key, SESSION_LIFETIMES.absoluteMs).exec(),
    ctx.config.redisTimeoutMs,
  );
}

/**
 * Ends every session of the user (decision 039). First the user's "sessions valid after" instant
 * moves to now: the session policy of both request paths refuses every session signed in until
 * then, whatever a store still holds or a late save writes back. Then the sessions themselves go, in
 * both stores (Redis and the database's sessions table, which may still hold sessions from before
 * Redis was configured), and the user's open live-event streams in every process end at once.
 * Returns how many sessions were removed. Account deletion calls this too.
 */
export async function signOutEverywhere(ctx: AppContext, userId: string): Promise<number> {
  const now = ctx.clock.now();
  // The sessions table belongs to the database session store (sqlite-session-store.ts,
  // pg-session-store.ts): `sess` is the session's JSON text.
  const fromTable = await ctx.store.transaction(async (tx) => {
    await usersRepo(tx).revokeSessions(userId, now);
    return tx.kind === 'sqlite'
      ? tx.db.run(sql`DELETE FROM sessions WHERE json_extract(sess, '$.passport.user.id') = ${userId}`)
          .changes
      : ((
          await tx.db.execute(
            sql`DELETE FROM sessions WHERE (sess::jsonb #>> '{passport,user,id}') = ${userId}`,
          )
        ).rowCount ?? 0);
  });
  await ctx.events.revoke({ userId, validAfter: now });
  let fromRedis = 0;
  const { redis } = ctx.sessions;
  if (redis) {
    const key = userSetKey(ctx.sessions, userId);
    const within = ctx.config.redisTimeoutMs;
    const sids = await redisWithin(redis.sMembers(key), within);
    if (sids.length > 0)
      fromRedis = await redisWithin(
        redis.del(sids.map((sid) => `${ctx.sessions.redisPrefix}${sid}`)),
        within,
      );
    await redisWithin(redis.del(key), within);
  }
  // The Discord tokens go too: nothing acts for the member on Discord until they sign in again.
  await deleteOAuthTokens(ctx.store, userId);
  ctx.logger.info('signed out everywhere', { userId, sessions: fromTable + fromRedis });
  return fromTable + fromRedis;
}
