import { z } from 'zod';
import { CAMPAIGN_KINDS } from './campaign-kinds.ts';
import { REWARD_TYPES } from './rewards-constants.ts';
import { SUPPORTED_LOCALES } from './i18n/index.ts';
import type { ReminderSettingsResponse } from './reminder-schemas.ts';
import type { ApiCampaignQuality, ApiQualityOverview } from './quality.ts';
import {
  NOTIFICATION_EVENTS,
  TEST_EVENT,
  type ApiNotificationDelivery,
  type ApiNotificationSettings,
} from './notification-schemas.ts';

// The API's response bodies as zod schemas (decision 053): the OpenAPI document (src/public-api/) is
// generated from them and the contract test validates real answers against that document. The types
// the code builds are inferred from them (api-types.ts); the checks at the end keep the few
// hand-written interfaces left in step.

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
  /** Full CDN URL of the avatar, or null (the UI falls back to the initial). */
  avatarUrl: z.string().nullable(),
  coins: money,
  createdAt: isoTime,
  /** The app language (decision 050): chosen in the switcher, else from the Discord locale at sign-in. */
  locale: z.enum(SUPPORTED_LOCALES),
});

export const publicConfigSchema = z.object({
  productName: z.string(),
  demoMode: z.boolean(),
  stripePublishableKey: z.string().nullable(),
  /** Demo mode: where the local stand-in for Stripe.js is served; null: Stripe's own (js.stripe.com). */
  stripeJsUrl: z.string().nullable(),
  supportUrl: z.string(),
});

const serverFields = {
  id: z.string(),
  name: z.string(),
  inviteLink: z.string(),
  /** Which rules apply (src/shared/campaign-kinds.ts). */
  kind: z.enum(CAMPAIGN_KINDS),
  serverId: z.string().nullable(),
  serverIcon: z.string().nullable(),
  /** Full CDN URL of the guild icon, or null. */
  iconUrl: z.string().nullable(),
  coinReward: money,
  membersRemaining: z.number().int(),
  initialMemberSlots: z.number().int(),
  isFeatured: z.boolean(),
  completionNotificationSent: z.boolean(),
  createdAt: isoTime,
  /** Who may see and join it (issue 31 item 2): null fields ask for nothing beyond the platform's rules. */
  targeting: z.object({ minAccountAgeDays: z.number().int().nullable(), language: z.string().nullable() }),
};
export const campaignHealthSchema = z.object({
  /** Our bot was removed from the guild: the campaign is paused (off Discover) until it is invited again. */
  botRemoved: z.boolean(),
  /** The completion DM could not be delivered (the owner's DMs are closed or they share no server with the bot). */
  ownerUnreachable: z.boolean(),
  /** The invite stopped working (expired, deleted, or another server's): off Discover until replaced. */
  inviteExpired: z.boolean(),
});
const healthFields = campaignHealthSchema.shape;

export const apiServerSchema = z.object({ ...serverFields, ownerId: z.string() });

/**
 * A campaign on Discover: instead of the owner's internal id it says whether the campaign is the
 * member's own (issue 10 item 7). The last four fields come from the guild's invite
 * (GET /invites/{code}?with_counts=true, cached server-side) and are null until known.
 */
export const apiDiscoverServerSchema = z.object({
  ...serverFields,
  isMine: z.boolean(),
  /** Discord's approximate_member_count. */
  memberCount: z.number().int().nullable(),
  /** Discord's approximate_presence_count (members online). */
  onlineCount: z.number().int().nullable(),
  /** The guild's description (Community servers), or null. */
  description: z.string().nullable(),
  /** Full CDN URL of the guild's banner, or null. */
  bannerUrl: z.string().nullable(),
});

export const apiCampaignSchema = apiServerSchema.extend({
  ...healthFields,
  joinCount: z.number().int(),
  /** When paused (botRemoved): the link that adds the bot back to this guild. */
  botInviteUrl: z.string().nullable(),
});

