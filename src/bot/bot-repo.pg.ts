import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { PgSelect, SelectedFields } from 'drizzle-orm/pg-core';
import type { PgDbOrTx } from '../db/pg-client.ts';
import { serverJoins, servers, users } from '../db/schema.pg.ts';
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

export class PgBotRepository implements BotRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async findUserIdByDiscordId(discordId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.discordId, discordId));
    return row?.id;
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
      .orderBy(asc(serverJoins.joinedAt), asc(serverJoins.id));
  }

  async claimPendingJoin(joinId: string, at: number): Promise<boolean> {
    // A concurrent verification of the join waits for the row, then finds it verified: nothing here.
    const rows = await this.db
      .update(serverJoins)
      .set({ verified: true, verifiedAt: at, coinsAwarded: false })
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.verified, false)))
      .returning({ id: serverJoins.id });
    return rows.length > 0;
  }

  async takeSlot(campaignId: string): Promise<SlotTaken | null> {
    // The row lock makes concurrent takers queue; each re-checks the WHERE on the row as the previous
    // one committed it, so the last slot (and the last featured slot) is taken once.
    const [featured] = await this.db
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
      .returning({
        membersRemaining: servers.membersRemaining,
        featuredRemaining: servers.featuredRemaining,
      });
    if (featured) {
      if (featured.featuredRemaining === 0 && featured.membersRemaining > 0) {
        await this.db
          .update(servers)
          .set({ kind: 'regular', isFeatured: false, coinReward: CAMPAIGN_KIND_RULES.regular.rewardCents })
          .where(eq(servers.id, campaignId));
      }
      return { terms: joinTerms(true), membersRemaining: featured.membersRemaining };
    }
    const [regular] = await this.db
      .update(servers)
      .set({ membersRemaining: sql`${servers.membersRemaining} - 1` })
      .where(
        and(
          eq(servers.id, campaignId),
          gt(servers.membersRemaining, servers.featuredRemaining),
          isNull(servers.canceledAt),
        ),
      )
      .returning({ membersRemaining: servers.membersRemaining });
    return regular ? { terms: joinTerms(false), membersRemaining: regular.membersRemaining } : null;
  }

  async settleVerifiedJoin(joinId: string, outcome: VerifiedJoinOutcome): Promise<void> {
    const { terms } = outcome;
    await this.db
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
      .where(eq(serverJoins.id, joinId));
  }

  async closeJoinsOfEarlierMember(
    discordUserId: string,
    guildId: string,
    discordJoinedAt: number,
    skewMs: number,
    at: number,
  ): Promise<number> {
    const rows = await this.db
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
      .returning({ id: serverJoins.id });
    return rows.length;
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
      .orderBy(asc(servers.id), asc(serverJoins.id));
  }

  async findOpenPaidJoin(
    discordUserId: string,
    guildId: string,
  ): Promise<{ verifiedAt: number; discordJoinedAt: number | null } | null> {
    const [row] = await this.selectJoinsWithCampaignAndUser({
      verifiedAt: min(serverJoins.verifiedAt),
      discordJoinedAt: min(serverJoins.discordJoinedAt),
    }).where(
      and(
        eq(users.discordId, discordUserId),
        eq(servers.serverId, guildId),
        eq(serverJoins.coinsAwarded, true),
        eq(serverJoins.hasLeft, false),
      ),
    );
    if (row?.verifiedAt === null || row?.verifiedAt === undefined) return null;
    return { verifiedAt: row.verifiedAt, discordJoinedAt: row.discordJoinedAt };
  }

  async markLeft(
    joinId: string,
    leave: { at: number; reason: LeaveReason; penalized: boolean; discordAt?: number },
  ): Promise<boolean> {
    const rows = await this.db
      .update(serverJoins)
      .set({
        hasLeft: true,
        leftAt: leave.at,
        leftDiscordAt: leave.discordAt ?? null,
        leftReason: leave.reason,
        penalized: leave.penalized,
      })
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.hasLeft, false)))
      .returning({ id: serverJoins.id });
    return rows.length > 0;
  }

  async giveSlotBack(campaignId: string, featuredSlot: boolean): Promise<void> {
    await this.db
      .update(servers)
      .set({
        membersRemaining: sql`${servers.membersRemaining} + 1`,
        ...(featuredSlot ? { featuredRemaining: sql`${servers.featuredRemaining} + 1` } : {}),
      })
      .where(and(eq(servers.id, campaignId), isNull(servers.canceledAt)));
  }

  async markGuildJoinsLeft(guildId: string, at: number): Promise<number> {
    const rows = await this.db
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
      .returning({ id: serverJoins.id });
    return rows.length;
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
      .orderBy(asc(servers.id), asc(serverJoins.id));
  }

  async refundPenaltyOf(joinId: string, reason: 'kick' | 'ban'): Promise<boolean> {
    const rows = await this.db
      .update(serverJoins)
      .set({ penalized: false, leftReason: reason })
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.penalized, true)))
      .returning({ id: serverJoins.id });
    return rows.length > 0;
  }

  async restorePenaltyOf(joinId: string): Promise<void> {
    await this.db
      .update(serverJoins)
      .set({ penalized: true, leftReason: 'leave' satisfies LeaveReason })
      .where(eq(serverJoins.id, joinId));
  }

  async retakeSlot(campaignId: string, featuredSlot: boolean): Promise<boolean> {
    const rows = await this.db
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
      .returning({ id: servers.id });
    return rows.length > 0;
  }

  async claimCompletionDm(campaignId: string, now: number, leaseUntil: number): Promise<boolean> {
    // Under READ COMMITTED a concurrent claimer waits for the row and re-checks the WHERE against the
    // committed lease: one claim wins.
    const rows = await this.db
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
      .returning({ id: servers.id });
    return rows.length > 0;
  }

  async findCompletionNotice(campaignId: string): Promise<CompletionNotice | undefined> {
    const [row] = await this.db
      .select({ name: servers.name, slots: servers.initialMemberSlots, ownerDiscordId: users.discordId })
      .from(servers)
      .innerJoin(users, eq(users.id, servers.ownerId))
      .where(eq(servers.id, campaignId));
    return row;
  }

  async markCompletionDmSent(campaignId: string): Promise<void> {
    await this.db
      .update(servers)
      .set({ completionNotificationSent: true, completionDmRetryAt: null })
      .where(eq(servers.id, campaignId));
  }

  async countCompletionDmAttempt(campaignId: string): Promise<number | undefined> {
    const [row] = await this.db
      .update(servers)
      .set({ completionDmAttempts: sql`${servers.completionDmAttempts} + 1` })
      .where(eq(servers.id, campaignId))
      .returning({ attempts: servers.completionDmAttempts });
    return row?.attempts;
  }

  async markOwnerUnreachable(campaignId: string, at: number): Promise<void> {
    await this.db
      .update(servers)
      .set({ ownerUnreachableAt: at, completionDmRetryAt: null })
      .where(eq(servers.id, campaignId));
  }

  async setCompletionDmRetryAt(campaignId: string, at: number): Promise<void> {
    await this.db.update(servers).set({ completionDmRetryAt: at }).where(eq(servers.id, campaignId));
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
      .orderBy(asc(servers.createdAt), asc(servers.id));
  }

  async pauseGuildCampaigns(guildId: string, at: number): Promise<string[]> {
    const rows = await this.db
      .update(servers)
      .set({ botRemovedAt: at })
      .where(and(eq(servers.serverId, guildId), isNull(servers.botRemovedAt), isNull(servers.canceledAt)))
      .returning({ id: servers.id });
    return rows.map((r) => r.id);
  }

  async resumeGuildCampaigns(guildId: string): Promise<string[]> {
    const rows = await this.db
      .update(servers)
      .set({ botRemovedAt: null })
      .where(and(eq(servers.serverId, guildId), isNotNull(servers.botRemovedAt)))
      .returning({ id: servers.id });
    return rows.map((r) => r.id);
  }

  async listGuildInvites(guildId: string): Promise<{ code: string | null; link: string }[]> {
    return this.db
      .select({ code: servers.inviteCode, link: servers.inviteLink })
      .from(servers)
      .where(eq(servers.serverId, guildId));
  }

  async listOpenCampaignGuilds(): Promise<{ guildId: string | null; removedAt: number | null }[]> {
    return this.db
      .selectDistinct({ guildId: servers.serverId, removedAt: servers.botRemovedAt })
      .from(servers)
      .where(and(isNotNull(servers.serverId), isNull(servers.canceledAt)));
  }

  async listPausedGuilds(guildIds: string[]): Promise<string[]> {
    if (guildIds.length === 0) return [];
    const rows = await this.db
      .selectDistinct({ guildId: servers.serverId })
      .from(servers)
      .where(and(inArray(servers.serverId, guildIds), isNotNull(servers.botRemovedAt)));
    return rows.map((r) => r.guildId).filter((g): g is string => g !== null);
  }

  async hasFullCampaign(guildId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: servers.id })
      .from(servers)
      .where(and(eq(servers.serverId, guildId), lte(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .limit(1);
    return rows.length > 0;
  }

  async listInStayJoins(since: number): Promise<InStayJoin[]> {
    return this.selectJoinsWithCampaignAndUser({
      guildId: servers.serverId,
      discordUserId: users.discordId,
      verifiedAt: serverJoins.verifiedAt,
      discordJoinedAt: serverJoins.discordJoinedAt,
      minStayMs: serverJoins.minStayMs,
      kind: servers.kind,
    }).where(
      and(
        eq(serverJoins.coinsAwarded, true),
        eq(serverJoins.hasLeft, false),
        isNotNull(servers.serverId),
        gte(serverJoins.verifiedAt, since),
      ),
    );
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
      );
  }

  async listPendingGuildsOfMember(userId: string, since: number): Promise<string[]> {
    const rows = await this.db
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
      .orderBy(desc(serverJoins.joinedAt));
    return [...new Set(rows.flatMap((r) => (r.guildId ? [r.guildId] : [])))];
  }

  async findCampaignSummary(campaignId: string): Promise<{ name: string; kind: CampaignKind } | undefined> {
    const [row] = await this.db
      .select({ name: servers.name, kind: servers.kind })
      .from(servers)
      .where(eq(servers.id, campaignId));
    return row;
  }

  /**
   * Join rows with their campaign and their member. The fields are generic, which drizzle's select
   * types cannot follow through two joins, so the builder is typed here as what it is: a partial
   * select over three inner-joined tables.
   */
  private selectJoinsWithCampaignAndUser<T extends SelectedFields>(
    fields: T,
  ): PgSelect<'server_joins', T, 'partial', InnerJoined> {
    return this.db
      .select(fields as SelectedFields)
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .innerJoin(users, eq(users.id, serverJoins.userId))
      .$dynamic() as PgSelect<'server_joins', T, 'partial', InnerJoined>;
  }
}
