import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { socialTaskParamsSchema } from '../shared/social-schemas.ts';
import { completeSocialTask } from './complete-social-task.ts';
import { listSocialTasks } from './list-social-tasks.ts';
import { startSocialTask } from './start-social-task.ts';

export function socialRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/social', (req, res) => {
    const userId = requireUser(req);
    // Completion state changes with every claim: never let a cache answer for the server.
    res.setHeader('Cache-Control', 'no-store');
    res.json(listSocialTasks(ctx.db, userId));
  });

  router.post('/social/:taskId/start', (req, res) => {
    const userId = requireUser(req);
    const { taskId } = parseInput(socialTaskParamsSchema, req.params);
    res.json(startSocialTask(ctx.db, userId, taskId, ctx.clock.now()));
  });

  router.post('/social/:taskId/complete', (req, res) => {
    const userId = requireUser(req);
    const { taskId } = parseInput(socialTaskParamsSchema, req.params);
    res.json(completeSocialTask(ctx.db, userId, taskId, ctx.clock.now()));
  });

  return router;
}