export const apiMyServerSchema = apiServerSchema.extend({
  ...healthFields,
  /** Slots remain and it was not canceled. */
  active: z.boolean(),
  canceled: z.boolean(),
  /** Another active campaign of the same Discord server is featured, so this one cannot be promoted. */
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
export const earningsDaySchema = z.object({
  /** YYYY-MM-DD in the user's time zone. */
  date: z.string(),
  /** Coins received that day (credits only), 2 decimals. */
  earned: money,
});

export const apiSocialTaskSchema = z.object({
  id: z.string(),
  platform: z.string(),
  title: z.string(),
  url: z.string(),
  coins: money,
  createdAt: isoTime,
  completed: z.boolean(),
});
export const startSocialTaskResponseSchema = z.object({
  /** When the member first opened the link. */
  startedAt: isoTime,
  /** From when /complete is accepted. */
  claimableAt: isoTime,
});
export const completeSocialTaskResponseSchema = z.object({ earned: money });

export const rewardStatusSchema = z.object({
  canClaimRegular: z.boolean(),
  canClaimBonus: z.boolean(),
  canClaimDaily: z.boolean(),
  regularHoursRemaining: z.number(),
  bonusHoursRemaining: z.number(),
  dailyHoursRemaining: z.number(),
  /** Consecutive daily claims, each within 48 h of the one before (0 once broken); showing only. */
  dailyStreak: z.number().int(),
  /** The longest daily streak ever. */
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
    'waiting', // Waiting for you to accept the invite
    'verified', // Verified +0.50, stay until <date>
    'stayed', // Stayed, keep or leave freely
    'left_early', // Left early −2.00
    'left', // Left after the stay, or removed by the server (no penalty)
    'no_reward', // Verified after the last slot was taken
    'same_address', // Verified, not paid: shares an internet connection with the owner (decision 022)
    'expired', // Expired, join again
  ]),
  joinedAt: isoTime,
  verifiedAt: isoTime.nullable(),
  /** Frozen reward ("0.50") once verified. */
  reward: money.nullable(),
  /** Frozen penalty ("2.00") for leaving before safeToLeaveAt. */
  penalty: money.nullable(),
  /** When leaving stops costing anything (verified joins). */
  safeToLeaveAt: isoTime.nullable(),
  leftAt: isoTime.nullable(),
  /** Joining again is possible (pending or expired join, campaign still open). */
  canRetry: z.boolean(),
  /** A no-bot join whose reward can be claimed now (10 s passed). */
  canClaim: z.boolean(),
});

export const apiJoinPaceSchema = z.object({
  /** When the next join is allowed; null = now. */
  nextJoinAt: isoTime.nullable(),
  /** Seconds until then (0 = now), so a browser with a wrong clock still counts down right. */
  waitSeconds: z.number().int(),
  perHour: z.number().int(),
  perDay: z.number().int(),
  joinsLastHour: z.number().int(),
  joinsLastDay: z.number().int(),
  /** Servers the member's Discord account is in, as last read; null = not read yet. */
  guildCount: z.number().int().nullable(),
  /** Discord's cap for this account (100, or 200 with Nitro). */
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
  /** Our bot is in it (null: Discord did not say); regular and featured campaigns need it. */
  botPresent: z.boolean().nullable(),
  /** Adds our bot to this server (Discord's OAuth2 page, the server preselected). */
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
  /** Stripe's status of the PaymentIntent (succeeded, processing, requires_payment_method, ...). */
  status: z.string(),
  /** True once the pack's coins are on the balance (by this call or an earlier webhook/sync). */
  credited: z.boolean(),
  /** Stripe's reason when the last payment attempt failed (last_payment_error.message), else null. */
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
  Check<Same<z.infer<typeof notificationSettingsResponseSchema>, ApiNotificationSettings>>,
  Check<Same<z.infer<typeof notificationDeliverySchema>, ApiNotificationDelivery>>,
  Check<Same<z.infer<typeof reminderSettingsResponseSchema>, ReminderSettingsResponse>>,
  Check<Same<z.infer<typeof campaignQualitySchema>, ApiCampaignQuality>>,
  Check<Same<z.infer<typeof qualityOverviewSchema>, ApiQualityOverview>>,
];
