import { z } from 'zod';
import type { AccessTokenScope } from '../shared/access-tokens.ts';
import {
  accessTokenIdParamsSchema,
  apiAccessTokenSchema,
  createAccessTokenSchema,
  createdAccessTokenSchema,
} from '../shared/access-tokens.ts';
import * as s from '../shared/api-schemas.ts';
import {
  botInviteQuerySchema,
  guildIdParamsSchema,
  replaceInviteSchema,
  submitNoBotSchema,
  submitServerSchema,
  topUpSchema,
} from '../shared/campaign-schemas.ts';
import {
  accountLocaleSchema,
  deleteAccountSchema,
  earningsQuerySchema,
  transactionsQuerySchema,
} from '../shared/history-schemas.ts';
import {
  claimNoBotResponseSchema,
  joinServerResponseSchema,
  serverIdParamsSchema,
} from '../shared/join-schemas.ts';
import { notificationSettingsSchema } from '../shared/notification-schemas.ts';
import { updateRemindersSchema } from '../shared/reminder-schemas.ts';
import { createPaymentIntentSchema, paymentIntentIdSchema } from '../shared/payment-schemas.ts';
import { claimRewardSchema } from '../shared/rewards-schemas.ts';
import { socialTaskParamsSchema } from '../shared/social-schemas.ts';

// Every route under /api, once (decision 053). The OpenAPI document is generated from this table, the
// bearer-token guard reads each route's `auth` from it (a route missing here refuses tokens), and
// `operations.test.ts` fails when the app serves a route this table does not list.

/**
 * Who may call a route: anyone (`public`), a signed-in browser session only (`session`), or a session
 * or a personal access token holding that scope.
 */
export type OperationAuth = 'public' | 'session' | AccessTokenScope;

export interface ResponseSpec {
  description: string;
  /** The JSON body's schema; none for bodies that are not JSON (see `contentType`) or empty. */
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  headers?: Record<string, string>;
}

export interface ApiOperation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express path under /api (`:id` parameters). */
  path: string;
  summary: string;
  tag: string;
  auth: OperationAuth;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, ResponseSpec>;
  /** Error statuses of this route beyond the ones every route of its kind has (see openapi.ts). */
  errors?: number[];
}

const ok = (description: string, schema: z.ZodType): Record<number, ResponseSpec> => ({
  200: { description, schema },
});
const created = (description: string, schema: z.ZodType): Record<number, ResponseSpec> => ({
  201: { description, schema },
});
const redirect: Record<number, ResponseSpec> = { 302: { description: 'Redirect' } };

const campaignError = s.errorBodySchema.or(s.botMissingBodySchema);
/** A route that may answer 400 with the bot-missing body (the web app offers Invite Bot from it). */
const orBotMissing = (responses: Record<number, ResponseSpec>): Record<number, ResponseSpec> => ({
  ...responses,
  400: { description: 'Bad input, or our bot is not in the server', schema: campaignError },
});

/** GET /api/servers's query (the route parses it by hand: it is the hottest read; see discover-query.ts). */
const discoverQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .optional()
    .describe('Page size, 1 to 100 (default 24)'),
  cursor: z
    .string()
    .regex(/^[\w-]{1,200}$/)
    .optional()
    .describe("The Link header's next cursor"),
  q: z.string().max(100).optional().describe('Search in names and descriptions'),
  featured: z.enum(['true', 'false']).optional(),
});
const featuredQuerySchema = discoverQuerySchema.pick({ q: true });
const idParams = z.object({ id: z.string().min(1).max(64) });
const optionalQuerySchema = z.object({ optional: z.literal('1').optional() });

/** One tag's routes (a section of the document): the entries below say their tag once, in the call. */
const tagged = (tag: string, operations: Omit<ApiOperation, 'tag'>[]): ApiOperation[] =>
  operations.map((operation) => ({ ...operation, tag }));

