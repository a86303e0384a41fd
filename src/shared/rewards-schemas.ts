import { z } from 'zod';
import { REWARD_TYPES } from './rewards-constants.ts';
import type { claimRewardResponseSchema } from './api-schemas.ts';

// Timed rewards (docs/spec/product-spec.md §9), shared by API and web app. The amounts and cooldowns live in
// rewards-constants.ts (zod-free, imported by the web app) and are re-exported here.
export { REWARD_TYPES, REWARDS, type RewardType } from './rewards-constants.ts';

/** POST /api/hourly/claim */
export const claimRewardSchema = z.object({
  type: z.enum(REWARD_TYPES, { message: 'Reward type must be one of regular, bonus or daily' }),
});
export type ClaimRewardInput = z.infer<typeof claimRewardSchema>;

export type ClaimRewardResponse = z.infer<typeof claimRewardResponseSchema>;
