import { useQuery } from '@tanstack/react-query';
import type { RewardStatus } from '@shared/api-types.ts';

import { rewardKeys } from '../../lib/query-keys.ts';

/** GET /api/hourly: which rewards are claimable and how many hours remain for the others. */
export function useRewardStatus() {
  return useQuery<RewardStatus>({ queryKey: rewardKeys.status() });
}
