import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { socialTaskParamsSchema } from '../shared/social-schemas.ts';
import { completeSocialTask } from './complete-social-task.ts';
import { listSocialTasks } from './list-social-tasks.ts';
import { startSocialTask } from './start-social-task.ts';

export function socialRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/social', async (req, res) => {
    const userId = requireUser(req);
    // Completion state changes with every claim: never let a cache answer for the server.
    res.setHeader('Cache-Control', 'no-store');
    res.json(await listSocialTasks(ctx.store.read, userId));
  });

  router.post('/social/:taskId/start', async (req, res) => {
    const userId = requireUser(req);
    const { taskId } = parseInput(socialTaskParamsSchema, req.params);
    res.json(await startSocialTask(ctx.store, userId, taskId, ctx.clock.now()));
  });

  router.post('/social/:taskId/complete', async (req, res) => {
    const userId = requireUser(req);
    const { taskId } = parseInput(socialTaskParamsSchema, req.params);
    res.json(await completeSocialTask(ctx.store, userId, taskId, ctx.clock.now()));
  });

  return router;
}
