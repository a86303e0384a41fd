import { SSR_DIST_DIR, WEB_DIST_DIR } from './paths.ts';
import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import compression from 'compression';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PublicConfig } from './shared/api-types.ts';
import type { AppContext } from './context.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { refusesCrossSite, sameOriginOnly } from './http/guards.ts';
import { plainRequestStarter, requestContext, requestStarter } from './http/request-context.ts';
import {
  constantHeaders,
  recordConstantHeaders,
  withFastPath,
  type FastRoute,
  type NodeHandler,
  type PlainAnswer,
  type PlainRoute,
  type SessionAccess,
} from './http/fast-path.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { metricsHandler } from './http/metrics-route.ts';
import { healthRoutes } from './ops/health-routes.ts';
import type { ReadinessCheck } from './ops/readiness.ts';
import { authRoutes } from './auth/routes.ts';
import { whilePersonWaits } from './discord/discord-api.ts';
import { createPassport, type PassportInstance } from './auth/passport.ts';
import { featureRoutes, rawBodyRoutes } from './features.ts';
import { sessionCheck, sessionPolicy } from './auth/session-policy.ts';
import { spaPages } from './auth/spa-pages.ts';
import { addressKey, addressRecorder, recordWriteAddresses, writeLimits } from './http/write-limits.ts';
import { discoverAnswer, type DiscoverAnswer } from './joins/routes.ts';
import { claimAnswer } from './rewards/routes.ts';

export { PRODUCT_NAME } from './shared/brand.ts';
import { PRODUCT_NAME } from './shared/brand.ts';
import { errorMessage } from './ops/error-text.ts';
const WEB_DIST = WEB_DIST_DIR;

export interface CreateAppOptions {
  sessionMiddleware: RequestHandler;
  /** Mounted before everything else (the Discord simulator in demo mode), outside our CSP. */
  preRoutes?: { path: string; router: Router }[];
  webDist?: string;
  /**
   * The server renderer's build (decision 031); by default dist/ssr beside the default web build, none
   * with another webDist (tests).
   */
  ssrDist?: string;
  /** What GET /api/ready checks (src/ops/readiness.ts). */
  readiness: ReadinessCheck;
  /**
   * The session's store, cookie name and secrets: with them the hot routes get the signed-in fast
   * path (src/http/fast-path.ts, decision 033). `fastPath: false` serves everything through Express.
   */
  session?: SessionAccess;
  fastPath?: boolean;
  /**
   * `false`: the fast path runs every request on Express's request/response objects (decision 033)
   * instead of node's own (decision 035). For A/B runs and the fast path's table test.
   */
  plainFastPath?: boolean;
}

/** The routes the signed-in fast path serves (under /api): Discover's pages and the reward claim. */
export const FAST_ROUTES: FastRoute[] = [
  { method: 'GET', path: '/servers' },
  { method: 'POST', path: '/hourly/claim' },
];

function securityHeaders(ctx: AppContext) {
  const cdn = new URL(ctx.config.discord.cdnUrl).origin;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
        'frame-src': [
          "'self'",
          'https://js.stripe.com',
          'https://*.js.stripe.com',
          'https://hooks.stripe.com',
        ],
        'connect-src': ["'self'", 'https://api.stripe.com'],
        'img-src': ["'self'", 'data:', cdn, 'https://*.stripe.com'],
        // Chakra (emotion) injects style tags at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        'form-action': ["'self'"],
        'upgrade-insecure-requests': ctx.config.production ? [] : null,
      },
    },
    strictTransportSecurity: ctx.config.production,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * Runs the handlers in order as one middleware: one router layer instead of one per handler. An error
 * (or a rejected promise) skips the rest and goes to the router's error handling, as with separate layers.
 */
export function inSeries(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) {
        next(err);
        return;
      }
      const handler = handlers[i++];
      if (!handler) {
        next();
        return;
      }
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/** Runs `handler` for POST requests only (the write limits: every limited route is a POST). */
function postsOnly(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (req.method === 'POST' ? handler(req, res, next) : next());
}

function publicConfig(ctx: AppContext): PublicConfig {
  return {
    productName: PRODUCT_NAME,
    demoMode: ctx.config.demoMode,
    stripePublishableKey: ctx.config.stripe.publishableKey ?? null,
    stripeJsUrl: ctx.config.stripe.jsUrl ?? null,
    supportUrl: ctx.config.supportUrl,
  };
}

