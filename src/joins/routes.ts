import { Router, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { serverIdParamsSchema } from '../shared/join-schemas.ts';
import { findDiscoverServersJson, findFeaturedServersJson } from './list-servers.ts';
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

export function joinRoutes(ctx: AppContext): Router {
  const router = Router();
  const cdnUrl = ctx.config.discord.cdnUrl;

  router.get('/servers', (req, res) => {
    const userId = requireUser(req);
    sendJsonBuffer(res, findDiscoverServersJson(ctx.sqlite, userId, cdnUrl));
  });

  router.get('/servers/featured', (req, res) => {
    requireUser(req);
    sendJsonBuffer(res, findFeaturedServersJson(ctx.sqlite, cdnUrl));
  });

  router.post('/servers/:id/join', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(await joinServer(ctx, userId, id));
  });

  router.get('/joins', (req, res) => {
    const userId = requireUser(req);
    res.json(listMyJoins(ctx, userId));
  });

  router.post('/servers/:id/claim-nobot', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(await claimNoBotReward(ctx, userId, id));
  });

  return router;
}
