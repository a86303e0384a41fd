import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { registry } from '../metrics.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * GET /metrics. With METRICS_TOKEN set, a scraper must send `Authorization: Bearer <token>`. Without
 * it, only direct loopback connections are served: a request that came through a reverse proxy
 * (which also connects from loopback) carries X-Forwarded-For / Forwarded / X-Real-IP and is refused.
 */
export function metricsHandler(token: string | undefined): RequestHandler {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  return (req, res, next) => {
    if (expected) {
      const given = Buffer.from(req.get('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res
          .status(401)
          .setHeader('WWW-Authenticate', 'Bearer')
          .json({ message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>.' });
        return;
      }
    } else {
      const proxied = req.get('x-forwarded-for') ?? req.get('forwarded') ?? req.get('x-real-ip');
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || proxied !== undefined) {
        res.status(403).json({
          message:
            'Metrics are served to direct loopback connections only; set METRICS_TOKEN to scrape from elsewhere.',
        });
        return;
      }
    }
    registry.metrics().then((text) => {
      res.setHeader('Content-Type', registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(text);
    }, next);
  };
}
