import { and, asc, count, desc, eq, gt, isNotNull, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { DbHandle } from '../db/engine.ts';
import { retentionChecks, serverJoins, servers, users } from '../db/schema.ts';

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
  joinId: serverJoins.id,
  campaignId: serverJoins.serverId,
  discordId: users.discordId,
  verifiedAt: serverJoins.verifiedAt,
  hasLeft: serverJoins.hasLeft,
  leftAt: serverJoins.leftAt,
  leftReason: serverJoins.leftReason,
  minStayMs: serverJoins.minStayMs,
  penalized: serverJoins.penalized,
  rewardCents: serverJoins.rewardCents,
};

/** Paid = verified with a reward (a join verified without a slot is not a member the owner paid for). */
const paid = and(
  eq(serverJoins.verified, true),
  gt(serverJoins.rewardCents, 0),
  isNotNull(serverJoins.verifiedAt),
);

export class QualityRepository {
  constructor(private readonly h: DbHandle) {}

  /** The owner's campaigns (or one of them), newest first. */
  ownedCampaigns(ownerId: string, campaignId?: string) {
    return this.h.q
      .select({ id: servers.id, name: servers.name, kind: servers.kind, createdAt: servers.createdAt })
      .from(servers)
      .where(and(eq(servers.ownerId, ownerId), campaignId ? eq(servers.id, campaignId) : undefined))
      .orderBy(desc(servers.createdAt));
  }

  /** The paid members of every campaign `ownerId` owns (or of one of them), oldest verification first. */
  async paidMembers(ownerId: string, campaignId?: string): Promise<PaidMemberRow[]> {
    const rows = await this.h.q
      .select(paidMemberColumns)
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .innerJoin(users, eq(users.id, serverJoins.userId))
      .where(and(eq(servers.ownerId, ownerId), campaignId ? eq(servers.id, campaignId) : undefined, paid))
      .orderBy(asc(serverJoins.verifiedAt));
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
      .innerJoin(serverJoins, eq(serverJoins.id, retentionChecks.joinId))
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(and(eq(servers.ownerId, ownerId), campaignId ? eq(servers.id, campaignId) : undefined));
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
        and(eq(retentionChecks.joinId, serverJoins.id), eq(retentionChecks.milestoneDays, milestoneDays)),
      );
    // Each campaign's sample so far at this milestone, counted once per campaign (a grouped subquery
    // joined in), so one campaign cannot take the whole run's quota. Not a count per candidate row: on
    // PostgreSQL that one ran past the 10 s query timeout with 4,000 candidates (decision 062, session 13).
    const checkedJoins = alias(serverJoins, 'checked_joins');
    const samples = this.h.q
      .select({ campaignId: checkedJoins.serverId, n: count().as('n') })
      .from(retentionChecks)
      .innerJoin(checkedJoins, eq(checkedJoins.id, retentionChecks.joinId))
      .where(eq(retentionChecks.milestoneDays, milestoneDays))
      .groupBy(checkedJoins.serverId)
      .as('samples');
    const sampled = sql<number>`coalesce(${samples.n}, 0)`;
    const rows = await this.h.q
      .select({
        joinId: serverJoins.id,
        campaignId: serverJoins.serverId,
        sampled,
        guildId: servers.serverId,
        discordId: users.discordId,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .innerJoin(users, eq(users.id, serverJoins.userId))
      .leftJoin(samples, eq(samples.campaignId, serverJoins.serverId))
      .where(
        and(
          paid,
          eq(serverJoins.hasLeft, false),
          isNotNull(servers.serverId),
          lte(serverJoins.verifiedAt, now - milestoneDays * day),
          gt(serverJoins.verifiedAt, now - (milestoneDays + windowDays) * day),
          notExists(checked),
          sql`${sampled} < ${perCampaign}`,
        ),
      )
      .orderBy(asc(serverJoins.verifiedAt))
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
