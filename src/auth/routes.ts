import { Router, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../context.ts';
import { requireUser } from '../http/guards.ts';
import { getUserById, toApiUser } from '../users/users.ts';
import { SESSION_COOKIE } from './session.ts';
import type { PassportInstance } from './passport.ts';

export function authRoutes(ctx: AppContext, passport: PassportInstance): Router {
  const router = Router();
  const signInLimiter = rateLimit({
    windowMs: 60_000,
    limit: ctx.options.signInRateLimit ?? 30,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: { message: 'Too many sign-in attempts. Please wait a minute and try again.' },
  });

  router.get('/auth/discord', signInLimiter, passport.authenticate('discord') as RequestHandler);

  // Any failure (missing or forged state, denied consent, Discord unreachable) lands on the login
  // page with a flag; nothing is created and no session is established.
  router.get('/auth/discord/callback', signInLimiter, (req, res, next) => {
    const fail = (reason: string) => {
      ctx.logger.warn('sign-in failed', { reason });
      res.redirect('/?login=failed');
    };
    if (typeof req.query.error === 'string') return fail(`discord: ${req.query.error}`);
    (
      passport.authenticate('discord', (err: unknown, user: Express.User | false, info: unknown) => {
        if (err || !user) return fail(err instanceof Error ? err.message : JSON.stringify(info ?? null));
        // passport 0.7 regenerates the session id on login (session fixation defence).
        req.logIn(user, (loginErr) => {
          if (loginErr) return next(loginErr);
          res.redirect('/');
        });
      }) as RequestHandler
    )(req, res, next);
  });

  router.get('/auth/user', (req, res) => {
    // The web app asks "who am I, if anyone?" with ?optional=1: signed out is an answer there (null),
    // not a failure, so a signed-out visit logs no 401 in the browser console. Without the flag the
    // spec's contract holds: 401 when signed out.
    if (req.query.optional === '1' && !req.user?.id) {
      res.json(null);
      return;
    }
    const userId = requireUser(req);
    res.json(toApiUser(getUserById(ctx.db, userId), ctx.config.discord.cdnUrl));
  });

  router.post('/auth/logout', (req, res, next) => {
    req.logout((err) => {
      if (err) return next(err);
      req.session.destroy((destroyErr) => {
        if (destroyErr) return next(destroyErr);
        res.clearCookie(SESSION_COOKIE, { path: '/' });
        res.json({ ok: true });
      });
    });
  });

  return router;
}
