import { and, asc, count, desc, eq, gt, isNotNull, lte, notExists, sql } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { retentionChecks, campaignJoins, campaigns, users } from '../db/schema.ts';

// Campaign quality (issue 31 item 1): the paid members of an owner's campaigns, with what the product
// saw of them after they were paid (leaves and their reasons, sampled membership checks). One query
// definition for both engines (decision 044).

export interface PaidMemberRow {
  joinId: string;
  campaignId: string;
  discordId: string;
  verifiedAt: number;
  hasLeft: boolean;
  leftAt: number | null;
  leftReason: string | null;
  minStayMs: number | null;
  penalized: boolean;
  rewardCents: number;
}

export interface CheckRow {
  joinId: string;
  milestoneDays: number;
  present: boolean;
}

export interface DueCheck {
  joinId: string;
  campaignId: string;
  /** The campaign's checks at this milestone before this run. */
  sampled: number;
  guildId: string;
  discordId: string;
}

const paidMemberColumns = {
  joinId: campaignJoins.id,
  campaignId: campaignJoins.campaignId,
  discordId: users.discordId,
  verifiedAt: campaignJoins.verifiedAt,
  hasLeft: campaignJoins.hasLeft,
  leftAt: campaignJoins.leftAt,
  leftReason: campaignJoins.leftReason,
  minStayMs: campaignJoins.minStayMs,
  penalized: campaignJoins.penalized,
  rewardCents: campaignJoins.rewardCents,
};

/** Paid = verified with a reward (a join verified without a slot is not a member the owner paid for). */
const paid = and(
  eq(campaignJoins.verified, true),
  gt(campaignJoins.rewardCents, 0),
  isNotNull(campaignJoins.verifiedAt),
);

export class QualityRepository {
  constructor(private readonly h: DbHandle) {}

  /** The owner's campaigns (or one of them), newest first. */
  ownedCampaigns(ownerId: string, campaignId?: string) {
    return this.h.q
      .select({
        id: campaigns.id,
        name: campaigns.name,
        kind: campaigns.kind,
        createdAt: campaigns.createdAt,
      })
      .from(campaigns)
      .where(and(eq(campaigns.ownerId, ownerId), campaignId ? eq(campaigns.id, campaignId) : undefined))
      .orderBy(desc(campaigns.createdAt));
  }

  /** The paid members of every campaign `ownerId` owns (or of one of them), oldest verification first. */
  async paidMembers(ownerId: string, campaignId?: string): Promise<PaidMemberRow[]> {
    const rows = await this.h.q
      .select(paidMemberColumns)
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .innerJoin(users, eq(users.id, campaignJoins.userId))
      .where(and(eq(campaigns.ownerId, ownerId), campaignId ? eq(campaigns.id, campaignId) : undefined, paid))
      .orderBy(asc(campaignJoins.verifiedAt));
    return rows.map((r) => ({ ...r, verifiedAt: r.verifiedAt!, rewardCents: r.rewardCents ?? 0 }));
  }

  /** The sampled checks of those members. */
  async checks(ownerId: string, campaignId?: string): Promise<CheckRow[]> {
    return this.h.q
      .select({
        joinId: retentionChecks.joinId,
        milestoneDays: retentionChecks.milestoneDays,
        present: retentionChecks.present,
      })
      .from(retentionChecks)
      .innerJoin(campaignJoins, eq(campaignJoins.id, retentionChecks.joinId))
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .where(and(eq(campaigns.ownerId, ownerId), campaignId ? eq(campaigns.id, campaignId) : undefined));
  }

  /**
   * Paid members due a check at `milestoneDays`: verified between `milestoneDays` and
   * `milestoneDays + windowDays` ago, no leave recorded, not checked at this milestone yet, in a campaign
   * with a bot guild whose sample for the milestone is still below `perCampaign`. At most `limit`,
   * the longest due first.
   */
  async dueChecks(
    now: number,
    milestoneDays: number,
    windowDays: number,
    perCampaign: number,
    limit: number,
  ): Promise<DueCheck[]> {
    const day = 86_400_000;
    const checked = this.h.q
      .select({ one: sql`1` })
      .from(retentionChecks)
      .where(
        and(eq(retentionChecks.joinId, campaignJoins.id), eq(retentionChecks.milestoneDays, milestoneDays)),
      );
    // The campaign's sample so far at this milestone (a correlated count, so one campaign cannot take the
    // whole run's quota).
    const sampled = sql<number>`(SELECT COUNT(*) FROM retention_checks rc JOIN server_joins sj ON sj.id = rc.join_id WHERE sj.server_id = ${campaignJoins.campaignId} AND rc.milestone_days = ${milestoneDays})`;
    const rows = await this.h.q
      .select({
        joinId: campaignJoins.id,
        campaignId: campaignJoins.campaignId,
        sampled,
        guildId: campaigns.guildId,
        discordId: users.discordId,
      })
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .innerJoin(users, eq(users.id, campaignJoins.userId))
      .where(
        and(
          paid,
          eq(campaignJoins.hasLeft, false),
          isNotNull(campaigns.guildId),
          lte(campaignJoins.verifiedAt, now - milestoneDays * day),
          gt(campaignJoins.verifiedAt, now - (milestoneDays + windowDays) * day),
          notExists(checked),
          sql`${sampled} < ${perCampaign}`,
        ),
      )
      .orderBy(asc(campaignJoins.verifiedAt))
      .limit(limit);
    return rows.map((r) => ({ ...r, sampled: Number(r.sampled), guildId: r.guildId! }));
  }

  /** Records a check (a second one for the same join and milestone changes nothing). */
  async recordCheck(joinId: string, milestoneDays: number, present: boolean, at: number): Promise<void> {
    await this.h.q
      .insert(retentionChecks)
      .values({ joinId, milestoneDays, present, checkedAt: at })
      .onConflictDoNothing()
      .run();
  }

  /** How many checks exist (tests and metrics). */
  async checkCount(): Promise<number> {
    const row = await this.h.q.select({ n: count() }).from(retentionChecks).get();
    return row?.n ?? 0;
  }
}

export function qualityRepo(h: DbHandle): QualityRepository {
  return new QualityRepository(h);
}
