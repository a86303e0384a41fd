import { and, asc, eq, isNull, lte, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { prepared, preparedSql, type Q } from '../db/query.ts';
import { hourlyRewards, reminderSettings, transactions } from '../db/schema.ts';
import * as ledger from '../ledger/index.ts';
import type { REWARD_KIND } from '../reminders/reminder-settings.ts';
import { isRetryablePgError } from '../db/pg-lib.ts';
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
/** The cooldown rule, written once: never claimed, or last claimed at or before `cutoff`. */
function cooledDown(type: RewardType, cutoff: SQL | Placeholder): SQL {
  const column = LAST_CLAIM_COLUMN[type];
  return or(isNull(column), lte(column, cutoff))!;
}

function claimUpsert(q: Q, type: RewardType, also?: SQL) {
  const key = LAST_CLAIM_KEY[type];
  const now = sql.placeholder('now');
  const cooled = cooledDown(type, sql.placeholder('cutoff'));
  return q
    .insert(hourlyRewards)
    .values({ id: sql.placeholder('rowId'), userId: sql.placeholder('userId'), lastClaimDate: 0, [key]: now })
    .onConflictDoUpdate({
      target: hourlyRewards.userId,
      set: { [key]: now },
      setWhere: also ? and(cooled, also) : cooled,
    })
    .returning({ id: hourlyRewards.id });
}
const claimStatement = (type: RewardType) => prepared((q) => claimUpsert(q, type).prepare());
/** One compiled statement per reward type (each type's cooldown column differs). */
function perReward<T>(make: (type: RewardType) => T): Record<RewardType, T> {
  return { regular: make('regular'), bonus: make('bonus'), daily: make('daily') };
}
const CLAIM = perReward(claimStatement);

/** What the one-statement claim did (`claimAndCredit`). */
export type ClaimAndCredit =
  /** Recorded and credited, committed. */
  | { outcome: 'credited' }
  /**
   * Nothing written: the cooldown has not passed. `lastClaim`: the member's last claim of the reward as
   * the statement read it, to answer with the wait without reading it again (null: not read, or none).
   */
  | { outcome: 'too_early'; lastClaim: number | null }
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
  return preparedSql<
    [claimed: string | null, credited: number | null, wanted: boolean, undo: null, last: number | null]
  >(
    (q) => sql`with wanted as (
      select ${wants} as wants from ${reminderSettings}
      where ${reminderSettings.userId} = ${sql.placeholder('userId')}
    ), claimed as ${
      // (drizzle puts a query inside `sql` in parentheses)
      claimUpsert(q, type, sql`not exists (select 1 from wanted where wanted.wants)`)
    }, ${ledger.creditItems(sql`exists (select 1 from claimed)`)}
    select claimed.id, changed.coins, coalesce((select wants from wanted), false) as wants,
      case when claimed.id is not null and (changed.coins is null or exists (select 1 from wanted where wanted.wants))
        then cast(${UNDO_MARKER + ':'} || claimed.id as integer) end as undo,
      (select ${LAST_CLAIM_COLUMN[type]} from ${hourlyRewards}
        where ${hourlyRewards.userId} = ${sql.placeholder('userId')}) as last
    from (select 1) as one left join claimed on true left join changed on true`,
  );
}
const CLAIM_AND_CREDIT = perReward(claimAndCreditStatement);

/** A claim for the one-statement paths: who, which reward, when, the cutoff its cooldown needs. */
export interface ClaimInput {
  userId: string;
  type: RewardType;
  now: number;
  cutoff: number;
}
type Credit = Omit<ledger.LedgerEntry, 'idempotencyKey'>;

/** Runs the one-statement claim of one member (PostgreSQL only, on the pool: its own transaction). */
export async function claimAndCreditOne(
  h: DbHandle,
  input: ClaimInput,
  credit: Credit,
): Promise<ClaimAndCredit> {
  let row: [string | null, number | null, boolean, null, number | null] | undefined;
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
  const [claimed, , wanted, , last] = row!;
  if (claimed !== null) {
    ledger.creditCommitted(credit);
    return { outcome: 'credited' };
  }
  return wanted ? { outcome: 'needs_transaction' } : { outcome: 'too_early', lastClaim: last };
}

