import { and, count, desc, eq, gt, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { serverJoins, servers, transactions, type Server, type Transaction } from '../db/schema.ts';
import type {
  CampaignsRepository,
  InviteRecheckRow,
  NewCampaign,
  PromoteSnapshot,
} from './campaigns-repo.ts';

function transactionsWhere(userId: string, types: readonly string[] | undefined): SQL | undefined {
  return types
    ? and(eq(transactions.userId, userId), inArray(transactions.type, [...types]))
    : eq(transactions.userId, userId);
}

export class SqliteCampaignsRepository implements CampaignsRepository {
  constructor(private readonly db: Db) {}

  async findOwn(ownerId: string, id: string): Promise<Server | undefined> {
    return this.db
      .select()
      .from(servers)
      .where(and(eq(servers.id, id), eq(servers.ownerId, ownerId)))
      .get();
  }

  async insert(campaign: NewCampaign): Promise<Server> {
    return this.db.insert(servers).values(campaign).returning().get();
  }

  async isGuildFeaturedElsewhere(guildId: string, exceptId?: string): Promise<boolean> {
    const row = this.db
      .select({ id: servers.id })
      .from(servers)
      .where(
        and(
          eq(servers.serverId, guildId),
          eq(servers.isFeatured, true),
          gt(servers.featuredRemaining, 0),
          isNull(servers.canceledAt),
          exceptId ? ne(servers.id, exceptId) : undefined,
        ),
      )
      .limit(1)
      .get();
    return row !== undefined;
  }

  async lockGuildForFeaturing(): Promise<void> {
    // The store's transactions run one at a time on the one writer connection: nothing to lock.
  }

  async promote(
    snapshot: PromoteSnapshot,
    slots: number,
    rewardCents: number,
    now: number,
  ): Promise<Server | undefined> {
    return this.db
      .update(servers)
      .set({
        kind: 'featured',
        isFeatured: true,
        featuredAt: now,
        coinReward: rewardCents,
        membersRemaining: sql`${servers.membersRemaining} + ${slots}`,
        featuredRemaining: sql`${servers.featuredRemaining} + ${slots}`,
        initialMemberSlots: sql`${servers.initialMemberSlots} + ${slots}`,
        completionNotificationSent: false,
      })
      .where(
        and(
          eq(servers.id, snapshot.id),
          eq(servers.membersRemaining, snapshot.membersRemaining),
          eq(servers.featuredRemaining, snapshot.featuredRemaining),
          eq(servers.isFeatured, snapshot.isFeatured),
        ),
      )
      .returning()
      .get();
  }

  async topUp(ownerId: string, id: string, slots: number): Promise<Server | undefined> {
    return this.db
      .update(servers)
      .set({
        membersRemaining: sql`${servers.membersRemaining} + ${slots}`,
        initialMemberSlots: sql`${servers.initialMemberSlots} + ${slots}`,
        completionNotificationSent: false,
        completionDmAttempts: 0,
        completionDmRetryAt: null,
        ownerUnreachableAt: null,
      })
      .where(
        and(
          eq(servers.id, id),
          eq(servers.ownerId, ownerId),
          isNull(servers.canceledAt),
          // An unpromoted featured intent is funded by promote, not here.
          sql`NOT (${servers.initialMemberSlots} = 0 AND ${servers.featuredAt} IS NULL)`,
        ),
      )
      .returning()
      .get();
  }

  async cancel(ownerId: string, id: string, now: number): Promise<Server | undefined> {
    return this.db
      .update(servers)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(servers.id, id), eq(servers.ownerId, ownerId), isNull(servers.canceledAt)))
      .returning()
      .get();
  }

  async replaceInvite(
    ownerId: string,
    id: string,
    invite: { link: string; code: string; guildId?: string },
  ): Promise<Server | undefined> {
    return this.db
      .update(servers)
      .set({
        inviteLink: invite.link,
        inviteCode: invite.code,
        inviteValid: true,
        ...(invite.guildId !== undefined ? { inviteGuildId: invite.guildId } : {}),
      })
      .where(and(eq(servers.id, id), eq(servers.ownerId, ownerId), isNull(servers.canceledAt)))
      .returning()
      .get();
  }

  async listForInviteRecheck(): Promise<InviteRecheckRow[]> {
    return this.db
      .select({
        id: servers.id,
        inviteCode: servers.inviteCode,
        inviteLink: servers.inviteLink,
        guildId: servers.serverId,
        inviteValid: servers.inviteValid,
      })
      .from(servers)
      .where(and(gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .all();
  }

  async setInviteValid(id: string, valid: boolean, checkedLink: string): Promise<boolean> {
    const row = this.db
      .update(servers)
      .set({ inviteValid: valid })
      .where(and(eq(servers.id, id), ne(servers.inviteValid, valid), eq(servers.inviteLink, checkedLink)))
      .returning({ id: servers.id })
      .get();
    return row !== undefined;
  }

  async pruneUnpromotedIntents(cutoff: number): Promise<number> {
    return this.db
      .delete(servers)
      .where(
        and(
          eq(servers.initialMemberSlots, 0),
          isNull(servers.featuredAt),
          eq(servers.membersRemaining, 0),
          lte(servers.createdAt, cutoff),
        ),
      )
      .returning({ id: servers.id })
      .all().length;
  }

  async listActiveByOwner(ownerId: string): Promise<Server[]> {
    return this.db
      .select()
      .from(servers)
      .where(and(eq(servers.ownerId, ownerId), gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .orderBy(desc(servers.createdAt), desc(sql`rowid`))
      .all();
  }

  async listByOwner(ownerId: string): Promise<Server[]> {
    return this.db
      .select()
      .from(servers)
      .where(eq(servers.ownerId, ownerId))
      .orderBy(desc(servers.createdAt), desc(sql`rowid`))
      .all();
  }

  async listActiveFeaturedInGuilds(guildIds: string[]): Promise<{ id: string; guildId: string | null }[]> {
    if (guildIds.length === 0) return [];
    return this.db
      .select({ id: servers.id, guildId: servers.serverId })
      .from(servers)
      .where(
        and(
          inArray(servers.serverId, guildIds),
          eq(servers.isFeatured, true),
          gt(servers.featuredRemaining, 0),
          isNull(servers.canceledAt),
        ),
      )
      .all();
  }

  async countJoins(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = this.db
      .select({
        serverId: serverJoins.serverId,
        count: sql<number>`SUM(CASE WHEN ${servers.serverId} IS NULL THEN ${serverJoins.coinsAwarded} ELSE ${serverJoins.verified} END)`,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(inArray(serverJoins.serverId, ids))
      .groupBy(serverJoins.serverId)
      .all();
    return new Map(rows.map((r) => [r.serverId, Number(r.count ?? 0)]));
  }

  async countEarlyLeaves(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = this.db
      .select({ serverId: serverJoins.serverId, n: count() })
      .from(serverJoins)
      .where(and(inArray(serverJoins.serverId, ids), eq(serverJoins.penalized, true)))
      .groupBy(serverJoins.serverId)
      .all();
    return new Map(rows.map((r) => [r.serverId, r.n]));
  }

  async listTransactions(
    userId: string,
    types: readonly string[] | undefined,
    limit: number,
    offset: number,
  ): Promise<Transaction[]> {
    return (
      this.db
        .select()
        .from(transactions)
        .where(transactionsWhere(userId, types))
        // rowid breaks ties between entries written in the same millisecond (insertion order).
        .orderBy(desc(transactions.createdAt), desc(sql`rowid`))
        .limit(limit)
        .offset(offset)
        .all()
    );
  }

  async countTransactions(userId: string, types: readonly string[] | undefined): Promise<number> {
    return (
      this.db.select({ n: count() }).from(transactions).where(transactionsWhere(userId, types)).get()?.n ?? 0
    );
  }

  async earningsByDay(
    userId: string,
    shiftMs: number,
    dayMs: number,
    since: number,
  ): Promise<{ day: number; earned: number }[]> {
    return this.db
      .select({
        day: sql<number>`CAST((${transactions.createdAt} + ${shiftMs}) / ${dayMs} AS INTEGER)`,
        earned: sql<number>`SUM(${transactions.amount})`,
      })
      .from(transactions)
      .where(
        and(eq(transactions.userId, userId), gt(transactions.amount, 0), gte(transactions.createdAt, since)),
      )
      .groupBy(sql`1`)
      .all()
      .map((r) => ({ day: Number(r.day), earned: Number(r.earned) }));
  }

  async transactionTotals(userId: string): Promise<{ earned: number; spent: number }> {
    const row = this.db
      .select({
        earned: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} > 0 THEN ${transactions.amount} ELSE 0 END), 0)`,
        spent: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} < 0 THEN -${transactions.amount} ELSE 0 END), 0)`,
      })
      .from(transactions)
      .where(eq(transactions.userId, userId))
      .get();
    return { earned: Number(row?.earned ?? 0), spent: Number(row?.spent ?? 0) };
  }
}
