import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { prepared } from '../db/query.ts';
import { memberGuilds, campaignJoins, campaigns, users } from '../db/schema.ts';

// Discover's reads, written once (decisions 044 and 057): drizzle's SQLite builder over the one schema,
// compiled once here and run on either engine — on SQLite synchronously on the store's connections
// (`sqliteSync`: Discover answers there without a promise, decisions 033/034), on PostgreSQL as named
// prepared statements through the store's `read.q`. How the list follows changes is engine-specific
// (discover-follow.ts); what it reads is this.

// Listed: slots left, not canceled, the invite working and our bot in the guild (a paused campaign —
// the bot removed from the guild — could verify no join).
const active = and(
  gt(campaigns.membersRemaining, 0),
  isNull(campaigns.canceledAt),
  eq(campaigns.inviteValid, true),
  isNull(campaigns.botRemovedAt),
);

const columns = {
  id: campaigns.id,
  ownerId: campaigns.ownerId,
  name: campaigns.name,
  inviteLink: campaigns.inviteLink,
  inviteCode: campaigns.inviteCode,
  kind: campaigns.kind,
  guildId: campaigns.guildId,
  inviteGuildId: campaigns.inviteGuildId,
  guildIcon: campaigns.guildIcon,
  coinReward: campaigns.coinReward,
  membersRemaining: campaigns.membersRemaining,
  initialMemberSlots: campaigns.initialMemberSlots,
  isFeatured: campaigns.isFeatured,
  featuredAt: campaigns.featuredAt,
  completionNotificationSent: campaigns.completionNotificationSent,
  createdAt: campaigns.createdAt,
  minAccountAgeDays: campaigns.minAccountAgeDays,
  targetLanguage: campaigns.targetLanguage,
};

/** Every listed campaign (a full rebuild of the list). */
export const ALL_ACTIVE = prepared((q) => q.select(columns).from(campaigns).where(active).prepare());

/** One campaign's row if it is listed (SQLite re-reads each changed id so). */
export const ONE_ACTIVE = prepared((q) =>
  q
    .select(columns)
    .from(campaigns)
    .where(and(eq(campaigns.id, sql.placeholder('id')), active))
    .prepare(),
);

/**
 * The listed rows among many ids in one statement of one text whatever their number (PostgreSQL catches up
 * on a batch of notified ids so): `= any(array)` is PostgreSQL's spelling; SQLite reads ONE_ACTIVE per id.
 */
export const SOME_ACTIVE_PG = prepared((q) =>
  q
    .select(columns)
    .from(campaigns)
    .where(and(sql`${campaigns.id} = any(${sql.placeholder('ids')})`, active))
    .prepare(),
);

// Only completed joins hide a campaign: a pending one is offered again (retry).
const completed = or(
  eq(campaignJoins.verified, true),
  eq(campaignJoins.coinsAwarded, true),
  eq(campaignJoins.hasLeft, true),
);

/** A member's completed joins (SQLite reads it per request, synchronously). */
export const JOINED_BY = prepared((q) =>
  q
    .select({ id: campaignJoins.campaignId })
    .from(campaignJoins)
    .where(and(eq(campaignJoins.userId, sql.placeholder('userId')), completed))
    .prepare(),
);

// The member's guild list as last read (decision 038): campaigns of guilds they are in are hidden too.
export const MEMBER_GUILDS = prepared((q) =>
  q
    .select({ guildIds: memberGuilds.guildIds })
    .from(memberGuilds)
    .where(eq(memberGuilds.userId, sql.placeholder('userId')))
    .prepare(),
);

// The same two reads for every member asking in one event-loop turn (PostgreSQL, `batchedByKey`, decision
// 062): the same columns and conditions with the member as a column and `= any(array)` for the key — one
// statement of one text whatever the number of members (`= any` is PostgreSQL's spelling; SQLite runs
// JOINED_BY and MEMBER_GUILDS per request).

/** JOINED_BY for many members (`keys`). */
export const JOINED_BY_MEMBERS_PG = prepared((q) =>
  q
    .select({ key: campaignJoins.userId, id: campaignJoins.campaignId })
    .from(campaignJoins)
    .where(and(sql`${campaignJoins.userId} = any(${sql.placeholder('keys')})`, completed))
    .prepare(),
);

/** MEMBER_GUILDS for many members (`keys`). */
export const MEMBER_GUILDS_OF_PG = prepared((q) =>
  q
    .select({ key: memberGuilds.userId, guildIds: memberGuilds.guildIds })
    .from(memberGuilds)
    .where(sql`${memberGuilds.userId} = any(${sql.placeholder('keys')})`)
    .prepare(),
);

/** What targeting compares (read only while a listed campaign has targeting). */
export const PROFILE = prepared((q) =>
  q
    .select({ discordId: users.discordId, locale: users.locale })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare(),
);
