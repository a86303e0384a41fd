import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { CAMPAIGN_KINDS } from '../shared/campaign-kinds.ts';

// The PostgreSQL mirror of src/db/schema.ts (decision 028): the same tables, columns, keys, indexes and
// checks, in drizzle's pg dialect. schema-drift.test.ts fails when the two disagree, so a change to
// schema.ts needs the same change here and `npm run db:generate:pg` (migrations in drizzle-pg/).
//
// Types: money (hundredths, up to ±9999999999) and epoch-millisecond timestamps do not fit int4, so they
// are bigint read as JS numbers (both stay below 2^53); small counters are integer; SQLite's 0/1 flags
// are real booleans. The connection parses int8 as a number too (src/db/pg-client.ts), so raw SQL agrees.

const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
const ms = (name: string) => bigint(name, { mode: 'number' });
const cents = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => ms('created_at').notNull();

export const users = pgTable(
  'users',
  {
    id: id(),
    discordId: text('discord_id').notNull().unique(),
    discordUsername: text('discord_username').notNull(),
    discordAvatar: text('discord_avatar'),
    email: text('email'),
    /** The Discord locale of GET /users/@me at the last sign-in ("en-US"); campaign language targeting reads it. */
    locale: text('locale'),
    /** The app language the member chose in the switcher (src/shared/i18n: en, es, pt-BR, fr, de, tr); null: follow `locale`. */
    uiLocale: text('ui_locale'),
    coins: cents('coins').notNull().default(0),
    createdAt: createdAt(),
    /**
     * Sessions signed in at or before this instant are over (sign-out everywhere, account deletion;
     * decision 039). Null: never revoked.
     */
    sessionsValidAfter: ms('sessions_valid_after'),
  },
  (t) => [check('users_coins_range', sql`${t.coins} <= 9999999999 AND ${t.coins} >= -9999999999`)],
);

export const servers = pgTable(
  'servers',
  {
    id: id(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    inviteLink: text('invite_link').notNull(),
    inviteCode: text('invite_code'),
    kind: text('kind', { enum: CAMPAIGN_KINDS }).notNull().default('regular'),
    serverId: text('server_id'),
    inviteGuildId: text('invite_guild_id'),
    serverIcon: text('server_icon'),
    coinReward: cents('coin_reward').notNull().default(50),
    membersRemaining: integer('members_remaining').notNull().default(0),
    initialMemberSlots: integer('initial_member_slots').notNull().default(0),
    isFeatured: boolean('is_featured').notNull().default(false),
    featuredRemaining: integer('featured_remaining').notNull().default(0),
    featuredAt: ms('featured_at'),
    completionNotificationSent: boolean('completion_notification_sent').notNull().default(false),
    inviteValid: boolean('invite_valid').notNull().default(true),
    botRemovedAt: ms('bot_removed_at'),
    completionDmAttempts: integer('completion_dm_attempts').notNull().default(0),
    completionDmRetryAt: ms('completion_dm_retry_at'),
    ownerUnreachableAt: ms('owner_unreachable_at'),
    canceledAt: ms('canceled_at'),
    /** Targeting (issue 31 item 2): members' Discord accounts must be at least this many days old; null: the platform's minimum. */
    minAccountAgeDays: integer('min_account_age_days'),
    /** Targeting: members' Discord locale must be this language ("fr", src/shared/targeting.ts); null: any. */
    targetLanguage: text('target_language'),
    createdAt: createdAt(),
  },
  (t) => [
    index('servers_active_idx').on(t.membersRemaining, t.canceledAt),
    index('servers_owner_idx').on(t.ownerId),
    index('servers_guild_idx').on(t.serverId),
    check('servers_slots_non_negative', sql`${t.membersRemaining} >= 0`),
    // SQLite holds this with two triggers (migration 0005); PostgreSQL says it as one CHECK.
    check(
      'servers_kind_consistent',
      sql`${t.kind} IN ('regular', 'featured', 'nobot') AND (${t.kind} = 'nobot') = (${t.serverId} IS NULL) AND (${t.kind} = 'featured') = ${t.isFeatured}`,
    ),
  ],
);

export const serverJoins = pgTable(
  'server_joins',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    serverId: text('server_id')
      .notNull()
      .references(() => servers.id),
    joinedAt: ms('joined_at').notNull(),
    verified: boolean('verified').notNull().default(false),
    verifiedAt: ms('verified_at'),
    coinsAwarded: boolean('coins_awarded').notNull().default(false),
    hasLeft: boolean('has_left').notNull().default(false),
    leftAt: ms('left_at'),
    /** When the bot received the removal (Discord's clock domain, ms): audit entries must precede it (decision 042). */
    leftDiscordAt: ms('left_discord_at'),
    leftReason: text('left_reason'),
    discordJoinedAt: ms('discord_joined_at'),
    penalized: boolean('penalized').notNull().default(false),
    rewardCents: cents('reward_cents'),
    minStayMs: ms('min_stay_ms'),
    penaltyCents: cents('penalty_cents'),
    sameAddress: boolean('same_address').notNull().default(false),
  },
  (t) => [
    uniqueIndex('server_joins_user_server_uq').on(t.userId, t.serverId),
    index('server_joins_server_idx').on(t.serverId),
  ],
);

