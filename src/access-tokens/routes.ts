import { Router, type Request } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { AppError } from '../shared/errors.ts';
import {
  ACCESS_TOKEN_MESSAGES,
  accessTokenIdParamsSchema,
  createAccessTokenSchema,
} from '../shared/access-tokens.ts';
import { createAccessToken, listAccessTokens, revokeAccessToken } from './access-tokens.ts';

/**
 * A signed-in browser session's user. Tokens never manage tokens: the bearer guard already refuses them
 * on these routes (operations.ts says `session`); this keeps it so if the table were ever wrong.
 */
function requireSessionUser(req: Request): string {
  if (req.accessToken) throw new AppError('forbidden', ACCESS_TOKEN_MESSAGES.routeRefused);
  return requireUser(req);
}

/** The Account page's personal access tokens (decision 053). */
export function accessTokenRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/account/tokens', async (req, res) => {
    const userId = requireSessionUser(req);
    res.json(await listAccessTokens(ctx.store, userId, ctx.clock.now()));
  });

  router.post('/account/tokens', async (req, res) => {
    const userId = requireSessionUser(req);
    const input = parseInput(createAccessTokenSchema, req.body);
    res.status(201).json(await createAccessToken(ctx.store, userId, input, ctx.clock.now()));
  });

  router.delete('/account/tokens/:id', async (req, res) => {
    const userId = requireSessionUser(req);
    const { id } = parseInput(accessTokenIdParamsSchema, req.params);
    await revokeAccessToken(ctx.store, userId, id, ctx.clock.now());
    res.json({ ok: true });
  });

  return router;
}
