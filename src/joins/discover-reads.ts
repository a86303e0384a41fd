import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { prepared } from '../db/query.ts';
import { memberGuilds, serverJoins, servers, users } from '../db/schema.ts';

// Discover's reads, written once (decisions 044 and 057): drizzle's SQLite builder over the one schema,
// compiled once here and run on either engine — on SQLite synchronously on the store's connections
// (`sqliteSync`: Discover answers there without a promise, decisions 033/034), on PostgreSQL as named
// prepared statements through the store's `read.q`. How the list follows changes is engine-specific
// (discover-follow.ts); what it reads is this.

// Listed: slots left, not canceled, the invite working and our bot in the guild (a paused campaign —
// the bot removed from the guild — could verify no join).
const active = and(
  gt(servers.membersRemaining, 0),
  isNull(servers.canceledAt),
  eq(servers.inviteValid, true),
  isNull(servers.botRemovedAt),
);

const columns = {
  id: servers.id,
  ownerId: servers.ownerId,
  name: servers.name,
  inviteLink: servers.inviteLink,
  inviteCode: servers.inviteCode,
  kind: servers.kind,
  serverId: servers.serverId,
  inviteGuildId: servers.inviteGuildId,
  serverIcon: servers.serverIcon,
  coinReward: servers.coinReward,
  membersRemaining: servers.membersRemaining,
  initialMemberSlots: servers.initialMemberSlots,
  isFeatured: servers.isFeatured,
  featuredAt: servers.featuredAt,
  completionNotificationSent: servers.completionNotificationSent,
  createdAt: servers.createdAt,
  minAccountAgeDays: servers.minAccountAgeDays,
  targetLanguage: servers.targetLanguage,
};

/** Every listed campaign (a full rebuild of the list). */
export const ALL_ACTIVE = prepared((q) => q.select(columns).from(servers).where(active).prepare());

/** One campaign's row if it is listed (SQLite re-reads each changed id so). */
export const ONE_ACTIVE = prepared((q) =>
  q
    .select(columns)
    .from(servers)
    .where(and(eq(servers.id, sql.placeholder('id')), active))
    .prepare(),
);

/**
 * The listed rows among many ids in one statement of one text whatever their number (PostgreSQL catches up
 * on a batch of notified ids so): `= any(array)` is PostgreSQL's spelling; SQLite reads ONE_ACTIVE per id.
 */
export const SOME_ACTIVE_PG = prepared((q) =>
  q
    .select(columns)
    .from(servers)
    .where(and(sql`${servers.id} = any(${sql.placeholder('ids')})`, active))
    .prepare(),
);

// Only completed joins hide a campaign: a pending one is offered again (retry).
const completed = or(
  eq(serverJoins.verified, true),
  eq(serverJoins.coinsAwarded, true),
  eq(serverJoins.hasLeft, true),
);

/** A member's completed joins (SQLite reads it per request, synchronously). */
export const JOINED_BY = prepared((q) =>
  q
    .select({ id: serverJoins.serverId })
    .from(serverJoins)
    .where(and(eq(serverJoins.userId, sql.placeholder('userId')), completed))
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
    .select({ key: serverJoins.userId, id: serverJoins.serverId })
    .from(serverJoins)
    .where(and(sql`${serverJoins.userId} = any(${sql.placeholder('keys')})`, completed))
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
