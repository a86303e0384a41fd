import { SSR_DIST_DIR, WEB_DIST_DIR } from './paths.ts';
import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import compression from 'compression';
import { existsSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PublicConfig } from './shared/api-types.ts';
import type { AppContext } from './context.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { requestStoredLocale } from './i18n/user-locale.ts';
import { sameOriginGuard } from './http/guards.ts';
import { plainRequestStarter, requestContext } from './http/request-context.ts';
import {
  constantHeaders,
  fastJsonBody,
  fastSession,
  guardsMiddleware,
  inSeries,
  pageGuards,
  recordConstantHeaders,
  withFastPath,
  type FastAnswer,
  type FastRoute,
  type Guard,
  type NodeHandler,
  type SessionAccess,
} from './http/fast-path.ts';
import { metricsHandler } from './http/metrics-route.ts';
import { healthRoutes } from './ops/health-routes.ts';
import type { ReadinessCheck } from './ops/readiness.ts';
import { authRoutes } from './auth/routes.ts';
import { whilePersonWaits } from './discord/discord-api.ts';
import { createPassport, type PassportInstance } from './auth/passport.ts';
import { featureRoutes, rawBodyRoutes } from './features.ts';
import { sessionCheck, sessionPolicy } from './auth/session-policy.ts';
import { spaPages, takesGzip } from './auth/spa-pages.ts';
import { recordAddressGuard, writeLimits } from './http/write-limits.ts';
import { errorMessage } from './ops/error-text.ts';
import { discoverAnswer, type DiscoverAnswer } from './joins/routes.ts';
import { claimAnswer } from './rewards/routes.ts';
import { publicApiRoutes } from './public-api/routes.ts';
import { accessTokenAuth, unlessAccessToken } from './access-tokens/bearer.ts';

export { PRODUCT_NAME } from './shared/brand.ts';
import { PRODUCT_NAME } from './shared/brand.ts';
import { EARLY_INPUT_SCRIPT } from './shared/early-input.ts';
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
   * path (src/http/fast-path.ts, decisions 033, 035, 046). `fastPath: false` serves everything through Express.
   */
  session?: SessionAccess;
  fastPath?: boolean;
  /** Guards added after the API's own (src/http/pipeline.test.ts). */
  guards?: Guard[];
}

const EARLY_INPUT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(EARLY_INPUT_SCRIPT).digest('base64')}'`;

function securityHeaders(ctx: AppContext) {
  const cdn = new URL(ctx.config.discord.cdnUrl).origin;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        // The one inline script: server-rendered pages' early-input script (src/shared/early-input.ts).
        'script-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', EARLY_INPUT_SCRIPT_HASH],
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

