import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CAMPAIGN_KINDS } from '../shared/campaign-kinds.ts';

// Money columns are integer hundredths ("cents"); timestamps are epoch milliseconds.
// Unique constraints back every exactly-once rule; the ledger module is the only writer of users.coins.

const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
const createdAt = () => integer('created_at').notNull();
/** The row's user; `cascade`: personal data, deleted with the account. */
const userId = (onDelete?: 'cascade') =>
  text('user_id')
    .notNull()
    .references(() => users.id, onDelete ? { onDelete } : {});
/** The user of a one-row-per-user table of personal data (deleted with the account). */
const userKey = () =>
  text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' });

export const users = sqliteTable(
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
    coins: integer('coins').notNull().default(0),
    createdAt: createdAt(),
    /**
     * Sessions signed in at or before this instant are over (sign-out everywhere, account deletion;
     * decision 039). Null: never revoked.
     */
    sessionsValidAfter: integer('sessions_valid_after'),
  },
  (t) => [check('users_coins_range', sql`${t.coins} <= 9999999999 AND ${t.coins} >= -9999999999`)],
);

/**
 * A campaign: a Discord guild listed for members (spec "Server / campaign"). The SQL table keeps its first
 * name, `servers`, and the wire says `serverId`/`serverIcon` for guildId/guildIcon (decision 059).
 */
