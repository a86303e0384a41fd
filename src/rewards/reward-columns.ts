import { hourlyRewards } from '../db/schema.ts';
import type { RewardType } from '../shared/rewards-schemas.ts';

/** Which hourly_rewards column holds each reward's last claim time (0 or null = never). */
export const LAST_CLAIM_COLUMN = {
  regular: hourlyRewards.lastClaimDate,
  bonus: hourlyRewards.lastBonusClaimDate,
  daily: hourlyRewards.lastDailyClaimDate,
} as const satisfies Record<RewardType, unknown>;

export const LAST_CLAIM_KEY = {
  regular: 'lastClaimDate',
  bonus: 'lastBonusClaimDate',
  daily: 'lastDailyClaimDate',
} as const satisfies Record<RewardType, keyof typeof hourlyRewards.$inferSelect>;