/** Everything of the API that the fast path reuses. */
interface ApiParts {
  api: Router;
  passport: PassportInstance;
  beforeSession: RequestHandler[];
  afterSession: RequestHandler[];
  check: ReturnType<typeof sessionCheck>;
  /** The same-origin check's allowed origins and the address recorder (for the plain path). */
  origins: ReadonlySet<string>;
  recordAddress: ReturnType<typeof addressRecorder>;
}

/**
 * JSON body limits (express.json), in bytes, by route under /api (decision 040): campaign submissions
 * carry texts; every other signed-in write a few fields. The fast path's plain body read honours them.
 */
const JSON_LIMIT_BYTES = 4 * 1024;
const JSON_LIMITS_BY_PATH: Record<string, number> = {
  '/servers': 32 * 1024,
  '/servers/no-bot': 32 * 1024,
};

/** The JSON parser with the route's limit (one parser instance per limit). */
function jsonBodies(): RequestHandler {
  const parsers = new Map<number, RequestHandler>();
  const parserFor = (limit: number) => {
    let parser = parsers.get(limit);
    if (!parser) parsers.set(limit, (parser = express.json({ limit })));
    return parser;
  };
  const fallback = parserFor(JSON_LIMIT_BYTES);
  for (const limit of Object.values(JSON_LIMITS_BY_PATH)) parserFor(limit);
  return (req, res, next) => {
    const limit = JSON_LIMITS_BY_PATH[req.path];
    (limit === undefined ? fallback : parserFor(limit))(req, res, next);
  };
}

/**
 * Runs the body parser only for a signed-in request (decision 040): an anonymous body is never read
 * (every API route that takes a body needs a user and answers 401 first), so anonymous stalled bodies
 * hold no memory.
 */
function signedInOnly(parser: RequestHandler): RequestHandler {
  return (req, res, next) => (req.user ? parser(req, res, next) : next());
}

/** API answers are per user and change with every write: no browser or proxy may keep them. */
const API_HEADERS: [string, string][] = [['Cache-Control', 'no-store']];

function apiRouter(ctx: AppContext, options: CreateAppOptions): ApiParts {
  const api = express.Router();
  api.use(constantHeaders(API_HEADERS));

  // Health, readiness and the public config need no body parser and no session.
  api.use(healthRoutes(options.readiness, ctx.config.metricsToken));
  const config = publicConfig(ctx);
  api.get('/config', (_req, res) => {
    res.json(config);
  });

  // Routes that must see the raw body (Stripe webhooks) come before the JSON parser.
  for (const router of rawBodyRoutes(ctx)) api.use(router);

  const passport = createPassport(ctx);
  const check = sessionCheck(ctx);
  // The request stack every other API route runs behind, as one layer: the session, passport, the
  // session policy, then — for signed-in requests only (decision 040) — the JSON body sized by route
  // (body-parser skips requests without one) and the same-origin check for writes. The fast path has
  // found a valid session before it runs `beforeSession` (the same parser and check).
  const origins = [new URL(ctx.config.publicUrl).origin];
  const json = jsonBodies();
  const beforeSession = [json, sameOriginOnly(origins)];
  api.use(
    inSeries([
      options.sessionMiddleware,
      passport.initialize(),
      passport.session() as RequestHandler,
      sessionPolicy(ctx, check),
      signedInOnly(json),
      sameOriginOnly(origins),
    ]),
  );
  const recordAddress = addressRecorder(ctx);
  const afterSession = [
    postsOnly(writeLimits(ctx, ctx.config.writeLimits ? ctx.options.writeLimits : false)),
    postsOnly(recordWriteAddresses(ctx, recordAddress)),
  ];
  for (const handler of afterSession) api.use(handler);
  // From here on a person waits: Discord calls get a deadline (decision 037). After the body parser and
  // the session, whose stream and store callbacks would not carry the context on.
  api.use((_req, _res, next) => whilePersonWaits(next));
  api.use(authRoutes(ctx, passport));
  for (const router of featureRoutes(ctx)) api.use(router);
  api.use(apiNotFound);
  return {
    api,
    passport,
    beforeSession,
    afterSession,
    check,
    origins: new Set(origins),
    recordAddress,
  };
}

