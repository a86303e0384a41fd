import { Router, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { serverIdParamsSchema } from '../shared/join-schemas.ts';
import { findDiscoverPage, findFeaturedCampaignsJson, type DiscoverPage } from './discover-campaigns.ts';
import { nextPageUrl, parseDiscoverQuery, type DiscoverParams } from './discover-query.ts';
import { joinCampaign } from './join-campaign.ts';
import { claimNoBotReward } from './claim-nobot-reward.ts';
import { listMyJoins } from './list-my-joins.ts';
import { checkMyPendingJoins } from '../bot/check-my-joins.ts';
import { joinPaceOf } from './join-pace.ts';

/**
 * Sends a pre-encoded JSON body as is: the lists change with every join, so a per-response ETag
 * (a SHA-1 over ~200 kB with express's res.send) would cost more than building the body.
 */
function sendJsonBuffer(res: Response, body: Buffer): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** GET /api/servers's answer: the page's JSON body and its `Link` header value, if any. */
export interface DiscoverAnswer {
  body: Buffer;
  link?: string;
}

function answerOf(params: DiscoverParams, explicitLimit: boolean, page: DiscoverPage): DiscoverAnswer {
  if (!page.nextCursor) return { body: page.body };
  return {
    body: page.body,
    link: `<${nextPageUrl(params, explicitLimit, page.nextCursor)}>; rel="next"`,
  };
}

/**
 * GET /api/servers for a signed-in user. The route below and the signed-in fast path
 * (src/http/fast-path.ts, decisions 033 and 035) both answer with it. SQLite answers with a value
 * (no await on the hottest read), PostgreSQL with a promise.
 */
export function discoverAnswer(
  ctx: AppContext,
  userId: string,
  query: Record<string, unknown>,
): DiscoverAnswer | Promise<DiscoverAnswer> {
  const params = parseDiscoverQuery(query);
  const explicitLimit = query.limit !== undefined;
  const page = findDiscoverPage(ctx, { userId, ...params });
  if (page instanceof Promise) return page.then((found) => answerOf(params, explicitLimit, found));
  return answerOf(params, explicitLimit, page);
}

function sendDiscoverAnswer(res: Response, answer: DiscoverAnswer): void {
  if (answer.link) res.setHeader('Link', answer.link);
  sendJsonBuffer(res, answer.body);
}

export function joinRoutes(ctx: AppContext): Router {
  const router = Router();

  // Discover in pages (decision 010): the body stays the spec's array; the next page, if any, is in
  // a Link header (rel="next"), so a client that ignores it still gets the first page in spec order.
  // SQLite answers with a value, sent at once (no await on the hottest read); PostgreSQL with a promise.
  router.get('/servers', (req, res) => {
    const answer = discoverAnswer(ctx, requireUser(req), req.query);
    if (answer instanceof Promise) return answer.then((found) => sendDiscoverAnswer(res, found));
    sendDiscoverAnswer(res, answer);
  });

  router.get('/servers/featured', (req, res) => {
    const userId = requireUser(req);
    const { q } = parseDiscoverQuery(req.query);
    const body = findFeaturedCampaignsJson(ctx, userId, q);
    if (body instanceof Promise) return body.then((found) => sendJsonBuffer(res, found));
    sendJsonBuffer(res, body);
  });

  router.post('/servers/:id/join', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(await joinCampaign(ctx, userId, id));
  });

  // The member's join pace and server count (decision 038): cards say "Next join in 12 min" before a click.
  router.get('/joins/pace', async (req, res) => {
    res.json(await joinPaceOf(ctx, requireUser(req)));
  });

  router.get('/joins', async (req, res) => {
    const userId = requireUser(req);
    res.json(await listMyJoins(ctx, userId));
  });

  // The member is back from an invite (the web app regained focus): their pending joins are looked up
  // now, so verification needs no gateway event (issue 26: no privileged intent).
  router.post('/joins/check', async (req, res) => {
    res.json(await checkMyPendingJoins(ctx, requireUser(req)));
  });

  router.post('/servers/:id/claim-nobot', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(serverIdParamsSchema, req.params);
    res.json(await claimNoBotReward(ctx, userId, id));
  });

  return router;
}
