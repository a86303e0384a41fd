import type { AppContext } from '../context.ts';
import { accessTokensRepo } from '../access-tokens/access-tokens-repo.ts';
import type { Config } from '../config.ts';
import { deleteOAuthTokens } from '../auth/oauth-tokens.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { formatCents } from '../shared/money.ts';
import { getUserById } from '../users/users.ts';
import { usersRepo } from '../users/users-repo.ts';
import { discordIdHash } from '../users/discord-id-hash.ts';
import { accountRepo, DELETED_CAMPAIGN_NAME, NEUTRAL_DESCRIPTIONS } from './account-repo.ts';
import { notifyRepo } from '../notifications/notify-repo.ts';
import { remindersRepo } from '../reminders/reminders-repo.ts';

const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);

/** GET /api/account/export: everything we hold about the user, as promised by the Privacy Policy. */
export async function exportAccountData(ctx: Pick<AppContext, 'store' | 'clock'>, userId: string) {
  const user = await getUserById(ctx.store, userId);
  const rows = await accountRepo(ctx.store.read).exportRows(userId);
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
    transactions: rows.transactions.map((t) => ({
      id: t.id,
      amount: formatCents(t.amount),
      type: t.type,
      description: t.description,
      createdAt: iso(t.createdAt),
    })),
    servers: rows.campaigns.map((s) => ({
      id: s.id,
      name: s.name,
      inviteLink: s.inviteLink,
      serverId: s.guildId,
      coinReward: formatCents(s.coinReward),
      membersRemaining: s.membersRemaining,
      initialMemberSlots: s.initialMemberSlots,
      isFeatured: s.isFeatured,
      canceledAt: iso(s.canceledAt),
      createdAt: iso(s.createdAt),
    })),
    serverJoins: rows.joins.map((join) => ({
      serverName: join.serverName,
      joinedAt: iso(join.joinedAt),
      verified: join.verified,
      coinsAwarded: join.coinsAwarded,
      hasLeft: join.hasLeft,
      leftAt: iso(join.leftAt),
    })),
    socialCompletions: rows.socialCompletions.map((c) => ({ ...c, completedAt: iso(c.completedAt) })),
    rewardClaims: rows.rewardClaims.map((r) => ({
      lastHourlyClaim: iso(r.lastClaimDate),
      lastBonusClaim: iso(r.lastBonusClaimDate),
      lastDailyClaim: iso(r.lastDailyClaimDate),
    })),
    payments: rows.payments.map((p) => ({
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
/**
 * How long after a card payment its charge can still be disputed: Stripe lets card holders dispute for
 * up to 120 days (decision 048).
 */
export const DISPUTE_WINDOW_MS = 120 * 24 * 60 * 60 * 1000;

/**
 * Deletion waits while a chargeback can still arrive (issue 27 item 4, decision 048): a dispute that is
 * open, or a payment inside its dispute window. Deleting then would shed the dispute's hold and debt
 * with the account. Nothing changes; the member is told when deletion becomes possible.
 */
async function refuseWhileDisputable(
  account: ReturnType<typeof accountRepo>,
  userId: string,
  now: number,
): Promise<void> {
  const exposure = await account.paymentExposure(userId);
  if (exposure.openDispute) {
    throw new AppError(
      'conflict',
      'Your account cannot be deleted while a payment dispute is open. You can delete it once the dispute is settled.',
    );
  }
  if (exposure.lastFulfilledAt !== null && now - exposure.lastFulfilledAt < DISPUTE_WINDOW_MS) {
    const until = new Date(exposure.lastFulfilledAt + DISPUTE_WINDOW_MS).toISOString().slice(0, 10);
    throw new AppError(
      'conflict',
      `Your account cannot be deleted yet: your last coin purchase can still be disputed with your card issuer until ${until}. You can delete it after that date.`,
    );
  }
}

export async function anonymiseAccount(
  ctx: Pick<AppContext, 'store' | 'clock' | 'logger'> & { config: Pick<Config, 'discordIdHashKey'> },
  userId: string,
  confirmUsername: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.transaction(async (tx) => {
    const account = accountRepo(tx);
    // Locked (PostgreSQL): the balance settled below is the one a concurrent ledger entry waits behind.
    const user = await account.lockUser(userId);
    if (!user) throw new AppError('unauthorized', 'Not signed in');
    if (confirmUsername.trim() !== user.discordUsername) {
      throw new AppError('bad_request', 'The username you typed does not match your account');
    }
    await refuseWhileDisputable(account, userId, now);
    await account.endOwnedCampaigns(userId, now);
    if (user.coins > 0) {
      await ledger.debit(tx, {
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
      await ledger.credit(tx, {
        userId,
        cents: debt,
        type: 'account_deleted',
        description: 'Account deleted: unpaid penalties stay with your Discord account',
        now,
      });
      await usersRepo(tx).addCarriedDebt(
        discordIdHash(ctx.config.discordIdHashKey, user.discordId),
        debt,
        now,
      );
    }
    await account.blankOwnedCampaigns(userId, DELETED_CAMPAIGN_NAME);
    // Amounts, types and dates stay (7-year retention, balance == sum of transactions); the campaign,
    // guild and task names in the descriptions do not.
    await account.neutraliseTransactionDescriptions(userId, NEUTRAL_DESCRIPTIONS);
    await account.deletePersonalRows(userId);
    await deleteOAuthTokens(tx, userId);
    await notifyRepo(tx).deleteAllOfOwner(userId);
    await accessTokensRepo(tx).deleteForUser(userId);
    await account.anonymiseUser(userId, DELETED_USERNAME);
    // No reminder DM ever goes to a deleted account (decision 055).
    await remindersRepo(tx).deleteAllOf(userId);
    // No session of this account is ever valid again (decision 039), in the deletion's own transaction:
    // a session a store still holds, or a late save writes back, is refused by the session policy.
    await usersRepo(tx).revokeSessions(userId, Number.MAX_SAFE_INTEGER);
  });
  ctx.logger.info('account deleted (anonymised)', { userId });
}
