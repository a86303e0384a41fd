import type { DbHandle } from '../db/engine.ts';
import type { Payment, Server, Transaction, User } from '../db/schema.ts';
import type { TransactionType } from '../ledger/index.ts';
import { SqliteAccountRepository } from './account-repo.sqlite.ts';
import { PgAccountRepository } from './account-repo.pg.ts';

// What account export and deletion read and write across the features' tables (decision 034): one
// async interface, a SQLite and a PostgreSQL implementation, held together by account-repo.test.ts.

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
  servers: Server[];
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

export interface AccountRepository {
  /** Everything held about the user, each list in a stable order. */
  exportRows(userId: string): Promise<AccountExportRows>;
  /**
   * The user's row, locked until the transaction ends on PostgreSQL (so the balance read here is the one
   * the deletion settles; a concurrent ledger entry waits). SQLite's writer is serialised already.
   */
  lockUser(userId: string): Promise<User | undefined>;
  /**
   * What of the user's card payments can still come back as a chargeback: whether a dispute is open,
   * and the latest fulfilment time (null when none was ever fulfilled).
   */
  paymentExposure(userId: string): Promise<{ openDispute: boolean; lastFulfilledAt: number | null }>;
  /** Ends the user's active campaigns (no refund, as any cancellation). */
  endOwnedCampaigns(userId: string, now: number): Promise<void>;
  /**
   * Blanks what identifies the user's campaigns (name, invite link and code, icon) on every one of
   * them; the guild ids stay while other members' joins may still be settled against them.
   */
  blankOwnedCampaigns(userId: string, name: string): Promise<void>;
  /** Replaces the descriptions of the user's transactions of each listed type by its neutral text. */
  neutraliseTransactionDescriptions(
    userId: string,
    byType: Readonly<Partial<Record<TransactionType, string>>>,
  ): Promise<void>;
  /** Drops pending social claims and the sign-in address hashes. */
  deletePersonalRows(userId: string): Promise<void>;
  /** Releases the Discord id and blanks everything identifying in the row. */
  anonymiseUser(userId: string, deletedUsername: string): Promise<void>;
}

export function accountRepo(h: DbHandle): AccountRepository {
  return h.kind === 'sqlite' ? new SqliteAccountRepository(h.db) : new PgAccountRepository(h.db);
}
