import { and, count, desc, eq, gt, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { PgDbOrTx } from '../db/pg-client.ts';
import { serverJoins, servers, transactions } from '../db/schema.pg.ts';
import type { Server, Transaction } from '../db/schema.ts';
import type {
  CampaignsRepository,
  InviteRecheckRow,
  NewCampaign,
  PromoteSnapshot,
} from './campaigns-repo.ts';

/** First key of the two-key advisory locks taken here (one namespace per kind of lock). */
const FEATURE_GUILD_LOCK = 0x0c5f_0001;

function transactionsWhere(userId: string, types: readonly string[] | undefined): SQL | undefined {
  return types
    ? and(eq(transactions.userId, userId), inArray(transactions.type, [...types]))
    : eq(transactions.userId, userId);
}

export class PgCampaignsRepository implements CampaignsRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async findOwn(ownerId: string, id: string): Promise<Server | undefined> {
    const [row] = await this.db
      .select()
      .from(servers)
      .where(and(eq(servers.id, id), eq(servers.ownerId, ownerId)));
    return row;
  }

  async insert(campaign: NewCampaign): Promise<Server> {
    const [row] = await this.db.insert(servers).values(campaign).returning();
    return row!;
  }

  async isGuildFeaturedElsewhere(guildId: string, exceptId?: string): Promise<boolean> {
    const rows = await this.db
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
      .limit(1);
    return rows.length > 0;
  }

  async lockGuildForFeaturing(guildId: string): Promise<void> {
    // "One featured campaign per guild" spans rows (two campaigns of one guild promoted at once), so
    // READ COMMITTED alone would let both pass the check. The lock is held until commit or rollback;
    // the second promoter waits, then its check (a new statement) sees the first one's commit.
    await this.db.execute(
      sql`SELECT pg_advisory_xact_lock(${FEATURE_GUILD_LOCK}::int, hashtext(${guildId}))`,
    );
  }

  async promote(
    snapshot: PromoteSnapshot,
    slots: number,
    rewardCents: number,
    now: number,
  ): Promise<Server | undefined> {
    // A concurrent promotion waits for this row's lock, then PostgreSQL re-checks the WHERE against
    // the committed row: the slot counts no longer match, so it updates nothing.
    const [row] = await this.db
      .update(servers)
      .set({
        kind: 'featured',
        isFeatured: true,
        featuredAt: now,
        coinReward: rewardCents,
        membersRemaining: sql`${servers.membersRemaining} + ${slots}::int`,
        featuredRemaining: sql`${servers.featuredRemaining} + ${slots}::int`,
        initialMemberSlots: sql`${servers.initialMemberSlots} + ${slots}::int`,
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
      .returning();
    return row;
  }

  async topUp(ownerId: string, id: string, slots: number): Promise<Server | undefined> {
    const [row] = await this.db
      .update(servers)
      .set({
        membersRemaining: sql`${servers.membersRemaining} + ${slots}::int`,
        initialMemberSlots: sql`${servers.initialMemberSlots} + ${slots}::int`,
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
      .returning();
    return row;
  }

  async cancel(ownerId: string, id: string, now: number): Promise<Server | undefined> {
    const [row] = await this.db
      .update(servers)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(servers.id, id), eq(servers.ownerId, ownerId), isNull(servers.canceledAt)))
      .returning();
    return row;
  }

  async replaceInvite(
    ownerId: string,
    id: string,
    invite: { link: string; code: string; guildId?: string },
  ): Promise<Server | undefined> {
    const [row] = await this.db
      .update(servers)
      .set({
        inviteLink: invite.link,
        inviteCode: invite.code,
        inviteValid: true,
        ...(invite.guildId !== undefined ? { inviteGuildId: invite.guildId } : {}),
      })
      .where(and(eq(servers.id, id), eq(servers.ownerId, ownerId), isNull(servers.canceledAt)))
      .returning();
    return row;
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
      .where(and(gt(servers.membersRemaining, 0), isNull(servers.canceledAt)));
  }

  async setInviteValid(id: string, valid: boolean, checkedLink: string): Promise<boolean> {
    const rows = await this.db
      .update(servers)
      .set({ inviteValid: valid })
      .where(and(eq(servers.id, id), ne(servers.inviteValid, valid), eq(servers.inviteLink, checkedLink)))
      .returning({ id: servers.id });
    return rows.length > 0;
  }

  async pruneUnpromotedIntents(cutoff: number): Promise<number> {
    const rows = await this.db
      .delete(servers)
      .where(
        and(
          eq(servers.initialMemberSlots, 0),
          isNull(servers.featuredAt),
          eq(servers.membersRemaining, 0),
          lte(servers.createdAt, cutoff),
        ),
      )
      .returning({ id: servers.id });
    return rows.length;
  }

  async listActiveByOwner(ownerId: string): Promise<Server[]> {
    return this.db
      .select()
      .from(servers)
      .where(and(eq(servers.ownerId, ownerId), gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .orderBy(desc(servers.createdAt), desc(servers.id));
  }

  async listByOwner(ownerId: string): Promise<Server[]> {
    return this.db
      .select()
      .from(servers)
      .where(eq(servers.ownerId, ownerId))
      .orderBy(desc(servers.createdAt), desc(servers.id));
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
      );
  }

  async countJoins(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({
        serverId: serverJoins.serverId,
        count: sql<number>`SUM(CASE WHEN ${servers.serverId} IS NULL THEN ${serverJoins.coinsAwarded}::int ELSE ${serverJoins.verified}::int END)::int`,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(inArray(serverJoins.serverId, ids))
      .groupBy(serverJoins.serverId);
    return new Map(rows.map((r) => [r.serverId, Number(r.count ?? 0)]));
  }

  async countEarlyLeaves(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ serverId: serverJoins.serverId, n: count() })
      .from(serverJoins)
      .where(and(inArray(serverJoins.serverId, ids), eq(serverJoins.penalized, true)))
      .groupBy(serverJoins.serverId);
    return new Map(rows.map((r) => [r.serverId, Number(r.n)]));
  }

  async listTransactions(
    userId: string,
    types: readonly string[] | undefined,
    limit: number,
    offset: number,
  ): Promise<Transaction[]> {
    // No rowid on PostgreSQL: entries of one millisecond are ordered by id (stable, not insertion order).
    return this.db
      .select()
      .from(transactions)
      .where(transactionsWhere(userId, types))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(limit)
      .offset(offset);
  }

  async countTransactions(userId: string, types: readonly string[] | undefined): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(transactions)
      .where(transactionsWhere(userId, types));
    return Number(row?.n ?? 0);
  }

  async earningsByDay(
    userId: string,
    shiftMs: number,
    dayMs: number,
    since: number,
  ): Promise<{ day: number; earned: number }[]> {
    const rows = await this.db
      .select({
        day: sql<number>`FLOOR((${transactions.createdAt} + ${shiftMs}::bigint)::numeric / ${dayMs}::bigint)::bigint`,
        earned: sql<number>`SUM(${transactions.amount})::bigint`,
      })
      .from(transactions)
      .where(
        and(eq(transactions.userId, userId), gt(transactions.amount, 0), gte(transactions.createdAt, since)),
      )
      .groupBy(sql`1`);
    return rows.map((r) => ({ day: Number(r.day), earned: Number(r.earned) }));
  }

  async transactionTotals(userId: string): Promise<{ earned: number; spent: number }> {
    const [row] = await this.db
      .select({
        earned: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} > 0 THEN ${transactions.amount} ELSE 0 END), 0)::bigint`,
        spent: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} < 0 THEN -${transactions.amount} ELSE 0 END), 0)::bigint`,
      })
      .from(transactions)
      .where(eq(transactions.userId, userId));
    return { earned: Number(row?.earned ?? 0), spent: Number(row?.spent ?? 0) };
  }
}
