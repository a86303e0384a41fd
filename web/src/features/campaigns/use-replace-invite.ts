import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

/** POST /api/campaigns/:id/invite: a new invite (same server) for a campaign whose invite died. */
export function useReplaceInvite(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteLink: string) =>
      apiRequest('POST', `/api/campaigns/${encodeURIComponent(campaignId)}/invite`, { inviteLink }),
    onSuccess: async () => {
      toast({
        title: 'Invite Updated!',
        description: 'Your server is back on the discover page.',
        variant: 'success',
      });
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: 'Error',
        description: errorMessage(err, 'Failed to update invite'),
        variant: 'destructive',
      });
    },
  });
}