function publicConfig(ctx: AppContext): PublicConfig {
  return {
    productName: PRODUCT_NAME,
    demoMode: ctx.config.demoMode,
    stripePublishableKey: ctx.config.stripe.publishableKey ?? null,
    stripeJsUrl: ctx.config.stripe.jsUrl ?? null,
    supportUrl: ctx.config.supportUrl,
  };
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

/** The JSON body limit of a route under /api. */
const jsonLimitFor = (path: string): number => JSON_LIMITS_BY_PATH[path] ?? JSON_LIMIT_BYTES;

/**
 * The JSON body guard (decision 040): the parser with the route's limit, run only for a signed-in
 * request — an anonymous body is never read (every API route that takes a body needs a user and
 * answers 401 first), so anonymous stalled bodies hold no memory. body-parser skips requests without one.
 */
function jsonBodyGuard(): Guard {
  const parsers = new Map<number, RequestHandler>();
  for (const limit of [JSON_LIMIT_BYTES, ...Object.values(JSON_LIMITS_BY_PATH)]) {
    if (!parsers.has(limit)) parsers.set(limit, express.json({ limit }));
  }
  return {
    name: 'JSON body',
    middleware: (req, res, next) =>
      req.user ? parsers.get(jsonLimitFor(req.path))!(req, res, next) : next(),
    fast: fastJsonBody(jsonLimitFor),
    // A page (a GET) reads no body.
    pages: false,
  };
}

/** API answers are per user and change with every write: no browser or proxy may keep them. */
const API_HEADERS: [string, string][] = [['Cache-Control', 'no-store']];

/**
 * The API's guards, in the order every API route after the public ones runs behind them (decision 046):
 * the session (express-session, passport, the session policy), the same-origin check for writes, the
 * JSON body, the write limits and the address recording (POSTs), and the person's Discord deadline
 * (decision 037; after the body and the session, whose stream and store callbacks would not carry the
 * context on). The signed-in fast path is built from this list (src/http/fast-path.ts).
 */
function apiGuards(ctx: AppContext, options: CreateAppOptions, passport: PassportInstance): Guard[] {
  const check = sessionCheck(ctx);
  const session: Guard = {
    name: 'session',
    middleware: inSeries([
      options.sessionMiddleware,
      passport.initialize(),
      passport.session() as RequestHandler,
      sessionPolicy(ctx, check),
    ]),
    ...(options.session && options.fastPath !== false
      ? {
          fast: fastSession({
            session: options.session,
            deserializeUser: (stored, req, done) =>
              passport.deserializeUser(stored as object, req as never, done),
            check,
            now: () => ctx.clock.now(),
            onTouchError: (err) => ctx.logger.warn('session touch failed', { error: errorMessage(err) }),
          }),
        }
      : {}),
  };
  const limits = ctx.config.writeLimits ? ctx.options.writeLimits : false;
  const recordAddress = recordAddressGuard(ctx);
  const sameOrigin = sameOriginGuard([new URL(ctx.config.publicUrl).origin]);
  // A request with a personal access token (decision 053) is the token's alone: no cookie is read, so
  // the session and the same-origin check (which guards cookies) are skipped for it; the body, the write
  // limits, the address and the Discord deadline apply as to everyone. On the fast path a request with
  // an Authorization header is declined: the full stack's token guard decides.
  const accessToken: Guard = {
    name: 'access token',
    middleware: accessTokenAuth(ctx, (_req, _res, next) => next()),
    fast: (call, next) => (call.req.headers.authorization === undefined ? next() : call.decline()),
    // A page is the session's: a token never signs a page in (its header is not read there).
    pages: false,
  };
  return [
    accessToken,
    { ...session, middleware: unlessAccessToken(session.middleware) },
    // Before the body: a refused cross-site write is never read.
    { ...sameOrigin, middleware: unlessAccessToken(sameOrigin.middleware) },
    jsonBodyGuard(),
    // express-rate-limit needs Express's objects: no fast form, so with limits on writes take the full stack.
    ...(limits === false
      ? []
      : [{ name: 'write limits', middleware: writeLimits(ctx, limits), postsOnly: true }]),
    ...(recordAddress ? [recordAddress] : []),
    {
      name: 'person waits',
      middleware: (_req, _res, next) => whilePersonWaits(next),
      fast: (_call, next) => whilePersonWaits(next),
    },
    ...(options.guards ?? []),
  ];
}

function apiRouter(ctx: AppContext, options: CreateAppOptions, guards: Guard[], passport: PassportInstance) {
  const api = express.Router();
  api.use(constantHeaders(API_HEADERS));
  // Health, readiness and the public config need no body parser and no session.
  api.use(healthRoutes(options.readiness, ctx.config.metricsToken));
  const config = publicConfig(ctx);
  api.get('/config', (_req, res) => {
    res.json(config);
  });
  // The OpenAPI document and its page (decision 053): public, no session.
  api.use(publicApiRoutes());
  // Routes that must see the raw body (Stripe webhooks) come before the JSON parser.
  for (const router of rawBodyRoutes(ctx)) api.use(router);
  api.use(guardsMiddleware(guards));
  api.use(authRoutes(ctx, passport));
  for (const router of featureRoutes(ctx)) api.use(router);
  api.use(apiNotFound);
  return api;
}

/** The fast routes (decisions 033, 035): their answers are the functions their Express routes call. */
function fastRoutes(ctx: AppContext): Map<string, FastRoute> {
  const toAnswer = (page: DiscoverAnswer): FastAnswer =>
    page.link ? { buffer: page.body, headers: [['Link', page.link]] } : { buffer: page.body };
  return new Map<string, FastRoute>([
    [
      'GET /servers',
      ({ userId, view }) => {
        const page = discoverAnswer(ctx, userId, view.query);
        return page instanceof Promise ? page.then(toAnswer) : toAnswer(page);
      },
    ],
    ['POST /hourly/claim', ({ userId, body }) => claimAnswer(ctx, userId, body).then((json) => ({ json }))],
  ]);
}

export function createApp(
  ctx: AppContext,
  options: CreateAppOptions,
): {
  app: Express;
  passport: PassportInstance;
  /** The server's request listener: the fast path for its routes when it applies, else `app`. */
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
  const passport = createPassport(ctx);
  const guards = apiGuards(ctx, options, passport);
  app.use('/api', apiRouter(ctx, options, guards, passport));

  const webDist = options.webDist ?? WEB_DIST;
  let pages: Parameters<typeof withFastPath>[0]['pages'];
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
    app.use(buildRootFiles(webDist));
    app.use('/assets', (_req, res) => res.status(404).end());
    // A path that names a file (robots.txt, favicon.ico, a stale chunk) and was not found above is a
    // real 404: answering it with the SPA's HTML would hand crawlers and browsers a page for an icon.
    app.get(/\/[^/]*\.[a-z0-9]{1,12}$/i, (_req, res) => {
      res.status(404).type('text/plain').send('Not found');
    });
    // History fallback: every other GET is the SPA's HTML, chosen by the session (src/auth/spa-pages.ts),
    // behind the API's guards that stand in front of pages (decision 047 "Session 18"): the session, and
    // any guard added to the list. The fast path serves the route table's pages signed in after the same
    // guards' fast forms, with the same handler (one page cache).
    const pageHandler = spaPages(
      ctx,
      webDist,
      publicConfig(ctx),
      options.ssrDist ?? (options.webDist === undefined ? SSR_DIST_DIR : undefined),
    );
    app.get(/.*/, guardsMiddleware(pageGuards(guards)), pageHandler);
    pages = {
      paths: pageHandler.routes.filter((p) => !shadowed(p, options.preRoutes ?? [])),
      handler: pageHandler,
      accepts: takesGzip,
      headers: security,
      label: '*static',
    };
  }

  // `{ message }` bodies in the reader's language: the member's stored one, else Accept-Language (decision 051).
  const onError = errorHandler(ctx.logger, { storedLocaleOf: (req) => requestStoredLocale(ctx.store, req) });
  app.use(onError);

  const handler = withFastPath({
    app,
    mount: '/api',
    guards,
    routes: fastRoutes(ctx),
    headers: [...security, ...API_HEADERS],
    start: plainRequestStarter(ctx.logger),
    errorHandler: onError,
    pages,
  });
  return { app, passport, handler };
}

/** Whether a page path is served by a route mounted before the pages (the demo's simulators). */
function shadowed(pathname: string, preRoutes: { path: string }[]): boolean {
  return preRoutes.some(
    (pre) =>
      pre.path === '/' || pathname === pre.path || pathname.startsWith(`${pre.path.replace(/\/$/, '')}/`),
  );
}

/** A path's first segment, decoded as express.static decodes it ('' for '/'). */
function firstSegment(pathname: string): string {
  const segment = pathname.slice(1).split('/', 1)[0] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The build's top-level files (favicon.ico, robots.txt, the manifest…). express.static looks on disk for
 * every path it is given: before every page load (`/dashboard`) a stat of a file that is not there, ~8 %
 * of the loop's CPU over a page-load bench (decision 047, session 14). The build does not change under a
 * process, so only paths whose first segment names one of its entries are looked for.
 */
function buildRootFiles(webDist: string): RequestHandler {
  const names = new Set(readdirSync(webDist));
  const files = express.static(webDist, { index: false, maxAge: '1h' });
  return (req, res, next) => {
    if (names.has(firstSegment(req.path))) files(req, res, next);
    else next();
  };
}
