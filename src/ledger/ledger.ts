import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Connection } from '../db/client.ts';
import { inTransaction, readHandle, type ReadTarget, type TxHandle, type WriteTarget } from '../db/engine.ts';
import { prepared, preparedSql, sqliteSync } from '../db/query.ts';
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
// - The balance first, under one of three rules written once (`RULES`: a credit up to the maximum, a
//   debit the balance covers, an unchecked change), then `INSERT INTO transactions … ON CONFLICT
//   (idempotency_key) DO NOTHING RETURNING id`. SQLite runs them as two statements (in-process calls);
//   PostgreSQL as one data-modifying `with` (one round trip instead of two per entry: decision 062,
//   session 13), the INSERT writing only when the UPDATE changed a row. When the insert finds the key
//   taken (a replayed credit, a reused debit key) the balance change is undone in the same transaction;
//   when it fails, SQLite undoes it and PostgreSQL's failed statement changed nothing. No savepoint: on
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
/** The entry's signed amount in hundredths: positive for a credit, negative for a debit. */
const amount = sql.placeholder('amount');

/**
 * The balance rules, written once for both engines: a credit only up to the maximum balance decimal(10,2)
 * holds; a debit only when the balance covers it; a signed change without condition (a debit allowed
 * below zero, and the undo of an entry not recorded).
 */
const RULES = {
  credit: sql`${users.coins} + ${amount} <= ${MAX_CENTS}`,
  debit: sql`${users.coins} + ${amount} >= 0`,
  unchecked: undefined,
} as const;
type Rule = keyof typeof RULES;

/** Where the user is and the rule (if any) holds. */
const changeable = (rule: Rule): SQL =>
  RULES[rule] ? sql`${users.id} = ${userId} and ${RULES[rule]}` : sql`${users.id} = ${userId}`;

/** SQLite: the balance change alone (its transaction row is a second statement: in-process calls). */
const changeBalance = (rule: Rule) =>
  prepared((q) =>
    q
      .update(users)
      .set({ coins: sql`${users.coins} + ${amount}` })
      .where(changeable(rule))
      .returning({ coins: users.coins })
      .prepare(),
  );
const CHANGE_BALANCE = {
  credit: changeBalance('credit'),
  debit: changeBalance('debit'),
  unchecked: changeBalance('unchecked'),
} as const satisfies Record<Rule, unknown>;

const entryValues = {
  id: sql.placeholder('id'),
  userId,
  amount,
  type: sql.placeholder('type'),
  description: sql.placeholder('description'),
  idempotencyKey: sql.placeholder('key'),
  createdAt: sql.placeholder('now'),
};
const INSERT_ENTRY = prepared((q) =>
  q
    .insert(transactions)
    .values(entryValues)
    .onConflictDoNothing({ target: transactions.idempotencyKey })
    .returning({ id: transactions.id })
    .prepare(),
);

/**
 * PostgreSQL: the transactions columns an entry's row is written with, in the order of the INSERTs'
 * select lists below (`entryItems`, `creditEachItems`); the idempotency key, which a grouped credit has
 * not, before `created_at`.
 */
function recordColumns(withKey: boolean): SQL {
  const columns = [
    transactions.id,
    transactions.userId,
    transactions.amount,
    transactions.type,
    transactions.description,
    ...(withKey ? [transactions.idempotencyKey] : []),
    transactions.createdAt,
  ];
  return sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
}

/**
 * PostgreSQL: an entry as two items of a data-modifying `with`, `changed` (the balance under `rule`, only
 * where `when` also holds) and `recorded` (its transaction row, written only when `changed` changed a
 * row). The same rule and the same order as SQLite's pair: the UPDATE locks the user's row before the
 * INSERT looks at the key. Parameters are cast where PostgreSQL cannot infer them (the INSERT's select
 * list).
 */
function entryItems(rule: Rule, when?: SQL): SQL {
  const column = (c: AnyColumn) => sql.identifier(c.name);
  const cast = (value: unknown, type: 'text' | 'bigint') => sql`cast(${value} as ${sql.raw(type)})`;
  const v = entryValues;
  return sql`changed as (
      update ${users} set ${column(users.coins)} = ${users.coins} + ${amount}
      where ${changeable(rule)}${when ? sql` and ${when}` : sql``}
      returning ${users.coins}
    ), recorded as (
      insert into ${transactions} (${recordColumns(true)})
      select ${sql.join(
        [
          cast(v.id, 'text'),
          cast(v.userId, 'text'),
          cast(v.amount, 'bigint'),
          cast(v.type, 'text'),
          cast(v.description, 'text'),
          cast(v.idempotencyKey, 'text'),
          cast(v.createdAt, 'bigint'),
        ],
        sql`, `,
      )} from changed
      on conflict (${column(transactions.idempotencyKey)}) do nothing
      returning ${column(transactions.id)}
    )`;
}

