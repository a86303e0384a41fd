import { inTransaction, readHandle, type ReadTarget, type WriteTarget } from '../db/engine.ts';
import * as sqliteLedger from './ledger.ts';
import * as pgLedger from './ledger-pg.ts';
import { AppError } from '../shared/errors.ts';
import type { LedgerEntry, LedgerMismatch, LedgerResult } from './ledger.ts';

// The ledger for converted (async) code, on either engine (decision 028): the API of ledger-pg.ts.
// The only code that changes a balance; each entry writes its transaction row in the same transaction.
//
// - `credit(store, …)` / `debit(store, …)`: the entry is a transaction of its own (SQLite: under the
//   store's mutex; PostgreSQL: READ COMMITTED, retried on deadlock).
// - `credit(tx, …)` with a transaction handle (`store.transaction(async (tx) => …)`): a savepoint of the
//   caller's transaction; it rolls back with it, and a refused entry (insufficient coins, a used key)
//   rolls back alone and throws, leaving the caller free to catch it and go on.
// - Reads (`getBalance`, `findLedgerMismatches`) take the store (its read handle) or any handle.
//
// On SQLite it is ledger.ts (prepared statements, better-sqlite3 savepoints) on the store's writer
// connection; on PostgreSQL ledger-pg.ts. Synchronous, unconverted code keeps calling ledger.ts directly.

export type { LedgerEntry, LedgerMismatch, LedgerResult, TransactionType } from './ledger.ts';

/** Where a ledger write runs: its own transaction (the store) or a savepoint of `tx`. */
export type LedgerTarget = WriteTarget;

/** ledger.ts lets SQLite's foreign-key error through for an unknown user; ledger-pg.ts says not_found. */
function sqliteCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
      throw new AppError('not_found', 'User not found');
    throw err;
  }
}

export function credit(target: LedgerTarget, entry: LedgerEntry): Promise<LedgerResult | null> {
  return inTransaction(target, async (tx) =>
    tx.kind === 'sqlite'
      ? sqliteCall(() => sqliteLedger.credit(tx.db.$client, entry))
      : pgLedger.credit(tx.db, entry),
  );
}

export function debit(
  target: LedgerTarget,
  entry: LedgerEntry & { allowNegative?: boolean },
): Promise<LedgerResult> {
  return inTransaction(target, async (tx) =>
    tx.kind === 'sqlite'
      ? sqliteCall(() => sqliteLedger.debit(tx.db.$client, entry))
      : pgLedger.debit(tx.db, entry),
  );
}

export async function getBalance(target: ReadTarget, userId: string): Promise<number> {
  const h = readHandle(target);
  return h.kind === 'sqlite'
    ? sqliteLedger.getBalance(h.db.$client, userId)
    : pgLedger.getBalance(h.db, userId);
}

/** Every user's balance must equal the sum of their transactions. Returns the users where it does not. */
export async function findLedgerMismatches(target: ReadTarget): Promise<LedgerMismatch[]> {
  const h = readHandle(target);
  return h.kind === 'sqlite'
    ? sqliteLedger.findLedgerMismatches(h.db.$client)
    : pgLedger.findLedgerMismatches(h.db);
}

export async function assertLedgerInvariant(target: ReadTarget): Promise<void> {
  const mismatches = await findLedgerMismatches(target);
  if (mismatches.length > 0) {
    throw new Error(
      `ledger invariant broken for ${mismatches.length} user(s): ${JSON.stringify(mismatches.slice(0, 5))}`,
    );
  }
}