export function createApp(
  ctx: AppContext,
  options: CreateAppOptions,
): {
  app: Express;
  passport: PassportInstance;
  /** The server's request listener: the fast path for FAST_ROUTES when it applies, else `app`. */
  handler: NodeHandler;
} {
  const app = express();
  app.disable('x-powered-by');
  // Off unless TRUST_PROXY names the proxy: otherwise anyone reaching the port directly could forge
  // X-Forwarded-For (rate limits) and X-Forwarded-Proto.
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(requestContext(ctx.logger));
  // Exactly GET /metrics (Express would also match /METRICS and /metrics/); token-only in production.
  app.use(metricsHandler(ctx.config.metricsToken, ctx.config.production));

  for (const pre of options.preRoutes ?? []) app.use(pre.path, pre.router);

  // helmet's headers depend only on the configuration: computed once, set as a constant block.
  const security = recordConstantHeaders(securityHeaders(ctx));
  app.use(constantHeaders(security));
  // Every API route lives in one router mounted once (decision 027): each `app.use('/api', …)` layer
  // costs a path match and a strip/restore of the /api prefix on every request that passes it.
  const parts = apiRouter(ctx, options);
  const { api, passport } = parts;
  app.use('/api', api);

  const webDist = options.webDist ?? WEB_DIST;
  if (existsSync(webDist)) {
    // The SPA's JS and CSS shrink ~4x with gzip; API JSON is left to the reverse proxy so the hot API
    // routes don't pay for compression in this process.
    app.use(compression());
    app.use(
      '/assets',
      express.static(path.join(webDist, 'assets'), {
        index: false,
        immutable: true,
        maxAge: '1y',
        fallthrough: true,
      }),
    );
    app.use(express.static(webDist, { index: false, maxAge: '1h' }));
    app.use('/assets', (_req, res) => res.status(404).end());
    // A path that names a file (robots.txt, favicon.ico, a stale chunk) and was not found above is a
    // real 404: answering it with the SPA's HTML would hand crawlers and browsers a page for an icon.
    app.get(/\/[^/]*\.[a-z0-9]{1,12}$/i, (_req, res) => {
      res.status(404).type('text/plain').send('Not found');
    });
    // History fallback: every other GET is the SPA's HTML, chosen by the session (src/auth/spa-pages.ts).
    app.get(
      /.*/,
      options.sessionMiddleware,
      passport.initialize(),
      passport.session() as RequestHandler,
      sessionPolicy(ctx),
      spaPages(
        ctx,
        webDist,
        publicConfig(ctx),
        options.ssrDist ?? (options.webDist === undefined ? SSR_DIST_DIR : undefined),
      ),
    );
  }

  const onError = errorHandler(ctx.logger);
  app.use(onError);

  const handler =
    options.session && options.fastPath !== false
      ? withFastPath({
          app,
          api,
          mount: '/api',
          routes: FAST_ROUTES,
          headers: [...security, ...API_HEADERS],
          startRequest: requestStarter(ctx.logger),
          beforeSession: parts.beforeSession,
          afterSession: parts.afterSession,
          session: options.session,
          deserializeUser: (stored, req, done) =>
            passport.deserializeUser(stored as object, req as never, done),
          check: parts.check,
          now: () => ctx.clock.now(),
          notFound: apiNotFound,
          errorHandler: onError,
          onTouchError: (err) =>
            ctx.logger.warn('session touch failed', {
              error: errorMessage(err),
            }),
          plain:
            options.plainFastPath === false
              ? undefined
              : {
                  routes: new Map<string, PlainRoute>([
                    [
                      'GET /servers',
                      ({ userId, query }) => {
                        const toPlain = (page: DiscoverAnswer): PlainAnswer =>
                          page.link
                            ? { buffer: page.body, headers: [['Link', page.link]] }
                            : { buffer: page.body };
                        const page = discoverAnswer(ctx, userId, query());
                        return page instanceof Promise ? page.then(toPlain) : toPlain(page);
                      },
                    ],
                    [
                      'POST /hourly/claim',
                      ({ userId, body }) => claimAnswer(ctx, userId, body).then((json) => ({ json })),
                    ],
                  ]),
                  // Write limits run on Express's objects (express-rate-limit): with them on, writes
                  // take the fast path on Express's objects.
                  writes: !ctx.config.writeLimits,
                  jsonLimit: JSON_LIMIT_BYTES,
                  refuses: (method, site, origin, protocol, host) =>
                    refusesCrossSite(parts.origins, method, site, origin, protocol, host),
                  recordAddress: parts.recordAddress,
                  addressKey,
                  start: plainRequestStarter(ctx.logger),
                },
        })
      : (req: IncomingMessage, res: ServerResponse) => {
          app(req, res);
        };
  return { app, passport, handler };
}
