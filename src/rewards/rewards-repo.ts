import { and, asc, eq, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { prepared, preparedSql, type Q } from '../db/query.ts';
import { hourlyRewards, reminderSettings, transactions } from '../db/schema.ts';
import * as ledger from '../ledger/index.ts';
import type { REWARD_KIND } from '../reminders/reminder-settings.ts';
import { isRetryablePgError } from '../db/pg-client.ts';
import type { RewardType } from '../shared/rewards-schemas.ts';
import { LAST_CLAIM_COLUMN, LAST_CLAIM_KEY } from './reward-columns.ts';

// Timed rewards' last-claim times: one query definition for both engines (decision 044), held to its
// contract by rewards-repo.test.ts on SQLite and PostgreSQL.

/** A user's last claim of each reward (0 or null: never). */
export type RewardRow = typeof hourlyRewards.$inferSelect;

export class RewardsRepository {
  constructor(private readonly h: DbHandle) {}

  /** The user's last-claim times; undefined before their first claim. */
  find(userId: string): Promise<RewardRow | undefined> {
    return this.h.q.select().from(hourlyRewards).where(eq(hourlyRewards.userId, userId)).get();
  }

  /**
   * Records a claim of `type` at `now` when its last claim is at or before `cutoff` (or there was
   * none), in one conditional write: true when recorded, false (nothing written) when too early.
   * Two concurrent claims cannot both be recorded.
   */
  async claim(userId: string, type: RewardType, now: number, cutoff: number): Promise<boolean> {
    // One statement: the first claim inserts the row; later ones update it only when the cooldown has
    // passed. On PostgreSQL a concurrent claim waits on the unique user_id (or the row lock), then the
    // WHERE is re-checked against the row as the first committed it, and nothing is updated; on SQLite
    // writers are serialised (BEGIN IMMEDIATE under the store's mutex).
    const row = await CLAIM[type](this.h).get({ rowId: crypto.randomUUID(), userId, now, cutoff });
    return row !== undefined;
  }

  /** When the user's daily rewards were credited (their 'daily' transactions), oldest first. */
  async dailyClaimTimes(userId: string): Promise<number[]> {
    const rows = await this.h.q
      .select({ at: transactions.createdAt })
      .from(transactions)
      .where(and(eq(transactions.userId, userId), eq(transactions.type, 'daily')))
      .orderBy(asc(transactions.createdAt));
    return rows.map((r) => r.at);
  }
}

// The claim is the hottest write: compiled once per reward type (see `prepared`). `also`: a further
// condition for recording a claim over an existing row (the one-statement claim's, below).
function claimUpsert(q: Q, type: RewardType, also?: SQL) {
  const column = LAST_CLAIM_COLUMN[type];
  const key = LAST_CLAIM_KEY[type];
  const now = sql.placeholder('now');
  const cooledDown = or(isNull(column), lte(column, sql.placeholder('cutoff')));
  return q
    .insert(hourlyRewards)
    .values({ id: sql.placeholder('rowId'), userId: sql.placeholder('userId'), lastClaimDate: 0, [key]: now })
    .onConflictDoUpdate({
      target: hourlyRewards.userId,
      set: { [key]: now },
      setWhere: also ? and(cooledDown, also) : cooledDown,
    })
    .returning({ id: hourlyRewards.id });
}
const claimStatement = (type: RewardType) => prepared((q) => claimUpsert(q, type).prepare());
const CLAIM = {
  regular: claimStatement('regular'),
  bonus: claimStatement('bonus'),
  daily: claimStatement('daily'),
} as const satisfies Record<RewardType, unknown>;

/** What the one-statement claim did (`claimAndCredit`). */
export type ClaimAndCredit =
  /** Recorded and credited, committed. */
  | { outcome: 'credited' }
  /** Nothing written: the cooldown has not passed. */
  | { outcome: 'too_early' }
  /** Nothing written: the claim needs the transaction (the member wants the "ready" reminder, the
   * credit was refused, or the statement was a deadlock victim: it failed and wrote nothing). */
  | { outcome: 'needs_transaction' };

/** The reminder setting of each reward's "ready" (`REWARD_KIND`; not imported: reminder-settings imports this). */
const WANTS_READY = {
  regular: reminderSettings.hourly,
  bonus: reminderSettings.bonus,
  daily: reminderSettings.daily,
} as const satisfies { [T in RewardType]: (typeof reminderSettings)[(typeof REWARD_KIND)[T]] };

/** The error the one-statement claim raises to undo itself (its marker, in PostgreSQL's message). */
const UNDO_MARKER = 'claim-needs-transaction';

/**
 * PostgreSQL: a whole claim in ONE statement, which commits by itself (no BEGIN, no COMMIT: issue 33
 * item 2). Its `with` items: `wanted` (the member's "ready" reminder setting for this reward), `claimed`
 * (the same conditional upsert as `CLAIM`, which also leaves an existing row alone when the member wants
 * the reminder: scheduling it is the transaction's), and the ledger's credit (`ledger.creditItems`: the
 * balance under the credit rule and its transaction row, only when `claimed` recorded the claim). When the
 * claim was recorded and the credit was refused, or the first claim of a member who wants the reminder was
 * recorded, the select raises an error (a cast of the marker to integer), which undoes the whole
 * statement; the caller then runs the claim as a transaction. Concurrent claims: as `CLAIM` (the second
 * waits on the row, then its cooldown condition is re-checked against the first's committed row).
 */
function claimAndCreditStatement(type: RewardType) {
  const wants = WANTS_READY[type];
  return preparedSql<[claimed: string | null, credited: number | null, wanted: boolean, undo: null]>(
    (q) => sql`with wanted as (
      select ${wants} as wants from ${reminderSettings}
      where ${reminderSettings.userId} = ${sql.placeholder('userId')}
    ), claimed as ${
      // (drizzle puts a query inside `sql` in parentheses)
      claimUpsert(q, type, sql`not exists (select 1 from wanted where wanted.wants)`)
    }, ${ledger.creditItems(sql`exists (select 1 from claimed)`)}
    select claimed.id, changed.coins, coalesce((select wants from wanted), false) as wants,
      case when claimed.id is not null and (changed.coins is null or exists (select 1 from wanted where wanted.wants))
        then cast(${UNDO_MARKER + ':'} || claimed.id as integer) end as undo
    from (select 1) as one left join claimed on true left join changed on true`,
  );
}
const CLAIM_AND_CREDIT = {
  regular: claimAndCreditStatement('regular'),
  bonus: claimAndCreditStatement('bonus'),
  daily: claimAndCreditStatement('daily'),
} as const satisfies Record<RewardType, unknown>;

/**
 * Runs the one-statement claim (PostgreSQL only, on the pool: the statement is its own transaction).
 * `credit`: the ledger entry the claim pays.
 */
export async function claimAndCredit(
  h: DbHandle,
  input: { userId: string; type: RewardType; now: number; cutoff: number },
  credit: Omit<ledger.LedgerEntry, 'idempotencyKey'>,
): Promise<ClaimAndCredit> {
  let row: [string | null, number | null, boolean, null] | undefined;
  try {
    row = await CLAIM_AND_CREDIT[input.type](h).get({
      rowId: crypto.randomUUID(),
      userId: input.userId,
      now: input.now,
      cutoff: input.cutoff,
      ...ledger.creditValues(credit),
    });
  } catch (err) {
    // Undone by its own marker, or chosen as a deadlock victim (the transaction is retried on that).
    if (undoneByMarker(err)) return { outcome: 'needs_transaction' };
    if (isRetryablePgError(err)) return { outcome: 'needs_transaction' };
    throw err;
  }
  const [claimed, , wanted] = row!;
  if (claimed !== null) {
    ledger.creditCommitted(credit);
    return { outcome: 'credited' };
  }
  return wanted ? { outcome: 'needs_transaction' } : { outcome: 'too_early' };
}

/** Whether PostgreSQL's own error (not drizzle's wrapper, whose text lists the parameters) is the marker's cast. */
function undoneByMarker(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; depth += 1) {
    if ((e as { code?: unknown }).code === '22P02') return e.message.includes(UNDO_MARKER);
    e = e.cause;
  }
  return false;
}

export function rewardsRepo(h: DbHandle): RewardsRepository {
  return new RewardsRepository(h);
}
