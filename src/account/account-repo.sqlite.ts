import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  hourlyRewards,
  payments,
  serverJoins,
  servers,
  socialCompletions,
  socialTaskStarts,
  socialTasks,
  transactions,
  memberGuilds,
  userAddresses,
  users,
} from '../db/schema.ts';
import type { User } from '../db/schema.ts';
import type { TransactionType } from '../ledger/index.ts';
import type { AccountExportRows, AccountRepository } from './account-repo.ts';

export class SqliteAccountRepository implements AccountRepository {
  constructor(private readonly db: Db) {}

  async exportRows(userId: string): Promise<AccountExportRows> {
    const db = this.db;
    return {
      transactions: db
        .select()
        .from(transactions)
        .where(eq(transactions.userId, userId))
        .orderBy(asc(transactions.createdAt), asc(transactions.id))
        .all(),
      servers: db
        .select()
        .from(servers)
        .where(eq(servers.ownerId, userId))
        .orderBy(asc(servers.createdAt), asc(servers.id))
        .all(),
      joins: db
        .select({
          serverName: servers.name,
          joinedAt: serverJoins.joinedAt,
          verified: serverJoins.verified,
          coinsAwarded: serverJoins.coinsAwarded,
          hasLeft: serverJoins.hasLeft,
          leftAt: serverJoins.leftAt,
        })
        .from(serverJoins)
        .innerJoin(servers, eq(servers.id, serverJoins.serverId))
        .where(eq(serverJoins.userId, userId))
        .orderBy(asc(serverJoins.joinedAt), asc(serverJoins.id))
        .all(),
      socialCompletions: db
        .select({
          platform: socialTasks.platform,
          title: socialTasks.title,
          completedAt: socialCompletions.completedAt,
        })
        .from(socialCompletions)
        .innerJoin(socialTasks, eq(socialTasks.id, socialCompletions.taskId))
        .where(eq(socialCompletions.userId, userId))
        .orderBy(asc(socialCompletions.completedAt), asc(socialTasks.id))
        .all(),
      rewardClaims: db
        .select({
          lastClaimDate: hourlyRewards.lastClaimDate,
          lastBonusClaimDate: hourlyRewards.lastBonusClaimDate,
          lastDailyClaimDate: hourlyRewards.lastDailyClaimDate,
        })
        .from(hourlyRewards)
        .where(eq(hourlyRewards.userId, userId))
        .all(),
      payments: db
        .select()
        .from(payments)
        .where(eq(payments.userId, userId))
        .orderBy(asc(payments.createdAt), asc(payments.id))
        .all(),
    };
  }

  async lockUser(userId: string): Promise<User | undefined> {
    return this.db.select().from(users).where(eq(users.id, userId)).get();
  }

  async paymentExposure(userId: string): Promise<{ openDispute: boolean; lastFulfilledAt: number | null }> {
    const row = this.db
      .select({
        open: sql<number>`coalesce(max(${payments.disputeStatus} = 'open'), 0)`,
        last: sql<number | null>`max(${payments.fulfilledAt})`,
      })
      .from(payments)
      .where(eq(payments.userId, userId))
      .get();
    return { openDispute: Number(row?.open ?? 0) === 1, lastFulfilledAt: row?.last ?? null };
  }

  async endOwnedCampaigns(userId: string, now: number): Promise<void> {
    this.db
      .update(servers)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(servers.ownerId, userId), isNull(servers.canceledAt)))
      .run();
  }

  async blankOwnedCampaigns(userId: string, name: string): Promise<void> {
    this.db
      .update(servers)
      .set({ name, inviteLink: '', inviteCode: null, serverIcon: null })
      .where(eq(servers.ownerId, userId))
      .run();
  }

  async neutraliseTransactionDescriptions(
    userId: string,
    byType: Readonly<Partial<Record<TransactionType, string>>>,
  ): Promise<void> {
    for (const [type, description] of Object.entries(byType)) {
      this.db
        .update(transactions)
        .set({ description })
        .where(and(eq(transactions.userId, userId), eq(transactions.type, type)))
        .run();
    }
  }

  async deletePersonalRows(userId: string): Promise<void> {
    this.db.delete(socialTaskStarts).where(eq(socialTaskStarts.userId, userId)).run();
    this.db.delete(userAddresses).where(eq(userAddresses.userId, userId)).run();
    this.db.delete(memberGuilds).where(eq(memberGuilds.userId, userId)).run();
  }

  async anonymiseUser(userId: string, deletedUsername: string): Promise<void> {
    this.db
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
