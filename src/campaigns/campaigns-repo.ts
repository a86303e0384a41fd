import type { DbHandle } from '../db/engine.ts';
import {
  and,
  count,
  type AnyColumn,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lte,
  ne,
  sql,
  type SQL,
} from 'drizzle-orm';
import { campaignJoins, campaigns, transactions, type Campaign, type Transaction } from '../db/schema.ts';
import { fragment, prepared, rawGet } from '../db/query.ts';

// Campaigns (decision 028 step 2C, the guide in decision 034): what src/campaigns needs from the
// database, written once for both engines (decision 044) and held to its contract by
// campaigns-repo.test.ts on both. The rules (who may, how much it costs, what a refusal says)
// stay in the services above it; the exactly-once rules are said in the statements that write.

/** First key of the two-key advisory locks taken here (PostgreSQL; one namespace per kind of lock). */
const FEATURE_GUILD_LOCK = 0x0c5f_0001;

/**
 * A member's earned and spent totals: Dashboard's page data on every load of it, compiled once (see
 * `prepared`; building the select was ~0.1 ms of a cached Dashboard load, decision 047 session 17).
 */
const TRANSACTION_TOTALS = prepared((q) =>
  q
    .select({
      earned: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} > 0 THEN ${transactions.amount} ELSE 0 END), 0)`,
      spent: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} < 0 THEN -${transactions.amount} ELSE 0 END), 0)`,
    })
    .from(transactions)
    .where(eq(transactions.userId, sql.placeholder('userId')))
    .prepare(),
);

/**
 * A member's transactions newest first, with no type filter, and their count: Dashboard's and History's
 * page data on every load of them, compiled once (per engine: the tie-break is `insertionOrder`'s).
 */
const allTransactions = (tieBreak: SQL) =>
  prepared((q) =>
    q
      .select()
      .from(transactions)
      .where(eq(transactions.userId, sql.placeholder('userId')))
      .orderBy(desc(transactions.createdAt), desc(tieBreak))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(),
  );
const ALL_TRANSACTIONS = perEngineInsertionOrder(allTransactions, transactions.id);
const COUNT_ALL_TRANSACTIONS = prepared((q) =>
  q
    .select({ n: count() })
    .from(transactions)
    .where(eq(transactions.userId, sql.placeholder('userId')))
    .prepare(),
);

/**
 * A member's campaigns newest first: Dashboard's and Campaigns' page data on every load of them, compiled
 * once (per engine: the tie-break is `insertionOrder`'s; decision 047 session 18).
 */
const campaignsByOwner = (tieBreak: SQL) =>
  prepared((q) =>
    q
      .select()
      .from(campaigns)
      .where(eq(campaigns.ownerId, sql.placeholder('ownerId')))
      .orderBy(desc(campaigns.createdAt), desc(tieBreak))
      .prepare(),
  );
const CAMPAIGNS_BY_OWNER = perEngineInsertionOrder(campaignsByOwner, campaigns.id);

/** A statement built once per engine with `insertionOrder`'s tie-break (compiled statements cannot branch). */
function perEngineInsertionOrder<T>(make: (tieBreak: SQL) => T, id: AnyColumn): Record<DbHandle['kind'], T> {
  return { sqlite: make(sql`rowid`), pg: make(sql`${id}`) };
}

/** SQLite's rowid (insertion order) where it exists; the id on PostgreSQL. */
function insertionOrder(h: DbHandle, id: SQL.Aliased | AnyColumn): SQL {
  return fragment(h, { sqlite: sql`rowid`, pg: sql`${id}` });
}

/** A campaign row as submit writes it. */
export interface NewCampaign {
  ownerId: string;
  name: string;
  inviteLink: string;
  inviteCode: string;
  kind: Campaign['kind'];
  guildId: string | null;
  inviteGuildId: string;
  guildIcon: string | null;
  coinReward: number;
  membersRemaining: number;
  initialMemberSlots: number;
  createdAt: number;
  /** Targeting (issue 31 item 2); absent or null: anyone the platform allows. */
  minAccountAgeDays?: number | null;
  targetLanguage?: string | null;
}

