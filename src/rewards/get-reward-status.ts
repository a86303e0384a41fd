import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { hourlyRewards } from '../db/schema.ts';
import type { RewardStatus } from '../shared/api-types.ts';
import { REWARDS, type RewardType } from '../shared/rewards-schemas.ts';
import { LAST_CLAIM_KEY } from './reward-columns.ts';

const HOUR_MS = 60 * 60 * 1000;

type RewardRow = typeof hourlyRewards.$inferSelect;

/** Milliseconds until `type` can be claimed again; 0 when claimable now. */
export function msUntilClaimable(row: RewardRow | undefined, type: RewardType, now: number): number {
  const last = row?.[LAST_CLAIM_KEY[type]] ?? null;
  if (last === null || last === 0) return 0;
  return Math.max(0, last + REWARDS[type].periodMs - now);
}

export function getRewardStatus(db: DbOrTx, userId: string, now: number): RewardStatus {
  const row = db.select().from(hourlyRewards).where(eq(hourlyRewards.userId, userId)).get();
  const regular = msUntilClaimable(row, 'regular', now);
  const bonus = msUntilClaimable(row, 'bonus', now);
  const daily = msUntilClaimable(row, 'daily', now);
  return {
    canClaimRegular: regular === 0,
    canClaimBonus: bonus === 0,
    canClaimDaily: daily === 0,
    regularHoursRemaining: regular / HOUR_MS,
    bonusHoursRemaining: bonus / HOUR_MS,
    dailyHoursRemaining: daily / HOUR_MS,
  };
}
