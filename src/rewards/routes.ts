import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { claimRewardSchema } from '../shared/rewards-schemas.ts';
import { claimReward } from './claim-reward.ts';
import { getRewardStatus } from './get-reward-status.ts';

export function rewardRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/hourly', (req, res) => {
    const userId = requireUser(req);
    res.json(getRewardStatus(ctx.db, userId, ctx.clock.now()));
  });

  router.post('/hourly/claim', (req, res) => {
    const userId = requireUser(req);
    const { type } = parseInput(claimRewardSchema, req.body);
    res.json(claimReward(ctx.db, userId, type, ctx.clock.now()));
  });

  return router;
}
