import { is, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { formatCents, MAX_CENTS } from '../shared/money.ts';
import { AppError, driverErrorCode } from '../shared/errors.ts';
import { recordLedgerWrite } from '../metrics.ts';
import { withPgTransaction, type PgDbOrTx, type PgTx } from '../db/pg-client.ts';
import type { LedgerEntry, LedgerMismatch, LedgerResult } from './ledger.ts';

// The ledger on PostgreSQL (decision 028): the same API and guarantees as src/ledger/ledger.ts, async.
// The only code that changes a balance there; each change writes its transaction row in the same
// database transaction.
//
// - Called with the database handle, an entry runs in its own READ COMMITTED transaction (retried on a
//   deadlock or serialization failure). Called with a transaction handle (`db.transaction(async (tx) =>
//   credit(tx, …))`), it runs as a savepoint of the caller's transaction and rolls back with it.
// - No overdraft without SERIALIZABLE: the debit is one conditional `UPDATE … WHERE coins >= $n`. It
//   takes the user's row lock, and under READ COMMITTED PostgreSQL re-checks the WHERE clause against
//   the row as the previous writer committed it, so two debits racing for the last coins cannot both pass.
// - Exactly-once keys: `INSERT … ON CONFLICT (idempotency_key) DO NOTHING`. A second writer of the same
//   key waits for the first to commit (then inserts nothing) or roll back (then inserts).

export type { LedgerEntry, LedgerMismatch, LedgerResult, TransactionType } from './ledger.ts';

function assertAmount(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents <= 0 || cents > MAX_CENTS) {
    throw new RangeError(`ledger amount must be a positive integer number of hundredths, got ${cents}`);
  }
}

function isTransaction(db: PgDbOrTx): db is PgTx {
  return is(db, PgTransaction);
}

/** Runs `fn` as a savepoint of the caller's transaction, or in a transaction of its own (retried). */
async function inTransaction<T>(db: PgDbOrTx, fn: (tx: PgTx) => Promise<T>): Promise<T> {
  try {
    return isTransaction(db) ? await db.transaction(fn) : await withPgTransaction(db, fn);
  } catch (err) {
    // 23503: the transaction row's user does not exist (foreign key).
    if (driverErrorCode(err) === '23503') throw new AppError('not_found', 'User not found');
    throw err;
  }
}

async function insertEntry(tx: PgTx, entry: LedgerEntry, amount: number): Promise<string | null> {
  const inserted = await tx.execute<{ id: string }>(sql`
    INSERT INTO transactions (id, user_id, amount, type, description, idempotency_key, created_at)
    VALUES (${crypto.randomUUID()}, ${entry.userId}, ${amount}, ${entry.type}, ${entry.description ?? null},
            ${entry.idempotencyKey ?? null}, ${entry.now})
    ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`);
  return inserted.rows[0]?.id ?? null;
}

async function balanceRow(tx: PgDbOrTx, userId: string): Promise<number | null> {
  const row = await tx.execute<{ coins: number }>(sql`SELECT coins FROM users WHERE id = ${userId}`);
  return row.rows[0]?.coins ?? null;
}

/**
 * Adds coins. Returns null (and changes nothing) when an entry with the same idempotency key exists.
 * Refuses a credit that would overflow decimal(10,2).
 */
export async function credit(db: PgDbOrTx, entry: LedgerEntry): Promise<LedgerResult | null> {
  assertAmount(entry.cents);
  let result: LedgerResult | null;
  try {
    result = await inTransaction(db, async (tx) => {
      const transactionId = await insertEntry(tx, entry, entry.cents);
      if (!transactionId) return null;
      const updated = await tx.execute<{ coins: number }>(sql`
        UPDATE users SET coins = coins + ${entry.cents}
        WHERE id = ${entry.userId} AND coins + ${entry.cents} <= ${MAX_CENTS} RETURNING coins`);
      const row = updated.rows[0];
      if (!row) {
        if ((await balanceRow(tx, entry.userId)) === null) throw new AppError('not_found', 'User not found');
        // Throwing rolls back the transaction (or savepoint), including the transaction row.
        throw new AppError(
          'bad_request',
          'This would take the balance above the maximum of 99999999.99 coins.',
        );
      }
      return { transactionId, balance: row.coins };
    });
  } catch (err) {
    recordLedgerWrite(entry.type, 'credit', 'refused');
    throw err;
  }
  recordLedgerWrite(entry.type, 'credit', result ? 'ok' : 'duplicate');
  return result;
}

/**
 * Takes coins only if the balance covers them; otherwise throws `insufficient_coins` and writes nothing.
 * `allowNegative` is for debts later earnings repay (early-leave penalty, chargebacks). A keyed debit
 * whose key was already used throws `conflict` and writes nothing.
 */
export async function debit(
  db: PgDbOrTx,
  entry: LedgerEntry & { allowNegative?: boolean },
): Promise<LedgerResult> {
  assertAmount(entry.cents);
  try {
    const result = await inTransaction(db, async (tx) => {
      const updated = entry.allowNegative
        ? await tx.execute<{ coins: number }>(sql`
            UPDATE users SET coins = coins - ${entry.cents} WHERE id = ${entry.userId} RETURNING coins`)
        : await tx.execute<{ coins: number }>(sql`
            UPDATE users SET coins = coins - ${entry.cents}
            WHERE id = ${entry.userId} AND coins >= ${entry.cents} RETURNING coins`);
      const row = updated.rows[0];
      if (!row) {
        const coins = await balanceRow(tx, entry.userId);
        if (coins === null) throw new AppError('not_found', 'User not found');
        throw new AppError(
          'insufficient_coins',
          `Insufficient coins: you need ${formatCents(entry.cents)} coins and you have ${formatCents(coins)}.`,
        );
      }
      const transactionId = await insertEntry(tx, entry, -entry.cents);
      if (!transactionId) throw new AppError('conflict', 'This operation was already recorded.');
      return { transactionId, balance: row.coins };
    });
    recordLedgerWrite(entry.type, 'debit', 'ok');
    return result;
  } catch (err) {
    recordLedgerWrite(entry.type, 'debit', 'refused');
    throw err;
  }
}

export async function getBalance(db: PgDbOrTx, userId: string): Promise<number> {
  const coins = await balanceRow(db, userId);
  if (coins === null) throw new AppError('not_found', 'User not found');
  return coins;
}

/** Every user's balance must equal the sum of their transactions. Returns the users where it does not. */
export async function findLedgerMismatches(db: PgDbOrTx): Promise<LedgerMismatch[]> {
  const rows = await db.execute<{ userId: string; balance: number; sum: number }>(sql`
    SELECT u.id AS "userId", u.coins AS balance, COALESCE(SUM(t.amount), 0)::bigint AS sum
    FROM users u LEFT JOIN transactions t ON t.user_id = u.id
    GROUP BY u.id
    HAVING u.coins != COALESCE(SUM(t.amount), 0)`);
  return rows.rows.map((r) => ({ userId: r.userId, balance: r.balance, sum: r.sum }));
}

export async function assertLedgerInvariant(db: PgDbOrTx): Promise<void> {
  const mismatches = await findLedgerMismatches(db);
  if (mismatches.length > 0) {
    throw new Error(
      `ledger invariant broken for ${mismatches.length} user(s): ${JSON.stringify(mismatches.slice(0, 5))}`,
    );
  }
}
