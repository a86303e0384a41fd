import { Router, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { serverIdParamsSchema } from '../shared/join-schemas.ts';
import { findDiscoverPage, findFeaturedServersJson } from './list-servers.ts';
import { nextPageUrl, parseDiscoverQuery } from './discover-query.ts';
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

/**
 * GET /api/servers for a signed-in user: the page's JSON body and its `Link` header value, if any.
 * The route below and the signed-in fast path (src/http/fast-path.ts, decision 033) both answer with it.
 */
export function discoverAnswer(
  ctx: AppContext,
  userId: string,
  query: Record<string, unknown>,
): { body: Buffer; link?: string } {
  const params = parseDiscoverQuery(query);
  const page = findDiscoverPage(ctx.sqlite, ctx.config.discord.cdnUrl, { userId, ...params });
  if (!page.nextCursor) return { body: page.body };
  return {
    body: page.body,
    link: `<${nextPageUrl(params, query.limit !== undefined, page.nextCursor)}>; rel="next"`,
  };
}

export function joinRoutes(ctx: AppContext): Router {
  const router = Router();
  const cdnUrl = ctx.config.discord.cdnUrl;

  // Discover in pages (decision 010): the body stays the spec's array; the next page, if any, is in
  // a Link header (rel="next"), so a client that ignores it still gets the first page in spec order.
  router.get('/servers', (req, res) => {
    const page = discoverAnswer(ctx, requireUser(req), req.query);
    if (page.link) res.setHeader('Link', page.link);
    sendJsonBuffer(res, page.body);
  });

  router.get('/servers/featured', (req, res) => {
    const userId = requireUser(req);
    const { q } = parseDiscoverQuery(req.query);
    sendJsonBuffer(res, findFeaturedServersJson(ctx.sqlite, cdnUrl, userId, q));
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
