import { z } from 'zod';
import { CAMPAIGN_KINDS } from './campaign-kinds.ts';
import { REWARD_TYPES } from './rewards-constants.ts';
import { SUPPORTED_LOCALES } from './i18n/index.ts';
import type { ReminderSettingsResponse } from './reminder-schemas.ts';
import type {
  ApiCampaign,
  ApiDiscoverServer,
  ApiJoin,
  ApiJoinPace,
  ApiServer,
  ApiSocialTask,
  ApiTransaction,
  ApiUser,
  PublicConfig,
  RewardStatus,
} from './api-types.ts';
import type {
  ApiManageableGuild,
  ApiMyServer,
  ApiTransactionSummary,
  BotInviteResponse,
  BotMissingBody,
} from './campaign-schemas.ts';
import type { ClaimRewardResponse } from './rewards-schemas.ts';
import type { CompleteSocialTaskResponse, StartSocialTaskResponse } from './social-schemas.ts';
import type { CreatePaymentIntentResponse, SyncPaymentResponse } from './payment-schemas.ts';
import type { EarningsDay } from './history-schemas.ts';
import type { ApiCampaignQuality, ApiQualityOverview } from './quality.ts';
import type { GuildInviteResponse } from './campaign-schemas.ts';
import {
  NOTIFICATION_EVENTS,
  TEST_EVENT,
  type ApiNotificationDelivery,
  type ApiNotificationSettings,
} from './notification-schemas.ts';

// The API's response bodies as zod schemas (decision 053): the OpenAPI document (src/public-api/) is
// generated from them and the contract test validates real answers against that document. The
// interfaces in api-types.ts stay what the code builds; the checks at the end keep both in step.

/** "12.50": money on the wire. */
const money = z.string().regex(/^-?\d+\.\d{2}$/);
const isoTime = z.string().describe('ISO 8601 time');

export const errorBodySchema = z.object({ message: z.string() });
export const okSchema = z.object({ ok: z.literal(true) });

export const apiUserSchema = z.object({
  id: z.string(),
  discordId: z.string(),
  discordUsername: z.string(),
  discordAvatar: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  coins: money,
  createdAt: isoTime,
  locale: z.enum(SUPPORTED_LOCALES),
});

export const publicConfigSchema = z.object({
  productName: z.string(),
  demoMode: z.boolean(),
  stripePublishableKey: z.string().nullable(),
  stripeJsUrl: z.string().nullable(),
  supportUrl: z.string(),
});

const serverFields = {
  id: z.string(),
  name: z.string(),
  inviteLink: z.string(),
  kind: z.enum(CAMPAIGN_KINDS),
  serverId: z.string().nullable(),
  serverIcon: z.string().nullable(),
  iconUrl: z.string().nullable(),
  coinReward: money,
  membersRemaining: z.number().int(),
  initialMemberSlots: z.number().int(),
  isFeatured: z.boolean(),
  completionNotificationSent: z.boolean(),
  createdAt: isoTime,
  targeting: z.object({ minAccountAgeDays: z.number().int().nullable(), language: z.string().nullable() }),
};
const healthFields = { botRemoved: z.boolean(), ownerUnreachable: z.boolean(), inviteExpired: z.boolean() };

export const apiServerSchema = z.object({ ...serverFields, ownerId: z.string() });

export const apiDiscoverServerSchema = z.object({
  ...serverFields,
  isMine: z.boolean(),
  memberCount: z.number().int().nullable(),
  onlineCount: z.number().int().nullable(),
  description: z.string().nullable(),
  bannerUrl: z.string().nullable(),
});

export const apiCampaignSchema = apiServerSchema.extend({
  ...healthFields,
  joinCount: z.number().int(),
  botInviteUrl: z.string().nullable(),
});

export const apiMyServerSchema = apiServerSchema.extend({
  ...healthFields,
  active: z.boolean(),
  canceled: z.boolean(),
  featuredElsewhere: z.boolean(),
});

export const apiTransactionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  amount: money,
  type: z.string(),
  description: z.string().nullable(),
  createdAt: isoTime,
});

export const transactionSummarySchema = z.object({ earned: money, spent: money });
export const earningsDaySchema = z.object({ date: z.string(), earned: money });

