import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { claimRewardSchema, type ClaimRewardResponse } from '../shared/rewards-schemas.ts';
import { claimReward } from './claim-reward.ts';
import { getRewardStatus } from './get-reward-status.ts';

/**
 * POST /api/hourly/claim for a signed-in user and the parsed body: what it answers as JSON. The route
 * below and the signed-in fast path (src/http/fast-path.ts, decision 033) both answer with it.
 */
export function claimAnswer(ctx: AppContext, userId: string, body: unknown): Promise<ClaimRewardResponse> {
  const { type } = parseInput(claimRewardSchema, body);
  return claimReward(ctx.store, userId, type, ctx.clock.now());
}

export function rewardRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/hourly', async (req, res) => {
    const userId = requireUser(req);
    res.json(await getRewardStatus(ctx.store.read, userId, ctx.clock.now()));
  });

  router.post('/hourly/claim', async (req, res) => {
    res.json(await claimAnswer(ctx, requireUser(req), req.body));
  });

  return router;
}
