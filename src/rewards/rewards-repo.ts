import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { prepared } from '../db/query.ts';
import { hourlyRewards, transactions } from '../db/schema.ts';
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
    const row = await CLAIM[type](this.h).get({ id: crypto.randomUUID(), userId, now, cutoff });
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

// The claim is the hottest write: compiled once per reward type (see `prepared`).
function claimStatement(type: RewardType) {
  const column = LAST_CLAIM_COLUMN[type];
  const key = LAST_CLAIM_KEY[type];
  const now = sql.placeholder('now');
  return prepared((q) =>
    q
      .insert(hourlyRewards)
      .values({ id: sql.placeholder('id'), userId: sql.placeholder('userId'), lastClaimDate: 0, [key]: now })
      .onConflictDoUpdate({
        target: hourlyRewards.userId,
        set: { [key]: now },
        setWhere: or(isNull(column), lte(column, sql.placeholder('cutoff'))),
      })
      .returning({ id: hourlyRewards.id })
      .prepare(),
  );
}
const CLAIM = {
  regular: claimStatement('regular'),
  bonus: claimStatement('bonus'),
  daily: claimStatement('daily'),
} as const satisfies Record<RewardType, unknown>;

export function rewardsRepo(h: DbHandle): RewardsRepository {
  return new RewardsRepository(h);
}
