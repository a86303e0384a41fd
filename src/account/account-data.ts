import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import {
  hourlyRewards,
  payments,
  serverJoins,
  servers,
  socialCompletions,
  socialTaskStarts,
  socialTasks,
  transactions,
  userAddresses,
  users,
  welcomeGrants,
} from '../db/schema.ts';
import { deleteOAuthTokens } from '../auth/oauth-tokens.ts';
import { AppError } from '../shared/errors.ts';
import { credit, debit } from '../ledger/ledger.ts';
import { formatCents } from '../shared/money.ts';
import { getUserById } from '../users/users.ts';

const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);

/** GET /api/account/export: everything we hold about the user, as promised by the Privacy Policy. */
export function exportAccountData(ctx: AppContext, userId: string) {
  const user = getUserById(ctx.db, userId);
  const db = ctx.db;
  return {
    exportedAt: new Date(ctx.clock.now()).toISOString(),
    profile: {
      id: user.id,
      discordId: user.discordId,
      discordUsername: user.discordUsername,
      discordAvatar: user.discordAvatar,
      email: user.email,
      coins: formatCents(user.coins),
      createdAt: iso(user.createdAt),
    },
    transactions: db
      .select()
      .from(transactions)
      .where(eq(transactions.userId, userId))
      .orderBy(transactions.createdAt)
      .all()
      .map((t) => ({
        id: t.id,
        amount: formatCents(t.amount),
        type: t.type,
        description: t.description,
        createdAt: iso(t.createdAt),
      })),
    servers: db
      .select()
      .from(servers)
      .where(eq(servers.ownerId, userId))
      .all()
      .map((s) => ({
        id: s.id,
        name: s.name,
        inviteLink: s.inviteLink,
        serverId: s.serverId,
        coinReward: formatCents(s.coinReward),
        membersRemaining: s.membersRemaining,
        initialMemberSlots: s.initialMemberSlots,
        isFeatured: s.isFeatured,
        canceledAt: iso(s.canceledAt),
        createdAt: iso(s.createdAt),
      })),
    serverJoins: db
      .select({ join: serverJoins, serverName: servers.name })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(eq(serverJoins.userId, userId))
      .all()
      .map(({ join, serverName }) => ({
        serverName,
        joinedAt: iso(join.joinedAt),
        verified: join.verified,
        coinsAwarded: join.coinsAwarded,
        hasLeft: join.hasLeft,
        leftAt: iso(join.leftAt),
      })),
    socialCompletions: db
      .select({
        platform: socialTasks.platform,
        title: socialTasks.title,
        completedAt: socialCompletions.completedAt,
      })
      .from(socialCompletions)
      .innerJoin(socialTasks, eq(socialTasks.id, socialCompletions.taskId))
      .where(eq(socialCompletions.userId, userId))
      .all()
      .map((c) => ({ ...c, completedAt: iso(c.completedAt) })),
    rewardClaims: db
      .select()
      .from(hourlyRewards)
      .where(eq(hourlyRewards.userId, userId))
      .all()
      .map((r) => ({
        lastHourlyClaim: iso(r.lastClaimDate),
        lastBonusClaim: iso(r.lastBonusClaimDate),
        lastDailyClaim: iso(r.lastDailyClaimDate),
      })),
    payments: db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .all()
      .map((p) => ({
        id: p.id,
        packId: p.packId,
        amount: (p.amountCents / 100).toFixed(2),
        currency: p.currency,
        coins: formatCents(p.coins),
        status: p.status,
        createdAt: iso(p.createdAt),
      })),
  };
}

/** Name shown wherever a deleted account still appears (e.g. an owner's list of past joins). */
export const DELETED_USERNAME = 'Deleted user';

/**
 * Deletes the account by anonymising it. The user row stays, so ledger rows, joins and payments keep a
 * valid owner (the ledger invariant and the 7-year transaction retention both hold), but nothing in it
 * identifies the person any more (Discord tokens and address hashes are deleted). Active campaigns end (not refunded, as any cancellation), a positive
 * balance is forfeited through the ledger, pending social claims are dropped, and the Discord id is
 * released: signing in again with the same Discord account starts a new, empty account.
 * The caller ends every session afterwards.
 */
export function anonymiseAccount(ctx: AppContext, userId: string, confirmUsername: string): void {
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    const user = tx.select().from(users).where(eq(users.id, userId)).get();
    if (!user) throw new AppError('unauthorized', 'Not signed in');
    if (confirmUsername.trim() !== user.discordUsername) {
      throw new AppError('bad_request', 'The username you typed does not match your account');
    }
    tx.update(servers)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(servers.ownerId, userId), isNull(servers.canceledAt)))
      .run();
    if (user.coins > 0) {
      debit(ctx.sqlite, {
        userId,
        cents: user.coins,
        type: 'account_deleted',
        description: 'Account deleted: balance forfeited',
        now,
      });
    } else if (user.coins < 0) {
      // Unpaid penalties stay with the Discord account, not with this row: the next sign-up of the same
      // Discord account starts with them (users.ts), so deleting the account does not shed a debt (decision 029).
      const debt = -user.coins;
      credit(ctx.sqlite, {
        userId,
        cents: debt,
        type: 'account_deleted',
        description: 'Account deleted: unpaid penalties stay with your Discord account',
        now,
      });
      tx.insert(welcomeGrants)
        .values({ discordId: user.discordId, grantedAt: now, carriedDebtCents: debt })
        .onConflictDoUpdate({
          target: welcomeGrants.discordId,
          set: { carriedDebtCents: sql`${welcomeGrants.carriedDebtCents} + ${debt}` },
        })
        .run();
    }
    tx.delete(socialTaskStarts).where(eq(socialTaskStarts.userId, userId)).run();
    deleteOAuthTokens(tx, userId);
    tx.delete(userAddresses).where(eq(userAddresses.userId, userId)).run();
    tx.update(users)
      .set({
        discordId: sql`'deleted:' || ${users.id}`,
        discordUsername: DELETED_USERNAME,
        discordAvatar: null,
        email: null,
      })
      .where(eq(users.id, userId))
      .run();
  });
  ctx.logger.info('account deleted (anonymised)', { userId });
}
