import type { Statement } from 'better-sqlite3';
import { formatCents, MAX_CENTS } from '../shared/money.ts';
import type { Connection } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';
import { recordLedgerWrite } from '../metrics.ts';

// The only code that changes a balance. Every change writes its transaction row inside the same
// database transaction (nested calls become savepoints), so balance == sum(transactions) always holds.
//
// Callers hand the ledger its better-sqlite3 connection explicitly (`ctx.sqlite`, or `db.$client` for a
// drizzle handle). Inside `ctx.db.transaction((tx) => …)` that is the same connection the transaction
// runs on, so a ledger call joins the caller's transaction as a savepoint and rolls back with it.

export type TransactionType =
  | 'welcome'
  | 'join_reward'
  | 'nobot_reward'
  | 'hourly'
  | 'bonus'
  | 'daily'
  | 'social'
  | 'leave_penalty'
  | 'penalty_refund'
  | 'campaign'
  | 'promote'
  | 'purchase'
  | 'purchase_reversal'
  | 'account_deleted';

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
 * The ledger runs on every earning and spending path, so its four statements are prepared once per
 * connection (drizzle's query builder would rebuild and re-prepare them on every call). They run on
 * the same better-sqlite3 connection as the caller's drizzle transaction, inside a better-sqlite3
 * transaction function, which nests as a savepoint when a transaction is already open.
 */
interface LedgerStatements {
  insertEntry: Statement<
    [string, string, number, string, string | null, string | null, number],
    { id: string }
  >;
  addCoins: Statement<[number, string, number, number], { coins: number }>;
  takeCoins: Statement<[number, string, number], { coins: number }>;
  takeCoinsAllowNegative: Statement<[number, string], { coins: number }>;
  balanceOf: Statement<[string], { coins: number }>;
  credit: (entry: LedgerEntry) => LedgerResult | null;
  debit: (entry: LedgerEntry & { allowNegative?: boolean }) => LedgerResult;
}

const statementCache = new WeakMap<Connection, LedgerStatements>();

function ledgerFor(client: Connection): LedgerStatements {
  const cached = statementCache.get(client);
  if (cached) return cached;
  const s = {
    insertEntry: client.prepare(
      `INSERT INTO transactions (id, user_id, amount, type, description, idempotency_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    ),
    addCoins: client.prepare(
      'UPDATE users SET coins = coins + ? WHERE id = ? AND coins + ? <= ? RETURNING coins',
    ),
    takeCoins: client.prepare(
      'UPDATE users SET coins = coins - ? WHERE id = ? AND coins >= ? RETURNING coins',
    ),
    takeCoinsAllowNegative: client.prepare('UPDATE users SET coins = coins - ? WHERE id = ? RETURNING coins'),
    balanceOf: client.prepare('SELECT coins FROM users WHERE id = ?'),
  } as Omit<LedgerStatements, 'credit' | 'debit'>;
  const insert = (entry: LedgerEntry, amount: number) =>
    s.insertEntry.get(
      crypto.randomUUID(),
      entry.userId,
      amount,
      entry.type,
      entry.description ?? null,
      entry.idempotencyKey ?? null,
      entry.now,
    );
  const statements: LedgerStatements = {
    ...s,
    credit: client.transaction((entry: LedgerEntry) => {
      const inserted = insert(entry, entry.cents);
      if (!inserted) return null;
      const updated = s.addCoins.get(entry.cents, entry.userId, entry.cents, MAX_CENTS);
      if (!updated) {
        if (!s.balanceOf.get(entry.userId)) throw new AppError('not_found', 'User not found');
        // Throwing rolls back the savepoint, including the transaction row.
        throw new AppError(
          'bad_request',
          'This would take the balance above the maximum of 99999999.99 coins.',
        );
      }
      return { transactionId: inserted.id, balance: updated.coins };
    }),
    debit: client.transaction((entry: LedgerEntry & { allowNegative?: boolean }) => {
      const updated = entry.allowNegative
        ? s.takeCoinsAllowNegative.get(entry.cents, entry.userId)
        : s.takeCoins.get(entry.cents, entry.userId, entry.cents);
      if (!updated) {
        const user = s.balanceOf.get(entry.userId);
        if (!user) throw new AppError('not_found', 'User not found');
        throw new AppError(
          'insufficient_coins',
          `Insufficient coins: you need ${formatCents(entry.cents)} coins and you have ${formatCents(user.coins)}.`,
        );
      }
      const inserted = insert(entry, -entry.cents);
      if (!inserted) throw new AppError('conflict', 'This operation was already recorded.');
      return { transactionId: inserted.id, balance: updated.coins };
    }),
  };
  statementCache.set(client, statements);
  return statements;
}

/**
 * Adds coins. Returns null (and changes nothing) when an entry with the same idempotency key exists.
 * Refuses a credit that would overflow decimal(10,2).
 */
export function credit(db: Connection, entry: LedgerEntry): LedgerResult | null {
  assertAmount(entry.cents);
  let result: LedgerResult | null;
  try {
    result = ledgerFor(db).credit(entry);
  } catch (err) {
    recordLedgerWrite(entry.type, 'credit', 'refused');
    throw err;
  }
  recordLedgerWrite(entry.type, 'credit', result ? 'ok' : 'duplicate');
  return result;
}

/**
 * Takes coins only if the balance covers them; otherwise throws `insufficient_coins` and writes nothing.
 * `allowNegative` exists for debts that later earnings repay: the early-leave penalty and chargebacks
 * (a refunded or disputed coin pack whose coins were already spent).
 * A keyed debit whose key was already used throws `conflict` and writes nothing.
 */
export function debit(db: Connection, entry: LedgerEntry & { allowNegative?: boolean }): LedgerResult {
  assertAmount(entry.cents);
  try {
    const result = ledgerFor(db).debit(entry);
    recordLedgerWrite(entry.type, 'debit', 'ok');
    return result;
  } catch (err) {
    recordLedgerWrite(entry.type, 'debit', 'refused');
    throw err;
  }
}

export function getBalance(db: Connection, userId: string): number {
  const row = ledgerFor(db).balanceOf.get(userId);
  if (!row) throw new AppError('not_found', 'User not found');
  return row.coins;
}

export interface LedgerMismatch {
  userId: string;
  balance: number;
  sum: number;
}

/** Every user's balance must equal the sum of their transactions. Returns the users where it does not. */
export function findLedgerMismatches(db: Connection): LedgerMismatch[] {
  return db
    .prepare<[], LedgerMismatch>(
      `SELECT u.id AS userId, u.coins AS balance, COALESCE(SUM(t.amount), 0) AS sum
       FROM users u LEFT JOIN transactions t ON t.user_id = u.id
       GROUP BY u.id
       HAVING u.coins != COALESCE(SUM(t.amount), 0)`,
    )
    .all();
}

export function assertLedgerInvariant(db: Connection): void {
  const mismatches = findLedgerMismatches(db);
  if (mismatches.length > 0) {
    throw new Error(
      `ledger invariant broken for ${mismatches.length} user(s): ${JSON.stringify(mismatches.slice(0, 5))}`,
    );
  }
}
