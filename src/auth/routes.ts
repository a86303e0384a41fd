import { Router, type NextFunction, type Request, type Response, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../context.ts';
import { requireUser } from '../http/guards.ts';
import { addressKey, createLimitStore } from '../http/write-limits.ts';
import { localizeForRequest } from '../i18n/server-messages.ts';
import { getUserById, toApiUser } from '../users/users.ts';
import { recordUserAddress } from '../joins/same-address.ts';
import { SESSION_LIFETIMES } from './session.ts';
import { registerSession, signOutEverywhere } from './sign-out-everywhere.ts';
import type { PassportInstance } from './passport.ts';
import { refreshMemberGuilds } from '../joins/join-pace.ts';

/** How long a sign-in waits for the member's guild list before redirecting anyway. */
const GUILDS_AT_SIGN_IN_WAIT_MS = 2_000;

/** Resolves when `work` settles or after `ms`, whichever is first (the work goes on either way). */
function withinMs(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void work.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
import { allowSessionCreation } from './session-creation.ts';
import { usersRepo } from '../users/users-repo.ts';
import { errorMessage } from '../ops/error-text.ts';

/** The sign-in rate limiter's answer (sent outside the error handler, in Accept-Language's language). */
export const SIGN_IN_LIMIT_MESSAGE = 'Too many sign-in attempts. Please wait a minute and try again.';

export function authRoutes(ctx: AppContext, passport: PassportInstance): Router {
  const router = Router();
  const signInLimiter = rateLimit({
    windowMs: 60_000,
    limit: ctx.options.signInRateLimit ?? 30,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: addressKey,
    store: createLimitStore(ctx, 'sign-in'),
    message: (req: Request) => ({ message: localizeForRequest(SIGN_IN_LIMIT_MESSAGE, req) }),
    validate: { xForwardedForHeader: false },
  });

  // The session made here only carries the OAuth2 state (and PKCE verifier) until the callback:
  // it lives minutes, not the 7 days of a signed-in session.
  const shortPreLoginSession: RequestHandler = (req, _res, next) => {
    if (!req.user) req.session.cookie.maxAge = SESSION_LIFETIMES.preLoginMs;
    next();
  };

  router.get(
    '/auth/discord',
    signInLimiter,
    shortPreLoginSession,
    passport.authenticate('discord') as RequestHandler,
  );

  // Any failure (missing or forged state, denied consent, Discord unreachable) lands on the login
  // page with a flag; nothing is created and no session is established.
  router.get('/auth/discord/callback', signInLimiter, discordCallback(ctx, passport));

  router.get('/auth/user', async (req, res) => {
    // The web app asks "who am I, if anyone?" with ?optional=1: signed out is an answer there (null),
    // not a failure, so a signed-out visit logs no 401 in the browser console. Without the flag the
    // spec's contract holds: 401 when signed out.
    if (req.query.optional === '1' && !req.user?.id) {
      res.json(null);
      return;
    }
    const userId = requireUser(req);
    res.json(toApiUser(await getUserById(ctx.store, userId), ctx.config.discord.cdnUrl));
  });

  router.post('/auth/logout', (req, res, next) => {
    const userId = req.user?.id;
    const sid = req.sessionID;
    req.logout((err) => {
      if (err) return next(err);
      req.session.destroy((destroyErr) => {
        if (destroyErr) return next(destroyErr);
        ctx.sessions.clearCookie(res);
        // This session's live-event streams (any process) end now, not at their next heartbeat.
        if (userId) void ctx.events.revoke({ userId, sid });
        res.json({ ok: true });
      });
    });
  });

  // Ends every session of the signed-in user (other browsers and devices included), this one too.
  router.post('/auth/sign-out-everywhere', async (req, res, next) => {
    const userId = requireUser(req);
    const ended = await signOutEverywhere(ctx, userId);
    // The row is gone already; destroying drops it from this request so nothing saves it again.
    req.session.destroy((err) => {
      if (err) return next(err);
      ctx.sessions.clearCookie(res);
      res.json({ ok: true, sessionsEnded: ended });
    });
  });

  return router;
}

/** GET /auth/discord/callback: the OAuth2 code becomes a signed-in session, or the login page says it failed. */
function discordCallback(ctx: AppContext, passport: PassportInstance): RequestHandler {
  return (req, res, next) => {
    const fail = (reason: string) => {
      ctx.logger.warn('sign-in failed', { reason });
      res.redirect('/?login=failed');
    };
    if (typeof req.query.error === 'string') return fail(`discord: ${req.query.error}`);
    (
      passport.authenticate('discord', (err: unknown, user: Express.User | false, info: unknown) => {
        if (err || !user) return fail(err ? errorMessage(err) : JSON.stringify(info ?? null));
        // passport 0.7 regenerates the session id on login (session fixation defence); the new
        // session gets the signed-in lifetime. It is the only save that may create a signed-in
        // session (src/auth/session-creation.ts).
        allowSessionCreation(req);
        req.logIn(user, (loginErr) => {
          if (loginErr) return next(loginErr);
          void signedInAfterRevocation(ctx, user.id).then((signedInAt) => {
            req.session.signedInAt = signedInAt;
            req.session.lastSeenAt = ctx.clock.now();
            // Saved before the redirect: express-session's own save at the end of the request lets
            // the response's head out first, and the browser's next request must find the clocks.
            req.session.save((saveErr) =>
              saveErr ? next(saveErr) : finishSignIn(ctx, req, res, user, next),
            );
          }, next);
        });
      }) as RequestHandler
    )(req, res, next);
  };
}

/**
 * The sign-in time: now, but always after the user's last revocation (decision 039), so a sign-in
 * in the same millisecond as a sign-out everywhere (or on a clock behind another process's) counts.
 */
async function signedInAfterRevocation(ctx: AppContext, userId: string): Promise<number> {
  const now = ctx.clock.now();
  const validAfter = await usersRepo(ctx.store.read).sessionsValidAfter(userId);
  return validAfter === null || validAfter === undefined ? now : Math.max(now, validAfter + 1);
}

function finishSignIn(
  ctx: AppContext,
  req: Request,
  res: Response,
  user: Express.User,
  next: NextFunction,
): void {
  // The same-address rule compares where members and owners sign in from (decision 022); a
  // failed recording is logged, not a failed sign-in (the next write records the address).
  const recorded = recordUserAddress(ctx, user.id, addressKey(req)).catch((recordErr: unknown) => {
    ctx.logger.error('address recording failed', {
      userId: user.id,
      error: errorMessage(recordErr),
    });
  });
  // The member's guild list, stored: Discover leaves out servers they are already in (decision
  // 038). Read beside the writes above, waited for at most GUILDS_AT_SIGN_IN_WAIT_MS (a slow
  // Discord finishes it in the background); a failure costs nothing but that (a join reads it again).
  const guilds = withinMs(
    refreshMemberGuilds(ctx, user.id).catch((guildErr: unknown) => {
      ctx.logger.warn('guild list at sign-in failed', {
        userId: user.id,
        error: errorMessage(guildErr),
      });
    }),
    GUILDS_AT_SIGN_IN_WAIT_MS,
  );
  Promise.all([recorded, guilds, registerSession(ctx, user.id, req.sessionID)]).then(
    () => res.redirect('/'),
    (regErr: unknown) => next(regErr),
  );
}