export const API_OPERATIONS: readonly ApiOperation[] = [
  // Operations and the document itself
  ...tagged('Service', [
    {
      operationId: 'getHealth',
      method: 'get',
      path: '/health',
      summary: 'Liveness',
      auth: 'public',
      responses: ok('Up', s.healthResponseSchema),
    },
    {
      operationId: 'getReady',
      method: 'get',
      path: '/ready',
      summary: 'Readiness',
      auth: 'public',
      responses: {
        200: { description: 'Ready', schema: s.readyResponseSchema },
        503: { description: 'Not ready', schema: s.readyResponseSchema },
      },
    },
    {
      operationId: 'getConfig',
      method: 'get',
      path: '/config',
      summary: 'Public configuration',
      auth: 'public',
      responses: ok('Configuration', s.publicConfigSchema),
    },
    {
      operationId: 'getOpenApiDocument',
      method: 'get',
      path: '/openapi.json',
      summary: 'This document',
      auth: 'public',
      responses: ok('OpenAPI 3.1 document', z.looseObject({ openapi: z.string() })),
    },
    {
      operationId: 'getApiDocsPage',
      method: 'get',
      path: '/docs',
      summary: 'This document as a page',
      auth: 'public',
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    },
    {
      operationId: 'receiveStripeWebhook',
      method: 'post',
      path: '/stripe/webhook',
      summary: 'Stripe events (signed by Stripe)',
      auth: 'public',
      responses: {
        200: { description: 'Received', schema: z.object({ received: z.literal(true) }) },
        400: { description: 'Bad signature or payload', schema: s.errorBodySchema },
      },
      errors: [503],
    },
  ]),
  // Sign-in and the account (browser sessions only)
  ...tagged('Account', [
    {
      operationId: 'startDiscordSignIn',
      method: 'get',
      path: '/auth/discord',
      summary: "Redirects to Discord's sign-in",
      auth: 'public',
      responses: redirect,
      errors: [429],
    },
    {
      operationId: 'finishDiscordSignIn',
      method: 'get',
      path: '/auth/discord/callback',
      summary: "Discord's sign-in callback",
      auth: 'public',
      responses: redirect,
      errors: [429],
    },
    {
      operationId: 'getMe',
      method: 'get',
      path: '/auth/user',
      summary: 'The signed-in user and balance',
      auth: 'read',
      query: optionalQuerySchema,
      responses: ok('The user (null with ?optional=1 when signed out)', s.apiUserSchema.nullable()),
    },
    {
      operationId: 'signOut',
      method: 'post',
      path: '/auth/logout',
      summary: 'Ends this session',
      auth: 'session',
      responses: ok('Signed out', s.okSchema),
    },
    {
      operationId: 'signOutEverywhere',
      method: 'post',
      path: '/auth/sign-out-everywhere',
      summary: 'Ends every session of the user',
      auth: 'session',
      responses: ok('Signed out everywhere', s.signOutEverywhereResponseSchema),
    },
    {
      operationId: 'exportAccount',
      method: 'get',
      path: '/account/export',
      summary: "The user's data as a JSON file",
      auth: 'session',
      responses: ok('The export', s.accountExportSchema),
    },
    {
      operationId: 'setAccountLocale',
      method: 'put',
      path: '/account/locale',
      summary: 'Sets the app language (en, es, pt-BR, fr, de, tr)',
      auth: 'session',
      body: accountLocaleSchema,
      responses: ok('The user', s.apiUserSchema),
    },
    {
      operationId: 'getReminderSettings',
      method: 'get',
      path: '/account/reminders',
      summary: 'The opt-in reminder settings (kinds, time zone, quiet hours)',
      auth: 'session',
      responses: ok('The settings', s.reminderSettingsResponseSchema),
    },
    {
      operationId: 'updateReminderSettings',
      method: 'put',
      path: '/account/reminders',
      summary: 'Switches reminder kinds, the time zone and quiet hours',
      auth: 'session',
      body: updateRemindersSchema,
      responses: ok('The settings', s.reminderSettingsResponseSchema),
    },
    {
      operationId: 'deleteAccount',
      method: 'delete',
      path: '/account',
      summary: 'Deletes (anonymises) the account',
      auth: 'session',
      body: deleteAccountSchema,
      responses: ok('Deleted', s.okSchema),
      errors: [409],
    },
    {
      operationId: 'listAccessTokens',
      method: 'get',
      path: '/account/tokens',
      summary: "The user's personal access tokens",
      auth: 'session',
      responses: ok('Usable tokens, newest first', z.array(apiAccessTokenSchema)),
    },
    {
      operationId: 'createAccessToken',
      method: 'post',
      path: '/account/tokens',
      summary: 'Creates a personal access token (shown once)',
      auth: 'session',
      body: createAccessTokenSchema,
      responses: created('The token, with its secret', createdAccessTokenSchema),
      errors: [409],
    },
    {
      operationId: 'revokeAccessToken',
      method: 'delete',
      path: '/account/tokens/:id',
      summary: 'Revokes a personal access token at once',
      auth: 'session',
      params: accessTokenIdParamsSchema,
      responses: ok('Revoked', s.okSchema),
      errors: [404],
    },
    {
      operationId: 'streamLiveEvents',
      method: 'get',
      path: '/events',
      summary: 'Live balance events (Server-Sent Events)',
      auth: 'session',
      responses: { 200: { description: 'An event stream', contentType: 'text/event-stream' } },
    },
  ]),
  // Rewards
  ...tagged('Rewards', [
    {
      operationId: 'getRewardStatus',
      method: 'get',
      path: '/hourly',
      summary: 'Which timed rewards can be claimed',
      auth: 'read',
      responses: ok('Reward status', s.rewardStatusSchema),
    },
    {
      operationId: 'claimReward',
      method: 'post',
      path: '/hourly/claim',
      summary: 'Claims a timed reward',
      auth: 'rewards:claim',
      body: claimRewardSchema,
      responses: ok('Credited', s.claimRewardResponseSchema),
      errors: [425],
    },
    {
      operationId: 'listSocialTasks',
      method: 'get',
      path: '/social',
      summary: 'Social tasks',
      auth: 'read',
      responses: ok('Tasks', z.array(s.apiSocialTaskSchema)),
    },
    {
      operationId: 'startSocialTask',
      method: 'post',
      path: '/social/:taskId/start',
      summary: 'Starts a social task',
      auth: 'rewards:claim',
      params: socialTaskParamsSchema,
      responses: ok('Started', s.startSocialTaskResponseSchema),
      errors: [404, 409],
    },
    {
      operationId: 'completeSocialTask',
      method: 'post',
      path: '/social/:taskId/complete',
      summary: "Claims a social task's reward",
      auth: 'rewards:claim',
      params: socialTaskParamsSchema,
      responses: ok('Credited', s.completeSocialTaskResponseSchema),
      errors: [404, 409, 425],
    },
  ]),
  // Discover and joins
  ...tagged('Joins', [
    {
      operationId: 'listDiscover',
      method: 'get',
      path: '/servers',
      summary: 'Discover: campaigns to join, in pages',
      auth: 'read',
      query: discoverQuerySchema,
      responses: {
        200: {
          description: 'A page of campaigns',
          schema: z.array(s.apiDiscoverServerSchema),
          headers: { Link: 'The next page: <…>; rel="next"' },
        },
      },
    },
    {
      operationId: 'listFeatured',
      method: 'get',
      path: '/servers/featured',
      summary: 'Featured campaigns',
      auth: 'read',
      query: featuredQuerySchema,
      responses: ok('Campaigns', z.array(s.apiDiscoverServerSchema)),
    },
    {
      operationId: 'joinServer',
      method: 'post',
      path: '/servers/:id/join',
      summary: 'Starts a join (the member then accepts the invite on Discord)',
      auth: 'rewards:claim',
      params: serverIdParamsSchema,
      responses: ok('Pending join', joinServerResponseSchema),
      errors: [404, 409, 502],
    },
    {
      operationId: 'claimNoBotReward',
      method: 'post',
      path: '/servers/:id/claim-nobot',
      summary: "Claims a no-bot campaign's reward",
      auth: 'rewards:claim',
      params: serverIdParamsSchema,
      responses: ok('Credited', claimNoBotResponseSchema),
      errors: [404, 409, 425, 502],
    },
    {
      operationId: 'getJoinPace',
      method: 'get',
      path: '/joins/pace',
      summary: "The member's join pace",
      auth: 'read',
      responses: ok('Pace', s.apiJoinPaceSchema),
    },
    {
      operationId: 'listMyJoins',
      method: 'get',
      path: '/joins',
      summary: "The member's joins",
      auth: 'read',
      responses: ok('Joins', z.array(s.apiJoinSchema)),
    },
    {
      operationId: 'checkMyJoins',
      method: 'post',
      path: '/joins/check',
      summary: "Looks the member's pending joins up now",
      auth: 'rewards:claim',
      responses: ok('What was verified', s.checkJoinsResponseSchema),
      errors: [502],
    },
  ]),
  // Campaigns (the owner's own)
  ...tagged('Campaigns', [
    {
      operationId: 'submitCampaign',
      method: 'post',
      path: '/servers',
      summary: 'Submits a campaign',
      auth: 'campaigns:manage',
      body: submitServerSchema,
      responses: orBotMissing(created('Created', s.apiServerSchema)),
      errors: [402, 409, 502],
    },
    {
      operationId: 'submitNoBotCampaign',
      method: 'post',
      path: '/servers/no-bot',
      summary: 'Submits a no-bot campaign',
      auth: 'campaigns:manage',
      body: submitNoBotSchema,
      responses: created('Created', s.apiServerSchema),
      errors: [402, 409, 502],
    },
    {
      operationId: 'listMyCampaigns',
      method: 'get',
      path: '/servers/mine',
      summary: 'Every campaign the user submitted',
      auth: 'read',
      responses: ok('Campaigns', z.array(s.apiMyServerSchema)),
    },
    {
      operationId: 'promoteCampaign',
      method: 'post',
      path: '/servers/:id/promote',
      summary: 'Promotes a campaign to featured',
      auth: 'campaigns:manage',
      params: idParams,
      responses: orBotMissing(ok('Promoted', s.apiServerSchema)),
      errors: [402, 404, 409, 502],
    },
    {
      operationId: 'listActiveCampaigns',
      method: 'get',
      path: '/campaigns',
      summary: "The user's active campaigns",
      auth: 'read',
      responses: ok('Campaigns', z.array(s.apiCampaignSchema)),
    },
    {
      operationId: 'cancelCampaign',
      method: 'delete',
      path: '/campaigns/:id',
      summary: 'Cancels a campaign (not refunded)',
      auth: 'campaigns:manage',
      params: idParams,
      responses: ok('Canceled', s.apiServerSchema),
      errors: [404, 409],
    },
    {
      operationId: 'replaceCampaignInvite',
      method: 'post',
      path: '/campaigns/:id/invite',
      summary: "Replaces a campaign's dead invite",
      auth: 'campaigns:manage',
      params: idParams,
      body: replaceInviteSchema,
      responses: ok('Updated', s.apiServerSchema),
      errors: [404, 409, 502],
    },
    {
      operationId: 'topUpCampaign',
      method: 'post',
      path: '/campaigns/:id/top-up',
      summary: 'Adds member slots to a campaign',
      auth: 'campaigns:manage',
      params: idParams,
      body: topUpSchema,
      responses: ok('Updated', s.apiServerSchema),
      errors: [402, 404, 409],
    },
    {
      operationId: 'listManageableGuilds',
      method: 'get',
      path: '/guilds/manageable',
      summary: 'Discord servers the user can submit',
      auth: 'campaigns:manage',
      responses: ok('Servers', z.array(s.manageableGuildSchema)),
      errors: [502],
    },
    {
      operationId: 'getBotInvite',
      method: 'get',
      path: '/bot/invite',
      summary: 'The link that adds our bot to a server',
      auth: 'campaigns:manage',
      query: botInviteQuerySchema,
      responses: ok('Link', s.botInviteResponseSchema),
    },

    {
      operationId: 'getQualityOverview',
      method: 'get',
      path: '/campaigns/quality',
      summary: 'What became of the members paid for, all campaigns',
      auth: 'read',
      responses: ok('Quality figures', s.qualityOverviewSchema),
    },
    {
      operationId: 'getCampaignQuality',
      method: 'get',
      path: '/campaigns/:id/quality',
      summary: "One campaign's quality figures",
      auth: 'read',
      params: idParams,
      responses: ok('Quality figures', s.campaignQualitySchema),
      errors: [404],
    },
    {
      operationId: 'getCampaignQualityCsv',
      method: 'get',
      path: '/campaigns/:id/quality.csv',
      summary: "One campaign's paid members as CSV",
      auth: 'read',
      params: idParams,
      responses: { 200: { description: 'CSV file', contentType: 'text/csv' } },
      errors: [404],
    },
    {
      operationId: 'getNotificationSettings',
      method: 'get',
      path: '/campaigns/:id/notifications',
      summary: "A campaign's owner notifications (Discord webhook, signed endpoint, events)",
      auth: 'read',
      params: idParams,
      responses: ok('The settings', s.notificationSettingsResponseSchema),
      errors: [404],
    },
    {
      operationId: 'updateNotificationSettings',
      method: 'put',
      path: '/campaigns/:id/notifications',
      summary: "Saves a campaign's owner notifications",
      auth: 'campaigns:manage',
      params: idParams,
      body: notificationSettingsSchema,
      responses: ok('The settings (with a new signing secret, once)', s.notificationSettingsResponseSchema),
      errors: [404],
    },
    {
      operationId: 'sendTestNotification',
      method: 'post',
      path: '/campaigns/:id/notifications/test',
      summary: 'Queues a test event to the saved targets',
      auth: 'campaigns:manage',
      params: idParams,
      responses: { 202: { description: 'Queued', schema: s.notificationTestResponseSchema } },
      errors: [404, 409, 429],
    },
    {
      operationId: 'listNotificationDeliveries',
      method: 'get',
      path: '/campaigns/:id/notifications/deliveries',
      summary: "A campaign's delivery log",
      auth: 'read',
      params: idParams,
      responses: ok('Deliveries, newest first', z.array(s.notificationDeliverySchema)),
      errors: [404],
    },
    {
      operationId: 'createGuildInvite',
      method: 'post',
      path: '/guilds/:id/invite',
      summary: 'Has our bot create a permanent invite to a server the user manages',
      auth: 'campaigns:manage',
      params: guildIdParamsSchema,
      responses: orBotMissing(ok('The invite', s.guildInviteResponseSchema)),
      errors: [409, 502],
    },
  ]),
  // History
  ...tagged('History', [
    {
      operationId: 'listTransactions',
      method: 'get',
      path: '/transactions',
      summary: 'Transaction history, paged',
      auth: 'read',
      query: transactionsQuerySchema,
      responses: {
        200: {
          description: 'Transactions',
          schema: z.array(s.apiTransactionSchema),
          headers: { 'X-Total-Count': 'Matching transactions in all pages' },
        },
      },
    },
    {
      operationId: 'getEarningsByDay',
      method: 'get',
      path: '/transactions/earnings',
      summary: 'Coins earned per day (30 days)',
      auth: 'read',
      query: earningsQuerySchema,
      responses: ok('Days', z.array(s.earningsDaySchema)),
    },
    {
      operationId: 'getTransactionSummary',
      method: 'get',
      path: '/transactions/summary',
      summary: 'Lifetime earned and spent',
      auth: 'read',
      responses: ok('Totals', s.transactionSummarySchema),
    },
  ]),
  // Payments (browser sessions only: a token never buys coins)
  ...tagged('Payments', [
    {
      operationId: 'createPaymentIntent',
      method: 'post',
      path: '/create-payment-intent',
      summary: 'Starts buying a coin pack',
      auth: 'session',
      body: createPaymentIntentSchema,
      responses: ok('Stripe PaymentIntent', s.createPaymentIntentResponseSchema),
      errors: [402, 409, 502],
    },
    {
      operationId: 'syncPayment',
      method: 'post',
      path: '/payments/:paymentIntentId/sync',
      summary: "Settles a payment from Stripe's state",
      auth: 'session',
      params: z.object({ paymentIntentId: paymentIntentIdSchema }),
      responses: ok('Status', s.syncPaymentResponseSchema),
      errors: [404, 502],
    },
  ]),
];

/** The express-style path as OpenAPI writes it: `/servers/:id/join` → `/api/servers/{id}/join`. */
export function openApiPath(path: string): string {
  return `/api${path.replace(/:(\w+)/g, '{$1}')}`;
}

interface CompiledOperation {
  operation: ApiOperation;
  pattern: RegExp;
}
const compiled: CompiledOperation[] = API_OPERATIONS.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/\./g, '\\.').replace(/:(\w+)/g, '[^/]+')}/?$`),
}));

/** The operation a request under /api is for (`path` relative to /api), or undefined. */
export function findOperation(method: string, path: string): ApiOperation | undefined {
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  // Literal paths first (GET /servers/mine before a pattern with a parameter at that place).
  let match: ApiOperation | undefined;
  for (const { operation, pattern } of compiled) {
    if (operation.method !== m || !pattern.test(path)) continue;
    if (!operation.path.includes(':')) return operation;
    match ??= operation;
  }
  return match;
}
