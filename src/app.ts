import { WEB_DIST_DIR } from './paths.ts';
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
  // API answers are per user and change with every write: no browser or proxy may keep them.
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  app.use('/api', healthRoutes(options.readiness));

  // Routes that must see the raw body (Stripe webhooks) come before the JSON parser.
  for (const router of rawBodyRoutes(ctx)) app.use('/api', router);

  app.use('/api', express.json({ limit: '32kb' }));
  app.use('/api', sameOriginOnly([new URL(ctx.config.publicUrl).origin]));

  const publicConfig: PublicConfig = {
    productName: PRODUCT_NAME,
    demoMode: ctx.config.demoMode,
    stripePublishableKey: ctx.config.stripe.publishableKey ?? null,
    supportUrl: ctx.config.supportUrl,
  };
  app.get('/api/config', (_req, res) => {
    res.json(publicConfig);
  });

  app.use('/api', options.sessionMiddleware);
  const passport = createPassport(ctx);
  app.use('/api', passport.initialize());
  app.use('/api', passport.session() as RequestHandler);
  app.use('/api', sessionPolicy(ctx));
  app.use('/api', writeLimits(ctx, ctx.config.writeLimits ? ctx.options.writeLimits : false));
  app.use('/api', recordWriteAddresses(ctx));
  app.use('/api', authRoutes(ctx, passport));
  for (const router of featureRoutes(ctx)) app.use('/api', router);
  app.use('/api', apiNotFound);

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
      spaPages(ctx, webDist, publicConfig),
    );
  }

  app.use(errorHandler(ctx.logger));
  return { app, passport };
}
