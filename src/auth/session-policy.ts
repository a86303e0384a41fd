import type { RequestHandler } from 'express';
import type { SessionData } from 'express-session';
import type { AppContext } from '../context.ts';
import { HOUR } from '../clock.ts';
import { SESSION_LIFETIMES } from './session.ts';
import { usersRepo } from '../users/users-repo.ts';

declare module 'express-session' {
  interface SessionData {
    /** Clock time of the sign-in that created this session. */
    signedInAt?: number;
    /** Clock time of the last request, recorded at most once an hour. */
    lastSeenAt?: number;
  }
}

const SEEN_EVERY_MS = HOUR;

/**
 * What the session policy makes of a signed-in session: `current` passes unchanged; `refresh` passes
 * after its clocks are recorded (the session is then saved and its cookie re-sent); `expired` (idle or
 * absolute lifetime), `deleted` (the user no longer exists) and `revoked` (signed in at or before the
 * user's "sessions valid after" instant: sign-out everywhere, account deletion — decision 039) end it.
 */
export type SessionVerdict = 'current' | 'refresh' | 'expired' | 'deleted' | 'revoked';

/**
 * Whether a session signed in at `signedInAt` is revoked by the user's "sessions valid after" instant.
 * A session without a sign-in time (from before the field existed) is revoked by any revocation.
 */
export function isRevoked(signedInAt: number | undefined, validAfter: number | null): boolean {
  return validAfter !== null && (signedInAt === undefined || signedInAt <= validAfter);
}

export type SessionCheck = (
  sess: Pick<SessionData, 'signedInAt' | 'lastSeenAt'>,
  userId: string,
  now: number,
) => Promise<SessionVerdict>;

/**
 * The policy's rule as a function of the stored session, shared by the middleware below and the
 * signed-in fast path (src/http/fast-path.ts), which serves only `current` sessions.
 */
export function sessionCheck(ctx: Pick<AppContext, 'store'>): SessionCheck {
  const users = usersRepo(ctx.store.read);
  return async (sess, userId, now) => {
    const signedInAt = sess.signedInAt ?? now;
    const lastSeenAt = sess.lastSeenAt ?? now;
    if (now - signedInAt >= SESSION_LIFETIMES.absoluteMs || now - lastSeenAt >= SESSION_LIFETIMES.idleMs) {
      return 'expired';
    }
    const validAfter = await users.sessionsValidAfter(userId);
    if (validAfter === undefined) return 'deleted';
    if (isRevoked(sess.signedInAt, validAfter)) return 'revoked';
    // Sessions from before these fields existed start their clocks now.
    if (sess.signedInAt === undefined || sess.lastSeenAt === undefined || now - lastSeenAt >= SEEN_EVERY_MS) {
      return 'refresh';
    }
    return 'current';
  };
}

/**
 * Runs after passport.session(). A signed-in session ends here when its user no longer exists, when it
 * was revoked (sign-out everywhere, account deletion), when it
 * sat idle too long or outlived its absolute lifetime: the request then continues signed out (401 on
 * protected routes), never as a ghost whose writes fail on foreign keys.
 */
export function sessionPolicy(ctx: AppContext, check: SessionCheck = sessionCheck(ctx)): RequestHandler {
  return async (req, _res, next) => {
    const userId = req.user?.id;
    if (!userId) return next();
    const now = ctx.clock.now();
    const sess = req.session;
    const verdict = await check(sess, userId, now);
    if (verdict === 'expired' || verdict === 'deleted' || verdict === 'revoked') {
      if (verdict === 'deleted') ctx.logger.warn('session of a deleted user ended', { userId });
      if (verdict === 'revoked') ctx.logger.info('revoked session ended', { userId });
      req.user = undefined;
      sess.destroy((err) => next(err));
      return;
    }
    if (verdict === 'refresh') {
      if (sess.signedInAt === undefined) sess.signedInAt = now;
      if (sess.lastSeenAt === undefined || now - sess.lastSeenAt >= SEEN_EVERY_MS) sess.lastSeenAt = now;
      // A live-event stream saves such a session as it opens, then lets go of it (src/events/routes.ts).
      (req as { sessionRefreshed?: boolean }).sessionRefreshed = true;
    }
    next();
  };
}