/** The state promote decided on: the update applies only if the row still has it. */
export type PromoteSnapshot = Pick<Campaign, 'id' | 'membersRemaining' | 'featuredRemaining' | 'isFeatured'>;

export interface InviteRecheckRow {
  id: string;
  inviteCode: string | null;
  inviteLink: string;
  guildId: string | null;
  inviteValid: boolean;
}

function transactionsWhere(userId: string, types: readonly string[] | undefined): SQL | undefined {
  return types
    ? and(eq(transactions.userId, userId), inArray(transactions.type, [...types]))
    : eq(transactions.userId, userId);
}

export class CampaignsRepository {
  constructor(private readonly h: DbHandle) {}

  /** The owner's campaign in any state (canceled, unpromoted intent), or undefined — also for another user's. */
  async findOwn(ownerId: string, id: string): Promise<Campaign | undefined> {
    return this.h.q
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, id), eq(campaigns.ownerId, ownerId)))
      .get();
  }

  async insert(campaign: NewCampaign): Promise<Campaign> {
    return this.h.q.insert(campaigns).values(campaign).returning().get();
  }

  /** Whether another active (featured slots left, not canceled) campaign of this guild is featured. */
  async isGuildFeaturedElsewhere(guildId: string, exceptId?: string): Promise<boolean> {
    const row = await this.h.q
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.guildId, guildId),
          eq(campaigns.isFeatured, true),
          gt(campaigns.featuredRemaining, 0),
          isNull(campaigns.canceledAt),
          exceptId ? ne(campaigns.id, exceptId) : undefined,
        ),
      )
      .limit(1)
      .get();
    return row !== undefined;
  }

  /**
   * Serialises "feature a campaign of this guild" until the end of the transaction, so the check
   * above and the write that follows are one step (PostgreSQL: a transaction-level advisory lock;
   * SQLite: nothing, the store's writer is serialised already). Call it inside a transaction.
   */
  async lockGuildForFeaturing(guildId: string): Promise<void> {
    // "One featured campaign per guild" spans rows (two campaigns of one guild promoted at once), so
    // READ COMMITTED alone would let both pass the check. The lock is held until commit or rollback;
    // the second promoter waits, then its check (a new statement) sees the first one's commit.
    if (this.h.kind === 'pg')
      await rawGet(
        this.h,
        sql`SELECT pg_advisory_xact_lock(${FEATURE_GUILD_LOCK}::int, hashtext(${guildId}))`,
      );
  }

  /**
   * Makes the campaign featured with `slots` more featured slots at `rewardCents`, only if it still
   * has the snapshot's slots and featured state; undefined when another writer changed it first.
   */
  async promote(
    snapshot: PromoteSnapshot,
    slots: number,
    rewardCents: number,
    now: number,
  ): Promise<Campaign | undefined> {
    return this.h.q
      .update(campaigns)
      .set({
        kind: 'featured',
        isFeatured: true,
        featuredAt: now,
        coinReward: rewardCents,
        membersRemaining: sql`${campaigns.membersRemaining} + ${slots}`,
        featuredRemaining: sql`${campaigns.featuredRemaining} + ${slots}`,
        initialMemberSlots: sql`${campaigns.initialMemberSlots} + ${slots}`,
        completionNotificationSent: false,
      })
      .where(
        and(
          eq(campaigns.id, snapshot.id),
          eq(campaigns.membersRemaining, snapshot.membersRemaining),
          eq(campaigns.featuredRemaining, snapshot.featuredRemaining),
          eq(campaigns.isFeatured, snapshot.isFeatured),
        ),
      )
      .returning()
      .get();
  }

  /**
   * Adds `slots` member slots (at the regular/no-bot reward) to the owner's campaign that is not canceled
   * and is not an unpromoted featured intent; clears the completion-DM state, so the campaign completes
   * (and tells its owner) again. One relative UPDATE: concurrent top-ups each add theirs. Undefined when
   * no such campaign.
   */
  async topUp(ownerId: string, id: string, slots: number): Promise<Campaign | undefined> {
    return this.h.q
      .update(campaigns)
      .set({
        membersRemaining: sql`${campaigns.membersRemaining} + ${slots}`,
        initialMemberSlots: sql`${campaigns.initialMemberSlots} + ${slots}`,
        completionNotificationSent: false,
        completionDmAttempts: 0,
        completionDmRetryAt: null,
        ownerUnreachableAt: null,
      })
      .where(
        and(
          eq(campaigns.id, id),
          eq(campaigns.ownerId, ownerId),
          isNull(campaigns.canceledAt),
          // An unpromoted featured intent is funded by promote, not here.
          sql`NOT (${campaigns.initialMemberSlots} = 0 AND ${campaigns.featuredAt} IS NULL)`,
        ),
      )
      .returning()
      .get();
  }

  /** Cancels the owner's campaign (no slots left); undefined when it is not theirs or already canceled. */
  async cancel(ownerId: string, id: string, now: number): Promise<Campaign | undefined> {
    return this.h.q
      .update(campaigns)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(campaigns.id, id), eq(campaigns.ownerId, ownerId), isNull(campaigns.canceledAt)))
      .returning()
      .get();
  }

  /** Sets a new invite on the owner's campaign that is not canceled (and its guild when it had none). */
  async replaceInvite(
    ownerId: string,
    id: string,
    invite: { link: string; code: string; guildId?: string },
  ): Promise<Campaign | undefined> {
    return this.h.q
      .update(campaigns)
      .set({
        inviteLink: invite.link,
        inviteCode: invite.code,
        inviteValid: true,
        ...(invite.guildId !== undefined ? { inviteGuildId: invite.guildId } : {}),
      })
      .where(and(eq(campaigns.id, id), eq(campaigns.ownerId, ownerId), isNull(campaigns.canceledAt)))
      .returning()
      .get();
  }

  /** Active campaigns (slots left, not canceled) with what the invite recheck needs. */
  async listForInviteRecheck(): Promise<InviteRecheckRow[]> {
    return this.h.q
      .select({
        id: campaigns.id,
        inviteCode: campaigns.inviteCode,
        inviteLink: campaigns.inviteLink,
        guildId: campaigns.guildId,
        inviteValid: campaigns.inviteValid,
      })
      .from(campaigns)
      .where(and(gt(campaigns.membersRemaining, 0), isNull(campaigns.canceledAt)))
      .all();
  }

  /**
   * Sets invite_valid while the row still has `checkedLink` (the invite Discord was asked about); false
   * when it had that value already (another run changed it first) or the invite was replaced meanwhile.
   */
  async setInviteValid(id: string, valid: boolean, checkedLink: string): Promise<boolean> {
    const row = await this.h.q
      .update(campaigns)
      .set({ inviteValid: valid })
      .where(
        and(eq(campaigns.id, id), ne(campaigns.inviteValid, valid), eq(campaigns.inviteLink, checkedLink)),
      )
      .returning({ id: campaigns.id })
      .get();
    return row !== undefined;
  }

  /** Deletes unpromoted featured intents (0 slots, never featured) created at or before `cutoff`. */
  async pruneUnpromotedIntents(cutoff: number): Promise<number> {
    return (
      await this.h.q
        .delete(campaigns)
        .where(
          and(
            eq(campaigns.initialMemberSlots, 0),
            isNull(campaigns.featuredAt),
            eq(campaigns.membersRemaining, 0),
            lte(campaigns.createdAt, cutoff),
          ),
        )
        .returning({ id: campaigns.id })
    ).length;
  }

  /** The owner's campaigns with slots left, not canceled, newest first. */
  async listActiveByOwner(ownerId: string): Promise<Campaign[]> {
    return this.h.q
      .select()
      .from(campaigns)
      .where(
        and(eq(campaigns.ownerId, ownerId), gt(campaigns.membersRemaining, 0), isNull(campaigns.canceledAt)),
      )
      .orderBy(desc(campaigns.createdAt), desc(insertionOrder(this.h, campaigns.id)))
      .all();
  }

  /** Every campaign row of the owner, newest first. */
  async listByOwner(ownerId: string): Promise<Campaign[]> {
    return await CAMPAIGNS_BY_OWNER[this.h.kind](this.h).all({ ownerId });
  }

  /** Active featured campaigns (featured slots left, not canceled) of these guilds, whoever owns them. */
  async listActiveFeaturedInGuilds(guildIds: string[]): Promise<{ id: string; guildId: string | null }[]> {
    if (guildIds.length === 0) return [];
    return this.h.q
      .select({ id: campaigns.id, guildId: campaigns.guildId })
      .from(campaigns)
      .where(
        and(
          inArray(campaigns.guildId, guildIds),
          eq(campaigns.isFeatured, true),
          gt(campaigns.featuredRemaining, 0),
          isNull(campaigns.canceledAt),
        ),
      )
      .all();
  }

  /** Joins that count for the owner per campaign: verified ones, or for no-bot campaigns the rewarded ones. */
  async countJoins(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.h.q
      .select({
        campaignId: campaignJoins.campaignId,
        // Booleans are 0/1 on SQLite and true/false on PostgreSQL: counted through CASE on both.
        count: sql<number>`SUM(CASE WHEN (${campaigns.guildId} IS NULL AND ${campaignJoins.coinsAwarded}) OR (${campaigns.guildId} IS NOT NULL AND ${campaignJoins.verified}) THEN 1 ELSE 0 END)`,
      })
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .where(inArray(campaignJoins.campaignId, ids))
      .groupBy(campaignJoins.campaignId)
      .all();
    return new Map(rows.map((r) => [r.campaignId, Number(r.count ?? 0)]));
  }

  /** Members penalised for leaving early, per campaign. */
  async countEarlyLeaves(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.h.q
      .select({ campaignId: campaignJoins.campaignId, n: count() })
      .from(campaignJoins)
      .where(and(inArray(campaignJoins.campaignId, ids), eq(campaignJoins.penalized, true)))
      .groupBy(campaignJoins.campaignId)
      .all();
    return new Map(rows.map((r) => [r.campaignId, r.n]));
  }

  // The owner's ledger history (GET /api/transactions…): read-only views of the ledger's rows.
  /** Newest first (ties in one millisecond: insertion order on SQLite, id order on PostgreSQL). */
  async listTransactions(
    userId: string,
    types: readonly string[] | undefined,
    limit: number,
    offset: number,
  ): Promise<Transaction[]> {
    if (!types) return await ALL_TRANSACTIONS[this.h.kind](this.h).all({ userId, limit, offset });
    return await this.h.q
      .select()
      .from(transactions)
      .where(transactionsWhere(userId, types))
      // SQLite's rowid breaks ties between entries written in the same millisecond (insertion order);
      // PostgreSQL has none: by id there (stable, not insertion order).
      .orderBy(desc(transactions.createdAt), desc(insertionOrder(this.h, transactions.id)))
      .limit(limit)
      .offset(offset)
      .all();
  }

  async countTransactions(userId: string, types: readonly string[] | undefined): Promise<number> {
    if (!types) return (await COUNT_ALL_TRANSACTIONS(this.h).get({ userId }))?.n ?? 0;
    const row = await this.h.q
      .select({ n: count() })
      .from(transactions)
      .where(transactionsWhere(userId, types))
      .get();
    return row?.n ?? 0;
  }

  /** Sum of positive amounts per local day index (floor((createdAt + shift) / dayMs)) since `since`. */
  async earningsByDay(
    userId: string,
    shiftMs: number,
    dayMs: number,
    since: number,
  ): Promise<{ day: number; earned: number }[]> {
    const rows = await this.h.q
      .select({
        day: sql<number>`CAST((${transactions.createdAt} + ${shiftMs}) / ${dayMs} AS INTEGER)`,
        earned: sql<number>`SUM(${transactions.amount})`,
      })
      .from(transactions)
      .where(
        and(eq(transactions.userId, userId), gt(transactions.amount, 0), gte(transactions.createdAt, since)),
      )
      .groupBy(sql`1`);
    return rows.map((r) => ({ day: Number(r.day), earned: Number(r.earned) }));
  }

  /** Lifetime received and taken (as a positive number), in hundredths. */
  async transactionTotals(userId: string): Promise<{ earned: number; spent: number }> {
    const row = await TRANSACTION_TOTALS(this.h).get({ userId });
    return { earned: Number(row?.earned ?? 0), spent: Number(row?.spent ?? 0) };
  }
}

export function campaignsRepo(h: DbHandle): CampaignsRepository {
  return new CampaignsRepository(h);
}