/**
 * PostgreSQL: the balance change and its transaction row in ONE statement (each statement there is a
 * round trip: issue 33 item 2). Its row is [balance, transaction id]: no row, the change was refused
 * (nothing written); a null id, the key is taken (the change stands, and the caller undoes it, as on
 * SQLite).
 */
const changeAndRecord = (rule: Rule) =>
  preparedSql<[balance: number, transactionId: string | null]>(
    sql`with ${entryItems(rule)} select changed.coins, recorded.id from changed left join recorded on true`,
  );
const CHANGE_AND_RECORD = {
  credit: changeAndRecord('credit'),
  debit: changeAndRecord('debit'),
  unchecked: changeAndRecord('unchecked'),
} as const satisfies Record<Rule, unknown>;

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

/** A balance changed under its rule, and the id of its transaction row (null: its key was taken). */
interface Applied {
  balance: number;
  transactionId: string | null;
}

/** Reverses a balance change whose transaction row was not written. */
function undo(tx: TxHandle, entry: LedgerEntry, signed: number): Promise<unknown> {
  return CHANGE_BALANCE.unchecked(tx).get({ userId: entry.userId, amount: -signed });
}

/**
 * Changes the balance by `signed` under `rule` and writes the entry's transaction row: undefined (nothing
 * written) when the rule refuses; a null `transactionId` when the key is taken (the change undone). When
 * the row cannot be written the error is rethrown: SQLite undoes the change first; on PostgreSQL the one
 * statement failed whole, and the failed statement has aborted the transaction anyway.
 */
async function applyEntry(
  tx: TxHandle,
  entry: LedgerEntry,
  signed: number,
  rule: Rule,
): Promise<Applied | undefined> {
  const values = {
    id: crypto.randomUUID(),
    userId: entry.userId,
    amount: signed,
    type: entry.type,
    description: entry.description ?? null,
    key: entry.idempotencyKey ?? null,
    now: entry.now,
  };
  if (tx.kind === 'pg') {
    const row = await CHANGE_AND_RECORD[rule](tx).get(values);
    if (!row) return undefined;
    const [balance, transactionId] = row;
    if (transactionId === null) await undo(tx, entry, signed);
    return { balance, transactionId };
  }
  const updated = await CHANGE_BALANCE[rule](tx).get({ userId: entry.userId, amount: signed });
  if (!updated) return undefined;
  let row: { id: string } | undefined;
  try {
    row = await INSERT_ENTRY(tx).get(values);
  } catch (err) {
    await undo(tx, entry, signed).catch(() => undefined);
    throw err;
  }
  if (!row) await undo(tx, entry, signed);
  return { balance: updated.coins, transactionId: row?.id ?? null };
}

async function refuseUnknownUser(tx: TxHandle, id: string): Promise<number> {
  const row = await BALANCE(tx).get({ userId: id });
  if (!row) throw new AppError('not_found', 'User not found');
  return row.coins;
}

async function creditIn(tx: TxHandle, entry: LedgerEntry): Promise<LedgerResult | null> {
  const applied = await applyEntry(tx, entry, entry.cents, 'credit');
  if (!applied) {
    await refuseUnknownUser(tx, entry.userId);
    throw new AppError('bad_request', 'This would take the balance above the maximum of 99999999.99 coins.');
  }
  return applied.transactionId ? { transactionId: applied.transactionId, balance: applied.balance } : null;
}

