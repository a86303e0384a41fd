import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { SelectedFields, SQLiteSelect } from 'drizzle-orm/sqlite-core';
import type { RunResult } from 'better-sqlite3';
import type { Db } from '../db/client.ts';
import { serverJoins, servers, users } from '../db/schema.ts';
import { CAMPAIGN_KIND_RULES, type CampaignKind } from '../shared/campaign-kinds.ts';
import { joinTerms, type LeaveReason } from './rules.ts';
import type {
  BotRepository,
  ChargedLeave,
  CompletionNotice,
  InStayJoin,
  OpenPaidJoin,
  PendingJoin,
  SlotTaken,
  VerifiedJoinOutcome,
} from './bot-repo.ts';

/** Inner joins: no joined table's columns can come back null. */
type InnerJoined = { server_joins: 'not-null'; servers: 'not-null'; users: 'not-null' };

export class SqliteBotRepository implements BotRepository {
  constructor(private readonly db: Db) {}

  async findUserIdByDiscordId(discordId: string): Promise<string | undefined> {
    return this.db.select({ id: users.id }).from(users).where(eq(users.discordId, discordId)).get()?.id;
  }

  async listPendingJoins(userId: string, guildId: string, since: number): Promise<PendingJoin[]> {
    return this.db
      .select({
        joinId: serverJoins.id,
        campaignId: servers.id,
        name: servers.name,
        ownerId: servers.ownerId,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(
        and(
          eq(serverJoins.userId, userId),
          eq(servers.serverId, guildId),
          eq(serverJoins.verified, false),
          eq(serverJoins.hasLeft, false),
          isNull(servers.canceledAt),
          gte(serverJoins.joinedAt, since),
        ),
      )
      .orderBy(asc(serverJoins.joinedAt), asc(serverJoins.id))
      .all();
  }

  async claimPendingJoin(joinId: string, at: number): Promise<boolean> {
    const row = this.db
      .update(serverJoins)
      .set({ verified: true, verifiedAt: at, coinsAwarded: false })
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.verified, false)))
      .returning({ id: serverJoins.id })
      .get();
    return row !== undefined;
  }

  async takeSlot(campaignId: string): Promise<SlotTaken | null> {
    const featured = this.db
      .update(servers)
      .set({
        membersRemaining: sql`${servers.membersRemaining} - 1`,
        featuredRemaining: sql`${servers.featuredRemaining} - 1`,
      })
      .where(
        and(
          eq(servers.id, campaignId),
          gt(servers.featuredRemaining, 0),
          gt(servers.membersRemaining, 0),
          isNull(servers.canceledAt),
        ),
      )
      .returning({ membersRemaining: servers.membersRemaining, featuredRemaining: servers.featuredRemaining })
      .get();
    if (featured) {
      if (featured.featuredRemaining === 0 && featured.membersRemaining > 0) {
        this.db
          .update(servers)
          .set({ kind: 'regular', isFeatured: false, coinReward: CAMPAIGN_KIND_RULES.regular.rewardCents })
          .where(eq(servers.id, campaignId))
          .run();
      }
      return { terms: joinTerms(true), membersRemaining: featured.membersRemaining };
    }
    const regular = this.db
      .update(servers)
      .set({ membersRemaining: sql`${servers.membersRemaining} - 1` })
      .where(
        and(
          eq(servers.id, campaignId),
          gt(servers.membersRemaining, servers.featuredRemaining),
          isNull(servers.canceledAt),
        ),
      )
      .returning({ membersRemaining: servers.membersRemaining })
      .get();
    return regular ? { terms: joinTerms(false), membersRemaining: regular.membersRemaining } : null;
  }

  async settleVerifiedJoin(joinId: string, outcome: VerifiedJoinOutcome): Promise<void> {
    const { terms } = outcome;
    this.db
      .update(serverJoins)
      .set({
        coinsAwarded: terms !== null,
        rewardCents: terms?.rewardCents ?? 0,
        minStayMs: terms?.minStayMs ?? 0,
        penaltyCents: terms?.penaltyCents ?? 0,
        sameAddress: outcome.sameAddress,
        ...(terms && outcome.discordJoinedAt !== undefined
          ? { discordJoinedAt: outcome.discordJoinedAt }
          : {}),
      })
      .where(eq(serverJoins.id, joinId))
      .run();
  }

  async closeJoinsOfEarlierMember(
    discordUserId: string,
    guildId: string,
    discordJoinedAt: number,
    skewMs: number,
    at: number,
  ): Promise<number> {
    return this.db
      .update(serverJoins)
      .set({ verified: true, verifiedAt: at, coinsAwarded: false, discordJoinedAt })
      .where(
        and(
          inArray(
            serverJoins.userId,
            this.db.select({ id: users.id }).from(users).where(eq(users.discordId, discordUserId)),
          ),
          inArray(
            serverJoins.serverId,
            this.db.select({ id: servers.id }).from(servers).where(eq(servers.serverId, guildId)),
          ),
          eq(serverJoins.verified, false),
          eq(serverJoins.hasLeft, false),
          gt(serverJoins.joinedAt, discordJoinedAt + skewMs),
        ),
      )
      .run().changes;
  }

  async listOpenPaidJoins(userId: string, guildId: string): Promise<OpenPaidJoin[]> {
    return this.db
      .select({
        joinId: serverJoins.id,
        verifiedAt: serverJoins.verifiedAt,
        minStayMs: serverJoins.minStayMs,
        penaltyCents: serverJoins.penaltyCents,
        rewardCents: serverJoins.rewardCents,
        campaignId: servers.id,
        name: servers.name,
        kind: servers.kind,
        canceledAt: servers.canceledAt,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(
        and(
          eq(serverJoins.userId, userId),
          eq(servers.serverId, guildId),
          eq(serverJoins.coinsAwarded, true),
          eq(serverJoins.hasLeft, false),
        ),
      )
      .orderBy(asc(servers.id), asc(serverJoins.id))
      .all();
  }

  async findOpenPaidJoin(
    discordUserId: string,
    guildId: string,
  ): Promise<{ verifiedAt: number; discordJoinedAt: number | null } | null> {
    const row = this.selectJoinsWithCampaignAndUser({
      verifiedAt: min(serverJoins.verifiedAt),
      discordJoinedAt: min(serverJoins.discordJoinedAt),
    })
      .where(
        and(
          eq(users.discordId, discordUserId),
          eq(servers.serverId, guildId),
          eq(serverJoins.coinsAwarded, true),
          eq(serverJoins.hasLeft, false),
        ),
      )
      .get();
    if (row?.verifiedAt === null || row?.verifiedAt === undefined) return null;
    return { verifiedAt: row.verifiedAt, discordJoinedAt: row.discordJoinedAt };
  }

  async markLeft(
    joinId: string,
    leave: { at: number; reason: LeaveReason; penalized: boolean; discordAt?: number },
  ): Promise<boolean> {
    const row = this.db
      .update(serverJoins)
      .set({
        hasLeft: true,
        leftAt: leave.at,
        leftDiscordAt: leave.discordAt ?? null,
        leftReason: leave.reason,
        penalized: leave.penalized,
      })
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.hasLeft, false)))
      .returning({ id: serverJoins.id })
      .get();
    return row !== undefined;
  }

  async giveSlotBack(campaignId: string, featuredSlot: boolean): Promise<void> {
    this.db
      .update(servers)
      .set({
        membersRemaining: sql`${servers.membersRemaining} + 1`,
        ...(featuredSlot ? { featuredRemaining: sql`${servers.featuredRemaining} + 1` } : {}),
      })
      .where(and(eq(servers.id, campaignId), isNull(servers.canceledAt)))
      .run();
  }

  async markGuildJoinsLeft(guildId: string, at: number): Promise<number> {
    return this.db
      .update(serverJoins)
      .set({ hasLeft: true, leftAt: at, leftReason: 'guild_deleted' satisfies LeaveReason })
      .where(
        and(
          inArray(
            serverJoins.serverId,
            this.db.select({ id: servers.id }).from(servers).where(eq(servers.serverId, guildId)),
          ),
          eq(serverJoins.coinsAwarded, true),
          eq(serverJoins.hasLeft, false),
        ),
      )
      .run().changes;
  }

  async listChargedLeaves(discordUserId: string, guildId: string): Promise<ChargedLeave[]> {
    return this.selectJoinsWithCampaignAndUser({
      joinId: serverJoins.id,
      userId: users.id,
      campaignId: servers.id,
      name: servers.name,
      penaltyCents: serverJoins.penaltyCents,
      rewardCents: serverJoins.rewardCents,
      kind: servers.kind,
      leftAt: serverJoins.leftAt,
      leftDiscordAt: serverJoins.leftDiscordAt,
      discordJoinedAt: serverJoins.discordJoinedAt,
    })
      .where(
        and(
          eq(users.discordId, discordUserId),
          eq(servers.serverId, guildId),
          eq(serverJoins.penalized, true),
          eq(serverJoins.leftReason, 'leave' satisfies LeaveReason),
        ),
      )
      .orderBy(asc(servers.id), asc(serverJoins.id))
      .all();
  }

  async refundPenaltyOf(joinId: string, reason: 'kick' | 'ban'): Promise<boolean> {
    const row = this.db
      .update(serverJoins)
      .set({ penalized: false, leftReason: reason })
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.penalized, true)))
      .returning({ id: serverJoins.id })
      .get();
    return row !== undefined;
  }

  async restorePenaltyOf(joinId: string): Promise<void> {
    this.db
      .update(serverJoins)
      .set({ penalized: true, leftReason: 'leave' satisfies LeaveReason })
      .where(eq(serverJoins.id, joinId))
      .run();
  }

  async retakeSlot(campaignId: string, featuredSlot: boolean): Promise<boolean> {
    return (
      this.db
        .update(servers)
        .set({
          membersRemaining: sql`${servers.membersRemaining} - 1`,
          ...(featuredSlot ? { featuredRemaining: sql`${servers.featuredRemaining} - 1` } : {}),
        })
        .where(
          and(
            eq(servers.id, campaignId),
            featuredSlot
              ? and(gt(servers.featuredRemaining, 0), gt(servers.membersRemaining, 0))
              : gt(servers.membersRemaining, servers.featuredRemaining),
          ),
        )
        .run().changes > 0
    );
  }

  async claimCompletionDm(campaignId: string, now: number, leaseUntil: number): Promise<boolean> {
    const row = this.db
      .update(servers)
      .set({ completionDmRetryAt: leaseUntil })
      .where(
        and(
          eq(servers.id, campaignId),
          eq(servers.membersRemaining, 0),
          isNull(servers.canceledAt),
          eq(servers.completionNotificationSent, false),
          isNull(servers.ownerUnreachableAt),
          or(isNull(servers.completionDmRetryAt), lte(servers.completionDmRetryAt, now)),
        ),
      )
      .returning({ id: servers.id })
      .get();
    return row !== undefined;
  }

  async findCompletionNotice(campaignId: string): Promise<CompletionNotice | undefined> {
    return this.db
      .select({ name: servers.name, slots: servers.initialMemberSlots, ownerDiscordId: users.discordId })
      .from(servers)
      .innerJoin(users, eq(users.id, servers.ownerId))
      .where(eq(servers.id, campaignId))
      .get();
  }

  async markCompletionDmSent(campaignId: string): Promise<void> {
    this.db
      .update(servers)
      .set({ completionNotificationSent: true, completionDmRetryAt: null })
      .where(eq(servers.id, campaignId))
      .run();
  }

  async countCompletionDmAttempt(campaignId: string): Promise<number | undefined> {
    return this.db
      .update(servers)
      .set({ completionDmAttempts: sql`${servers.completionDmAttempts} + 1` })
      .where(eq(servers.id, campaignId))
      .returning({ attempts: servers.completionDmAttempts })
      .get()?.attempts;
  }

  async markOwnerUnreachable(campaignId: string, at: number): Promise<void> {
    this.db
      .update(servers)
      .set({ ownerUnreachableAt: at, completionDmRetryAt: null })
      .where(eq(servers.id, campaignId))
      .run();
  }

  async setCompletionDmRetryAt(campaignId: string, at: number): Promise<void> {
    this.db.update(servers).set({ completionDmRetryAt: at }).where(eq(servers.id, campaignId)).run();
  }

  async listDueCompletions(now: number): Promise<{ id: string; guildId: string | null }[]> {
    return this.db
      .select({ id: servers.id, guildId: servers.serverId })
      .from(servers)
      .where(
        and(
          eq(servers.membersRemaining, 0),
          gt(servers.initialMemberSlots, 0),
          isNull(servers.canceledAt),
          eq(servers.completionNotificationSent, false),
          isNull(servers.ownerUnreachableAt),
          or(isNull(servers.completionDmRetryAt), lte(servers.completionDmRetryAt, now)),
        ),
      )
      .orderBy(asc(servers.createdAt), asc(servers.id))
      .all();
  }

  async pauseGuildCampaigns(guildId: string, at: number): Promise<string[]> {
    return this.db
      .update(servers)
      .set({ botRemovedAt: at })
      .where(and(eq(servers.serverId, guildId), isNull(servers.botRemovedAt), isNull(servers.canceledAt)))
      .returning({ id: servers.id })
      .all()
      .map((r) => r.id);
  }

  async resumeGuildCampaigns(guildId: string): Promise<string[]> {
    return this.db
      .update(servers)
      .set({ botRemovedAt: null })
      .where(and(eq(servers.serverId, guildId), isNotNull(servers.botRemovedAt)))
      .returning({ id: servers.id })
      .all()
      .map((r) => r.id);
  }

  async listGuildInvites(guildId: string): Promise<{ code: string | null; link: string }[]> {
    return this.db
      .select({ code: servers.inviteCode, link: servers.inviteLink })
      .from(servers)
      .where(eq(servers.serverId, guildId))
      .all();
  }

  async listOpenCampaignGuilds(): Promise<{ guildId: string | null; removedAt: number | null }[]> {
    return this.db
      .selectDistinct({ guildId: servers.serverId, removedAt: servers.botRemovedAt })
      .from(servers)
      .where(and(isNotNull(servers.serverId), isNull(servers.canceledAt)))
      .all();
  }

  async listPausedGuilds(guildIds: string[]): Promise<string[]> {
    if (guildIds.length === 0) return [];
    return this.db
      .selectDistinct({ guildId: servers.serverId })
      .from(servers)
      .where(and(inArray(servers.serverId, guildIds), isNotNull(servers.botRemovedAt)))
      .all()
      .map((r) => r.guildId)
      .filter((g): g is string => g !== null);
  }

  async hasFullCampaign(guildId: string): Promise<boolean> {
    const row = this.db
      .select({ id: servers.id })
      .from(servers)
      .where(and(eq(servers.serverId, guildId), lte(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .limit(1)
      .get();
    return row !== undefined;
  }

  async listInStayJoins(since: number): Promise<InStayJoin[]> {
    return this.selectJoinsWithCampaignAndUser({
      guildId: servers.serverId,
      discordUserId: users.discordId,
      verifiedAt: serverJoins.verifiedAt,
      discordJoinedAt: serverJoins.discordJoinedAt,
      minStayMs: serverJoins.minStayMs,
      kind: servers.kind,
    })
      .where(
        and(
          eq(serverJoins.coinsAwarded, true),
          eq(serverJoins.hasLeft, false),
          isNotNull(servers.serverId),
          gte(serverJoins.verifiedAt, since),
        ),
      )
      .all();
  }

  async listPendingMembers(since: number): Promise<{ guildId: string | null; discordUserId: string }[]> {
    return this.db
      .selectDistinct({ guildId: servers.serverId, discordUserId: users.discordId })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .innerJoin(users, eq(users.id, serverJoins.userId))
      .where(
        and(
          eq(serverJoins.verified, false),
          eq(serverJoins.hasLeft, false),
          isNotNull(servers.serverId),
          isNull(servers.canceledAt),
          gte(serverJoins.joinedAt, since),
        ),
      )
      .all();
  }

  async listPendingGuildsOfMember(userId: string, since: number): Promise<string[]> {
    const rows = this.db
      .select({ guildId: servers.serverId, joinedAt: serverJoins.joinedAt })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(
        and(
          eq(serverJoins.userId, userId),
          eq(serverJoins.verified, false),
          eq(serverJoins.hasLeft, false),
          isNotNull(servers.serverId),
          isNull(servers.canceledAt),
          gte(serverJoins.joinedAt, since),
        ),
      )
      .orderBy(desc(serverJoins.joinedAt))
      .all();
    return [...new Set(rows.flatMap((r) => (r.guildId ? [r.guildId] : [])))];
  }

  async findCampaignSummary(campaignId: string): Promise<{ name: string; kind: CampaignKind } | undefined> {
    return this.db
      .select({ name: servers.name, kind: servers.kind })
      .from(servers)
      .where(eq(servers.id, campaignId))
      .get();
  }

  /**
   * Join rows with their campaign and their member. The fields are generic, which drizzle's select
   * types cannot follow through two joins, so the builder is typed here as what it is: a partial
   * select over three inner-joined tables.
   */
  private selectJoinsWithCampaignAndUser<T extends SelectedFields>(
    fields: T,
  ): SQLiteSelect<'server_joins', 'sync', RunResult, T, 'partial', InnerJoined> {
    return this.db
      .select(fields as SelectedFields)
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .innerJoin(users, eq(users.id, serverJoins.userId))
      .$dynamic() as SQLiteSelect<'server_joins', 'sync', RunResult, T, 'partial', InnerJoined>;
  }
}
