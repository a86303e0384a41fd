import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { claimRewardSchema } from '../shared/rewards-schemas.ts';
import { claimReward } from './claim-reward.ts';
import { getRewardStatus } from './get-reward-status.ts';

export function rewardRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/hourly', async (req, res) => {
    const userId = requireUser(req);
    res.json(await getRewardStatus(ctx.store.read, userId, ctx.clock.now()));
  });

  router.post('/hourly/claim', async (req, res) => {
    const userId = requireUser(req);
    const { type } = parseInput(claimRewardSchema, req.body);
    res.json(await claimReward(ctx.store, userId, type, ctx.clock.now()));
  });

  return router;
}
