import { and, eq, gte, sql } from 'drizzle-orm';
import { formatCents, MAX_CENTS } from '../shared/money.ts';
import type { DbOrTx } from '../db/client.ts';
import { transactions, users } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

// The only code that changes a balance. Every change writes its transaction row inside the same
// database transaction (nested calls become savepoints), so balance == sum(transactions) always holds.

export type TransactionType =
  | 'welcome'
  | 'join_reward'
  | 'nobot_reward'
  | 'hourly'
  | 'bonus'
  | 'daily'
  | 'social'
  | 'leave_penalty'
  | 'campaign'
  | 'promote'
  | 'purchase'
  | 'purchase_reversal';

export interface LedgerEntry {
  userId: string;
  /** Positive amount in hundredths; the direction comes from credit/debit. */
  cents: number;
  type: TransactionType;
  description?: string | null;
  /** A business key that makes this entry exactly-once (e.g. `welcome:<userId>`, `stripe:<pi>`). */
  idempotencyKey?: string;
  now: number;
}

export interface LedgerResult {
  transactionId: string;
  balance: number;
}

function assertAmount(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents <= 0 || cents > MAX_CENTS) {
    throw new RangeError(`ledger amount must be a positive integer number of hundredths, got ${cents}`);
  }
}

/**
 * Adds coins. Returns null (and changes nothing) when an entry with the same idempotency key exists.
 * Refuses a credit that would overflow decimal(10,2).
 */
export function credit(db: DbOrTx, entry: LedgerEntry): LedgerResult | null {
  assertAmount(entry.cents);
  return db.transaction((tx) => {
    const inserted = tx
      .insert(transactions)
      .values({
        userId: entry.userId,
        amount: entry.cents,
        type: entry.type,
        description: entry.description ?? null,
        idempotencyKey: entry.idempotencyKey ?? null,
        createdAt: entry.now,
      })
      .onConflictDoNothing({ target: transactions.idempotencyKey })
      .returning({ id: transactions.id })
      .get();
    if (!inserted) return null;
    const updated = tx
      .update(users)
      .set({ coins: sql`${users.coins} + ${entry.cents}` })
      .where(and(eq(users.id, entry.userId), sql`${users.coins} + ${entry.cents} <= ${MAX_CENTS}`))
      .returning({ coins: users.coins })
      .get();
    if (!updated) {
      // Rolls back the savepoint, including the transaction row.
      throw new AppError('bad_request', 'This would take the balance above the maximum of 99999999.99 coins.');
    }
    return { transactionId: inserted.id, balance: updated.coins };
  });
}

/**
 * Takes coins only if the balance covers them; otherwise throws `insufficient_coins` and writes nothing.
 * `allowNegative` exists for penalties alone (a debt that later earnings repay).
 */
export function debit(db: DbOrTx, entry: LedgerEntry & { allowNegative?: boolean }): LedgerResult {
  assertAmount(entry.cents);
  return db.transaction((tx) => {
    const condition = entry.allowNegative
      ? eq(users.id, entry.userId)
      : and(eq(users.id, entry.userId), gte(users.coins, entry.cents));
    const updated = tx
      .update(users)
      .set({ coins: sql`${users.coins} - ${entry.cents}` })
      .where(condition)
      .returning({ coins: users.coins })
      .get();
    if (!updated) {
      const user = tx.select({ coins: users.coins }).from(users).where(eq(users.id, entry.userId)).get();
      if (!user) throw new AppError('not_found', 'User not found');
      throw new AppError(
        'insufficient_coins',
        `Insufficient coins: you need ${formatCents(entry.cents)} coins and you have ${formatCents(user.coins)}.`,
      );
    }
    const inserted = tx
      .insert(transactions)
      .values({
        userId: entry.userId,
        amount: -entry.cents,
        type: entry.type,
        description: entry.description ?? null,
        idempotencyKey: entry.idempotencyKey ?? null,
        createdAt: entry.now,
      })
      .returning({ id: transactions.id })
      .get();
    return { transactionId: inserted.id, balance: updated.coins };
  });
}

export function getBalance(db: DbOrTx, userId: string): number {
  const row = db.select({ coins: users.coins }).from(users).where(eq(users.id, userId)).get();
  if (!row) throw new AppError('not_found', 'User not found');
  return row.coins;
}

export interface LedgerMismatch {
  userId: string;
  balance: number;
  sum: number;
}

/** Every user's balance must equal the sum of their transactions. Returns the users where it does not. */
export function findLedgerMismatches(db: DbOrTx): LedgerMismatch[] {
  return db.all<LedgerMismatch>(sql`
    SELECT u.id AS userId, u.coins AS balance, COALESCE(SUM(t.amount), 0) AS sum
    FROM users u LEFT JOIN transactions t ON t.user_id = u.id
    GROUP BY u.id
    HAVING u.coins != COALESCE(SUM(t.amount), 0)
  `);
}

export function assertLedgerInvariant(db: DbOrTx): void {
  const mismatches = findLedgerMismatches(db);
  if (mismatches.length > 0) {
    throw new Error(`ledger invariant broken for ${mismatches.length} user(s): ${JSON.stringify(mismatches.slice(0, 5))}`);
  }
}
