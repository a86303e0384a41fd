import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { serverIdParamsSchema } from '../shared/join-schemas.ts';
import { findDiscoverPage, findFeaturedServersJson, type DiscoverPage } from './list-servers.ts';
import { nextPageUrl, parseDiscoverQuery, type DiscoverParams } from './discover-query.ts';
import { joinServer } from './join-server.ts';
import { claimNoBotReward } from './claim-nobot-reward.ts';
import { listMyJoins } from './list-my-joins.ts';

/**
 * Sends a pre-encoded JSON body as is: the lists change with every join, so a per-response ETag
 * (a SHA-1 over ~200 kB with express's res.send) would cost more than building the body.
 */
function sendJsonBuffer(res: Response, body: Buffer): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

function sendDiscoverPage(req: Request, res: Response, params: DiscoverParams, page: DiscoverPage): void {
  if (page.nextCursor) {
    res.setHeader(
      'Link',
      `<${nextPageUrl(params, req.query.limit !== undefined, page.nextCursor)}>; rel="next"`,
    );
  }
  sendJsonBuffer(res, page.body);
}

export function joinRoutes(ctx: AppContext): Router {
  const router = Router();

  // Discover in pages (decision 010): the body stays the spec's array; the next page, if any, is in
  // a Link header (rel="next"), so a client that ignores it still gets the first page in spec order.
  // SQLite answers with a value, sent at once (no await on the hottest read); PostgreSQL with a promise.
  router.get('/servers', (req, res) => {
    const userId = requireUser(req);
    const params = parseDiscoverQuery(req.query);
    const page = findDiscoverPage(ctx, { userId, ...params });
    if (page instanceof Promise) return page.then((found) => sendDiscoverPage(req, res, params, found));
    sendDiscoverPage(req, res, params, page);
  });

  router.get('/servers/featured', (req, res) => {
    const userId = requireUser(req);
    const { q } = parseDiscoverQuery(req.query);
    const body = findFeaturedServersJson(ctx, userId, q);
    if (body instanceof Promise) return body.then((found) => sendJsonBuffer(res, found));
    sendJsonBuffer(res, body);
  });

  router.post('/servers/:id/join', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(await joinServer(ctx, userId, id));
  });

  router.get('/joins', async (req, res) => {
    const userId = requireUser(req);
    res.json(await listMyJoins(ctx, userId));
  });

  router.post('/servers/:id/claim-nobot', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(await claimNoBotReward(ctx, userId, id));
  });

  return router;
}
