import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../context.ts';
import { createLimitStore } from '../http/write-limits.ts';
import {
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  missingScopeMessage,
} from '../shared/access-tokens.ts';
import { findOperation } from '../public-api/operations.ts';
import { localizeForRequest } from '../i18n/server-messages.ts';
import { authenticateAccessToken, type AuthenticatedToken } from './access-tokens.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set when the request authenticated with a personal access token (then it has no session). */
      accessToken?: AuthenticatedToken;
    }
  }
}

/**
 * `Authorization: Bearer cs_pat_…` on an API request (decision 053). Without the header: nothing to do,
 * the session stack runs. With it: the token alone decides — the request is refused unless the token is
 * usable, the route accepts tokens (its `auth` in operations.ts names a scope) and the token holds that
 * scope; then the token's own rate limit applies and `req.user` is the token's owner. Cookies are not
 * read for such a request (the caller skips the session stack), so a token request cannot ride on a
 * browser session and needs no CSRF defence, and no user id in the request can change whose it is.
 */
export function accessTokenAuth(ctx: AppContext, parseBody: RequestHandler): RequestHandler {
  const perToken = rateLimit({
    windowMs: 60_000,
    limit: ACCESS_TOKEN_REQUESTS_PER_MINUTE,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req: Request) => `token:${req.accessToken?.id ?? ''}`,
    store: createLimitStore(ctx, 'access-token'),
    passOnStoreError: true,
    message: (req: Request) => ({ message: localizeForRequest(ACCESS_TOKEN_MESSAGES.rateLimited, req) }),
    validate: { xForwardedForHeader: false },
  });
  return (req, res, next) => {
    const header = req.headers.authorization;
    if (header === undefined) {
      next();
      return;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    // Refusals answer before the token's owner is known: in Accept-Language's language (decision 061).
    if (!match?.[1]) {
      res.status(401).json({ message: localizeForRequest(ACCESS_TOKEN_MESSAGES.invalid, req) });
      return;
    }
    const operation = findOperation(req.method, req.path);
    authenticateAccessToken(ctx.store, match[1], ctx.clock.now()).then((token) => {
      if (!token) {
        res.status(401).json({ message: localizeForRequest(ACCESS_TOKEN_MESSAGES.invalid, req) });
        return;
      }
      const auth = operation?.auth;
      if (auth === undefined || auth === 'public' || auth === 'session') {
        res.status(403).json({ message: localizeForRequest(ACCESS_TOKEN_MESSAGES.routeRefused, req) });
        return;
      }
      if (!token.scopes.has(auth)) {
        res.status(403).json({ message: localizeForRequest(missingScopeMessage(auth), req) });
        return;
      }
      req.accessToken = token;
      req.user = { id: token.userId };
      void perToken(req, res, (err?: unknown) => (err ? next(err) : parseBody(req, res, next)));
    }, next);
  };
}

/** Runs `handler` unless the request authenticated with an access token (the session stack). */
export function unlessAccessToken(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (req.accessToken ? next() : handler(req, res, next));
}
