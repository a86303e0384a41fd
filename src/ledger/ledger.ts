import { and, eq, gte, sql } from 'drizzle-orm';
import type { Connection } from '../db/client.ts';
import { inTransaction, readHandle, type ReadTarget, type TxHandle, type WriteTarget } from '../db/engine.ts';
import { prepared, sqliteSync } from '../db/query.ts';
import { transactions, users } from '../db/schema.ts';
import { formatCents, MAX_CENTS } from '../shared/money.ts';
import { AppError } from '../shared/errors.ts';
import { recordLedgerWrite } from '../metrics.ts';

// The only code that changes a balance, written once for both engines (decisions 001, 044, 056): each
// credit or debit updates the balance and writes its transaction row in the same database transaction,
// so balance == sum(transactions) always holds.
//
// - `credit(store, …)` / `debit(store, …)`: the entry is a transaction of its own (SQLite: BEGIN
//   IMMEDIATE under the store's mutex; PostgreSQL: READ COMMITTED, retried on deadlock).
// - `credit(tx, …)` inside `store.transaction(async (tx) => …)`: it joins the caller's transaction and
//   rolls back with it. A refused entry (not found, insufficient coins, above the maximum, a used debit
//   key) throws having written nothing, so the caller may catch it and go on.
// - Two statements per entry on both engines, the balance first: a conditional `UPDATE users … RETURNING
//   coins` (no overdraft, no overflow, the user exists), then `INSERT INTO transactions … ON CONFLICT
//   (idempotency_key) DO NOTHING RETURNING id`. When that insert finds the key taken (a replayed credit,
//   a reused debit key) or fails, the balance change is undone in the same transaction. No savepoint: on
//   PostgreSQL each would be two more round trips per entry (decision 056).
// - No overdraft without SERIALIZABLE: the debit's `WHERE coins >= $n` takes the user's row lock, and
//   under READ COMMITTED PostgreSQL re-checks it against the row as the previous writer committed it;
//   SQLite's writers are serialised. Every entry locks the user's row before the key, on both paths, so
//   a second writer of a key waits behind the first's commit (then inserts nothing) or rollback.

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

export interface LedgerMismatch {
  userId: string;
  balance: number;
  sum: number;
}

/** Where a ledger write runs: its own transaction (the store) or inside the caller's (`tx`). */
export type LedgerTarget = WriteTarget;

// ---------------------------------------------------------------- the queries (compiled once)

const userId = sql.placeholder('userId');
const cents = sql.placeholder('cents');

/** A credit: only up to the maximum balance decimal(10,2) holds. */
const ADD_COINS = prepared((q) =>
  q
    .update(users)
    .set({ coins: sql`${users.coins} + ${cents}` })
    .where(and(eq(users.id, userId), sql`${users.coins} + ${cents} <= ${MAX_CENTS}`))
    .returning({ coins: users.coins })
    .prepare(),
);
/** A debit: only when the balance covers it. */
const TAKE_COINS = prepared((q) =>
  q
    .update(users)
    .set({ coins: sql`${users.coins} - ${cents}` })
    .where(and(eq(users.id, userId), gte(users.coins, cents)))
    .returning({ coins: users.coins })
    .prepare(),
);
/** A signed change without condition: a debit allowed below zero, and the undo of an entry not recorded. */
const ADJUST_COINS = prepared((q) =>
  q
    .update(users)
    .set({ coins: sql`${users.coins} + ${cents}` })
    .where(eq(users.id, userId))
    .returning({ coins: users.coins })
    .prepare(),
);
const INSERT_ENTRY = prepared((q) =>
  q
    .insert(transactions)
    .values({
      id: sql.placeholder('id'),
      userId,
      amount: sql.placeholder('amount'),
      type: sql.placeholder('type'),
      description: sql.placeholder('description'),
      idempotencyKey: sql.placeholder('key'),
      createdAt: sql.placeholder('now'),
    })
    .onConflictDoNothing({ target: transactions.idempotencyKey })
    .returning({ id: transactions.id })
    .prepare(),
);
const BALANCE = prepared((q) =>
  q.select({ coins: users.coins }).from(users).where(eq(users.id, userId)).prepare(),
);
const sumOfAmounts = sql<number>`coalesce(sum(${transactions.amount}), 0)`;
const MISMATCHES = prepared((q) =>
  q
    .select({ userId: users.id, balance: users.coins, sum: sumOfAmounts })
    .from(users)
    .leftJoin(transactions, eq(transactions.userId, users.id))
    .groupBy(users.id)
    .having(sql`${users.coins} != ${sumOfAmounts}`)
    .prepare(),
);

// ---------------------------------------------------------------- entries

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_CENTS) {
    throw new RangeError(`ledger amount must be a positive integer number of hundredths, got ${amount}`);
  }
}

/**
 * Writes the entry's transaction row after its balance change; `undo` reverses that change when the
 * row is not written (its key is taken: returns null) or the insert fails (rethrown; on PostgreSQL the
 * failed statement has aborted the whole transaction already, so the undo is refused and it all rolls back).
 */
