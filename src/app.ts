import { SSR_DIST_DIR, WEB_DIST_DIR } from './paths.ts';
import express, { type Express, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import compression from 'compression';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PublicConfig } from './shared/api-types.ts';
import type { AppContext } from './context.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { sameOriginOnly } from './http/guards.ts';
import { requestContext } from './http/request-context.ts';
import { metricsHandler } from './http/metrics-route.ts';
import { healthRoutes } from './ops/health-routes.ts';
import type { ReadinessCheck } from './ops/readiness.ts';
import { authRoutes } from './auth/routes.ts';
import { createPassport, type PassportInstance } from './auth/passport.ts';
import { featureRoutes, rawBodyRoutes } from './features.ts';
import { sessionPolicy } from './auth/session-policy.ts';
import { spaPages } from './auth/spa-pages.ts';
import { recordWriteAddresses, writeLimits } from './http/write-limits.ts';

export { PRODUCT_NAME } from './shared/brand.ts';
import { PRODUCT_NAME } from './shared/brand.ts';
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
}

function contentSecurityPolicy(ctx: AppContext) {
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
    supportUrl: ctx.config.supportUrl,
  };
}

function apiRouter(ctx: AppContext, options: CreateAppOptions): { api: Router; passport: PassportInstance } {
  const api = express.Router();
  // API answers are per user and change with every write: no browser or proxy may keep them.
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  // Health, readiness and the public config need no body parser and no session.
  api.use(healthRoutes(options.readiness));
  const config = publicConfig(ctx);
  api.get('/config', (_req, res) => {
    res.json(config);
  });

  // Routes that must see the raw body (Stripe webhooks) come before the JSON parser.
  for (const router of rawBodyRoutes(ctx)) api.use(router);

  const passport = createPassport(ctx);
  // The request stack every other API route runs behind, as one layer: JSON bodies (body-parser skips
  // requests without one), the same-origin check for writes, the session, passport, the session policy.
  api.use(
    inSeries([
      express.json({ limit: '32kb' }),
      sameOriginOnly([new URL(ctx.config.publicUrl).origin]),
      options.sessionMiddleware,
      passport.initialize(),
      passport.session() as RequestHandler,
      sessionPolicy(ctx),
    ]),
  );
  api.use(postsOnly(writeLimits(ctx, ctx.config.writeLimits ? ctx.options.writeLimits : false)));
  api.use(postsOnly(recordWriteAddresses(ctx)));
  api.use(authRoutes(ctx, passport));
  for (const router of featureRoutes(ctx)) api.use(router);
  api.use(apiNotFound);
  return { api, passport };
}

export function createApp(
  ctx: AppContext,
  options: CreateAppOptions,
): { app: Express; passport: PassportInstance } {
  const app = express();
  app.disable('x-powered-by');
  // Off unless TRUST_PROXY names the proxy: otherwise anyone reaching the port directly could forge
  // X-Forwarded-For (rate limits) and X-Forwarded-Proto.
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(requestContext(ctx.logger));
  app.get('/metrics', metricsHandler(ctx.config.metricsToken));

  for (const pre of options.preRoutes ?? []) app.use(pre.path, pre.router);

  app.use(contentSecurityPolicy(ctx));
  // Every API route lives in one router mounted once (decision 027): each `app.use('/api', …)` layer
  // costs a path match and a strip/restore of the /api prefix on every request that passes it.
  const { api, passport } = apiRouter(ctx, options);
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

  app.use(errorHandler(ctx.logger));
  return { app, passport };
}
