import type { RequestHandler } from 'express';
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
 * Runs after passport.session(). A signed-in session ends here when its user no longer exists, when it
 * sat idle too long or outlived its absolute lifetime: the request then continues signed out (401 on
 * protected routes), never as a ghost whose writes fail on foreign keys.
 */
export function sessionPolicy(ctx: AppContext): RequestHandler {
  const users = usersRepo(ctx.store.read);
  return async (req, _res, next) => {
    const userId = req.user?.id;
    if (!userId) return next();
    const now = ctx.clock.now();
    const sess = req.session;
    const signedInAt = sess.signedInAt ?? now;
    const lastSeenAt = sess.lastSeenAt ?? now;
    const expired =
      now - signedInAt >= SESSION_LIFETIMES.absoluteMs || now - lastSeenAt >= SESSION_LIFETIMES.idleMs;
    if (expired || !(await users.exists(userId))) {
      if (!expired) ctx.logger.warn('session of a deleted user ended', { userId });
      req.user = undefined;
      sess.destroy((err) => next(err));
      return;
    }
    // Sessions from before these fields existed start their clocks now.
    if (sess.signedInAt === undefined) sess.signedInAt = now;
    if (sess.lastSeenAt === undefined || now - lastSeenAt >= SEEN_EVERY_MS) sess.lastSeenAt = now;
    next();
  };
}