export const apiSocialTaskSchema = z.object({
  id: z.string(),
  platform: z.string(),
  title: z.string(),
  url: z.string(),
  coins: money,
  createdAt: isoTime,
  completed: z.boolean(),
});
export const startSocialTaskResponseSchema = z.object({ startedAt: isoTime, claimableAt: isoTime });
export const completeSocialTaskResponseSchema = z.object({ earned: money });

export const rewardStatusSchema = z.object({
  canClaimRegular: z.boolean(),
  canClaimBonus: z.boolean(),
  canClaimDaily: z.boolean(),
  regularHoursRemaining: z.number(),
  bonusHoursRemaining: z.number(),
  dailyHoursRemaining: z.number(),
  dailyStreak: z.number().int(),
  bestDailyStreak: z.number().int(),
});
export const claimRewardResponseSchema = z.object({ type: z.enum(REWARD_TYPES), earned: money });

export const apiJoinSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  serverName: z.string(),
  iconUrl: z.string().nullable(),
  noBot: z.boolean(),
  state: z.enum([
    'waiting',
    'verified',
    'stayed',
    'left_early',
    'left',
    'no_reward',
    'same_address',
    'expired',
  ]),
  joinedAt: isoTime,
  verifiedAt: isoTime.nullable(),
  reward: money.nullable(),
  penalty: money.nullable(),
  safeToLeaveAt: isoTime.nullable(),
  leftAt: isoTime.nullable(),
  canRetry: z.boolean(),
  canClaim: z.boolean(),
});

export const apiJoinPaceSchema = z.object({
  nextJoinAt: isoTime.nullable(),
  waitSeconds: z.number().int(),
  perHour: z.number().int(),
  perDay: z.number().int(),
  joinsLastHour: z.number().int(),
  joinsLastDay: z.number().int(),
  guildCount: z.number().int().nullable(),
  guildCap: z.number().int(),
});

export const checkJoinsResponseSchema = z.object({
  checked: z.number().int(),
  verified: z.array(z.object({ campaignId: z.string(), serverName: z.string(), amount: money })),
});

export const manageableGuildSchema = z.object({
  id: z.string(),
  name: z.string(),
  iconUrl: z.string().nullable(),
  botPresent: z.boolean().nullable(),
  botInviteUrl: z.string(),
});
export const guildInviteResponseSchema = z.object({ inviteLink: z.string(), guildName: z.string() });

export const notificationSettingsResponseSchema = z.object({
  discordWebhook: z.string().nullable(),
  endpointUrl: z.string().nullable(),
  endpointSecret: z.string().optional(),
  endpointSecretHint: z.string().nullable(),
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
});
export const notificationDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.enum([...NOTIFICATION_EVENTS, TEST_EVENT]),
  target: z.enum(['discord', 'endpoint']),
  status: z.enum(['pending', 'delivered', 'failed', 'dropped']),
  attempts: z.number().int(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
});
export const reminderSettingsResponseSchema = z.object({
  kinds: z.object({
    hourly: z.boolean(),
    bonus: z.boolean(),
    daily: z.boolean(),
    stay: z.boolean(),
    campaign: z.boolean(),
  }),
  timeZone: z.string(),
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
  dmBlockedAt: z.string().nullable(),
});
export const notificationTestResponseSchema = z.object({ targets: z.array(z.string()) });

const qualityFigureFields = {
  paidMembers: z.number().int(),
  retention: z.array(
    z.object({
      key: z.enum(['d1', 'endOfStay', 'd7', 'd30']),
      label: z.string(),
      eligible: z.number().int(),
      retained: z.number().int(),
      rate: z.number().nullable(),
      basis: z.enum(['recorded', 'sampled']),
      sampleSize: z.number().int(),
    }),
  ),
  removals: z.object({
    earlyLeaves: z.number().int(),
    kicks: z.number().int(),
    bans: z.number().int(),
    laterLeaves: z.number().int(),
  }),
  accountAge: z.array(z.object({ label: z.string(), members: z.number().int() })),
  costPerRetained: money.nullable(),
};
export const campaignQualitySchema = z.object({
  ...qualityFigureFields,
  campaignId: z.string(),
  name: z.string(),
  tracked: z.boolean(),
});
export const qualityOverviewSchema = z.object({
  summary: z.object(qualityFigureFields),
  campaigns: z.array(campaignQualitySchema),
});

