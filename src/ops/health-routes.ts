import { Router } from 'express';
import type { ReadinessCheck } from './readiness.ts';
import { fromMonitoring } from '../http/metrics-route.ts';

/**
 * GET /api/health — liveness: the process is up and its event loop answers. It checks nothing else,
 * so a process manager or proxy never restarts or drops the process for a dependency's outage.
 * GET /api/ready — readiness: every check of ./readiness.ts; 503 with each failing check's reason. The
 * checks and reasons go to monitoring only (loopback, or the METRICS_TOKEN bearer); anyone else gets
 * the status alone (issue 27 item 5).
 */
export function healthRoutes(readiness: ReadinessCheck, monitoringToken?: string): Router {
  const router = Router();
  router.use(['/health', '/ready'], (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (req, res) => {
    const report = await readiness();
    if (!fromMonitoring(req, monitoringToken)) {
      if (report.ready) res.json({ status: 'ready' });
      else res.status(503).json({ status: 'not_ready', message: 'Not ready' });
      return;
    }
    if (report.ready) {
      res.json({ status: 'ready', checks: report.checks });
      return;
    }
    const failing = Object.entries(report.checks)
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => `${name}: ${c.detail}`);
    res
      .status(503)
      .json({ status: 'not_ready', message: `Not ready: ${failing.join('; ')}`, checks: report.checks });
  });
  return router;
}