export const socialTasks = pgTable('social_tasks', {
  id: id(),
  platform: text('platform').notNull(),
  title: text('title').notNull(),
  url: text('url').notNull(),
  coins: cents('coins').notNull().default(200),
  createdAt: createdAt(),
});

export const socialTaskStarts = pgTable(
  'social_task_starts',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    taskId: text('task_id')
      .notNull()
      .references(() => socialTasks.id, { onDelete: 'cascade' }),
    startedAt: ms('started_at').notNull(),
  },
  (t) => [uniqueIndex('social_task_starts_user_task_uq').on(t.userId, t.taskId)],
);

export const socialCompletions = pgTable(
  'social_completions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    taskId: text('task_id')
      .notNull()
      .references(() => socialTasks.id, { onDelete: 'cascade' }),
    completedAt: ms('completed_at').notNull(),
  },
  (t) => [uniqueIndex('social_completions_user_task_uq').on(t.userId, t.taskId)],
);

export const hourlyRewards = pgTable('hourly_rewards', {
  id: id(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => users.id),
  lastClaimDate: ms('last_claim_date').notNull().default(0),
  lastBonusClaimDate: ms('last_bonus_claim_date'),
  lastDailyClaimDate: ms('last_daily_claim_date'),
});

export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    amount: cents('amount').notNull(),
    type: text('type').notNull(),
    description: text('description'),
    idempotencyKey: text('idempotency_key').unique(),
    createdAt: createdAt(),
  },
  (t) => [index('transactions_user_created_idx').on(t.userId, t.createdAt)],
);

export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    packId: text('pack_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    coins: cents('coins').notNull(),
    status: text('status').notNull(),
    fulfilledAt: ms('fulfilled_at'),
    reversedCoins: cents('reversed_coins').notNull().default(0),
    chargeRefundedCents: cents('charge_refunded_cents').notNull().default(0),
    disputeId: text('dispute_id'),
    disputeCents: cents('dispute_cents').notNull().default(0),
    disputeStatus: text('dispute_status'),
    /** Stripe's time (ms) of the dispute event last applied: older deliveries change nothing (decision 048). */
    disputeAt: ms('dispute_at'),
    adjustments: integer('adjustments').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId),
    index('payments_open_dispute_idx')
      .on(t.userId)
      .where(sql`${t.disputeStatus} = 'open'`),
  ],
);

export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id),
    amountCents: cents('amount_cents').notNull(),
    status: text('status').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [index('payment_refunds_payment_idx').on(t.paymentId)],
);

export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: text('sess').notNull(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [index('sessions_expires_idx').on(t.expiresAt)],
);

export const oauthTokens = pgTable('oauth_tokens', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accessTokenEnc: text('access_token_enc').notNull(),
  refreshTokenEnc: text('refresh_token_enc'),
  scope: text('scope').notNull(),
  expiresAt: ms('expires_at').notNull(),
  updatedAt: ms('updated_at').notNull(),
});

export const welcomeGrants = pgTable('welcome_grants', {
  discordId: text('discord_id').primaryKey(),
  grantedAt: ms('granted_at').notNull(),
  /** Unpaid penalties of a deleted account of this Discord account (decision 029). */
  carriedDebtCents: cents('carried_debt_cents').notNull().default(0),
});

export const userAddresses = pgTable(
  'user_addresses',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressHash: text('address_hash').notNull(),
    lastSeenAt: ms('last_seen_at').notNull(),
  },
  (t) => [
    uniqueIndex('user_addresses_user_hash_uq').on(t.userId, t.addressHash),
    index('user_addresses_hash_idx').on(t.addressHash, t.lastSeenAt),
  ],
);

/** The member's own Discord guild list (see schema.ts). */
export const memberGuilds = pgTable('member_guilds', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  guildIds: text('guild_ids').notNull(),
  premiumType: integer('premium_type'),
  fetchedAt: ms('fetched_at').notNull(),
});

