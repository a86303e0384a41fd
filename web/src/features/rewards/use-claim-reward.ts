import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimRewardResponse, RewardType } from '@shared/rewards-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';

/** POST /api/hourly/claim; afterwards the user, server, social, campaign, hourly and transaction data are refetched. */
export function useClaimReward() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: RewardType) => apiJson<ClaimRewardResponse>('POST', '/api/hourly/claim', { type }),
    onSettled: () => refetchAfterChange(queryClient),
  });
}
