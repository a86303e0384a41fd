import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.ts';
import { recordHttpRequest } from '../metrics.ts';

/** An incoming X-Request-Id is kept when it looks like an id (a proxy's $request_id, a UUID). */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SLOW_MS = 2000;

export function requestIdOf(res: Response): string | undefined {
  return (res.locals as { requestId?: string }).requestId;
}

/**
 * The route template that answered, e.g. /api/campaigns/:id — never the raw path, so metric labels
 * stay few. Requests no route matched fall into a handful of buckets.
 */
function routeLabel(req: Request): string {
  const route: unknown = (req as { route?: unknown }).route;
  const template: unknown =
    typeof route === 'object' && route !== null ? (route as { path?: unknown }).path : undefined;
  const p = req.originalUrl.split('?')[0] ?? '';
  if (typeof template === 'string') {
    // req.baseUrl is already reset when an error left the router, so the mount prefix is rebuilt from
    // the URL: the segments before the ones the route template matched.
    if (/[{*(]/.test(template)) return `${req.baseUrl}${template}`;
    const templateSegments = template.split('/').filter(Boolean).length;
    const segments = p.split('/').filter(Boolean);
    const prefix = segments.slice(0, Math.max(0, segments.length - templateSegments));
    return `${prefix.length > 0 ? '/' + prefix.join('/') : ''}${template}`;
  }
  if (p.startsWith('/api/')) return '/api/*unmatched';
  if (p.startsWith('/assets/')) return '/assets/*';
  return '*static';
}

/**
 * First middleware of the app: gives every request an id (the caller's X-Request-Id when sane, else a
 * fresh UUID), echoes it in the X-Request-Id response header, and on finish records the request in
 * the metrics and logs it — at debug level normally, at warn when it failed on our side (5xx) or was slow.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    (res.locals as { requestId?: string }).requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req);
      // A live event stream (GET /api/events) lasts as long as the tab: it is neither slow nor a latency sample.
      if ((res.locals as { stream?: boolean }).stream) {
        logger.debug('stream closed', { requestId, route, ms: Math.round(seconds * 1000) });
        return;
      }
      recordHttpRequest(req.method, route, res.statusCode, seconds);
      const ms = Math.round(seconds * 1000);
      const line = { requestId, method: req.method, route, status: res.statusCode, ms };
      if (res.statusCode >= 500) logger.warn('request failed', line);
      else if (ms >= SLOW_MS) logger.warn('slow request', line);
      else logger.debug('request', line);
    });
    next();
  };
}