async function debitIn(
  tx: TxHandle,
  entry: LedgerEntry & { allowNegative?: boolean },
): Promise<LedgerResult> {
  const applied = await applyEntry(tx, entry, -entry.cents, entry.allowNegative ? 'unchecked' : 'debit');
  if (!applied) {
    const coins = await refuseUnknownUser(tx, entry.userId);
    throw new AppError(
      'insufficient_coins',
      `Insufficient coins: you need ${formatCents(entry.cents)} coins and you have ${formatCents(coins)}.`,
    );
  }
  if (!applied.transactionId) throw new AppError('conflict', 'This operation was already recorded.');
  return { transactionId: applied.transactionId, balance: applied.balance };
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

// ---------------------------------------------------------------- a credit inside a caller's statement

/**
 * PostgreSQL: a credit of `entry`-shaped values (no idempotency key) as the `with` items `changed` and
 * `recorded` of a caller's ONE statement, for a write whose only other part is a conditional write before
 * it (the reward claim: decision 062, session 14). The balance changes under the credit rule (`RULES`) and
 * only where `when` holds (e.g. `exists (select 1 from claimed)`); its transaction row is written when it
 * did. `changed.coins` is the new balance, null (no row) when the rule or `when` refused. A statement
 * outside a transaction commits when it returns: the caller runs it with `creditValues(entry)` among its
 * values, makes the statement FAIL when it must not stand (e.g. its own write happened and the credit was
 * refused), and calls `creditCommitted(entry)` once it returned (the write counter counts commits).
 */
export function creditItems(when: SQL): SQL {
  return entryItems('credit', when);
}

/** The placeholder values of `creditItems` for the entry (it carries no idempotency key). */
export function creditValues(entry: Omit<LedgerEntry, 'idempotencyKey'>): Record<string, unknown> {
  assertAmount(entry.cents);
  return {
    id: crypto.randomUUID(),
    userId: entry.userId,
    amount: entry.cents,
    type: entry.type,
    description: entry.description ?? null,
    key: null,
    now: entry.now,
  };
}

/**
 * PostgreSQL: `creditItems` for several members at once, as the `with` items `credits` (each entry's values:
 * `creditEachValues`), `changed` (each balance under the credit rule, only for members in `who`, a relation
 * of the caller's statement with a `user_id` column) and `recorded` (a transaction row for each balance
 * changed), for the claims of one event-loop turn in ONE statement (decision 062, session 17). The entries
 * share one amount, type and description, and name each member once. `changed` returns (id, coins) of each
 * member credited; a member in `who` without a row there was refused. As `creditItems`, the caller makes
 * its statement FAIL when a refusal must not stand, and calls `creditCommitted` for each entry written.
 */
export function creditEachItems(who: SQL): SQL {
  const column = (c: AnyColumn) => sql.identifier(c.name);
  return sql`credits as (
      select * from unnest(cast(${sql.placeholder('creditIds')} as text[]), cast(${sql.placeholder('creditUsers')} as text[]),
        cast(${sql.placeholder('creditTimes')} as bigint[])) as credits(id, user_id, created_at)
    ), changed as (
      update ${users} set ${column(users.coins)} = ${users.coins} + ${amount}
      from credits
      where ${users.id} = credits.user_id and ${RULES.credit} and ${users.id} in (select user_id from ${who})
      returning ${users.id}, ${users.coins}
    ), recorded as (
      insert into ${transactions} (${recordColumns(false)})
      select credits.id, credits.user_id, cast(${amount} as bigint), cast(${entryValues.type} as text),
        cast(${entryValues.description} as text), credits.created_at
      from changed join credits on credits.user_id = changed.id
      returning ${column(transactions.id)}
    )`;
}

/** The placeholder values of `creditEachItems` for its entries (one amount, type and description; each member once). */
export function creditEachValues(
  entries: readonly Omit<LedgerEntry, 'idempotencyKey'>[],
): Record<string, unknown> {
  const first = entries[0];
  if (!first) throw new Error('creditEachValues: no entries');
  for (const entry of entries) {
    assertAmount(entry.cents);
    if (entry.cents !== first.cents || entry.type !== first.type || entry.description !== first.description)
      throw new Error('creditEachValues: the entries differ in amount, type or description');
  }
  const users = entries.map((e) => e.userId);
  if (new Set(users).size !== users.length) throw new Error('creditEachValues: a member twice');
  return {
    creditIds: entries.map(() => crypto.randomUUID()),
    creditUsers: users,
    creditTimes: entries.map((e) => e.now),
    amount: first.cents,
    type: first.type,
    description: first.description ?? null,
  };
}

/** Counts a credit written by a caller's statement (`creditItems`), once that statement has committed. */
export function creditCommitted(entry: Pick<LedgerEntry, 'type'>): void {
  recordLedgerWrite(entry.type, 'credit', 'ok');
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
