import type { DbHandle } from '../db/engine.ts';
import type { Payment, Campaign, Transaction, User } from '../db/schema.ts';
import type { TransactionType } from '../ledger/index.ts';
import { getForUpdate } from '../db/query.ts';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteSelect } from 'drizzle-orm/sqlite-core';
import {
  hourlyRewards,
  payments,
  campaignJoins,
  campaigns,
  socialCompletions,
  socialTaskStarts,
  socialTasks,
  transactions,
  memberGuilds,
  userAddresses,
  users,
} from '../db/schema.ts';

// What account export and deletion read and write across the features' tables (decision 044): one
// query definition for both engines, held to its contract by account-repo.test.ts on both.

/** What a deleted account's campaigns are called afterwards (other members' histories show it). */
export const DELETED_CAMPAIGN_NAME = 'Deleted campaign';

/**
 * What a deleted account's own transactions are described as afterwards, by type: the types whose
 * descriptions name a campaign, a guild or a task ("Joined <server>", "Campaign: <name> ..."). Amounts,
 * types and dates stay (7-year retention, balance == sum of transactions); the names do not.
 */
export const NEUTRAL_DESCRIPTIONS: Readonly<Partial<Record<TransactionType, string>>> = {
  join_reward: 'Server join reward',
  nobot_reward: 'Server join reward',
  leave_penalty: 'Early leave penalty',
  penalty_refund: 'Penalty refunded',
  campaign: 'Campaign',
  promote: 'Featured campaign',
  social: 'Social task',
};

export interface AccountExportRows {
  transactions: Transaction[];
  campaigns: Campaign[];
  joins: {
    serverName: string;
    joinedAt: number;
    verified: boolean;
    coinsAwarded: boolean;
    hasLeft: boolean;
    leftAt: number | null;
  }[];
  socialCompletions: { platform: string; title: string; completedAt: number }[];
  rewardClaims: {
    lastClaimDate: number;
    lastBonusClaimDate: number | null;
    lastDailyClaimDate: number | null;
  }[];
  payments: Payment[];
}

/** What the export says of each join, social task done and reward claim. */
const JOIN_EXPORT_COLUMNS = {
  serverName: campaigns.name,
  joinedAt: campaignJoins.joinedAt,
  verified: campaignJoins.verified,
  coinsAwarded: campaignJoins.coinsAwarded,
  hasLeft: campaignJoins.hasLeft,
  leftAt: campaignJoins.leftAt,
};
const SOCIAL_EXPORT_COLUMNS = {
  platform: socialTasks.platform,
  title: socialTasks.title,
  completedAt: socialCompletions.completedAt,
};
const REWARD_EXPORT_COLUMNS = {
  lastClaimDate: hourlyRewards.lastClaimDate,
  lastBonusClaimDate: hourlyRewards.lastBonusClaimDate,
  lastDailyClaimDate: hourlyRewards.lastDailyClaimDate,
};

/** The query's rows of one user (`owner` column = id), in a stable order (each column ascending). */
function ownRowsInOrder<T extends SQLiteSelect>(
  query: T,
  [owner, userId]: [SQLiteColumn, string],
  order: SQLiteColumn[],
): T {
  return query.where(eq(owner, userId)).orderBy(...order.map((column) => asc(column)));
}

export class AccountRepository {
  constructor(private readonly h: DbHandle) {}

