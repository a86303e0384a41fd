import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { parseInput, requireUser } from '../http/guards.ts';
import { toApiServer } from './campaign-view.ts';
import {
  botInviteQuerySchema,
  guildIdParamsSchema,
  replaceInviteSchema,
  submitNoBotSchema,
  submitServerSchema,
  topUpSchema,
  type BotInviteResponse,
} from '../shared/campaign-schemas.ts';
import { cancelCampaign } from './cancel-campaign.ts';
import { BotMissingError, botInviteUrl } from './discord-checks.ts';
import { listActiveCampaigns, listMyCampaigns } from './list-campaigns.ts';
import { listTransactions, summarizeEarningsByDay, summarizeTransactions } from './list-transactions.ts';
import { EARNINGS_DAYS, earningsQuerySchema, transactionsQuerySchema } from '../shared/history-schemas.ts';
import { promoteCampaign } from './promote-campaign.ts';
import { replaceInvite } from './replace-invite.ts';
import { submitNoBotCampaign, submitCampaign } from './submit-campaign.ts';
import { topUpCampaign } from './top-up.ts';
import { listManageableGuilds } from './manageable-guilds.ts';
import { createGuildInvite } from './create-guild-invite.ts';
import { campaignQuality, campaignQualityCsv, qualityOverview } from './quality.ts';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** The one error whose body carries more than a message: the web app offers Invite Bot from it. */
function botMissingBody(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (err instanceof BotMissingError) {
    res.status(err.status).json(err.toBody());
    return;
  }
  next(err);
}

export function campaignRoutes(ctx: AppContext): Router {
  const router = Router();
  ownerCampaignRoutes(router, ctx);
  qualityRoutes(router, ctx);
  historyRoutes(router, ctx);
  submitHelperRoutes(router, ctx);
  router.use(botMissingBody);
  return router;
}

/** Submitting and running the owner's campaigns. */
function ownerCampaignRoutes(router: Router, ctx: AppContext): void {
  const cdn = ctx.config.discord.cdnUrl;

  router.post('/servers', async (req, res) => {
    const userId = requireUser(req);
    const input = parseInput(submitServerSchema, req.body);
    const campaign = await submitCampaign(ctx, userId, input);
    res.status(201).json(toApiServer(campaign, cdn));
  });

  router.post('/servers/no-bot', async (req, res) => {
    const userId = requireUser(req);
    const input = parseInput(submitNoBotSchema, req.body);
    const campaign = await submitNoBotCampaign(ctx, userId, input);
    res.status(201).json(toApiServer(campaign, cdn));
  });

  router.get('/servers/mine', async (req, res) => {
    const userId = requireUser(req);
    res.json(await listMyCampaigns(ctx, userId));
  });

  router.post('/servers/:id/promote', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    const campaign = await promoteCampaign(ctx, userId, id);
    res.json(toApiServer(campaign, cdn));
  });

  router.get('/campaigns', async (req, res) => {
    const userId = requireUser(req);
    res.json(await listActiveCampaigns(ctx, userId));
  });

  router.delete('/campaigns/:id', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    const campaign = await cancelCampaign(ctx, userId, id);
    res.json(toApiServer(campaign, cdn));
  });

  // Issue 12 item 8: a campaign whose invite died gets a new one (same guild only).
  router.post('/campaigns/:id/invite', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    const { inviteLink } = parseInput(replaceInviteSchema, req.body);
    const campaign = await replaceInvite(ctx, userId, id, inviteLink);
    res.json(toApiServer(campaign, cdn));
  });

  // Issue 31 item 4: more member slots for a running (or run-out) campaign, priced like a submission.
  router.post('/campaigns/:id/top-up', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    const input = parseInput(topUpSchema, req.body);
    const campaign = await topUpCampaign(ctx, userId, id, input);
    res.json(toApiServer(campaign, cdn));
  });
}

/** Issue 31 item 1: what became of the members the owner paid for (all campaigns, one, as CSV). */
function qualityRoutes(router: Router, ctx: AppContext): void {
  router.get('/campaigns/quality', async (req, res) => {
    const userId = requireUser(req);
    res.json(await qualityOverview(ctx, userId));
  });

  router.get('/campaigns/:id/quality', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    res.json(await campaignQuality(ctx, userId, id));
  });

  router.get('/campaigns/:id/quality.csv', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(idParams, req.params);
    const csv = await campaignQualityCsv(ctx, userId, id);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="campaign-${id}-members.csv"`);
    res.send(csv);
  });
}

/** The user's transaction history. */
function historyRoutes(router: Router, ctx: AppContext): void {
  router.get('/transactions', async (req, res) => {
    const userId = requireUser(req);
    const query = parseInput(transactionsQuerySchema, req.query);
    const { items, total } = await listTransactions(ctx, userId, query);
    // The body keeps the spec's shape (an array); paging metadata rides in a header.
    res.setHeader('X-Total-Count', String(total));
    res.json(items);
  });

  router.get('/transactions/earnings', async (req, res) => {
    const userId = requireUser(req);
    const { tzOffset } = parseInput(earningsQuerySchema, req.query);
    res.json(await summarizeEarningsByDay(ctx, userId, EARNINGS_DAYS, tzOffset));
  });

  router.get('/transactions/summary', async (req, res) => {
    const userId = requireUser(req);
    res.json(await summarizeTransactions(ctx, userId));
  });
}

/** What the Submit page's server picker and its bot step ask. */
function submitHelperRoutes(router: Router, ctx: AppContext): void {
  // Issue 31 item 3: Submit's server picker (the servers the user owns or manages, with bot presence).
  router.get('/guilds/manageable', async (req, res) => {
    const userId = requireUser(req);
    res.json(await listManageableGuilds(ctx, userId));
  });

  // The picker's "Create invite link": our bot makes a never-expiring invite to the picked server.
  router.post('/guilds/:id/invite', async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseInput(guildIdParamsSchema, req.params);
    res.json(await createGuildInvite(ctx, userId, id));
  });

  router.get('/bot/invite', (req, res) => {
    requireUser(req);
    const { guildId } = parseInput(botInviteQuerySchema, req.query);
    const body: BotInviteResponse = { inviteUrl: botInviteUrl(ctx, guildId) };
    res.json(body);
  });
}