export const botInviteResponseSchema = z.object({ inviteUrl: z.string() });
export const botMissingBodySchema = z.object({
  message: z.string(),
  botMissing: z.literal(true),
  inviteUrl: z.string(),
});

export const createPaymentIntentResponseSchema = z.object({
  clientSecret: z.string(),
  package: z.object({ coins: z.number().int(), price: z.number() }),
});
export const syncPaymentResponseSchema = z.object({
  status: z.string(),
  credited: z.boolean(),
  failureMessage: z.string().nullable(),
});

export const signOutEverywhereResponseSchema = z.object({
  ok: z.literal(true),
  sessionsEnded: z.number().int(),
});
export const healthResponseSchema = z.object({ status: z.literal('ok') });
export const readyResponseSchema = z.looseObject({
  status: z.enum(['ready', 'not_ready']),
  message: z.string().optional(),
});
/** GET /api/account/export: the user's data as a JSON file (shape documented on the Account page). */
export const accountExportSchema = z.looseObject({ exportedAt: isoTime });

// Each schema describes exactly what its interface says: a field added to one and not the other fails
// to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
export type ApiSchemasMatchTypes = [
  Check<Same<z.infer<typeof apiUserSchema>, ApiUser>>,
  Check<Same<z.infer<typeof publicConfigSchema>, PublicConfig>>,
  Check<Same<z.infer<typeof apiServerSchema>, ApiServer>>,
  Check<Same<z.infer<typeof apiDiscoverServerSchema>, ApiDiscoverServer>>,
  Check<Same<z.infer<typeof apiCampaignSchema>, ApiCampaign>>,
  Check<Same<z.infer<typeof apiMyServerSchema>, ApiMyServer>>,
  Check<Same<z.infer<typeof apiTransactionSchema>, ApiTransaction>>,
  Check<Same<z.infer<typeof transactionSummarySchema>, ApiTransactionSummary>>,
  Check<Same<z.infer<typeof earningsDaySchema>, EarningsDay>>,
  Check<Same<z.infer<typeof apiSocialTaskSchema>, ApiSocialTask>>,
  Check<Same<z.infer<typeof startSocialTaskResponseSchema>, StartSocialTaskResponse>>,
  Check<Same<z.infer<typeof completeSocialTaskResponseSchema>, CompleteSocialTaskResponse>>,
  Check<Same<z.infer<typeof rewardStatusSchema>, RewardStatus>>,
  Check<Same<z.infer<typeof claimRewardResponseSchema>, ClaimRewardResponse>>,
  Check<Same<z.infer<typeof apiJoinSchema>, ApiJoin>>,
  Check<Same<z.infer<typeof apiJoinPaceSchema>, ApiJoinPace>>,
  Check<Same<z.infer<typeof manageableGuildSchema>, ApiManageableGuild>>,
  Check<Same<z.infer<typeof botInviteResponseSchema>, BotInviteResponse>>,
  Check<Same<z.infer<typeof guildInviteResponseSchema>, GuildInviteResponse>>,
  Check<Same<z.infer<typeof notificationSettingsResponseSchema>, ApiNotificationSettings>>,
  Check<Same<z.infer<typeof notificationDeliverySchema>, ApiNotificationDelivery>>,
  Check<Same<z.infer<typeof reminderSettingsResponseSchema>, ReminderSettingsResponse>>,
  Check<Same<z.infer<typeof campaignQualitySchema>, ApiCampaignQuality>>,
  Check<Same<z.infer<typeof qualityOverviewSchema>, ApiQualityOverview>>,
  Check<Same<z.infer<typeof botMissingBodySchema>, BotMissingBody>>,
  Check<Same<z.infer<typeof createPaymentIntentResponseSchema>, CreatePaymentIntentResponse>>,
  Check<Same<z.infer<typeof syncPaymentResponseSchema>, SyncPaymentResponse>>,
];
