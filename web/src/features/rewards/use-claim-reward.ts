import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimRewardResponse, RewardType } from '@shared/rewards-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';
import { REWARD_STATUS_KEY } from './use-reward-status.ts';

export const TRANSACTIONS_KEY = ['/api/transactions'] as const;

/** POST /api/hourly/claim; afterwards the balance, reward status and transactions are refetched. */
export function useClaimReward() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: RewardType) => apiJson<ClaimRewardResponse>('POST', '/api/hourly/claim', { type }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY }),
        queryClient.invalidateQueries({ queryKey: REWARD_STATUS_KEY }),
        queryClient.invalidateQueries({ queryKey: TRANSACTIONS_KEY }),
      ]),
  });
}
