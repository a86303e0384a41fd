import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { PgDbOrTx } from '../db/pg-client.ts';
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
} from '../db/schema.pg.ts';
import type { User } from '../db/schema.ts';
import type { TransactionType } from '../ledger/index.ts';
import type { AccountExportRows, AccountRepository } from './account-repo.ts';

export class PgAccountRepository implements AccountRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async exportRows(userId: string): Promise<AccountExportRows> {
    const db = this.db;
    return {
      transactions: await db
        .select()
        .from(transactions)
        .where(eq(transactions.userId, userId))
        .orderBy(asc(transactions.createdAt), asc(transactions.id)),
      servers: await db
        .select()
        .from(servers)
        .where(eq(servers.ownerId, userId))
        .orderBy(asc(servers.createdAt), asc(servers.id)),
      joins: await db
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
        .orderBy(asc(serverJoins.joinedAt), asc(serverJoins.id)),
      socialCompletions: await db
        .select({
          platform: socialTasks.platform,
          title: socialTasks.title,
          completedAt: socialCompletions.completedAt,
        })
        .from(socialCompletions)
        .innerJoin(socialTasks, eq(socialTasks.id, socialCompletions.taskId))
        .where(eq(socialCompletions.userId, userId))
        .orderBy(asc(socialCompletions.completedAt), asc(socialTasks.id)),
      rewardClaims: await db
        .select({
          lastClaimDate: hourlyRewards.lastClaimDate,
          lastBonusClaimDate: hourlyRewards.lastBonusClaimDate,
          lastDailyClaimDate: hourlyRewards.lastDailyClaimDate,
        })
        .from(hourlyRewards)
        .where(eq(hourlyRewards.userId, userId)),
      payments: await db
        .select()
        .from(payments)
        .where(eq(payments.userId, userId))
        .orderBy(asc(payments.createdAt), asc(payments.id)),
    };
  }

  async lockUser(userId: string): Promise<User | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId)).for('update');
    return row;
  }

  async paymentExposure(userId: string): Promise<{ openDispute: boolean; lastFulfilledAt: number | null }> {
    const [row] = await this.db
      .select({
        open: sql<boolean>`coalesce(bool_or(${payments.disputeStatus} = 'open'), false)`,
        last: sql<string | null>`max(${payments.fulfilledAt})`,
      })
      .from(payments)
      .where(eq(payments.userId, userId));
    return { openDispute: row?.open === true, lastFulfilledAt: row?.last == null ? null : Number(row.last) };
  }

  async endOwnedCampaigns(userId: string, now: number): Promise<void> {
    await this.db
      .update(servers)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(servers.ownerId, userId), isNull(servers.canceledAt)));
  }

  async blankOwnedCampaigns(userId: string, name: string): Promise<void> {
    await this.db
      .update(servers)
      .set({ name, inviteLink: '', inviteCode: null, serverIcon: null })
      .where(eq(servers.ownerId, userId));
  }

  async neutraliseTransactionDescriptions(
    userId: string,
    byType: Readonly<Partial<Record<TransactionType, string>>>,
  ): Promise<void> {
    for (const [type, description] of Object.entries(byType)) {
      await this.db
        .update(transactions)
        .set({ description })
        .where(and(eq(transactions.userId, userId), eq(transactions.type, type)));
    }
  }

  async deletePersonalRows(userId: string): Promise<void> {
    await this.db.delete(socialTaskStarts).where(eq(socialTaskStarts.userId, userId));
    await this.db.delete(userAddresses).where(eq(userAddresses.userId, userId));
    await this.db.delete(memberGuilds).where(eq(memberGuilds.userId, userId));
  }

  async anonymiseUser(userId: string, deletedUsername: string): Promise<void> {
    await this.db
      .update(users)
      .set({
        discordId: sql`'deleted:' || ${users.id}`,
        discordUsername: deletedUsername,
        discordAvatar: null,
        email: null,
      })
      .where(eq(users.id, userId));
  }
}
