import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

/** POST /api/campaigns/:id/top-up { members }: more member slots at 1 coin each. */
export function useTopUp(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { campaignId: string; members: number }) =>
      apiJson<ApiServer>('POST', `/api/campaigns/${encodeURIComponent(input.campaignId)}/top-up`, {
        members: input.members,
      }),
    onSuccess: async (server, input) => {
      toast({
        title: 'Members added',
        description: `${server.name} has ${input.members} more member slots (${server.membersRemaining} remaining).`,
      });
      options.onSuccess?.();
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: 'Error',
        description: errorMessage(err, 'Failed to add members'),
        variant: 'destructive',
      });
    },
  });
}
