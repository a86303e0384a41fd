import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CompleteSocialTaskResponse } from '@shared/social-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';

/** POST /api/social/:taskId/complete; on success the user, server, social, campaign, hourly and transaction data are refetched. */
export function useCompleteSocialTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) =>
      apiJson<CompleteSocialTaskResponse>('POST', `/api/social/${encodeURIComponent(taskId)}/complete`),
    onSuccess: () => refetchAfterChange(queryClient),
  });
}
