import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { serverIdParamsSchema } from '../shared/join-schemas.ts';
import { findDiscoverServersJson, findFeaturedServersJson } from './list-servers.ts';
import { joinServer } from './join-server.ts';
import { claimNoBotReward } from './claim-nobot-reward.ts';

export function joinRoutes(ctx: AppContext): Router {
  const router = Router();
  const cdnUrl = ctx.config.discord.cdnUrl;

  router.get('/servers', (req, res) => {
    const userId = requireUser(req);
    res.type('application/json').send(findDiscoverServersJson(ctx.sqlite, userId, cdnUrl));
  });

  router.get('/servers/featured', (req, res) => {
    requireUser(req);
    res.type('application/json').send(findFeaturedServersJson(ctx.sqlite, cdnUrl));
  });

  router.post('/servers/:id/join', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(await joinServer(ctx, userId, id));
  });

  router.post('/servers/:id/claim-nobot', (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(claimNoBotReward(ctx, userId, id));
  });

  return router;
}
