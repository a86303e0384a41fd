import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.ts';
import { recordHttpRequest } from '../metrics.ts';

/** An incoming X-Request-Id is kept when it looks like an id (a proxy's $request_id, a UUID). */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SLOW_MS = 2000;

interface RequestLocals {
  requestId: string;
  startedAt: bigint;
  stream?: boolean;
}

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
 * The signed-in fast path (src/http/fast-path.ts) starts its requests with the same function.
 */
export function requestStarter(logger: Logger): (req: Request, res: Response) => void {
  // One listener for every request (no closure per request): what it needs travels on res.locals.
  function onFinish(this: Response): void {
    const locals = this.locals as RequestLocals;
    const req = this.req;
    const seconds = Number(process.hrtime.bigint() - locals.startedAt) / 1e9;
    const route = routeLabel(req);
    const requestId = locals.requestId;
    // A live event stream (GET /api/events) lasts as long as the tab: it is neither slow nor a latency sample.
    if (locals.stream) {
      logger.debug('stream closed', { requestId, route, ms: Math.round(seconds * 1000) });
      return;
    }
    recordHttpRequest(req.method, route, this.statusCode, seconds);
    const ms = Math.round(seconds * 1000);
    if (this.statusCode >= 500) logger.warn('request failed', logLine(req, this, requestId, route, ms));
    else if (ms >= SLOW_MS) logger.warn('slow request', logLine(req, this, requestId, route, ms));
    else logger.debug('request', logLine(req, this, requestId, route, ms));
  }
  return (req, res) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const locals = res.locals as RequestLocals;
    locals.requestId = requestId;
    locals.startedAt = process.hrtime.bigint();
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', onFinish);
  };
}

function logLine(req: Request, res: Response, requestId: string, route: string, ms: number) {
  return { requestId, method: req.method, route, status: res.statusCode, ms };
}

export function requestContext(logger: Logger): RequestHandler {
  const start = requestStarter(logger);
  return (req, res, next) => {
    start(req, res);
    next();
  };
}
