import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { registry } from '../metrics.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Whether a request comes from monitoring (issue 27 item 5): `Authorization: Bearer <METRICS_TOKEN>`
 * when a token is set, else a direct loopback connection — one relayed by a reverse proxy (which also
 * connects from loopback) carries X-Forwarded-For / Forwarded / X-Real-IP and does not count.
 */
export function fromMonitoring(req: Request, token: string | undefined): boolean {
  if (token) {
    const expected = Buffer.from(`Bearer ${token}`);
    const given = Buffer.from(req.get('authorization') ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  const proxied = req.get('x-forwarded-for') ?? req.get('forwarded') ?? req.get('x-real-ip');
  const peer = req.socket.remoteAddress ?? '';
  return proxied === undefined && (LOOPBACK.has(peer) || /^(::ffff:)?127\./.test(peer));
}

/**
 * GET /metrics, at exactly that path (not /METRICS, /metrics/ or //metrics). With METRICS_TOKEN set, a
 * scraper must send `Authorization: Bearer <token>`. Without it, only direct loopback connections are
 * served outside production: a request that came through a reverse proxy (which also connects from
 * loopback) carries X-Forwarded-For / Forwarded / X-Real-IP and is refused. In production /metrics is
 * token-only: without METRICS_TOKEN it does not exist (issue 27 item 5).
 */
export function metricsHandler(token: string | undefined, production = false): RequestHandler {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  const off = production && !token;
  return (req, res, next) => {
    if (req.method !== 'GET' || req.path !== '/metrics' || off) {
      next();
      return;
    }
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
