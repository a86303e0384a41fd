import { useQuery } from '@tanstack/react-query';
import type { RewardStatus } from '@shared/api-types.ts';

export const REWARD_STATUS_KEY = ['/api/hourly'] as const;

/** GET /api/hourly: which rewards are claimable and how many hours remain for the others. */
export function useRewardStatus() {
  return useQuery<RewardStatus>({ queryKey: REWARD_STATUS_KEY });
}
