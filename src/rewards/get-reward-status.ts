import type { DbHandle } from '../db/engine.ts';
import type { RewardStatus } from '../shared/api-types.ts';
import { REWARDS, type RewardType } from '../shared/rewards-schemas.ts';
import { LAST_CLAIM_KEY } from './reward-columns.ts';
import { rewardsRepo, type RewardRow } from './rewards-repo.ts';
import { getDailyStreak } from './streak.ts';

const HOUR_MS = 60 * 60 * 1000;

/** Milliseconds until `type` can be claimed again; 0 when claimable now. */
export function msUntilClaimable(row: RewardRow | undefined, type: RewardType, now: number): number {
  return msAfterLastClaim(row?.[LAST_CLAIM_KEY[type]] ?? null, type, now);
}

/** The wait before `type` can be claimed again after a last claim at `last` (null or 0: never claimed). */
export function msAfterLastClaim(last: number | null, type: RewardType, now: number): number {
  if (last === null || last === 0) return 0;
  return Math.max(0, last + REWARDS[type].periodMs - now);
}

/** Reads through `h` (the store's `read` outside a transaction). */
export async function getRewardStatus(h: DbHandle, userId: string, now: number): Promise<RewardStatus> {
  const row = await rewardsRepo(h).find(userId);
  const regular = msUntilClaimable(row, 'regular', now);
  const bonus = msUntilClaimable(row, 'bonus', now);
  const daily = msUntilClaimable(row, 'daily', now);
  const streak = await getDailyStreak(h, userId, now);
  return {
    canClaimRegular: regular === 0,
    canClaimBonus: bonus === 0,
    canClaimDaily: daily === 0,
    regularHoursRemaining: regular / HOUR_MS,
    bonusHoursRemaining: bonus / HOUR_MS,
    dailyHoursRemaining: daily / HOUR_MS,
    dailyStreak: streak.current,
    bestDailyStreak: streak.best,
  };
}
