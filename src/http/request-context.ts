import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * The signed-in fast path (src/http/fast-path.ts) starts its requests with `plainRequestStarter`.
 */
function requestStarter(logger: Logger): (req: Request, res: Response) => void {
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
    const requestId = requestIdFor(req);
    const locals = res.locals as RequestLocals;
    locals.requestId = requestId;
    locals.startedAt = process.hrtime.bigint();
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', onFinish);
  };
}

/** The caller's X-Request-Id when it looks like an id, else a fresh UUID. */
function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** What the plain starter keeps per request (on the response, under PLAIN). */
export interface PlainRequestState {
  requestId: string;
  startedAt: bigint;
  /** Metric label once the request reached its route (`req.route` set), else `unmatched`. */
  route: string;
  unmatched: string;
  routed: boolean;
}

const PLAIN = Symbol('plain request');

/**
 * `requestStarter` for requests the signed-in fast path answers on node's own request/response
 * (no Express objects, src/http/fast-path.ts): the same request id, metric and log line, with the
 * route label known up front — the route's template once the request reached its handler (or when
 * it was handed to Express's objects and Express set `req.route`), `/api/*unmatched` before (or the
 * caller's `unmatched`: a page's is its route's), as `routeLabel` gives for the same request on the full stack.
 */
export function plainRequestStarter(
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse, route: string, unmatched?: string) => PlainRequestState {
  function onFinish(this: ServerResponse & { [PLAIN]: PlainRequestState }): void {
    const state = this[PLAIN];
    const req = this.req;
    const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9;
    const route =
      state.routed || (req as { route?: unknown }).route !== undefined ? state.route : state.unmatched;
    recordHttpRequest(req.method ?? '', route, this.statusCode, seconds);
    const ms = Math.round(seconds * 1000);
    const line = () => ({
      requestId: state.requestId,
      method: req.method,
      route,
      status: this.statusCode,
      ms,
    });
    if (this.statusCode >= 500) logger.warn('request failed', line());
    else if (ms >= SLOW_MS) logger.warn('slow request', line());
    else logger.debug('request', line());
  }
  return (req, res, route, unmatched = '/api/*unmatched') => {
    const state: PlainRequestState = {
      requestId: requestIdFor(req),
      startedAt: process.hrtime.bigint(),
      route,
      unmatched,
      routed: false,
    };
    (res as ServerResponse & { [PLAIN]: PlainRequestState })[PLAIN] = state;
    res.on('finish', onFinish);
    return state;
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
