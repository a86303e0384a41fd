import express, { type Express } from 'express';
import type { AppContext } from '../context.ts';
import { apiNotFound, errorHandler } from '../http/errors.ts';
import { metricsHandler } from '../http/metrics-route.ts';
import { requestContext } from '../http/request-context.ts';
import { healthRoutes } from './health-routes.ts';
import type { ReadinessCheck } from './readiness.ts';

/**
 * What a ROLE=bot process serves on BOT_HEALTH_PORT (decision 028): GET /api/health and /api/ready for
 * its supervisor and load balancer checks, and GET /metrics. No API, no dashboard, no sessions: the
 * web processes serve those.
 */
export function createBotHealthApp(ctx: AppContext, readiness: ReadinessCheck): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(ctx.logger));
  app.use(metricsHandler(ctx.config.metricsToken, ctx.config.production));
  app.use('/api', healthRoutes(readiness, ctx.config.metricsToken));
  app.use('/api', apiNotFound);
  app.use((_req, res) => {
    res.status(404).json({
      message: 'This is a CoinSync bot process (ROLE=bot): only /api/health, /api/ready and /metrics.',
    });
  });
  app.use(errorHandler(ctx.logger));
  return app;
}
