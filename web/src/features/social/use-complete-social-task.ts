import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CompleteSocialTaskResponse } from '@shared/social-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';
import { TRANSACTIONS_KEY } from '../rewards/use-claim-reward.ts';
import { SOCIAL_TASKS_KEY } from './use-social-tasks.ts';

/** POST /api/social/:taskId/complete; on success the balance, tasks and transactions are refetched. */
export function useCompleteSocialTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) =>
      apiJson<CompleteSocialTaskResponse>('POST', `/api/social/${encodeURIComponent(taskId)}/complete`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY }),
        queryClient.invalidateQueries({ queryKey: SOCIAL_TASKS_KEY }),
        queryClient.invalidateQueries({ queryKey: TRANSACTIONS_KEY }),
      ]),
  });
}