/** Personal access tokens for the public API (decision 053; see schema.ts). */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    hint: text('hint').notNull(),
    scopes: text('scopes').notNull(),
    createdAt: createdAt(),
    expiresAt: ms('expires_at'),
    lastUsedAt: ms('last_used_at'),
    revokedAt: ms('revoked_at'),
  },
  (t) => [index('access_tokens_user_idx').on(t.userId)],
);

export const opsHeartbeat = pgTable('ops_heartbeat', {
  id: integer('id').primaryKey(),
  checkedAt: ms('checked_at').notNull(),
});

// ---- PostgreSQL only (listed in schema-drift.test.ts as such) ----

/**
 * One row per periodic job and period that some process claimed (src/ops/run-once-pg.ts, decision 030):
 * with several processes a job runs at most once per period, and a pg advisory lock keeps runs of the
 * same job from overlapping. One process on SQLite needs neither, so SQLite has no such table.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    /** floor(now / periodMs): the period the run belongs to. */
    period: bigint('period', { mode: 'number' }).notNull(),
    /** Who ran it (host:pid), for the logs and the readiness report. */
    runner: text('runner').notNull(),
    startedAt: ms('started_at').notNull(),
    finishedAt: ms('finished_at'),
    /** ok | failed; null while running (or when the runner died mid-run). */
    outcome: text('outcome'),
  },
  (t) => [primaryKey({ columns: [t.job, t.period] })],
);

/** Absent members held back by the reconciliation safety valve (schema.ts). */
export const reconcileHolds = pgTable(
  'reconcile_holds',
  {
    guildId: text('guild_id').notNull(),
    discordUserId: text('discord_user_id').notNull(),
    firstAbsentAt: ms('first_absent_at').notNull(),
    lastAbsentAt: ms('last_absent_at').notNull(),
    holds: integer('holds').notNull().default(1),
    resolution: text('resolution'),
    resolvedAt: ms('resolved_at'),
    reason: text('reason'),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.discordUserId] })],
);

export const retentionChecks = pgTable(
  'retention_checks',
  {
    joinId: text('join_id')
      .notNull()
      .references(() => serverJoins.id, { onDelete: 'cascade' }),
    milestoneDays: integer('milestone_days').notNull(),
    present: boolean('present').notNull(),
    checkedAt: ms('checked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.joinId, t.milestoneDays] })],
);

export const campaignNotifications = pgTable('campaign_notifications', {
  campaignId: text('campaign_id')
    .primaryKey()
    .references(() => servers.id),
  discordWebhook: text('discord_webhook'),
  endpointUrl: text('endpoint_url'),
  endpointSecret: text('endpoint_secret'),
  events: text('events').notNull().default(''),
  updatedAt: ms('updated_at').notNull(),
});

export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: id(),
    eventId: text('event_id').notNull(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => servers.id),
    target: text('target').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ms('next_attempt_at').notNull(),
    leaseUntil: ms('lease_until'),
    leaseToken: text('lease_token'),
    createdAt: createdAt(),
    finishedAt: ms('finished_at'),
  },
  (t) => [
    uniqueIndex('notification_outbox_event_target_uq').on(t.eventId, t.target),
    index('notification_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('notification_outbox_campaign_idx').on(t.campaignId, t.createdAt),
  ],
);

export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    id: id(),
    outboxId: text('outbox_id')
      .notNull()
      .references(() => notificationOutbox.id),
    campaignId: text('campaign_id').notNull(),
    attempt: integer('attempt').notNull(),
    at: ms('at').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    outcome: text('outcome').notNull(),
    error: text('error'),
  },
  (t) => [index('notification_attempts_campaign_idx').on(t.campaignId, t.at)],
);

export const reminderSettings = pgTable('reminder_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  hourly: boolean('hourly').notNull().default(false),
  bonus: boolean('bonus').notNull().default(false),
  daily: boolean('daily').notNull().default(false),
  stay: boolean('stay').notNull().default(false),
  campaign: boolean('campaign').notNull().default(false),
  timeZone: text('time_zone').notNull().default('UTC'),
  quietStart: integer('quiet_start'),
  quietEnd: integer('quiet_end'),
  dmBlockedAt: ms('dm_blocked_at'),
  lastDmAt: ms('last_dm_at'),
  updatedAt: ms('updated_at').notNull(),
});

export const remindersDue = pgTable(
  'reminders_due',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    subjectId: text('subject_id').notNull(),
    dueAt: ms('due_at').notNull(),
    state: text('state').notNull().default('pending'),
    sentAt: ms('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reminders_due_subject_uq').on(t.userId, t.kind, t.subjectId),
    index('reminders_due_state_idx').on(t.state, t.dueAt),
  ],
);