async function recordEntry(
  tx: TxHandle,
  entry: LedgerEntry,
  amount: number,
  undo: () => Promise<unknown>,
): Promise<string | null> {
  let row: { id: string } | undefined;
  try {
    row = await INSERT_ENTRY(tx).get({
      id: crypto.randomUUID(),
      userId: entry.userId,
      amount,
      type: entry.type,
      description: entry.description ?? null,
      key: entry.idempotencyKey ?? null,
      now: entry.now,
    });
  } catch (err) {
    await undo().catch(() => undefined);
    throw err;
  }
  if (row) return row.id;
  await undo();
  return null;
}

async function refuseUnknownUser(tx: TxHandle, id: string): Promise<number> {
  const row = await BALANCE(tx).get({ userId: id });
  if (!row) throw new AppError('not_found', 'User not found');
  return row.coins;
}

async function creditIn(tx: TxHandle, entry: LedgerEntry): Promise<LedgerResult | null> {
  const values = { userId: entry.userId, cents: entry.cents };
  const updated = await ADD_COINS(tx).get(values);
  if (!updated) {
    await refuseUnknownUser(tx, entry.userId);
    throw new AppError('bad_request', 'This would take the balance above the maximum of 99999999.99 coins.');
  }
  const transactionId = await recordEntry(tx, entry, entry.cents, () =>
    ADJUST_COINS(tx).get({ userId: entry.userId, cents: -entry.cents }),
  );
  return transactionId ? { transactionId, balance: updated.coins } : null;
}

async function debitIn(
  tx: TxHandle,
  entry: LedgerEntry & { allowNegative?: boolean },
): Promise<LedgerResult> {
  const updated = entry.allowNegative
    ? await ADJUST_COINS(tx).get({ userId: entry.userId, cents: -entry.cents })
    : await TAKE_COINS(tx).get({ userId: entry.userId, cents: entry.cents });
  if (!updated) {
    const coins = await refuseUnknownUser(tx, entry.userId);
    throw new AppError(
      'insufficient_coins',
      `Insufficient coins: you need ${formatCents(entry.cents)} coins and you have ${formatCents(coins)}.`,
    );
  }
  const transactionId = await recordEntry(tx, entry, -entry.cents, () =>
    ADJUST_COINS(tx).get({ userId: entry.userId, cents: entry.cents }),
  );
  if (!transactionId) throw new AppError('conflict', 'This operation was already recorded.');
  return { transactionId, balance: updated.coins };
}

/**
 * Adds coins. Returns null (and changes nothing) when an entry with the same idempotency key exists.
 * Refuses a credit that would overflow decimal(10,2).
 */
export async function credit(target: LedgerTarget, entry: LedgerEntry): Promise<LedgerResult | null> {
  assertAmount(entry.cents);
  let result: LedgerResult | null;
  try {
    result = await inTransaction(target, (tx) => creditIn(tx, entry));
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
export async function debit(
  target: LedgerTarget,
  entry: LedgerEntry & { allowNegative?: boolean },
): Promise<LedgerResult> {
  assertAmount(entry.cents);
  try {
    const result = await inTransaction(target, (tx) => debitIn(tx, entry));
    recordLedgerWrite(entry.type, 'debit', 'ok');
    return result;
  } catch (err) {
    recordLedgerWrite(entry.type, 'debit', 'refused');
    throw err;
  }
}

// ---------------------------------------------------------------- reads

export async function getBalance(target: ReadTarget, id: string): Promise<number> {
  const row = await BALANCE(readHandle(target)).get({ userId: id });
  if (!row) throw new AppError('not_found', 'User not found');
  return row.coins;
}

/** Every user's balance must equal the sum of their transactions. Returns the users where it does not. */
export function findLedgerMismatches(target: ReadTarget): Promise<LedgerMismatch[]> {
  return MISMATCHES(readHandle(target)).all();
}

function invariantError(mismatches: LedgerMismatch[]): Error {
  return new Error(
    `ledger invariant broken for ${mismatches.length} user(s): ${JSON.stringify(mismatches.slice(0, 5))}`,
  );
}

export async function assertLedgerInvariant(target: ReadTarget): Promise<void> {
  const mismatches = await findLedgerMismatches(target);
  if (mismatches.length > 0) throw invariantError(mismatches);
}

/**
 * `findLedgerMismatches` synchronously on a SQLite connection (the same compiled query), for code that
 * cannot await: the backup's check of a database file, the simulator's report, the test harness.
 */
export function findLedgerMismatchesSync(conn: Connection): LedgerMismatch[] {
  return sqliteSync(conn, MISMATCHES).all();
}

export function assertLedgerInvariantSync(conn: Connection): void {
  const mismatches = findLedgerMismatchesSync(conn);
  if (mismatches.length > 0) throw invariantError(mismatches);
}
