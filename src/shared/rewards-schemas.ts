import { z } from 'zod';

// Timed rewards (spec §9): amounts in hundredths and cooldowns in ms, shared by API and web app.
export const REWARD_TYPES = ['regular', 'bonus', 'daily'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

const HOUR_MS = 60 * 60 * 1000;

export const REWARDS: Record<RewardType, { cents: number; periodMs: number; label: string }> = {
  regular: { cents: 100, periodMs: HOUR_MS, label: 'hourly' },
  bonus: { cents: 300, periodMs: 6 * HOUR_MS, label: 'bonus' },
  daily: { cents: 500, periodMs: 24 * HOUR_MS, label: 'daily' },
};

/** POST /api/hourly/claim */
export const claimRewardSchema = z.object({
  type: z.enum(REWARD_TYPES, { message: 'Reward type must be one of regular, bonus or daily' }),
});
export type ClaimRewardInput = z.infer<typeof claimRewardSchema>;

export interface ClaimRewardResponse {
  type: RewardType;
  /** "1.00" */
  earned: string;
}
