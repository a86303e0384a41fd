import type { DbHandle } from '../db/engine.ts';
import type { hourlyRewards } from '../db/schema.ts';
import type { RewardType } from '../shared/rewards-schemas.ts';
import { SqliteRewardsRepository } from './rewards-repo.sqlite.ts';
import { PgRewardsRepository } from './rewards-repo.pg.ts';

// Timed rewards' last-claim times (decision 034): one async interface, a SQLite and a PostgreSQL
// implementation, held together by rewards-repo.test.ts on both engines.

/** A user's last claim of each reward (0 or null: never). */
export type RewardRow = typeof hourlyRewards.$inferSelect;

export interface RewardsRepository {
  /** The user's last-claim times; undefined before their first claim. */
  find(userId: string): Promise<RewardRow | undefined>;
  /**
   * Records a claim of `type` at `now` when its last claim is at or before `cutoff` (or there was
   * none), in one conditional write: true when recorded, false (nothing written) when too early.
   * Two concurrent claims cannot both be recorded.
   */
  claim(userId: string, type: RewardType, now: number, cutoff: number): Promise<boolean>;
  /** When the user's daily rewards were credited (their 'daily' transactions), oldest first. */
  dailyClaimTimes(userId: string): Promise<number[]>;
}

export function rewardsRepo(h: DbHandle): RewardsRepository {
  return h.kind === 'sqlite' ? new SqliteRewardsRepository(h.db) : new PgRewardsRepository(h.db);
}