/**
 * PostgreSQL: the claims of one reward by several members in ONE statement, which commits by itself (the
 * claims queued in one event-loop turn: `claim-group.ts`, decision 062 session 17). Each member is named
 * once. Its `with` items: `input` (each member's row id, id and claim time, from arrays), `wanted` (the
 * members who want this reward's "ready" reminder: their claims are not written here, they are answered
 * `needs_transaction`), `claimed` (the conditional upsert of `CLAIM` for the others, the cooldown read as
 * `excluded` time minus the period, the same rule), then the ledger's credits for the members recorded
 * (`ledger.creditEachItems`). When a member's claim was recorded and its credit refused, the select
 * raises an error (the marker's cast), which undoes the whole statement, every member's part: the caller
 * then runs each claim alone. Concurrent claims of one member: as `CLAIM`.
 */
function claimEachAndCreditStatement(type: RewardType) {
  const wants = WANTS_READY[type];
  const last = sql.identifier(LAST_CLAIM_COLUMN[type].name);
  const name = (c: AnyColumn) => sql.identifier(c.name);
  return preparedSql<
    [userId: string, claimed: boolean, wanted: boolean, undo: null, last: number | null]
  >(sql`with input as (
      select * from unnest(cast(${sql.placeholder('rowIds')} as text[]), cast(${sql.placeholder('userIds')} as text[]),
        cast(${sql.placeholder('nows')} as bigint[])) as input(row_id, user_id, now)
    ), wanted as (
      select ${reminderSettings.userId} as user_id from ${reminderSettings}
      where ${reminderSettings.userId} in (select user_id from input) and ${wants}
    ), claimed as (
      insert into ${hourlyRewards} (${name(hourlyRewards.id)}, ${name(hourlyRewards.userId)}, ${last})
      select input.row_id, input.user_id, input.now from input
      where not exists (select 1 from wanted where wanted.user_id = input.user_id)
      order by input.user_id
      on conflict (${name(hourlyRewards.userId)}) do update set ${last} = excluded.${last}
      where ${cooledDown(type, sql`excluded.${last} - cast(${sql.placeholder('periodMs')} as bigint)`)}
      returning ${hourlyRewards.userId}
    ), ${ledger.creditEachItems(sql`claimed`)}
    select input.user_id, claimed.user_id is not null, wanted.user_id is not null,
      case when claimed.user_id is not null and changed.id is null
        then cast(${UNDO_MARKER + ':'} || input.user_id as integer) end,
      prior.${last}
    from input left join claimed on claimed.user_id = input.user_id
      left join changed on changed.id = input.user_id
      left join wanted on wanted.user_id = input.user_id
      left join ${hourlyRewards} as prior on prior.${name(hourlyRewards.userId)} = input.user_id`);
}
const CLAIM_EACH_AND_CREDIT = perReward(claimEachAndCreditStatement);

/** One member's claim and the ledger entry it pays. */
export interface ClaimWithCredit {
  input: ClaimInput;
  credit: Credit;
}

/**
 * Runs the claims of one reward by several members (each named once, one cooldown) as ONE statement on
 * the pool; each member's outcome, in order. Throws when the statement failed (it then wrote nothing,
 * for no member): its own undo (a refused credit), a deadlock, any error of one member's part.
 */
export async function claimEachAndCredit(
  h: DbHandle,
  type: RewardType,
  claims: readonly ClaimWithCredit[],
): Promise<ClaimAndCredit[]> {
  const periodMs = claims[0]!.input.now - claims[0]!.input.cutoff;
  for (const { input } of claims) {
    if (input.type !== type || input.now - input.cutoff !== periodMs)
      throw new Error('claimEachAndCredit: claims of another reward or cooldown');
  }
  const rows = await CLAIM_EACH_AND_CREDIT[type](h).all({
    rowIds: claims.map(() => crypto.randomUUID()),
    userIds: claims.map((c) => c.input.userId),
    nows: claims.map((c) => c.input.now),
    periodMs,
    ...ledger.creditEachValues(claims.map((c) => c.credit)),
  });
  const byUser = new Map(
    rows.map(([userId, claimed, wanted, , last]) => [userId, { claimed, wanted, last }]),
  );
  return claims.map(({ input, credit }): ClaimAndCredit => {
    const row = byUser.get(input.userId)!;
    if (row.claimed) {
      ledger.creditCommitted(credit);
      return { outcome: 'credited' };
    }
    return row.wanted ? { outcome: 'needs_transaction' } : { outcome: 'too_early', lastClaim: row.last };
  });
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