export const campaigns = sqliteTable(
  'servers',
  {
    id: id(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    inviteLink: text('invite_link').notNull(),
    inviteCode: text('invite_code'),
    /** Which rules apply (src/shared/campaign-kinds.ts). Kept consistent with is_featured and server_id by triggers (migration 0005). */
    kind: text('kind', { enum: CAMPAIGN_KINDS }).notNull().default('regular'),
    /** Discord guild id our bot verifies joins in; null for a no-bot campaign. */
    guildId: text('server_id'),
    /** The guild the invite resolves to, for every kind of campaign (no-bot joins are checked against it). */
    inviteGuildId: text('invite_guild_id'),
    guildIcon: text('server_icon'),
    coinReward: integer('coin_reward').notNull().default(50),
    membersRemaining: integer('members_remaining').notNull().default(0),
    initialMemberSlots: integer('initial_member_slots').notNull().default(0),
    /** kind = 'featured', kept as a column because the Discover list's SQL, triggers and ordering read it. */
    isFeatured: integer('is_featured', { mode: 'boolean' }).notNull().default(false),
    /** How many of membersRemaining are featured slots (paid at the featured reward, taken first). */
    featuredRemaining: integer('featured_remaining').notNull().default(0),
    featuredAt: integer('featured_at'),
    completionNotificationSent: integer('completion_notification_sent', { mode: 'boolean' })
      .notNull()
      .default(false),
    /** false when the invite stopped resolving; such campaigns leave Discover until fixed. */
    inviteValid: integer('invite_valid', { mode: 'boolean' }).notNull().default(true),
    /** Set while our bot is not in the guild (GUILD_DELETE): the campaign is paused, off Discover. */
    botRemovedAt: integer('bot_removed_at'),
    /** Completion DM attempts so far, and when the next may be made (backoff); a few, never forever. */
    completionDmAttempts: integer('completion_dm_attempts').notNull().default(0),
    completionDmRetryAt: integer('completion_dm_retry_at'),
    /** The completion DM could not be delivered (50007 or attempts used up): the owner sees it on the site. */
    ownerUnreachableAt: integer('owner_unreachable_at'),
    canceledAt: integer('canceled_at'),
    /** Targeting (issue 31 item 2): members' Discord accounts must be at least this many days old; null: the platform's minimum. */
    minAccountAgeDays: integer('min_account_age_days'),
    /** Targeting: members' Discord locale must be this language ("fr", src/shared/targeting.ts); null: any. */
    targetLanguage: text('target_language'),
    createdAt: createdAt(),
  },
  (t) => [
    index('servers_active_idx').on(t.membersRemaining, t.canceledAt),
    index('servers_owner_idx').on(t.ownerId),
    index('servers_guild_idx').on(t.guildId),
    check('servers_slots_non_negative', sql`${t.membersRemaining} >= 0`),
  ],
);

/** A member's join of a campaign (SQL `server_joins`; `campaignId` is the SQL column `server_id`, decision 059). */
export const campaignJoins = sqliteTable(
  'server_joins',
  {
    id: id(),
    userId: userId(),
    campaignId: text('server_id')
      .notNull()
      .references(() => campaigns.id),
    /** When the member asked to join through the website. */
    joinedAt: integer('joined_at').notNull(),
    verified: integer('verified', { mode: 'boolean' }).notNull().default(false),
    verifiedAt: integer('verified_at'),
    coinsAwarded: integer('coins_awarded', { mode: 'boolean' }).notNull().default(false),
    hasLeft: integer('has_left', { mode: 'boolean' }).notNull().default(false),
    leftAt: integer('left_at'),
    /** When the bot received the removal (Discord's clock domain, ms): audit entries must precede it (decision 042). */
    leftDiscordAt: integer('left_discord_at'),
    /** leave | kick | ban | unknown | guild_deleted, once hasLeft. */
    leftReason: text('left_reason'),
    /** Discord's joined_at (ms) of the membership that verified this join; audit entries older than it are not about it. */
    discordJoinedAt: integer('discord_joined_at'),
    penalized: integer('penalized', { mode: 'boolean' }).notNull().default(false),
    // Terms frozen when the join is verified (or the no-bot reward claimed): later promotions or rule
    // changes never alter what an earlier member was promised. Null on joins not (yet) verified.
    /** Reward paid, hundredths (0 when verified without a slot). */
    rewardCents: integer('reward_cents'),
    /** Minimum stay counted from verifiedAt. */
    minStayMs: integer('min_stay_ms'),
    /** Charged when leaving on one's own before verifiedAt + minStayMs. */
    penaltyCents: integer('penalty_cents'),
    /** The member shared a recent address with the campaign's owner when verified (decision 022). */
    sameAddress: integer('same_address', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    uniqueIndex('server_joins_user_server_uq').on(t.userId, t.campaignId),
    index('server_joins_server_idx').on(t.campaignId),
  ],
);

export const socialTasks = sqliteTable('social_tasks', {
  id: id(),
  platform: text('platform').notNull(),
  title: text('title').notNull(),
  url: text('url').notNull(),
  coins: integer('coins').notNull().default(200),
  createdAt: createdAt(),
});

/** When a member opened a task's link; completion is accepted 15 s later at the earliest. */
export const socialTaskStarts = sqliteTable(
  'social_task_starts',
  {
    id: id(),
    userId: userId(),
    taskId: text('task_id')
      .notNull()
      .references(() => socialTasks.id, { onDelete: 'cascade' }),
    startedAt: integer('started_at').notNull(),
  },
  (t) => [uniqueIndex('social_task_starts_user_task_uq').on(t.userId, t.taskId)],
);

export const socialCompletions = sqliteTable(
  'social_completions',
  {
    id: id(),
    userId: userId(),
    taskId: text('task_id')
      .notNull()
      .references(() => socialTasks.id, { onDelete: 'cascade' }),
    completedAt: integer('completed_at').notNull(),
  },
  (t) => [uniqueIndex('social_completions_user_task_uq').on(t.userId, t.taskId)],
);

export const hourlyRewards = sqliteTable('hourly_rewards', {
  id: id(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => users.id),
  /** 0 means never claimed. */
  lastClaimDate: integer('last_claim_date').notNull().default(0),
  lastBonusClaimDate: integer('last_bonus_claim_date'),
  lastDailyClaimDate: integer('last_daily_claim_date'),
});

export const transactions = sqliteTable(
  'transactions',
  {
    id: id(),
    userId: userId(),
    amount: integer('amount').notNull(),
    type: text('type').notNull(),
    description: text('description'),
    /** Makes a credit exactly-once where a business key exists (welcome bonus, a payment intent, ...). */
    idempotencyKey: text('idempotency_key').unique(),
    createdAt: createdAt(),
  },
  (t) => [index('transactions_user_created_idx').on(t.userId, t.createdAt)],
);

export const payments = sqliteTable(
  'payments',
  {
    /** Stripe PaymentIntent id. */
    id: text('id').primaryKey(),
    userId: userId(),
    packId: text('pack_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    coins: integer('coins').notNull(),
    /** created | succeeded | disputed | refunded */
    status: text('status').notNull(),
    fulfilledAt: integer('fulfilled_at'),
    /** Coins (hundredths) taken back after disputes or refunds, net of what was restored. */
    reversedCoins: integer('reversed_coins').notNull().default(0),
    /** Highest `amount_refunded` (cents) seen on the charge's charge.refunded events. */
    chargeRefundedCents: integer('charge_refunded_cents').notNull().default(0),
    /** The charge's dispute (a charge has at most one): id, disputed cents and open | won | lost. */
    disputeId: text('dispute_id'),
    disputeCents: integer('dispute_cents').notNull().default(0),
    disputeStatus: text('dispute_status'),
    /** Stripe's time (ms) of the dispute event last applied: older deliveries change nothing (decision 048). */
    disputeAt: integer('dispute_at'),
    /** Counts the ledger adjustments made for this payment (part of their idempotency keys). */
    adjustments: integer('adjustments').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId),
    // assertCanSpendIn looks for an open dispute on every buy and spend.
    index('payments_open_dispute_idx')
      .on(t.userId)
      .where(sql`${t.disputeStatus} = 'open'`),
  ],
);

/** One row per Stripe refund of a payment, so a refund that later fails can be undone exactly. */
export const paymentRefunds = sqliteTable(
  'payment_refunds',
  {
    /** Stripe Refund id (re_...). */
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id),
    amountCents: integer('amount_cents').notNull(),
    /** Stripe's refund status: pending | requires_action | succeeded | failed | canceled. */
    status: text('status').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('payment_refunds_payment_idx').on(t.paymentId)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: text('sess').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * A member's Discord OAuth2 tokens, AES-256-GCM encrypted (src/auth/oauth-tokens.ts). Used to read the
 * member's own guild list (ownership, no-bot membership). Deleted on sign-out-everywhere and account deletion.
 */
export const oauthTokens = sqliteTable('oauth_tokens', {
  userId: userKey(),
  accessTokenEnc: text('access_token_enc').notNull(),
  refreshTokenEnc: text('refresh_token_enc'),
  scope: text('scope').notNull(),
  expiresAt: integer('expires_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Discord accounts that already received the welcome bonus. Keyed by a keyed hash (HMAC, src/users/
 * discord-id-hash.ts) of the Discord id — never the raw id — not by user id, and never deleted, so
 * deleting the account and signing up again does not pay a second bonus.
 */
export const welcomeGrants = sqliteTable('welcome_grants', {
  discordId: text('discord_id').primaryKey(),
  grantedAt: integer('granted_at').notNull(),
  /**
   * Unpaid penalties (a negative balance) of a deleted account of this Discord account, hundredths: the
   * next sign-up starts with them, so deleting the account does not shed a debt (decision 029).
   */
  carriedDebtCents: integer('carried_debt_cents').notNull().default(0),
});

/**
 * Keyed hashes (HMAC) of the network addresses a user signed in or acted from, for the same-address
 * rule on campaigns (decision 022). Raw addresses are never stored; rows older than the window are deleted.
 */
export const userAddresses = sqliteTable(
  'user_addresses',
  {
    userId: userId('cascade'),
    addressHash: text('address_hash').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
  },
  (t) => [
    uniqueIndex('user_addresses_user_hash_uq').on(t.userId, t.addressHash),
    index('user_addresses_hash_idx').on(t.addressHash, t.lastSeenAt),
  ],
);

/**
 * The member's own Discord guild list as last read with their OAuth token (at sign-in and at every join
 * or no-bot claim): Discover and /farm leave out servers the member is already in, and a join that would
 * pass Discord's server cap is refused (decision 038). Personal data: account deletion removes the row.
 */
export const memberGuilds = sqliteTable('member_guilds', {
  userId: userKey(),
  /** Guild ids, comma-separated (at most 200: Discord's cap with Nitro). */
  guildIds: text('guild_ids').notNull(),
  /** Discord's `premium_type` from GET /users/@me when it was last read (2 = Nitro: 200 servers); null = unknown. */
  premiumType: integer('premium_type'),
  fetchedAt: integer('fetched_at').notNull(),
});

/**
 * Personal access tokens for the public API (decision 053). Only a SHA-256 of the token is stored (the
 * token itself is shown once, at creation); `hint` is its last four characters, for the list.
 */
export const accessTokens = sqliteTable(
  'access_tokens',
  {
    id: id(),
    userId: userId('cascade'),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    hint: text('hint').notNull(),
    /** Granted scopes, space-separated (src/shared/access-tokens.ts). */
    scopes: text('scopes').notNull(),
    createdAt: createdAt(),
    /** Null: never expires. */
    expiresAt: integer('expires_at'),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('access_tokens_user_idx').on(t.userId)],
);

/** One row, rewritten by every readiness check: proves a write to the database still succeeds. */
export const opsHeartbeat = sqliteTable('ops_heartbeat', {
  id: integer('id').primaryKey(),
  checkedAt: integer('checked_at').notNull(),
});

export type User = typeof users.$inferSelect;
export type Campaign = typeof campaigns.$inferSelect;
export type CampaignJoin = typeof campaignJoins.$inferSelect;
export type SocialTask = typeof socialTasks.$inferSelect;
export type Transaction = typeof transactions.$inferSelect;
export type Payment = typeof payments.$inferSelect;
export type PaymentRefund = typeof paymentRefunds.$inferSelect;

/**
 * Absent members whose removal the reconciliation safety valve held back (issue 29 item 7): kept until
 * a later run settles them, they show up again, or an operator charges or releases them
 * (`npm run ops -- held ...`). Held joins stay in reconciliation's scope past their minimum stay.
 */
export const reconcileHolds = sqliteTable(
  'reconcile_holds',
  {
    guildId: text('guild_id').notNull(),
    discordUserId: text('discord_user_id').notNull(),
    /** First run that found the member absent and held it (the leave is judged at this time). */
    firstAbsentAt: integer('first_absent_at').notNull(),
    lastAbsentAt: integer('last_absent_at').notNull(),
    /** Runs that held it. */
    holds: integer('holds').notNull().default(1),
    /** null while held; settled | present | charged | released. */
    resolution: text('resolution'),
    resolvedAt: integer('resolved_at'),
    /** The operator's reason (charge / release). */
    reason: text('reason'),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.discordUserId] })],
);

/**
 * Campaign quality (issue 31 item 1): a sampled membership check of a paid member at D+7 or D+30 after
 * verification, where leaves after the stay may go unseen (no Server Members intent). One row per join
 * and milestone; `present` is what the bot's GET /guilds/{g}/members/{u} answered.
 */
export const retentionChecks = sqliteTable(
  'retention_checks',
  {
    joinId: text('join_id')
      .notNull()
      .references(() => campaignJoins.id, { onDelete: 'cascade' }),
    /** Days after verification: 7 or 30. */
    milestoneDays: integer('milestone_days').notNull(),
    present: integer('present', { mode: 'boolean' }).notNull(),
    checkedAt: integer('checked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.joinId, t.milestoneDays] })],
);

/**
 * Owner notifications per campaign (issue 31 item 5, decision 052): where to send (a Discord channel
 * webhook, an HTTPS endpoint; both optional) and which events. The Discord webhook URL (it carries the
 * webhook's token) and the endpoint's signing secret are encrypted like OAuth tokens.
 */
export const campaignNotifications = sqliteTable('campaign_notifications', {
  campaignId: text('campaign_id')
    .primaryKey()
    .references(() => campaigns.id),
  discordWebhook: text('discord_webhook'),
  endpointUrl: text('endpoint_url'),
  endpointSecret: text('endpoint_secret'),
  /** Subscribed event types, comma-separated (src/shared/notification-schemas.ts). */
  events: text('events').notNull().default(''),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The outbox: one row per event and target, written in the transaction of the event it reports, so a
 * crash can neither lose nor invent one; the delivery job leases, sends and settles rows.
 */
export const notificationOutbox = sqliteTable(
  'notification_outbox',
  {
    id: id(),
    /** The event's id, the same for every target: receivers dedupe on it (at-least-once delivery). */
    eventId: text('event_id').notNull(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    /** discord | endpoint */
    target: text('target').notNull(),
    eventType: text('event_type').notNull(),
    /** The event as JSON (the endpoint's body; the Discord message is built from it). */
    payload: text('payload').notNull(),
    /** pending | delivered | failed | dropped (its target was removed before it went out). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** A delivery job holds the row until then (another process leaves it alone). */
    leaseUntil: integer('lease_until'),
    leaseToken: text('lease_token'),
    createdAt: createdAt(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    uniqueIndex('notification_outbox_event_target_uq').on(t.eventId, t.target),
    index('notification_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('notification_outbox_campaign_idx').on(t.campaignId, t.createdAt),
  ],
);

/** Every delivery attempt: the owner's delivery log (status, latency, error — never the response body). */
export const notificationAttempts = sqliteTable(
  'notification_attempts',
  {
    id: id(),
    outboxId: text('outbox_id')
      .notNull()
      .references(() => notificationOutbox.id),
    campaignId: text('campaign_id').notNull(),
    attempt: integer('attempt').notNull(),
    at: integer('at').notNull(),
    /** HTTP status of the answer; null when none came (refused, timeout, network). */
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    /** delivered | retry | failed */
    outcome: text('outcome').notNull(),
    error: text('error'),
  },
  (t) => [index('notification_attempts_campaign_idx').on(t.campaignId, t.at)],
);

/**
 * Opt-in reminders (issue 32 item 2, decision 055): one row per member who ever touched them. Every kind
 * is off until switched on; quiet hours (minutes of the day, in `time_zone`) defer a reminder to their
 * end. `dm_blocked_at`: Discord answered 50007, every kind was switched off and the Account page says so.
 * `last_dm_at`: the member's last reminder DM, for the per-member pace.
 */
export const reminderSettings = sqliteTable('reminder_settings', {
  userId: userKey(),
  hourly: integer('hourly', { mode: 'boolean' }).notNull().default(false),
  bonus: integer('bonus', { mode: 'boolean' }).notNull().default(false),
  daily: integer('daily', { mode: 'boolean' }).notNull().default(false),
  stay: integer('stay', { mode: 'boolean' }).notNull().default(false),
  campaign: integer('campaign', { mode: 'boolean' }).notNull().default(false),
  timeZone: text('time_zone').notNull().default('UTC'),
  /** Quiet hours, minutes after local midnight; both null: none. */
  quietStart: integer('quiet_start'),
  quietEnd: integer('quiet_end'),
  dmBlockedAt: integer('dm_blocked_at'),
  lastDmAt: integer('last_dm_at'),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The persisted schedule of reminders: written when the thing happens (a claim, a verification, a
 * campaign passing 80 %), sent by the reminders job. One row per (user, kind, subject): a later claim
 * moves the same row. state: pending → sending (claimed, lease) → sent | canceled | failed.
 */
export const remindersDue = sqliteTable(
  'reminders_due',
  {
    id: id(),
    userId: userId('cascade'),
    kind: text('kind').notNull(),
    /** The reward type, the join id or the campaign id the reminder is about. */
    subjectId: text('subject_id').notNull(),
    dueAt: integer('due_at').notNull(),
    state: text('state').notNull().default('pending'),
    sentAt: integer('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reminders_due_subject_uq').on(t.userId, t.kind, t.subjectId),
    index('reminders_due_state_idx').on(t.state, t.dueAt),
  ],
);