  /** Everything held about the user, each list in a stable order. */
  async exportRows(userId: string): Promise<AccountExportRows> {
    const db = this.h.q;
    return {
      transactions: await ownRowsInOrder(
        db.select().from(transactions).$dynamic(),
        [transactions.userId, userId],
        [transactions.createdAt, transactions.id],
      ),
      campaigns: await ownRowsInOrder(
        db.select().from(campaigns).$dynamic(),
        [campaigns.ownerId, userId],
        [campaigns.createdAt, campaigns.id],
      ),
      joins: await ownRowsInOrder(
        db
          .select(JOIN_EXPORT_COLUMNS)
          .from(campaignJoins)
          .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
          .$dynamic(),
        [campaignJoins.userId, userId],
        [campaignJoins.joinedAt, campaignJoins.id],
      ),
      socialCompletions: await ownRowsInOrder(
        db
          .select(SOCIAL_EXPORT_COLUMNS)
          .from(socialCompletions)
          .innerJoin(socialTasks, eq(socialTasks.id, socialCompletions.taskId))
          .$dynamic(),
        [socialCompletions.userId, userId],
        [socialCompletions.completedAt, socialTasks.id],
      ),
      rewardClaims: await db
        .select(REWARD_EXPORT_COLUMNS)
        .from(hourlyRewards)
        .where(eq(hourlyRewards.userId, userId)),
      payments: await ownRowsInOrder(
        db.select().from(payments).$dynamic(),
        [payments.userId, userId],
        [payments.createdAt, payments.id],
      ),
    };
  }

  /**
   * The user's row, locked until the transaction ends on PostgreSQL (so the balance read here is the one
   * the deletion settles; a concurrent ledger entry waits). SQLite's writer is serialised already.
   */
  async lockUser(userId: string): Promise<User | undefined> {
    return getForUpdate(this.h, this.h.q.select().from(users).where(eq(users.id, userId)));
  }

  /**
   * What of the user's card payments can still come back as a chargeback: whether a dispute is open,
   * and the latest fulfilment time (null when none was ever fulfilled).
   */
  async paymentExposure(userId: string): Promise<{ openDispute: boolean; lastFulfilledAt: number | null }> {
    const row = await this.h.q
      .select({
        open: sql<number>`coalesce(max(case when ${payments.disputeStatus} = 'open' then 1 else 0 end), 0)`,
        last: sql<number | null>`max(${payments.fulfilledAt})`.mapWith(Number),
      })
      .from(payments)
      .where(eq(payments.userId, userId))
      .get();
    return { openDispute: Number(row?.open ?? 0) === 1, lastFulfilledAt: row?.last ?? null };
  }

  /** Ends the user's active campaigns (no refund, as any cancellation). */
  async endOwnedCampaigns(userId: string, now: number): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(campaigns.ownerId, userId), isNull(campaigns.canceledAt)))
      .run();
  }

  /**
   * Blanks what identifies the user's campaigns (name, invite link and code, icon) on every one of
   * them; the guild ids stay while other members' joins may still be settled against them.
   */
  async blankOwnedCampaigns(userId: string, name: string): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({ name, inviteLink: '', inviteCode: null, guildIcon: null })
      .where(eq(campaigns.ownerId, userId))
      .run();
  }

  /** Replaces the descriptions of the user's transactions of each listed type by its neutral text. */
  async neutraliseTransactionDescriptions(
    userId: string,
    byType: Readonly<Partial<Record<TransactionType, string>>>,
  ): Promise<void> {
    for (const [type, description] of Object.entries(byType)) {
      await this.h.q
        .update(transactions)
        .set({ description })
        .where(and(eq(transactions.userId, userId), eq(transactions.type, type)))
        .run();
    }
  }

  /** Drops pending social claims and the sign-in address hashes. */
  async deletePersonalRows(userId: string): Promise<void> {
    await this.h.q.delete(socialTaskStarts).where(eq(socialTaskStarts.userId, userId)).run();
    await this.h.q.delete(userAddresses).where(eq(userAddresses.userId, userId)).run();
    await this.h.q.delete(memberGuilds).where(eq(memberGuilds.userId, userId)).run();
  }

  /** Releases the Discord id and blanks everything identifying in the row. */
  async anonymiseUser(userId: string, deletedUsername: string): Promise<void> {
    await this.h.q
      .update(users)
      .set({
        discordId: sql`'deleted:' || ${users.id}`,
        discordUsername: deletedUsername,
        discordAvatar: null,
        email: null,
      })
      .where(eq(users.id, userId))
      .run();
  }
}

export function accountRepo(h: DbHandle): AccountRepository {
  return new AccountRepository(h);
}
